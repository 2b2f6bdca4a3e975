// Runs an llm or maps cell: picks the host from the cell text as written (a variable can never
// move a request to another host), sends through an HttpClient whose key comes from the
// connection, and records a capped, redacted response. Streamed LLM answers are shown live.
import { StringDecoder } from 'node:string_decoder';
import type { AuthPlacement } from '../core/auth';
import { classicMapsBaseUrl, connectionOrigins, type HttpConnection } from '../core/connections';
import { parseJsonSliced } from '../core/slicedJson';
import type { HttpClient, OutgoingRequest } from '../core/http';
import { googleErrorParser } from '../services/maps/errors';
import { openAiErrorParser } from '../services/llm/errors';
import { SseParser } from '../services/llm/sse';
import type { NotebookHost, RequestRecord, ResponseRecord } from './types';
import type { HttpSpec } from './cells';
import { NotebookError } from './variables';
import { defaultHttpClient } from './hosts';

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

export interface HttpTarget {
  /** The base URL the client is built on. */
  baseUrl: string;
  /** The origin every byte must go to. */
  origin: string;
  absolute: boolean;
  /** Where the key goes when not where the connection puts it (Google's classic maps services). */
  auth?: AuthPlacement;
}

/** Where a cell's request goes, decided from the text as written, before any variable is filled in. */
export function resolveTarget(conn: HttpConnection, rawTarget: string, fail: (detail: string) => never): HttpTarget {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(rawTarget);
  if (scheme || /^[a-z][a-z0-9+.-]*:/i.test(rawTarget) || rawTarget.startsWith('//')) {
    if (!scheme || !/^https?$/i.test(scheme[1])) return fail(`"${rawTarget}" is not a path or an http(s) URL`);
    if (scheme[2].includes('{{')) return fail('a variable cannot choose the host: write the host out, or use a path relative to the connection');
    let origin: string;
    try {
      origin = new URL(scheme[0]).origin;
    } catch {
      return fail(`"${scheme[0]}" is not a valid URL`);
    }
    const approved = connectionOrigins(conn);
    if (!approved.includes(origin)) {
      return fail(
        `refused: ${origin} is not an origin of the ${conn.service} connection "${conn.name}" (${approved.join(', ')}); nothing was sent. Use a path relative to the connection.`,
      );
    }
    return { baseUrl: origin, origin, absolute: true, ...authFor(conn, rawTarget.slice(scheme[0].length)) };
  }
  let baseUrl = conn.baseUrl;
  if (conn.service === 'maps') {
    const api = MAPS_API_PREFIXES.find(([re]) => re.test(rawTarget))?.[1];
    if (api && conn.baseUrls[api]) baseUrl = conn.baseUrls[api];
    else if (CLASSIC_MAPS_PATH.test(rawTarget)) baseUrl = classicMapsBaseUrl(conn);
  }
  return { baseUrl, origin: new URL(baseUrl).origin, absolute: false, ...authFor(conn, rawTarget) };
}

export interface HttpCellInput {
  spec: HttpSpec;
  conn: HttpConnection;
  host: NotebookHost;
  target: HttpTarget;
  /** The request line's target, headers and body with variables filled in. */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
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
}

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
  const streaming = conn.service === 'llm' && isStreamBody(input.body);
  const options = {
    baseUrl: target.baseUrl,
    // A plain answer must arrive whole within the connection's timeout, as with any other request:
    // a server dripping a byte now and then, or sending without end, would otherwise hold the cell
    // until the 15-minute stream deadline.
    streamDeadlineMs: streaming ? input.cellTimeoutMs : conn.timeoutMs,
    label: `${conn.service === 'llm' ? 'Language Models' : 'Maps'} (${conn.name})`,
    parseError: conn.service === 'llm' ? openAiErrorParser : googleErrorParser,
    requestIdHeaders: conn.service === 'llm' ? LLM_REQUEST_ID_HEADERS : undefined,
    onRequest: (r: OutgoingRequest) => {
      out.request = {
        method: r.method,
        url: host.redactor.url(r.url),
        headers: host.redactor.headers(r.headers),
        body: r.body === undefined ? undefined : host.redactor.text(cap(r.body, input.maxBodyBytes)),
      };
      input.onRequest(out.request);
    },
    credentials: async (url: URL, signal?: AbortSignal) => {
      // The last line of defence: whatever the client resolved, the key only goes to the target's origin.
      if (url.origin !== target.origin) fail(`refused: the request would go to ${url.origin} instead of ${target.origin}; nothing was sent`);
      const key = await host.credentials({ connection: conn, url, signal });
      host.redactor.addSecret(key);
      return key;
    },
  };
  let client: HttpClient;
  try {
    client = (host.httpClient ?? defaultHttpClient)(target.auth ? { ...conn, auth: target.auth } : conn, options);
    if (client.url(path).origin !== target.origin) fail('substituting variables changed the host of the request: refused, nothing was sent');
  } catch (e) {
    return { error: e };
  }

  if (conn.service === 'llm' && host.beforeModelRequest) {
    try {
      const refusal = await host.beforeModelRequest(conn, input.body);
      if (refusal !== undefined) fail(refusal);
    } catch (e) {
      return { error: e };
    }
  }

  const started = performance.now();
  try {
    const res = await client.stream({
      method: spec.method,
      path,
      headers: streaming ? { accept: 'text/event-stream', ...input.headers } : input.headers,
      rawBody: input.body,
      cancel: input.signal,
    });
    const headers = host.redactor.headers(res.headers);
    const response: ResponseRecord = { status: res.status, headers, text: '', size: 0, truncated: false, durationMs: 0, requestId: res.requestId };
    out.response = response;
    const contentType = headers['content-type'] ?? '';
    if (streaming || contentType.includes('text/event-stream')) await readSse(res.body, response, input);
    else await readBody(res.body, response, input.maxBodyBytes);
    response.durationMs = performance.now() - started;
  } catch (e) {
    if (out.response) out.response.durationMs = performance.now() - started;
    out.error = e;
  }
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

interface ChatChunk {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  model?: string;
  /** The last chunk's, when the request asked for `stream_options: {"include_usage": true}`. */
  usage?: unknown;
}

/** A chat-completion stream: the answer text grows as deltas arrive (and is shown live). */
async function readSse(body: AsyncIterable<Uint8Array>, response: ResponseRecord, input: HttpCellInput): Promise<void> {
  const parser = new SseParser({ maxEventChars: input.maxBodyBytes });
  let content = '';
  let events = 0;
  let finishReason: string | undefined;
  let model: string | undefined;
  let usage: unknown;
  const onEvent = (data: string) => {
    events++;
    if (data.trim() === '[DONE]') return;
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(data) as ChatChunk;
    } catch {
      return;
    }
    model ??= chunk.model;
    if (chunk.usage !== null && typeof chunk.usage === 'object') usage = chunk.usage;
    const choice = chunk.choices?.[0];
    finishReason = choice?.finish_reason ?? finishReason;
    const delta = choice?.delta?.content;
    if (typeof delta === 'string' && delta) {
      if (content.length < input.maxBodyBytes) content += delta;
      else response.truncated = true;
      input.onText(delta, content);
    }
  };
  try {
    for await (const chunk of body) {
      response.size += chunk.byteLength;
      parser.push(chunk, onEvent);
    }
  } finally {
    response.text = content;
    // `usage` in the shape of a non-streamed answer, so assertions (json.usage.total_tokens) and the viewer's tokens and cost read it alike.
    response.json = { content, finishReason: finishReason ?? null, model: model ?? null, events, ...(usage !== undefined && { usage }) };
  }
}
