import { applyAuth } from './auth';
import { toAbortSignal, CancelledError } from './cancellation';
import { systemClock, type Clock } from './clock';
import { ApiError } from './errors';
import { HttpErrors, isDnsFailure, neverSent, type Stop } from './httpErrors';
import {
  boundedMaxBytes,
  isBlank,
  mediaType,
  readStart,
  readText,
  ResponseTooLargeError,
  send,
  snippet,
  type ExchangeResponse,
  type Headers,
} from './httpExchange';
import type { Quota } from './rateLimiter';
import { MASK, Redactor } from './redact';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, type RetryPolicy } from './retry';
import { parseJson, validate, type Schema } from './validate';

export type { Headers } from './httpExchange';
export type { ServiceErrorInfo } from './httpErrors';

export type {
  RequestLogEntry,
  OutgoingRequest,
  RateLimit,
  HttpClientOptions,
  RetryNotice,
  RequestOptions,
  StreamRequestOptions,
  HttpResponse,
  StreamResponse,
} from './httpTypes';
import type { RequestLogEntry, RateLimit, HttpClientOptions, RequestOptions, StreamRequestOptions, HttpResponse, StreamResponse } from './httpTypes';

/** The reason our own timers abort an attempt with, so it is told apart from the user's cancel. */
class Stopped extends Error {
  constructor(readonly stop: 'timeout' | 'deadline') {
    super(stop);
    this.name = 'Stopped';
  }
}

const stopOf = (signal: AbortSignal): Stop => (!signal.aborted ? undefined : signal.reason instanceof Stopped ? signal.reason.stop : 'cancelled');

interface PreparedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  timeoutMs: number;
}

const toQuota = (l: RateLimit): Quota => ({ key: l.key, limit: l.perMinute });

const DEFAULT_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id', 'x-ms-request-id', 'request-id', 'x-goog-request-id'];
const DEFAULT_STREAM_DEADLINE_MS = 15 * 60_000;
/** How much of an unexpected stream body is read for the error's snippet. */
const SNIPPET_BYTES = 2048;

/** The key one request sent last, and whether it was already renewed after a 401 (once per request). */
interface SentCredential {
  key?: string;
  renewed: boolean;
}

/**
 * The HTTP core every service client is built on: auth placement, client-side rate limits,
 * timeouts, cancellation, bounded retries honouring Retry-After, zod validation of bodies, one
 * error type, and a redacted log line per attempt. Every string it hands out has passed through
 * its Redactor, which learns each key before the key is sent.
 */
export class HttpClient {
  readonly service: string;
  private readonly base: URL;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly redactor: Redactor;
  private readonly errors: HttpErrors;
  private readonly maxResponseBytes: number;
  private readonly streamDeadlineMs: number;
  /** The connection's own quota as the limiter takes it, built once (every request checks it). */
  private readonly connectionQuotas: readonly Quota[];

  constructor(private readonly opts: HttpClientOptions) {
    this.service = opts.service;
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : opts.baseUrl + '/');
    this.clock = opts.clock ?? systemClock;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.redactor = opts.redactor ?? new Redactor();
    this.errors = new HttpErrors(opts.service, this.redactor, this.clock, opts.parseError);
    this.maxResponseBytes = boundedMaxBytes(opts.maxResponseBytes);
    this.streamDeadlineMs = opts.streamDeadlineMs ?? DEFAULT_STREAM_DEADLINE_MS;
    this.connectionQuotas = opts.rateLimit ? [toQuota(opts.rateLimit)] : [];
  }

  get baseUrl(): string {
    return this.base.toString();
  }

  /** `text` with every secret this client knows of masked: for strings a caller derives from a response. */
  redact(text: string): string {
    return this.redactor.text(text);
  }

  url(path: string, query?: RequestOptions<unknown>['query']): URL {
    // Relative resolution against a base with a trailing slash keeps the base path (".../v1/" + "models").
    // "./" keeps a colon in the first segment ("places:searchText", "v1:validateAddress") from reading as a scheme.
    const u = new URL(`./${path.replace(/^\//, '')}`, this.base);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    for (const [k, v] of Object.entries(this.opts.defaultQuery ?? {})) if (!u.searchParams.has(k)) u.searchParams.set(k, v);
    return u;
  }

  /** A request whose JSON answer is validated with `schema` (or returned as unknown). */
  async json<T = unknown>(req: RequestOptions<T>): Promise<HttpResponse<T>> {
    const { signal, dispose } = toAbortSignal(req.cancel);
    try {
      const sent: SentCredential = { renewed: false };
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.jsonAttempt(req, attempt, signal, sent);
        } catch (e) {
          if (this.renewRefusedCredential(e, sent)) continue;
          await this.maybeRetry(e, attempt, req, signal, true);
        }
      }
    } finally {
      dispose();
    }
  }

  /**
   * A request whose body is consumed as a stream. Retries happen only before the response has
   * begun; once bytes flow, a failure is reported and never retried (the caller keeps what arrived).
   * A stream that is not a GET is not sent again when it may have reached the server unanswered
   * (a timeout, a reset): the server may be generating, and billing, the first one.
   */
  async stream(req: StreamRequestOptions): Promise<StreamResponse> {
    const { signal, dispose } = toAbortSignal(req.cancel);
    const replayable = (req.method ?? (req.body !== undefined || req.rawBody !== undefined ? 'POST' : 'GET')) === 'GET';
    const sent: SentCredential = { renewed: false };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.streamAttempt(req, attempt, signal, dispose, sent);
      } catch (e) {
        if (this.renewRefusedCredential(e, sent)) continue;
        try {
          await this.maybeRetry(e, attempt, req, signal, replayable);
        } catch (final) {
          dispose();
          throw final;
        }
      }
    }
  }

  // --- internals -----------------------------------------------------------------------------

  /** What every attempt does before sending: wait for the quotas, build the request, add the key. */
  private async prepare(req: RequestOptions<unknown>, attempt: number, signal: AbortSignal | undefined, sent: SentCredential): Promise<PreparedRequest> {
    // Per-request quotas (per model) first, so waiting for one does not hold up the connection's queue.
    const limiter = this.opts.limiter;
    const quotas = req.rateLimits?.length ? [...req.rateLimits.map(toQuota), ...this.connectionQuotas] : this.connectionQuotas;
    const onQueued = req.onQueued;
    if (limiter && quotas.length && !limiter.tryAcquireAll(quotas)) await limiter.acquireAll(quotas, signal, onQueued && ((ms) => observe(() => onQueued(ms))));
    signal?.throwIfAborted();

    const method = req.method ?? (req.body !== undefined || req.rawBody !== undefined ? 'POST' : 'GET');
    const body = req.rawBody ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    let url = this.url(this.opts.routePath ? this.opts.routePath(req.path, body) : req.path, req.query);
    let headers: Record<string, string> = { accept: 'application/json', ...this.opts.defaultHeaders, ...req.headers };
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (attempt === 0) this.notifyRequest(method, url, headers, body);
    const asking = this.clock.now();
    const key = this.opts.credentials ? await this.opts.credentials(url, signal) : undefined;
    // An approval dialog or a token fetch is not the request's time: the caller may leave it out.
    const askedMs = this.clock.now() - asking;
    const onCredentials = req.onCredentials;
    if (onCredentials && askedMs > 0) observe(() => onCredentials(askedMs));
    // Known before it leaves: whatever the server echoes of it is masked.
    this.redactor.addSecret(key);
    sent.key = key;
    ({ url, headers } = applyAuth(this.opts.auth, key, url, headers));
    return { method, url, headers, body, timeoutMs: req.timeoutMs ?? this.opts.timeoutMs ?? 60_000 };
  }

  /** One try of a JSON request: the whole answer is read, then parsed and validated. */
  private async jsonAttempt<T>(req: RequestOptions<T>, attempt: number, signal: AbortSignal | undefined, sent: SentCredential): Promise<HttpResponse<T>> {
    const { method, url, headers, body, timeoutMs } = await this.prepare(req, attempt, signal, sent);
    const started = this.clock.now();
    const controller = new AbortController();
    // Our timer covers the whole exchange, head and body; the user's cancel stops it at any point.
    const stops = armStops(controller, signal, timeoutMs);
    let head: { status: number; headers: Headers } | undefined;
    let text: string;
    try {
      const res = await send(url, { method, headers, body, bodyTimeoutMs: 0 }, controller.signal, this.opts.dispatcher);
      head = { status: res.statusCode, headers: res.headers };
      text = await readText(res.body, res.headers, this.maxResponseBytes);
    } catch (e) {
      // The status and request id of an answer that broke off half-way still go into the report.
      const requestId = head && this.requestId(head.headers);
      const err =
        e instanceof ResponseTooLargeError
          ? this.errors.tooLarge(e, head?.status, requestId)
          : this.errors.unanswered(e, stopOf(controller.signal), timeoutMs, requestId, head?.status);
      this.logAttempt(method, url, attempt, started, head?.status, requestId, err);
      throw err;
    } finally {
      stops.disarm();
    }
    const durationMs = this.clock.now() - started;
    const requestId = this.requestId(head.headers);
    const result = this.readJson(req.schema, head.status, head.headers, text, requestId);
    this.logAttempt(method, url, attempt, started, head.status, requestId, result.ok ? undefined : result.error);
    if (!result.ok) throw result.error;
    return { data: result.value, status: head.status, headers: this.redactor.headers(head.headers), requestId, durationMs };
  }

  /** The typed value of a complete answer, or the error to report for it. */
  private readJson<T>(
    schema: Schema<T> | undefined,
    status: number,
    headers: Headers,
    text: string,
    requestId: string | undefined,
  ): { ok: true; value: T } | { ok: false; error: ApiError } {
    if (status < 200 || status >= 300) return { ok: false, error: this.errors.http(status, text, headers, requestId) };
    const parsed = isBlank(text) ? ({ ok: true, value: undefined } as const) : parseJson(text);
    if (!parsed.ok) {
      return {
        ok: false,
        error: this.errors.make('invalid-response', `${this.service} returned a response that is not JSON (HTTP ${status})`, {
          status,
          requestId,
          serviceMessage: `not JSON: ${snippet(text)}`,
        }),
      };
    }
    if (!schema) return { ok: true, value: parsed.value as T };
    const v = validate(schema, parsed.value);
    if (v.ok) return v;
    return {
      ok: false,
      error: this.errors.make('invalid-response', `${this.service} returned an unexpected response (HTTP ${status}): ${v.problem}`, {
        status,
        requestId,
        serviceMessage: `unexpected response: ${v.problem}`,
      }),
    };
  }

  /** One try of a streamed request: resolves once the head has arrived, with the body still to read. */
  private async streamAttempt(
    req: StreamRequestOptions,
    attempt: number,
    signal: AbortSignal | undefined,
    dispose: () => void,
    sent: SentCredential,
  ): Promise<StreamResponse> {
    const { method, url, headers, body, timeoutMs } = await this.prepare(req, attempt, signal, sent);
    // Our timer covers the head, undici's bodyTimeout the silence between chunks, and the deadline
    // the whole stream (keep-alive comments keep a stream from going quiet, not from ending).
    const controller = new AbortController();
    const deadlineMs = this.streamDeadlineMs;
    const stops = armStops(controller, signal, timeoutMs, deadlineMs);
    const started = this.clock.now();
    let res: ExchangeResponse;
    try {
      res = await send(url, { method, headers, body, bodyTimeoutMs: timeoutMs }, controller.signal, this.opts.dispatcher);
    } catch (e) {
      stops.disarm();
      // Whichever of the head's timer and the deadline fired, it was the shorter.
      const err = this.errors.unanswered(e, stopOf(controller.signal), Math.min(timeoutMs, deadlineMs));
      this.logAttempt(method, url, attempt, started, undefined, undefined, err);
      throw err;
    }

    const status = res.statusCode;
    const requestId = this.requestId(res.headers);
    let refusal: ApiError | undefined;
    try {
      refusal = await this.refusalOf(res, req.expectContentType, requestId);
    } catch (e) {
      refusal =
        e instanceof ResponseTooLargeError
          ? this.errors.tooLarge(e, status, requestId)
          : this.errors.unanswered(e, stopOf(controller.signal), timeoutMs, requestId, status);
    }
    if (refusal) {
      stops.disarm();
      if (!res.body.destroyed) res.body.destroy();
      this.logAttempt(method, url, attempt, started, status, requestId, refusal);
      throw refusal;
    }

    // The head arrived in time; the user's cancel and the deadline stay armed until the body is done.
    stops.disarmTimer();
    this.logAttempt(method, url, attempt, started, status, requestId);
    const headersMs = this.clock.now() - started;
    const stream = res.body;
    const errors = this.errors;
    async function* iterate(): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of stream) yield chunk;
      } catch (e) {
        throw errors.stream(e, stopOf(controller.signal), deadlineMs, requestId, status);
      } finally {
        stops.disarm();
        dispose();
        if (!stream.destroyed) stream.destroy();
      }
    }
    return { status, headers: this.redactor.headers(res.headers), requestId, body: iterate(), headersMs };
  }

  /** Why a stream's head is not the start of a stream: an HTTP error, or a body of the wrong type. Reads the body for it, still under the head's timer. */
  private async refusalOf(res: ExchangeResponse, expected: string | undefined, requestId: string | undefined): Promise<ApiError | undefined> {
    const status = res.statusCode;
    if (status < 200 || status >= 300) return this.errors.http(status, await readText(res.body, res.headers, this.maxResponseBytes), res.headers, requestId);
    const type = mediaType(res.headers);
    // A missing Content-Type is let through: some compatible servers send none.
    if (!expected || !type || type === expected) return undefined;
    const start = await readStart(res.body, SNIPPET_BYTES);
    return this.errors.make('invalid-response', `${this.service} answered with ${type} instead of ${expected} (HTTP ${status})`, {
      status,
      requestId,
      serviceMessage: `${type} instead of ${expected}${isBlank(start) ? '' : `: ${snippet(start)}`}`,
    });
  }

  /**
   * A 401 to a token that may have been renewed behind our back (revoked, rotated, an expiry read
   * wrong) is sent once more with a fresh one, at once: waiting until the cached token expired
   * would leave the user refused for up to an hour. A stored key is not asked again.
   */
  private renewRefusedCredential(e: unknown, sent: SentCredential): boolean {
    if (sent.renewed || sent.key === undefined || !this.opts.credentialRefused) return false;
    if (!(e instanceof ApiError) || e.status !== 401) return false;
    sent.renewed = true;
    return this.opts.credentialRefused(sent.key);
  }

  private async maybeRetry(e: unknown, attempt: number, req: RequestOptions<unknown>, signal: AbortSignal | undefined, replayable: boolean): Promise<void> {
    const err = e instanceof ApiError ? e : this.errors.unanswered(e, signal?.aborted ? 'cancelled' : undefined, 0);
    const unanswered = err.kind === 'network' || err.kind === 'timeout';
    const retryable =
      req.retry !== false &&
      attempt < this.retry.maxRetries &&
      !isDnsFailure(err) &&
      // A 429 is built with kind 'rate-limited' (what it stays once retries run out), so it is matched by status.
      (((err.kind === 'http' || err.kind === 'rate-limited') && err.status !== undefined && isRetryableStatus(err.status)) ||
        (replayable ? unanswered : neverSent(err)));
    if (!retryable) throw err;
    const delayMs = err.retryAfterMs ?? backoffDelay(attempt, this.retry, this.opts.random);
    if (delayMs > this.retry.maxRetryAfterMs) throw err;
    observe(() => req.onRetry?.({ attempt: attempt + 1, delayMs, error: err }));
    try {
      await this.clock.sleep(delayMs, signal);
    } catch {
      throw this.errors.make('cancelled', 'Cancelled');
    }
  }

  private notifyRequest(method: string, url: URL, headers: Record<string, string>, body: string | Uint8Array | undefined): void {
    const onRequest = this.opts.onRequest;
    // Bytes (a file sent as the body) are not text to show: the record says how many there were.
    const shown = body instanceof Uint8Array ? `(${body.byteLength} bytes)` : body;
    if (onRequest) observe(() => onRequest({ service: this.service, method, url: url.toString(), headers: { ...headers }, body: shown, auth: this.opts.auth }));
  }

  /** The request id the service gave, redacted (a server may put anything in a header). */
  private requestId(headers: Headers): string | undefined {
    for (const name of this.opts.requestIdHeaders ?? DEFAULT_REQUEST_ID_HEADERS) {
      const v = headers[name];
      if (v) return this.redactor.text(Array.isArray(v) ? v[0] : v);
    }
    return undefined;
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
    const entry: RequestLogEntry = {
      service: this.service,
      method,
      url: this.redactor.url(shown),
      status,
      durationMs: this.clock.now() - started,
      requestId,
      attempt,
      error: error && error.kind !== 'http' && error.kind !== 'rate-limited' ? error.message : undefined,
    };
    observe(() => log(entry));
  }
}

/** Runs an observer's callback: its bug must not change the outcome of the request it observes. */
function observe(callback: () => void): void {
  try {
    callback();
  } catch {
    // Deliberately ignored (see above).
  }
}

/** setTimeout's longest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Aborts `controller` when the head timer (`timeoutMs`) or the deadline runs out, or with the
 * user's reason when `signal` aborts. disarmTimer() ends the head timer, disarm() everything.
 */
function armStops(
  controller: AbortController,
  signal: AbortSignal | undefined,
  timeoutMs: number,
  deadlineMs?: number,
): { disarmTimer(): void; disarm(): void } {
  const stop = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => stop(new Stopped('timeout')), Math.min(timeoutMs, MAX_TIMER_MS));
  const deadline = deadlineMs === undefined ? undefined : setTimeout(() => stop(new Stopped('deadline')), Math.min(deadlineMs, MAX_TIMER_MS));
  const onUserAbort = () => stop(signal?.reason ?? new CancelledError());
  if (signal?.aborted) onUserAbort();
  else signal?.addEventListener('abort', onUserAbort, { once: true });
  return {
    disarmTimer: () => clearTimeout(timer),
    disarm: () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onUserAbort);
    },
  };
}
