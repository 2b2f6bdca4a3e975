import type { Dispatcher } from 'undici';
import { applyAuth, type AuthPlacement } from './auth';
import { toAbortSignal, CancelledError, type Cancel } from './cancellation';
import { systemClock, type Clock } from './clock';
import { ApiError } from './errors';
import { undici } from './lazy';
import type { SlidingWindowLimiter } from './rateLimiter';
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

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id', 'x-ms-request-id', 'request-id', 'x-goog-request-id'];
const TIMEOUT = Symbol('timeout');

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

  constructor(private readonly opts: HttpClientOptions) {
    this.service = opts.service;
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : opts.baseUrl + '/');
    this.clock = opts.clock ?? systemClock;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.redactor = opts.redactor ?? new Redactor();
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
          return await this.once(req, attempt, signal, async (res, started, requestId) => {
            const text = await res.body.text();
            const durationMs = this.clock.now() - started;
            const parsed = text.trim() === '' ? ({ ok: true, value: undefined } as const) : parseJson(text);
            if (!parsed.ok) {
              throw this.error('invalid-response', `${this.service} returned a response that is not JSON (HTTP ${res.statusCode})`, {
                status: res.statusCode,
                requestId,
                serviceMessage: `not JSON: ${snippet(text)}`,
              });
            }
            if (!req.schema) return { data: parsed.value as T, status: res.statusCode, headers: res.headers, requestId, durationMs };
            const v = validate(req.schema, parsed.value);
            if (!v.ok) {
              throw this.error('invalid-response', `${this.service} returned an unexpected response (HTTP ${res.statusCode}): ${v.problem}`, {
                status: res.statusCode,
                requestId,
                serviceMessage: `unexpected response: ${v.problem}`,
              });
            }
            return { data: v.value, status: res.statusCode, headers: res.headers, requestId, durationMs };
          });
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
        return await this.once(req, attempt, signal, async (res, started, requestId, onBodyDone) => {
          const headersMs = this.clock.now() - started;
          const body = res.body;
          const errorFor = (e: unknown) => this.streamError(e, signal, requestId, res.statusCode);
          async function* iterate(): AsyncGenerator<Uint8Array> {
            try {
              for await (const chunk of body) yield chunk as Uint8Array;
            } catch (e) {
              throw errorFor(e);
            } finally {
              onBodyDone();
              dispose();
              if (!body.destroyed) body.destroy();
            }
          }
          return { status: res.statusCode, headers: res.headers, requestId, body: iterate(), headersMs };
        }, true);
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

  private async once<R>(
    req: RequestOptions<unknown>,
    attempt: number,
    signal: AbortSignal | undefined,
    onSuccess: (res: Dispatcher.ResponseData, started: number, requestId: string | undefined, onBodyDone: () => void) => Promise<R>,
    streaming = false,
  ): Promise<R> {
    // Per-request quotas (per model) first, so waiting for one does not hold up the connection's queue.
    const limits = [...(req.rateLimits ?? []), ...(this.opts.rateLimit ? [this.opts.rateLimit] : [])];
    if (this.opts.limiter && limits.length) {
      const quotas = limits.map((l) => ({ key: l.key, limit: l.perMinute }));
      if (!this.opts.limiter.tryAcquireAll(quotas)) await this.opts.limiter.acquireAll(quotas, signal, req.onQueued);
    }
    signal?.throwIfAborted();

    const method = req.method ?? (req.body !== undefined || req.rawBody !== undefined ? 'POST' : 'GET');
    let url = this.url(req.path, req.query);
    let headers: Record<string, string> = { accept: 'application/json', ...this.opts.defaultHeaders, ...req.headers };
    const body = req.rawBody ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (attempt === 0) this.notifyRequest(method, url, headers, body);
    const key = this.opts.credentials ? await this.opts.credentials(url, signal) : undefined;
    ({ url, headers } = applyAuth(this.opts.auth, key, url, headers));

    // One controller per attempt: the user's cancel or our timeout both abort it.
    const controller = new AbortController();
    const onUserAbort = () => controller.abort(signal!.reason ?? new CancelledError());
    signal?.addEventListener('abort', onUserAbort, { once: true });
    const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs ?? 60_000;
    const timer = setTimeout(() => controller.abort(TIMEOUT), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onUserAbort);
    };

    const started = this.clock.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(url, {
        method,
        headers,
        body,
        signal: controller.signal,
        dispatcher: this.opts.dispatcher,
        // Our timer covers a whole JSON request, and only the head of a stream: a stream's idle time
        // between chunks is undici's bodyTimeout. Other requests keep undici's own (longer) defaults,
        // because overriding them per request costs ~8 µs (measured).
        ...(streaming ? { bodyTimeout: timeoutMs } : {}),
      });
    } catch (e) {
      cleanup();
      const err = this.abortOrNetworkError(e, controller.signal, timeoutMs);
      this.logAttempt(method, url, attempt, started, undefined, undefined, err);
      throw err;
    }

    const requestId = this.requestId(res.headers);
    if (res.statusCode < 200 || res.statusCode >= 300) {
      let text = '';
      try {
        text = await res.body.text();
      } catch (e) {
        cleanup();
        throw this.abortOrNetworkError(e, controller.signal, timeoutMs);
      }
      cleanup();
      const err = this.httpError(res.statusCode, text, res.headers, requestId);
      this.logAttempt(method, url, attempt, started, res.statusCode, requestId, err);
      throw err;
    }

    if (streaming) {
      // The head arrived in time; from here the stream's idle timeout (bodyTimeout) applies.
      clearTimeout(timer);
      this.logAttempt(method, url, attempt, started, res.statusCode, requestId);
      return onSuccess(res, started, requestId, cleanup);
    }
    try {
      const out = await onSuccess(res, started, requestId, cleanup);
      this.logAttempt(method, url, attempt, started, res.statusCode, requestId);
      return out;
    } catch (e) {
      const err = e instanceof ApiError ? e : this.abortOrNetworkError(e, controller.signal, timeoutMs, requestId, res.statusCode);
      this.logAttempt(method, url, attempt, started, res.statusCode, requestId, err);
      throw err;
    } finally {
      cleanup();
    }
  }

  private async maybeRetry(e: unknown, attempt: number, req: RequestOptions<unknown>, signal: AbortSignal | undefined): Promise<void> {
    const err = e instanceof ApiError ? e : this.abortOrNetworkError(e, signal, 0);
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

  private abortOrNetworkError(e: unknown, signal: AbortSignal | undefined, timeoutMs: number, requestId?: string, status?: number): ApiError {
    if (e instanceof ApiError) return e;
    if (signal?.aborted) {
      if (signal.reason === TIMEOUT) {
        return this.error('timeout', `${this.service} did not answer within ${formatSeconds(timeoutMs)}`, { requestId, status, cause: e });
      }
      return this.error('cancelled', 'Cancelled', { requestId, status, cause: e });
    }
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

function snippet(text: string, max = 200): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max)}…` : t;
}
