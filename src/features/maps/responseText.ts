// What a maps answer looks like once it is on screen (the response document, the results tree, the
// map). Kept free of 'vscode' so it is unit-tested. A server may echo the request back, key and
// all (an error's "request" field, a photo URL with ?key=): every string passes the Redactor.
// String by string rather than over the JSON text, so a key with characters JSON escapes is
// still found.

/** A copy of `data` (same shape: strings stay strings) with every string (values and property names) passed through `redact`. */
export function redactedData<T>(data: T, redact: (text: string) => string): T {
  return redactValue(data, redact) as T;
}

function redactValue(data: unknown, redact: (text: string) => string): unknown {
  if (typeof data === 'string') return redact(data);
  if (Array.isArray(data)) return data.map((v) => redactValue(v, redact));
  if (data && typeof data === 'object') {
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [redact(k), redactValue(v, redact)]));
  }
  return data;
}

/** The text of a response document: the answer as pretty-printed JSON, secrets masked. */
export function responseDocumentText(data: unknown, redact: (text: string) => string): string {
  return JSON.stringify(redactedData(data, redact), null, 2) + '\n';
}
