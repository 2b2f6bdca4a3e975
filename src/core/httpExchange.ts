// Sending a request and reading its answer, through undici's public request() API. HttpClient
// decides what to send and what an outcome means; this module only moves bytes, within bounds.
import { formatBytes } from './numbers';
import { constants as bufferConstants } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import { undici } from './lazy';
import { defaultDispatcher, explainFailure } from './net/network';
import { sharedAcrossBundles } from './sharedClass';

export type Headers = Record<string, string | string[] | undefined>;

export interface SendInit {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** Longest silence between two body chunks, or 0 for none (the caller's own timer covers the body). */
  bodyTimeoutMs: number;
}

/** Every client's pool, made with the proxies and certificate authorities the front end gave (core/net). */
export { defaultDispatcher } from './net/network';

/** A body as the clients read it: the bytes as they arrive, and a way to drop the rest. */
export interface ResponseBody extends AsyncIterable<Uint8Array> {
  destroy(): void;
  readonly destroyed: boolean;
}

/** An answer's head, with its body still to read. */
export interface ExchangeResponse {
  statusCode: number;
  headers: Headers;
  body: ResponseBody;
}

export type Exchange = (url: URL, init: SendInit, signal: AbortSignal) => Promise<ExchangeResponse>;

/**
 * Stands between every client and the network, when one is set: a cassette (notebook/cassette)
 * records what passes, or answers from its recording without sending. One seam for every service
 * and every cell kind that speaks HTTP; `next` is the real exchange.
 */
export type ExchangeHook = (url: URL, init: SendInit, signal: AbortSignal, next: Exchange) => Promise<ExchangeResponse>;

/** The header an answer given from a recording carries (a cassette's replay), so a front end can say so. */
export const REPLAYED_HEADER = 'x-awb-replayed';

// One slot per process, not per module copy: the editor's bundles (esbuild.mjs) each carry their own
// copy of this module, and a hook set by the notebook's bundle must also see the requests the model
// clients of dist/foundation.js send (see sharedClass.ts for the same problem with classes).
const HOOK_SLOT = Symbol.for('api-workbench.exchangeHook');
const hookSlot: { hook?: ExchangeHook } = ((globalThis as Record<symbol, { hook?: ExchangeHook } | undefined>)[HOOK_SLOT] ??= {});

/** Sets the hook every request passes (undefined: none); returns a function that puts the previous one back. */
export function setExchangeHook(hook: ExchangeHook | undefined): () => void {
  const previous = hookSlot.hook;
  hookSlot.hook = hook;
  return () => {
    hookSlot.hook = previous;
  };
}

/**
 * Sends one request; resolves once the head has arrived. Aborting `signal` rejects at once with
 * its reason, also while the request still waits for a free connection: undici only looks at the
 * signal again when it gets one, and then drops the request without sending it.
 */
export function send(url: URL, init: SendInit, signal: AbortSignal, dispatcher?: Dispatcher): Promise<ExchangeResponse> {
  const next: Exchange = (u, i, s) => sendNow(u, i, s, dispatcher ?? defaultDispatcher());
  const hook = hookSlot.hook;
  return hook ? hook(url, init, signal, next) : next(url, init, signal);
}

function sendNow(url: URL, init: SendInit, signal: AbortSignal, dispatcher: Dispatcher): Promise<ExchangeResponse> {
  // Our own timer bounds the wait for the head; undici's would turn a slow answer into a network error.
  const pending = undici().request(url, {
    method: init.method,
    headers: init.headers,
    body: init.body,
    signal,
    dispatcher,
    headersTimeout: 0,
    bodyTimeout: init.bodyTimeoutMs,
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      reject(asError(signal.reason));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) {
          // The head won a race with the abort: nobody will read this body, so let the connection go.
          res.body.destroy();
          return;
        }
        settled = true;
        resolve({ statusCode: res.statusCode, headers: res.headers, body: readThenHandBack(res.body) });
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) return;
        settled = true;
        // A proxy's refusal or a certificate problem, said in words with the proxy or host it was.
        reject(asError(explainFailure(e, url)));
      },
    );
  });
}

/**
 * The body, whose end is reported one event-loop turn later than undici reports it. undici (7.x)
 * hands a connection back to its pool in a setImmediate after the answer's last byte (client-h1's
 * onMessageComplete, when requests are not pipelined), and the body's end reaches its reader before
 * that: a request sent at once, as the next cell of a run is, found the connection still taken, and
 * the pool opened a second one to the same host, a second TCP and TLS handshake on every run.
 * Immediates run in the order they were queued, so undici's runs first.
 */
function readThenHandBack(body: ResponseBody): ResponseBody {
  return {
    async *[Symbol.asyncIterator]() {
      yield* body;
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    destroy: () => body.destroy(),
    get destroyed() {
      return body.destroyed;
    },
  };
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** A body larger than the client accepts. The connection has been cut when this is thrown. */
export class ResponseTooLargeError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.ResponseTooLargeError');
  }

  constructor(readonly maxBytes: number) {
    super(`response too large (over ${formatBytes(maxBytes)})`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * The largest body read whole. A UTF-8 string of N bytes has at most N characters, so a cap at
 * V8's string limit means decoding can never fail on length.
 */
export function boundedMaxBytes(requested: number | undefined): number {
  return Math.min(requested ?? 64 * 1024 * 1024, bufferConstants.MAX_STRING_LENGTH);
}

/**
 * Reads a whole body as UTF-8 (a byte order mark dropped), refusing more than `maxBytes`: past
 * the cap, or when Content-Length announces more, the body is destroyed (which aborts the
 * connection) and ResponseTooLargeError is thrown.
 */
export async function readText(body: ResponseBody, headers: Headers, maxBytes: number): Promise<string> {
  const declared = Number(headers['content-length']);
  if (declared > maxBytes) {
    body.destroy();
    throw new ResponseTooLargeError(maxBytes);
  }
  // Decoded as each chunk arrives: decoding a 20 MB answer at its end was one block of the event
  // loop as long as the slices of the work after it together (issue 39). The decoder keeps a
  // character whose bytes are split between two chunks until it is whole.
  const decoder = new StringDecoder('utf8');
  let text = '';
  let started = false;
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(maxBytes);
    }
    // The byte order mark is looked for in the first piece: charCodeAt on the joined text would
    // flatten all of it at once.
    const piece = decoder.write(chunk);
    if (!started && piece !== '') {
      started = true;
      text = piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece;
    } else text += piece;
  }
  return text + decoder.end();
}

/** The first `maxBytes` of a body (for a snippet in an error), then the body is dropped. */
export async function readStart(body: ResponseBody, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) break;
    }
  } finally {
    if (!body.destroyed) body.destroy();
  }
  // A multi-byte character cut at the end decodes to U+FFFD, harmless in a snippet.
  return Buffer.concat(chunks, size)
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
}

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(headers: Headers): string {
  const v = headers['content-type'];
  const raw = Array.isArray(v) ? v[0] : v;
  return (raw ?? '').split(';')[0].trim().toLowerCase();
}

/** True for an empty or whitespace-only body; stops at the first other character instead of copying the body as trim() would. */
export function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

export function snippet(text: string, max = 200): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

export { formatBytes };
