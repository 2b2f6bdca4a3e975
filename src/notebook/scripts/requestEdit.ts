// The request as a script sees it, and a pre-request script's edits applied back to the cell. Keys
// stay out: headers that carry one (and any value naming {{$secret}} or {{$env}}) are not shown, are
// kept as written, and a script cannot place such a reference anywhere; the host stays the one
// written on the request line.
import type { HttpSpec } from '../cells';
import type { RequestRecord } from '../types';
import type { ScriptHeader, ScriptRequest } from './model';

/** Headers that carry a key (as cells.ts refuses them written out). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'cookie']);
const SYSTEM_REFERENCE = /\{\{\s*\$/;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

const hidden = (h: { name: string; value: string }) => CREDENTIAL_HEADERS.has(h.name.toLowerCase()) || SYSTEM_REFERENCE.test(h.value);

/** A pre-request script's view: the request as written, variables not yet filled in. */
export function requestViewOfSpec(spec: HttpSpec): ScriptRequest {
  return {
    method: spec.method,
    url: spec.target,
    headers: spec.headers.filter((h) => !hidden(h)).map((h) => ({ key: h.name, value: h.value })),
    ...(spec.body !== undefined && { body: spec.body }),
  };
}

/** A post-response script's view: the request as sent (already redacted), key headers left out. */
export function requestViewOfRecord(record: RequestRecord | undefined, spec: HttpSpec): ScriptRequest {
  if (!record) return requestViewOfSpec(spec);
  return {
    method: record.method,
    url: record.url,
    headers: Object.entries(record.headers)
      .filter(([name, value]) => !hidden({ name, value }))
      .map(([key, value]) => ({ key, value })),
    ...(record.body !== undefined && { body: record.body }),
  };
}

/** `https://api.example.com` of an absolute target as written (lower-cased), '' for a path. */
function writtenOrigin(target: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target)?.[0].toLowerCase() ?? '';
}

/**
 * The cell's request after a pre-request script's edits, or the reason it cannot be sent. `ownHeaders`:
 * an http cell, whose key headers are the user's own (a service cell's key comes from its connection).
 */
export function applyRequestEdits(spec: HttpSpec, edited: ScriptRequest, ownHeaders: boolean): HttpSpec | string {
  const method = edited.method.toUpperCase();
  if (!METHODS.has(method)) return `"${edited.method}" is not a method a cell can send (${[...METHODS].join(', ')})`;
  if (edited.url !== spec.target) {
    if (writtenOrigin(edited.url) !== writtenOrigin(spec.target) || (!writtenOrigin(edited.url) && /^[a-z][a-z0-9+.-]*:|^\/\//i.test(edited.url)))
      return `a script cannot send the request to another host than the one written on its request line (it set the URL to ${edited.url})`;
    if (SYSTEM_REFERENCE.test(edited.url)) return 'a script cannot put a {{$secret}} or {{$env}} reference in the URL';
  }
  const kept = spec.headers.filter(hidden);
  const headers: HttpSpec['headers'] = [...kept];
  for (const h of edited.headers) {
    const original = spec.headers.find((o) => o.name.toLowerCase() === h.key.toLowerCase() && o.value === h.value);
    if (original) {
      headers.push(original);
      continue;
    }
    if (SYSTEM_REFERENCE.test(h.value)) return `a script cannot put a {{$secret}} or {{$env}} reference in the ${h.key} header`;
    if (!ownHeaders && CREDENTIAL_HEADERS.has(h.key.toLowerCase())) return `a script cannot set the ${h.key} header: the key comes from the connection`;
    if (h.key.toLowerCase() === 'host') return 'a script cannot set the Host header: the host comes from the request line';
    headers.push({ name: h.key, value: h.value, line: spec.line });
  }
  let body = edited.body === '' && spec.body === undefined ? undefined : edited.body;
  if (body !== spec.body && body !== undefined && SYSTEM_REFERENCE.test(body)) return 'a script cannot put a {{$secret}} or {{$env}} reference in the body';
  if (body !== undefined && body.trim() === '') body = undefined;
  return { ...spec, method: method as HttpSpec['method'], target: edited.url, headers, ...(body === undefined ? { body: undefined } : { body }) };
}

export function headersOf(record: Record<string, string>): ScriptHeader[] {
  return Object.entries(record).map(([key, value]) => ({ key, value }));
}
