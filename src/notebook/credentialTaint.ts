// The taint check of design.md's two gates: a credential of connection A (its key, its token, an
// app secret, a master key: NotebookHost.connectionCredentials) never lands in a request to anything
// but A. Checked by VALUE on the resolved request (URL, headers, body, files included) just before
// it is sent, whatever brought the value there: `{{$env NAME}}` naming the key's variable or
// another variable holding the same value, `{{$secret}}`, an earlier answer, a file. The connection's
// own key is placed by its HttpClient after this check, so it is never what is found here.
import type { ServiceId } from '../core/connections';
import type { NotebookHost } from './types';

/** How a credential's owner is named in the taint check and its messages: `the llm connection "OpenAI"`. */
export function connectionLabel(c: { service: ServiceId; name: string }): string {
  return `the ${c.service} connection "${c.name}"`;
}

/** The credentials a host has handed out, each with the connections it belongs to (NotebookHost.connectionCredentials). */
export class CredentialOwners {
  readonly byValue = new Map<string, Set<string>>();

  own(value: string | undefined, owner: string): void {
    if (!value) return;
    let owners = this.byValue.get(value);
    if (!owners) this.byValue.set(value, (owners = new Set()));
    owners.add(owner);
  }
}

export interface ResolvedRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array | undefined;
}

/** The first credential `request` carries that is not `owner`'s, as the connection it belongs to; undefined when none. */
export async function foreignCredentialIn(host: NotebookHost, request: ResolvedRequest, owner: string | undefined): Promise<string | undefined> {
  const credentials = await host.connectionCredentials?.();
  if (!credentials?.size) return undefined;
  const texts = [request.url, ...Object.values(request.headers)];
  const bytes =
    typeof request.body === 'string' ? undefined : request.body && Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  if (typeof request.body === 'string') texts.push(request.body);
  for (const [value, owners] of credentials) {
    if (owner !== undefined && owners.has(owner)) continue;
    if (texts.some((t) => t.includes(value)) || bytes?.includes(value)) return [...owners][0];
  }
  return undefined;
}
