/** Where a service expects its key. Which one applies depends on the API and the provider. */
export type AuthPlacement =
  | { placement: 'bearer' } //                     Authorization: Bearer <key>   (OpenAI, Azure v1, Entra)
  | { placement: 'header'; name: string } //       api-key: <key> (Azure), X-Goog-Api-Key: <key> (Google)
  | { placement: 'query'; name: string } //        ?key=<key> (Google)
  | { placement: 'none' }; //                      key-less servers, signed requests (realtime REST)

/** Returns the request with the key applied; inputs are not modified. */
export function applyAuth(
  auth: AuthPlacement,
  key: string | undefined,
  url: URL,
  headers: Record<string, string>,
): { url: URL; headers: Record<string, string> } {
  if (auth.placement === 'none' || key === undefined) return { url, headers };
  switch (auth.placement) {
    case 'bearer':
      return { url, headers: { ...headers, authorization: `Bearer ${key}` } };
    case 'header':
      return { url, headers: { ...headers, [auth.name.toLowerCase()]: key } };
    case 'query': {
      const u = new URL(url);
      u.searchParams.set(auth.name, key);
      return { url: u, headers };
    }
  }
}

/** scheme://host[:port] of a URL, the unit a key is approved for. */
export function originOf(url: string | URL): string {
  return new URL(String(url)).origin;
}
