// What identifies a recorded request: the request as sent minus everything that is a credential or
// changes from one run to the next. Two runs of the same notebook give the same key, whichever key,
// token or signature they used, so a cassette recorded with one key replays with another (or none).
//   - the URL without key-like query parameters (isSecretParam: key=, auth_signature=, sig=, …) and
//     without Pusher's per-request signing fields; what changes at each start of a local sandbox
//     (its port, its realtime app id) is written by name (`{sandbox-llm}`, `{sandbox-realtime}/apps/{app}`);
//   - the headers that change the answer, minus any named like a credential (isSecretName) and
//     those a client sets anew each time (user agent, length, tracing, idempotency);
//   - the body, with JSON in canonical form (keys sorted) and a multipart boundary set aside.
// Every value passes the run's Redactor, so a secret that made it into a body is `***` here.
import { createHash } from 'node:crypto';
import type { Redactor } from '../redact';
import { isSecretName, isSecretParam } from '../secretNames';

/** A request as a cassette stores it: readable in a pull request, and never holding a credential. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Canonical JSON, text, or `sha256:<hex>` for bytes that are not text (files in a form). */
  body?: string;
}

/** Headers a client sets itself on every request: they say nothing about what is asked. */
const VOLATILE_HEADERS = new Set([
  'user-agent',
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'date',
  'traceparent',
  'tracestate',
  'idempotency-key',
  'x-request-id',
  'x-client-request-id',
]);

/** Query parameters of Pusher's signed REST requests that change with every request (the signature itself is a secret name). */
const VOLATILE_PARAMS = new Set(['auth_timestamp', 'auth_version', 'body_md5']);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

function bodyText(body: string | Uint8Array | undefined, contentType: string, redactor: Redactor): string | undefined {
  if (body === undefined) return undefined;
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let text = bytes.toString('utf8');
  // Bytes that are not UTF-8 (an image in a form) are named by their hash.
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    const stable = boundary ? Buffer.from(text.split(boundary).join('BOUNDARY'), 'latin1') : bytes;
    return `sha256:${createHash('sha256').update(stable).digest('hex')}`;
  }
  if (boundary) text = text.split(boundary).join('BOUNDARY');
  if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return redactor.text(JSON.stringify(sortKeys(JSON.parse(text))));
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  return redactor.text(text);
}

/** A start of URL that changes between runs (`http://127.0.0.1:41234`), and what is written instead (`{sandbox-llm}`). */
export type UrlAlias = readonly [prefix: string, name: string];

/** The recorded form of a request; the first alias whose prefix starts the URL stands for that prefix. */
export function recordedRequest(
  url: URL,
  init: { method: string; headers: Record<string, string>; body: string | Uint8Array | undefined },
  redactor: Redactor,
  aliases: readonly UrlAlias[],
): RecordedRequest {
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !isSecretParam(name) && !isSecretName(name) && !VOLATILE_PARAMS.has(name.toLowerCase()))
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  const query = new URLSearchParams(params).toString();
  let where = `${url.origin}${url.pathname}`;
  const alias = aliases.find(([prefix]) => where.startsWith(prefix));
  if (alias) where = alias[1] + where.slice(alias[0].length);
  const headers: Record<string, string> = {};
  let contentType = '';
  for (const [rawName, value] of Object.entries(init.headers)) {
    const name = rawName.toLowerCase();
    if (name === 'content-type') contentType = value;
    if (VOLATILE_HEADERS.has(name) || isSecretName(name) || name === 'cookie' || name.startsWith('x-stainless-')) continue;
    headers[name] = redactor.text(name === 'content-type' ? value.replace(/boundary=("?)[^";]+\1/i, 'boundary=BOUNDARY') : value);
  }
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(headers).sort()) sorted[k] = headers[k];
  const body = bodyText(init.body, contentType, redactor);
  return {
    method: init.method.toUpperCase(),
    url: redactor.text(`${where}${query ? `?${query}` : ''}`),
    headers: sorted,
    ...(body !== undefined && { body }),
  };
}

/** One string that two equal requests share. */
export function requestKey(r: RecordedRequest): string {
  return JSON.stringify([r.method, r.url, r.headers, r.body ?? null]);
}

/** Where two requests differ, first difference first, in words: `body.messages[0].content: recorded "Hi", sent "Hello"`. */
export function requestDifferences(recorded: RecordedRequest, sent: RecordedRequest): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 80));
  if (recorded.method !== sent.method) out.push(`method: recorded ${recorded.method}, sent ${sent.method}`);
  const [rPath, rQuery = ''] = recorded.url.split('?');
  const [sPath, sQuery = ''] = sent.url.split('?');
  if (rPath !== sPath) out.push(`URL: recorded ${rPath}, sent ${sPath}`);
  const rq = new URLSearchParams(rQuery);
  const sq = new URLSearchParams(sQuery);
  for (const name of new Set([...rq.keys(), ...sq.keys()]))
    if (rq.getAll(name).join(',') !== sq.getAll(name).join(','))
      out.push(`query ${name}: recorded ${show(rq.get(name) ?? undefined)}, sent ${show(sq.get(name) ?? undefined)}`);
  for (const name of new Set([...Object.keys(recorded.headers), ...Object.keys(sent.headers)]))
    if (recorded.headers[name] !== sent.headers[name]) out.push(`header ${name}: recorded ${show(recorded.headers[name])}, sent ${show(sent.headers[name])}`);
  if (recorded.body !== sent.body) out.push(bodyDifference(recorded.body, sent.body));
  return out;
}

function bodyDifference(recorded: string | undefined, sent: string | undefined): string {
  const parse = (t: string | undefined): { ok: boolean; value?: unknown } => {
    if (t === undefined) return { ok: false };
    try {
      return { ok: true, value: JSON.parse(t) };
    } catch {
      return { ok: false };
    }
  };
  const a = parse(recorded);
  const b = parse(sent);
  if (a.ok && b.ok) {
    const d = firstDifference(a.value, b.value, 'body');
    if (d) return `${d.path}: recorded ${JSON.stringify(d.recorded)?.slice(0, 80) ?? 'nothing'}, sent ${JSON.stringify(d.sent)?.slice(0, 80) ?? 'nothing'}`;
  }
  return `body: recorded ${recorded === undefined ? 'none' : `${recorded.length} characters`}, sent ${sent === undefined ? 'none' : `${sent.length} characters`}`;
}

function firstDifference(a: unknown, b: unknown, path: string): { path: string; recorded: unknown; sent: unknown } | undefined {
  if (a === b) return undefined;
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) return JSON.stringify(a) === JSON.stringify(b) ? undefined : { path, recorded: a, sent: b };
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
    const d = firstDifference(ra[k], rb[k], /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
    if (d) return d;
  }
  return undefined;
}
