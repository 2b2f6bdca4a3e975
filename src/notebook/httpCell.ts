// Runs an llm, maps or http cell: picks the host from the cell text as written (a variable can
// never move a request to another host), sends through an HttpClient whose key comes from the
// connection (an http cell: no key, its own headers), and records a capped, redacted response.
// Streamed LLM answers are shown live.
import { quoteCut } from '../core/quote';
import { StringDecoder } from 'node:string_decoder';
import type { AuthPlacement } from '../core/auth';
import { classicMapsBaseUrl, connectionOrigins, type HttpConnection, type ServiceId } from '../core/connections';
import { parseJsonSliced } from '../core/slicedJson';
import type { HttpClient, OutgoingRequest } from '../core/http';
import { googleErrorParser } from '../services/maps/errors';
import { openAiErrorParser } from '../services/llm/errors';
import type { NotebookHost, NotebookHttpOptions, RequestRecord, RequestWaits, ResponseRecord } from './types';
import type { HttpSpec } from './cells';
import { NotebookError } from './variables';
import { connectionLabel, foreignCredentialIn } from './credentialTaint';
import { defaultHttpClient, ownHttpClient } from './hosts';
import { readLlmStream } from './llmStream';

const LLM_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id'];

/** Google's maps APIs live on one host each; a path's first segments say which. */
const MAPS_API_PREFIXES: ReadonlyArray<[RegExp, string]> = [
  [/^\/?v1\/places[:/]/, 'places'],
  [/^\/?(directions|distanceMatrix)\/v2:/, 'routes'],
  [/^\/?v1:validateAddress/, 'addressValidation'],
  [/^\/?v4\/geocode\//, 'geocoding'],
];

/** Google's classic web services (/maps/api/geocode/json, …): their own host, and the key only in `?key=`. */
const CLASSIC_MAPS_PATH = /^\/?maps\/api\//;
const CLASSIC_MAPS_AUTH: AuthPlacement = { placement: 'query', name: 'key' };

/** The key placement a maps path needs when it differs from the connection's (classic paths). */
function authFor(conn: HttpConnection, path: string): { auth?: AuthPlacement } {
  return conn.service === 'maps' && conn.auth.placement !== 'none' && CLASSIC_MAPS_PATH.test(path) ? { auth: CLASSIC_MAPS_AUTH } : {};
}

/**
 * Where a maps path goes on a maps connection (or an export's target of the same shape), and where
 * its key goes when not where the connection puts it: the API's own host (places., routes., …), the
 * classic web services' host for /maps/api/… (classicMapsBaseUrl), else the base URL. The one
 * mapping cells run by and exports are written with.
 */
export function mapsRoute(conn: Pick<HttpConnection, 'baseUrl' | 'baseUrls' | 'auth'>, path: string): { baseUrl: string; auth?: AuthPlacement } {
  const api = MAPS_API_PREFIXES.find(([re]) => re.test(path))?.[1];
  if (api && conn.baseUrls[api]) return { baseUrl: conn.baseUrls[api] };
  if (!CLASSIC_MAPS_PATH.test(path)) return { baseUrl: conn.baseUrl };
  return { baseUrl: classicMapsBaseUrl(conn), ...(conn.auth.placement !== 'none' ? { auth: CLASSIC_MAPS_AUTH } : {}) };
}

export interface HttpTarget {
  /** The base URL the client is built on. */
  baseUrl: string;
  /** The origin every byte must go to. */
  origin: string;
  absolute: boolean;
  /** Where the key goes when not where the connection puts it (Google's classic maps services). */
  auth?: AuthPlacement;
}

/** How a refusal names a service's connections ("no LLM connection has that host"). */
export const CONNECTION_WORD: Record<ServiceId, string> = { llm: 'LLM', maps: 'maps', realtime: 'realtime' };

/** Throws a NotebookError at the request line; `needsConnection` when no connection has the host. */
export type TargetFail = (detail: string, needsConnection?: { service: ServiceId; host: string }) => never;

/**
 * The origin of a request line's absolute URL as written, or undefined for a path. A variable may
 * not choose the host: it is fixed before anything is filled in.
 */
export function absoluteOrigin(rawTarget: string, fail: (detail: string) => never): URL | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(rawTarget);
  if (!scheme && !/^[a-z][a-z0-9+.-]*:/i.test(rawTarget) && !rawTarget.startsWith('//')) return undefined;
  if (!scheme || !/^https?$/i.test(scheme[1])) return fail(`"${quoteCut(rawTarget)}" is not a path or an http(s) URL`);
  if (scheme[2].includes('{{')) return fail('a variable cannot choose the host: write the host out, or use a path relative to the connection');
  try {
    return new URL(scheme[0]);
  } catch {
    return fail(`"${quoteCut(scheme[0])}" is not a valid URL`);
  }
}

/**
 * Where a service cell's request goes, decided from the text as written, before any variable is
 * filled in. An absolute URL keeps its host: it runs only on a connection of that host, and is never
 * moved to another connection's host. `owners` names the service's connections that have an origin.
 */
export function resolveTarget(conn: HttpConnection, rawTarget: string, fail: TargetFail, owners: (origin: string) => string[] = () => []): HttpTarget {
  const url = absoluteOrigin(rawTarget, fail);
  if (url) {
    const origin = url.origin;
    if (connectionOrigins(conn).includes(origin)) return { baseUrl: origin, origin, absolute: true, ...authFor(conn, url.pathname) };
    const word = CONNECTION_WORD[conn.service];
    const others = owners(origin).filter((n) => n !== conn.name);
    if (others.length) {
      return fail(
        `This request goes to ${url.host}, a host of the ${word} connection "${others[0]}", not of "${conn.name}": name it with connection="${others[0]}". Nothing was sent.`,
      );
    }
    return fail(
      `This request goes to ${url.host}; no ${word} connection has that host: add one (API Workbench: Connect…) or name one with connection="…". Nothing was sent.`,
      { service: conn.service, host: url.host },
    );
  }
  const { baseUrl, auth } = conn.service === 'maps' ? mapsRoute(conn, rawTarget) : { baseUrl: conn.baseUrl, auth: undefined };
  return { baseUrl, origin: new URL(baseUrl).origin, absolute: false, ...(auth ? { auth } : {}) };
}

export interface HttpCellInput {
  spec: HttpSpec;
  /** The service cell's connection; undefined for an http cell (no key, the user's own headers). */
  conn: HttpConnection | undefined;
  host: NotebookHost;
  target: HttpTarget;
  /** The request line's target, headers and body with variables filled in. */
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** How the request record shows a body of bytes (files included as `< ./path (N bytes)`). */
  bodyText?: string;
  maxBodyBytes: number;
  /** RunOptions.cellTimeoutMs: the deadline of the whole exchange, streams included. */
  cellTimeoutMs?: number;
  signal: AbortSignal;
  file: string;
  onRequest(request: RequestRecord): void;
  onText(delta: string, text: string): void;
}

export interface HttpCellOutput {
  request?: RequestRecord;
  response?: ResponseRecord;
  error?: unknown;
  waits?: RequestWaits;
}

/** Methods that only read: any other is a side effect the host is asked about. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Sends the request; never throws (failures come back as `error`, with what arrived kept). */
export async function runHttpCell(input: HttpCellInput): Promise<HttpCellOutput> {
  const { conn, host, target, spec } = input;
  const out: HttpCellOutput = {};
  const fail = (detail: string): never => {
    throw new NotebookError(input.file, spec.line, detail);
  };
  let path = input.path;
  if (target.absolute) {
    if (!path.toLowerCase().startsWith(target.origin.toLowerCase())) fail('substituting variables changed the host of the request: refused, nothing was sent');
    path = path.slice(target.origin.length);
  }
  const service = conn?.service ?? 'http';
  const streaming = service === 'llm' && typeof input.body === 'string' && isStreamBody(input.body);
  const options: NotebookHttpOptions = {
    baseUrl: target.baseUrl,
    // A plain answer must arrive whole within the connection's timeout, as with any other request:
    // a server dripping a byte now and then, or sending without end, would otherwise hold the cell
    // until the 15-minute stream deadline.
    streamDeadlineMs: streaming ? input.cellTimeoutMs : (conn?.timeoutMs ?? input.cellTimeoutMs),
    label: conn ? `${conn.service === 'llm' ? 'Language Models' : 'Maps'} (${conn.name})` : `HTTP (${new URL(target.origin).host})`,
    parseError: service === 'llm' ? openAiErrorParser : service === 'maps' ? googleErrorParser : undefined,
    requestIdHeaders: service === 'llm' ? LLM_REQUEST_ID_HEADERS : undefined,
    onRequest: (r: OutgoingRequest) => {
      const body = input.bodyText ?? r.body;
      out.request = {
        method: r.method,
        url: host.redactor.url(r.url),
        headers: host.redactor.headers(r.headers),
        body: body === undefined ? undefined : host.redactor.text(cap(body, input.maxBodyBytes)),
      };
      input.onRequest(out.request);
    },
    // An http cell carries no stored key: only what its own headers say.
    credentials: conn
      ? async (url: URL, signal?: AbortSignal) => {
          // The last line of defence: whatever the client resolved, the key only goes to the target's origin.
          if (url.origin !== target.origin) fail(`refused: the request would go to ${url.origin} instead of ${target.origin}; nothing was sent`);
          const key = await host.credentials({ connection: conn, url, signal });
          host.redactor.addSecret(key);
          return key;
        }
      : undefined,
    credentialRefused: conn && host.credentialRefused ? (key) => host.credentialRefused?.({ connection: conn, key }) ?? false : undefined,
  };
  let client: HttpClient;
  try {
    client = conn
      ? (host.httpClient ?? defaultHttpClient)(target.auth ? { ...conn, auth: target.auth } : conn, options)
      : ownHttpClient(options, host.redactor);
    if (client.url(path).origin !== target.origin) fail('substituting variables changed the host of the request: refused, nothing was sent');
  } catch (e) {
    return { error: e };
  }

  const foreign = await foreignCredentialIn(host, { url: input.path, headers: input.headers, body: input.body }, conn && connectionLabel(conn));
  if (foreign !== undefined) {
    const to = conn ? `a request of ${connectionLabel(conn)}` : `an http cell's request to ${new URL(target.origin).host}`;
    return {
      error: new NotebookError(
        input.file,
        spec.line,
        `refused: this request carries the key of ${foreign}, which goes only to that connection's own requests, not to ${to}; nothing was sent`,
      ),
    };
  }

  if (host.beforeSideEffect && !READ_ONLY_METHODS.has(spec.method.toUpperCase())) {
    try {
      const url = host.redactor.url(client.url(path).href);
      const refusal = await host.beforeSideEffect({ kind: 'request', service, connection: conn?.name, method: spec.method.toUpperCase(), url });
      if (refusal !== undefined) fail(refusal);
    } catch (e) {
      return { error: e };
    }
  }

  if (conn?.service === 'llm' && host.beforeModelRequest) {
    try {
      const refusal = await host.beforeModelRequest(conn, typeof input.body === 'string' ? input.body : input.bodyText);
      if (refusal !== undefined) fail(refusal);
    } catch (e) {
      return { error: e };
    }
  }

  const clockStarted = performance.now();
  // Time spent in approval dialogs or fetching a token is not the request's: only what was sent is timed.
  let credentialMs = 0;
  const since = () => performance.now() - clockStarted - credentialMs;
  const waits: RequestWaits = { queuedMs: 0, retries: [] };
  try {
    const res = await client.stream({
      method: spec.method,
      path,
      headers: streaming ? { accept: 'text/event-stream', ...input.headers } : input.headers,
      rawBody: input.body,
      cancel: input.signal,
      onQueued: (ms) => (waits.queuedMs += ms),
      onCredentials: (ms) => (credentialMs += ms),
      onRetry: (n) => waits.retries.push({ status: n.error.status, delayMs: n.delayMs }),
    });
    const headers = host.redactor.headers(res.headers);
    const response: ResponseRecord = { status: res.status, headers, text: '', size: 0, truncated: false, durationMs: 0, requestId: res.requestId };
    out.response = response;
    const contentType = headers['content-type'] ?? '';
    if (streaming || contentType.includes('text/event-stream')) await readLlmStream(res.body, response, { ...input, started: clockStarted + credentialMs });
    else await readBody(res.body, response, input.maxBodyBytes);
    response.durationMs = since();
  } catch (e) {
    if (out.response) out.response.durationMs = since();
    out.error = e;
  }
  if (waits.queuedMs > 0 || waits.retries.length > 0) out.waits = waits;
  return out;
}

function isStreamBody(body: string | undefined): boolean {
  if (!body || !body.includes('"stream"')) return false;
  try {
    const v = JSON.parse(body) as { stream?: unknown };
    return v !== null && typeof v === 'object' && v.stream === true;
  } catch {
    return false;
  }
}

function cap(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/**
 * Keeps the first `max` bytes; counts the rest (a 100 MB answer must not fill memory). A whole
 * JSON answer is parsed in slices, so a big one does not hold the extension host's thread.
 */
async function readBody(body: AsyncIterable<Uint8Array>, response: ResponseRecord, max: number): Promise<void> {
  // Decoded as it arrives, chunk by chunk: decoding 20 MB at the end would be one long block.
  const decoder = new StringDecoder('utf8');
  const kept: string[] = [];
  let keptBytes = 0;
  try {
    for await (const chunk of body) {
      response.size += chunk.byteLength;
      if (keptBytes < max) {
        const part = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, max - keptBytes));
        kept.push(decoder.write(part));
        keptBytes += part.byteLength;
      }
    }
  } finally {
    response.truncated = response.size > keptBytes;
    kept.push(decoder.end());
    response.text = kept.join('');
  }
  if (!response.truncated && /\S/.test(response.text)) {
    try {
      response.json = await parseJsonSliced(response.text);
    } catch {
      // Not JSON: the text is the answer.
    }
  }
}
