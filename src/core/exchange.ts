import type { Dispatcher } from 'undici';
import { undici } from './lazy';

/**
 * One HTTP exchange whose answer is read whole: every JSON request goes through here.
 *
 * It is built on undici's dispatch API instead of `undici.request()`. `request()` wraps each answer
 * in a Readable stream and can only be stopped through an AbortSignal, and both cost CPU: measured
 * with a stand-in dispatcher, about 28 µs per request against 14 µs here (timer included). That is
 * more than the zod validation of a typical answer. The dispatch controller stops an exchange
 * directly, so a precise timeout and the user's cancel need no signal. Streams still use
 * `request()`, whose backpressure they need.
 */
export interface BufferedResponse {
  status: number;
  /** Header names in lower case, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded as UTF-8, without a byte order mark. */
  text: string;
}

export interface Exchange {
  /** Status and headers once they have arrived (also when the body then fails), for error reports. */
  readonly head: { status: number; headers: BufferedResponse['headers'] } | undefined;
  /** Settles once: with the whole answer, with a network error, or with the reason given to abort(). */
  readonly response: Promise<BufferedResponse>;
  /** Stops the exchange wherever it is (queued, sending, reading). Only the first call counts. */
  abort(reason: unknown): void;
}

export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

let sharedAgent: Dispatcher | undefined;

/**
 * The connection pool of every client without a dispatcher of its own. It is ours, not undici's
 * global one: that global is shared with Node's built-in fetch, so it may be an older undici's Agent
 * that does not speak the handler API used here.
 */
export function defaultDispatcher(): Dispatcher {
  return (sharedAgent ??= new (undici().Agent)());
}

export function sendBuffered(url: URL, init: ExchangeInit, dispatcher: Dispatcher = defaultDispatcher()): Exchange {
  const handler = new BufferingHandler();
  try {
    dispatcher.dispatch({ origin: url.origin, path: url.pathname + url.search, method: init.method, headers: init.headers, body: init.body }, handler);
  } catch (e) {
    // Dispatchers report bad options through onResponseError; this is for one that throws instead.
    handler.onResponseError(undefined, e as Error);
  }
  return handler;
}

class BufferingHandler implements Dispatcher.DispatchHandler, Exchange {
  readonly response: Promise<BufferedResponse>;
  private resolve!: (r: BufferedResponse) => void;
  private reject!: (e: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private aborted = false;
  private settled = false;
  head: Exchange['head'];
  private readonly chunks: Buffer[] = [];

  constructor() {
    this.response = new Promise<BufferedResponse>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  abort(reason: unknown): void {
    if (this.settled) return;
    this.aborted = true;
    // Settle now rather than when undici reports back: a cancel must be felt at once.
    this.fail(reason);
    this.controller?.abort(reason instanceof Error ? reason : new Error(String(reason)));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // undici may start a request again (a pipelined connection failed first): begin afresh.
    this.head = undefined;
    this.chunks.length = 0;
    // Aborted while still queued for a connection: stop before anything is sent.
    if (this.aborted) controller.abort(new Error('aborted'));
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: BufferedResponse['headers']): void {
    // Called once per 1xx too; the last call is the real answer.
    this.head = { status: statusCode, headers };
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    this.settled = true;
    const bytes = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    let text = bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    this.resolve({ status: this.head?.status ?? 0, headers: this.head?.headers ?? {}, text });
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, error: Error): void {
    this.fail(error);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}
