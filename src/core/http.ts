import type { Dispatcher } from 'undici';
import { applyAuth, type AuthPlacement } from './auth';
import { toAbortSignal, CancelledError, type Cancel } from './cancellation';
import { systemClock, type Clock } from './clock';
import { ApiError } from './errors';
import { defaultDispatcher, sendBuffered, type BufferedResponse } from './exchange';
import { undici } from './lazy';
import type { Quota, SlidingWindowLimiter } from './rateLimiter';
import { MASK, Redactor } from './redact';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, retryAfterFromHeaders, type RetryPolicy } from './retry';
import { parseJson, validate, type Schema } from './validate';

export type Headers = Record<string, string | string[] | undefined>;

/** One line of the diagnostics log, already redacted. */
export interface RequestLogEntry {
  service: string;
  method: string;
  url: string;
  status?: number;
  durationMs: number;
  requestId?: string;
  attempt: number;
  error?: string;
}

/** What a service's error body says, in its own words (OpenAI `error.message`, Google `error.status`, …). */
export interface ServiceErrorInfo {
  code?: string;
  message?: string;
  retryAfterMs?: number;
}

/**
 * A request as the caller built it, before the key is applied: what "Copy as cURL" turns into a
 * command line. It never holds the key (auth is added after this is taken).
 */
export interface OutgoingRequest {
  service: string;
  method: string;
  /** Absolute URL without the key (a query-placed key is added later). */
  url: string;
  /** Every header that is sent except the auth header. */
  headers: Record<string, string>;
  /** The exact body bytes, if any. */
  body?: string;
  /** Where the key goes, so a copy can put a placeholder in its place. */
  auth: AuthPlacement;
}

export interface RateLimit {
  key: string;
  perMinute: number;
}

export interface HttpClientOptions {
  /** Shown in errors and logs, e.g. "OpenAI (work)". */
  service: string;
  baseUrl: string;
  auth: AuthPlacement;
  /**
   * Returns the key to send to `url`, or undefined to send none. The editor layer checks here
   * that the key is approved for the URL's origin (and may ask the user).
   */
  credentials?: (url: URL, signal?: AbortSignal) => Promise<string | undefined>;
  timeoutMs?: number;
  /** Quota of the connection as a whole; per-request limits (e.g. per model) add to it. */
  rateLimit?: RateLimit;
  limiter?: SlidingWindowLimiter;
  retry?: RetryPolicy;
  clock?: Clock;
  log?: (entry: RequestLogEntry) => void;
  redactor?: Redactor;
  parseError?: (status: number, body: unknown, headers: Headers) => ServiceErrorInfo;
  requestIdHeaders?: readonly string[];
  defaultHeaders?: Record<string, string>;
  dispatcher?: Dispatcher;
  random?: () => number;
  /** Called once per request (not per retry) with what is about to be sent, before the key is added. */
  onRequest?: (req: OutgoingRequest) => void;
}

export interface RetryNotice {
  attempt: number;
  delayMs: number;
  error: ApiError;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the base URL's path. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is (for signed requests whose signature covers the exact bytes). */
  rawBody?: string;
  schema?: Schema<T>;
  cancel?: Cancel;
  timeoutMs?: number;
  rateLimits?: readonly RateLimit[];
  /** Called before each retry wait, so a UI can show a countdown. */
  onRetry?: (notice: RetryNotice) => void;
  /** Called when the client-side limiter holds the request back. */
  onQueued?: (waitMs: number) => void;
  /** Set false to never retry (e.g. non-idempotent requests). */
  retry?: boolean;
}

export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId?: string;
  durationMs: number;
}

export interface StreamResponse {
  status: number;
  headers: Headers;
  requestId?: string;
  /** Raw bytes as they arrive. Errors thrown while iterating are ApiErrors of kind 'stream' / 'timeout' / 'cancelled'. */
  body: AsyncIterable<Uint8Array>;
  /** Time from sending to the response head. */
  headersMs: number;
}

const TIMEOUT = Symbol('timeout');

interface PreparedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
}

const toQuota = (l: RateLimit): Quota => ({ key: l.key, limit: l.perMinute });

/** Why an attempt was stopped on our side, if it was. */
type Stop = 'timeout' | 'cancelled' | undefined;
const stopOf = (signal: AbortSignal | undefined): Stop => (!signal?.aborted ? undefined : signal.reason === TIMEOUT ? 'timeout' : 'cancelled');

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id', 'x-ms-request-id', 'request-id', 'x-goog-request-id'];

/**
 * The HTTP core every service client is built on: auth placement, client-side rate limits,
 * timeouts, cancellation, bounded retries honouring Retry-After, zod validation of bodies, one
 * error type, and a redacted log line per attempt.
 */
export class HttpClient {
  readonly service: string;
  private readonly base: URL;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly redactor: Redactor;
  /** The connection's own quota as the limiter takes it, built once (every request checks it). */
  private readonly connectionQuotas: readonly Quota[];

  constructor(private readonly opts: HttpClientOptions) {
    this.service = opts.service;
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : opts.baseUrl + '/');
    this.clock = opts.clock ?? systemClock;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.redactor = opts.redactor ?? new Redactor();
    this.connectionQuotas = opts.rateLimit ? [toQuota(opts.rateLimit)] : [];
  }

  get baseUrl(): string {
    return this.base.toString();
  }

  url(path: string, query?: RequestOptions<unknown>['query']): URL {
    // Relative resolution against a base with a trailing slash keeps the base path (".../v1/" + "models").
    // "./" keeps a colon in the first segment ("places:searchText", "v1:validateAddress") from reading as a scheme.
    const u = new URL(`./${path.replace(/^\//, '')}`, this.base);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  }

  /** A request whose JSON answer is validated with `schema` (or returned as unknown). */
  async json<T = unknown>(req: RequestOptions<T>): Promise<HttpResponse<T>> {
    const { signal, dispose } = toAbortSignal(req.cancel);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.jsonAttempt(req, attempt, signal);
        } catch (e) {
          await this.maybeRetry(e, attempt, req, signal);
        }
      }
    } finally {
      dispose();
    }
  }

  /**
   * A request whose body is consumed as a stream. Retries happen only before the response has
   * begun; once bytes flow, a failure is reported and never retried (the caller keeps what arrived).
   */
  async stream(req: RequestOptions<never>): Promise<StreamResponse> {
    const { signal, dispose } = toAbortSignal(req.cancel);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.streamAttempt(req, attempt, signal, dispose);
      } catch (e) {
        try {
          await this.maybeRetry(e, attempt, req, signal);
        } catch (final) {
          dispose();
          throw final;
        }
      }
    }
  }

  // --- internals -----------------------------------------------------------------------------

  /** What every attempt does before sending: wait for the quotas, build the request, add the key. */
  private async prepare(req: RequestOptions<unknown>, attempt: number, signal: AbortSignal | undefined): Promise<PreparedRequest> {
    // Per-request quotas (per model) first, so waiting for one does not hold up the connection's queue.
    const limiter = this.opts.limiter;
    const quotas = req.rateLimits?.length ? [...req.rateLimits.map(toQuota), ...this.connectionQuotas] : this.connectionQuotas;
    if (limiter && quotas.length && !limiter.tryAcquireAll(quotas)) await limiter.acquireAll(quotas, signal, req.onQueued);
    signal?.throwIfAborted();

    const method = req.method ?? (req.body !== undefined || req.rawBody !== undefined ? 'POST' : 'GET');
    let url = this.url(req.path, req.query);
    let headers: Record<string, string> = { accept: 'application/json', ...this.opts.defaultHeaders, ...req.headers };
    const body = req.rawBody ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (attempt === 0) this.notifyRequest(method, url, headers, body);
    const key = this.opts.credentials ? await this.opts.credentials(url, signal) : undefined;
    ({ url, headers } = applyAuth(this.opts.auth, key, url, headers));
    return { method, url, headers, body, timeoutMs: req.timeoutMs ?? this.opts.timeoutMs ?? 60_000 };
  }

  /** One try of a JSON request: the whole answer is read, then parsed and validated. */
  private async jsonAttempt<T>(req: RequestOptions<T>, attempt: number, signal: AbortSignal | undefined): Promise<HttpResponse<T>> {
    const { method, url, headers, body, timeoutMs } = await this.prepare(req, attempt, signal);
    const started = this.clock.now();
    const exchange = sendBuffered(url, { method, headers, body }, this.opts.dispatcher);
    // Our timer covers the whole exchange, head and body; the user's cancel stops it at any point.
    const stops = armStops(exchange, signal, timeoutMs);
    let res: BufferedResponse;
    try {
      res = await exchange.response;
    } catch (e) {
      const head = exchange.head;
      const requestId = head && this.requestId(head.headers);
      const err = this.abortOrNetworkError(e, e === TIMEOUT ? 'timeout' : stopOf(signal), timeoutMs, requestId, head?.status);
      this.logAttempt(method, url, attempt, started, head?.status, requestId, err);
      throw err;
    } finally {
      stops.disarm();
    }
    const durationMs = this.clock.now() - started;
    const requestId = this.requestId(res.headers);
    const result = this.readJson(req.schema, res, requestId);
    this.logAttempt(method, url, attempt, started, res.status, requestId, result.ok ? undefined : result.error);
    if (!result.ok) throw result.error;
    return { data: result.value, status: res.status, headers: res.headers, requestId, durationMs };
  }

  /** The typed value of a complete answer, or the error to report for it. */
  private readJson<T>(schema: Schema<T> | undefined, res: BufferedResponse, requestId: string | undefined): { ok: true; value: T } | { ok: false; error: ApiError } {
    const { status, text } = res;
    if (status < 200 || status >= 300) return { ok: false, error: this.httpError(status, text, res.headers, requestId) };
    const parsed = isBlank(text) ? ({ ok: true, value: undefined } as const) : parseJson(text);
    if (!parsed.ok) {
      return {
        ok: false,
        error: this.error('invalid-response', `${this.service} returned a response that is not JSON (HTTP ${status})`, { status, requestId, serviceMessage: `not JSON: ${snippet(text)}` }),
      };
    }
    if (!schema) return { ok: true, value: parsed.value as T };
    const v = validate(schema, parsed.value);
    if (v.ok) return v;
    return {
      ok: false,
      error: this.error('invalid-response', `${this.service} returned an unexpected response (HTTP ${status}): ${v.problem}`, { status, requestId, serviceMessage: `unexpected response: ${v.problem}` }),
    };
  }

  /** One try of a streamed request: resolves once the head has arrived, with the body still to read. */
  private async streamAttempt(req: RequestOptions<never>, attempt: number, signal: AbortSignal | undefined, dispose: () => void): Promise<StreamResponse> {
    const { method, url, headers, body, timeoutMs } = await this.prepare(req, attempt, signal);
    // A stream's body is a Readable that only an AbortSignal can stop: the user's cancel or our
    // timeout (which covers the head; the idle time between chunks is undici's bodyTimeout).
    const controller = new AbortController();
    const stops = armStops(controller, signal, timeoutMs);
    const started = this.clock.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(url, { method, headers, body, signal: controller.signal, dispatcher: this.opts.dispatcher ?? defaultDispatcher(), bodyTimeout: timeoutMs });
    } catch (e) {
      stops.disarm();
      const err = this.abortOrNetworkError(e, stopOf(controller.signal), timeoutMs);
      this.logAttempt(method, url, attempt, started, undefined, undefined, err);
      throw err;
    }

    const requestId = this.requestId(res.headers);
    if (res.statusCode < 200 || res.statusCode >= 300) {
      // An error body is read whole, still under our timer.
      let text = '';
      try {
        text = await res.body.text();
      } catch (e) {
        stops.disarm();
        throw this.abortOrNetworkError(e, stopOf(controller.signal), timeoutMs, requestId, res.statusCode);
      }
      stops.disarm();
      const err = this.httpError(res.statusCode, text, res.headers, requestId);
      this.logAttempt(method, url, attempt, started, res.statusCode, requestId, err);
      throw err;
    }

    // The head arrived in time; from here the stream's idle timeout (bodyTimeout) applies, and the
    // user's cancel stays armed until the body is done.
    stops.disarmTimer();
    this.logAttempt(method, url, attempt, started, res.statusCode, requestId);
    const headersMs = this.clock.now() - started;
    const stream = res.body;
    const errorFor = (e: unknown) => this.streamError(e, signal, requestId, res.statusCode);
    async function* iterate(): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of stream) yield chunk as Uint8Array;
      } catch (e) {
        throw errorFor(e);
      } finally {
        stops.disarm();
        dispose();
        if (!stream.destroyed) stream.destroy();
      }
    }
    return { status: res.statusCode, headers: res.headers, requestId, body: iterate(), headersMs };
  }

  private async maybeRetry(e: unknown, attempt: number, req: RequestOptions<unknown>, signal: AbortSignal | undefined): Promise<void> {
    const err = e instanceof ApiError ? e : this.abortOrNetworkError(e, stopOf(signal), 0);
    const retryable =
      req.retry !== false &&
      attempt < this.retry.maxRetries &&
      // A 429 is built with kind 'rate-limited' (what it stays once retries run out), so it is matched by status.
      (((err.kind === 'http' || err.kind === 'rate-limited') && err.status !== undefined && isRetryableStatus(err.status)) ||
        err.kind === 'network' ||
        err.kind === 'timeout');
    if (!retryable) throw err;
    const delayMs = err.retryAfterMs ?? backoffDelay(attempt, this.retry, this.opts.random);
    if (delayMs > this.retry.maxRetryAfterMs) throw err;
    req.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
    try {
      await this.clock.sleep(delayMs, signal);
    } catch {
      throw this.error('cancelled', 'Cancelled', {});
    }
  }

  private notifyRequest(method: string, url: URL, headers: Record<string, string>, body: string | undefined): void {
    if (!this.opts.onRequest) return;
    try {
      this.opts.onRequest({ service: this.service, method, url: url.toString(), headers: { ...headers }, body, auth: this.opts.auth });
    } catch {
      // An observer's bug must not fail the request it observes.
    }
  }

  private requestId(headers: Headers): string | undefined {
    for (const name of this.opts.requestIdHeaders ?? DEFAULT_REQUEST_ID_HEADERS) {
      const v = headers[name];
      if (v) return Array.isArray(v) ? v[0] : v;
    }
    return undefined;
  }

  private httpError(status: number, text: string, headers: Headers, requestId: string | undefined): ApiError {
    const parsed = parseJson(text);
    let info: ServiceErrorInfo = {};
    if (parsed.ok && this.opts.parseError) {
      try {
        info = this.opts.parseError(status, parsed.value, headers);
      } catch {
        info = {};
      }
    } else if (!parsed.ok && text.trim()) {
      info = { message: snippet(text) };
    }
    const retryAfterMs = retryAfterFromHeaders(headers, this.clock.now()) ?? info.retryAfterMs;
    const message = info.message ?? (parsed.ok ? undefined : text.trim() ? undefined : 'empty response body');
    return this.error(status === 429 ? 'rate-limited' : 'http', `${this.service} HTTP ${status}${message ? `: ${message}` : ''}`, {
      status,
      code: info.code,
      serviceMessage: message ?? `HTTP ${status}`,
      requestId,
      retryAfterMs,
    });
  }

  /** The error for an attempt that failed without an HTTP answer: our timeout, the user's cancel, or the network. */
  private abortOrNetworkError(e: unknown, stop: Stop, timeoutMs: number, requestId?: string, status?: number): ApiError {
    if (e instanceof ApiError) return e;
    if (stop === 'timeout') return this.error('timeout', `${this.service} did not answer within ${formatSeconds(timeoutMs)}`, { requestId, status, cause: e });
    if (stop === 'cancelled') return this.error('cancelled', 'Cancelled', { requestId, status, cause: e });
    const code = (e as { code?: string })?.code;
    const msg = e instanceof Error ? e.message : String(e);
    return this.error('network', `${this.service} could not be reached: ${code ? `${code} ` : ''}${msg}`, { requestId, status, code, cause: e });
  }

  private streamError(e: unknown, signal: AbortSignal | undefined, requestId: string | undefined, status: number): ApiError {
    if (e instanceof ApiError) return e;
    if (signal?.aborted) return this.error('cancelled', 'Cancelled', { requestId, status, cause: e });
    const code = (e as { code?: string })?.code;
    if (code === 'UND_ERR_BODY_TIMEOUT') return this.error('timeout', `${this.service} stream went quiet`, { requestId, status, cause: e });
    const msg = e instanceof Error ? e.message : String(e);
    return this.error('stream', `${this.service} stream broke: ${msg}`, { requestId, status, code, cause: e });
  }

  private error(kind: ApiError['kind'], message: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]>): ApiError {
    return new ApiError({ kind, service: this.service, message: this.redactor.text(message), ...extra, serviceMessage: extra.serviceMessage && this.redactor.text(extra.serviceMessage) });
  }

  private logAttempt(method: string, url: URL, attempt: number, started: number, status?: number, requestId?: string, error?: ApiError): void {
    const log = this.opts.log;
    if (!log) return;
    // The key's query parameter may have a name the redactor does not know (e.g. subscription-key).
    let shown = url;
    if (this.opts.auth.placement === 'query' && url.searchParams.has(this.opts.auth.name)) {
      shown = new URL(url);
      shown.searchParams.set(this.opts.auth.name, MASK);
    }
    log({
      service: this.service,
      method,
      url: this.redactor.url(shown),
      status,
      durationMs: this.clock.now() - started,
      requestId,
      attempt,
      error: error && error.kind !== 'http' && error.kind !== 'rate-limited' ? error.message : undefined,
    });
  }

}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * Stops `target` (an exchange or an AbortController) with TIMEOUT after `timeoutMs`, or with the
 * user's reason when `signal` aborts. disarmTimer() ends the first, disarm() both.
 */
function armStops(target: { abort(reason: unknown): void }, signal: AbortSignal | undefined, timeoutMs: number): { disarmTimer(): void; disarm(): void } {
  const timer = setTimeout(() => target.abort(TIMEOUT), timeoutMs);
  const onUserAbort = () => target.abort(signal!.reason ?? new CancelledError());
  signal?.addEventListener('abort', onUserAbort, { once: true });
  return {
    disarmTimer: () => clearTimeout(timer),
    disarm: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onUserAbort);
    },
  };
}

/** True for an empty or whitespace-only body; stops at the first other character instead of copying the body as trim() would. */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

function snippet(text: string, max = 200): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
