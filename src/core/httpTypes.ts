// The HTTP client's vocabulary: what a request, a response, a stream and a log entry are, and the
// options a client is made with. src/core/http.ts implements them; every importer may keep
// importing them from there.
import type { Dispatcher } from 'undici';
import type { AuthPlacement } from './auth';
import type { Cancel } from './cancellation';
import type { Clock } from './clock';
import type { ApiError } from './errors';
import type { ErrorParser } from './httpErrors';
import type { Headers } from './httpExchange';
import type { SlidingWindowLimiter } from './rateLimiter';
import type { Redactor } from './redact';
import type { RetryPolicy } from './retry';
import type { Schema } from './validate';

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
  /**
   * Told when the server answered 401 to `key`. Returns true when asking `credentials` again may
   * give another key (a cached token forgotten: revoked, or its expiry misreported); the request
   * is then sent once more. Absent, or false (a stored key), a 401 is reported as it is.
   */
  credentialRefused?: (key: string) => boolean;
  timeoutMs?: number;
  /** Quota of the connection as a whole; per-request limits (e.g. per model) add to it. */
  rateLimit?: RateLimit;
  limiter?: SlidingWindowLimiter;
  retry?: RetryPolicy;
  clock?: Clock;
  log?: (entry: RequestLogEntry) => void;
  redactor?: Redactor;
  parseError?: ErrorParser;
  requestIdHeaders?: readonly string[];
  defaultHeaders?: Record<string, string>;
  /** Query parameters every request carries unless it names them itself (Azure's api-version). */
  defaultQuery?: Record<string, string>;
  /**
   * Where a request's path really goes, given its body: Azure's classic API names the deployment in
   * the path (`deployments/<d>/chat/completions`) where OpenAI names the model in the body.
   */
  routePath?: (path: string, body: string | Uint8Array | undefined) => string;
  /** The connection pool to use; by default one Agent shared by every client (not undici's global one). */
  dispatcher?: Dispatcher;
  /** A body read whole (JSON answers, error bodies) larger than this fails as 'invalid-response'; default 64 MiB. */
  maxResponseBytes?: number;
  /**
   * How long a stream may run in all, head included; default 15 minutes. The idle timeout alone
   * cannot end a stream that stays open on keep-alive comments.
   */
  streamDeadlineMs?: number;
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
  /** Sent as is (for signed requests whose signature covers the exact bytes; bytes for bodies that include files). */
  rawBody?: string | Uint8Array;
  schema?: Schema<T>;
  cancel?: Cancel;
  timeoutMs?: number;
  rateLimits?: readonly RateLimit[];
  /** Called before each retry wait, so a UI can show a countdown. */
  onRetry?: (notice: RetryNotice) => void;
  /** Called when the client-side limiter holds the request back. */
  onQueued?: (waitMs: number) => void;
  /** Called with the time spent resolving the credential (an approval dialog, a token fetch), on each attempt that waited. */
  onCredentials?: (waitMs: number) => void;
  /** Set false to never retry (e.g. non-idempotent requests). */
  retry?: boolean;
}

export interface StreamRequestOptions extends RequestOptions<never> {
  /**
   * The media type a successful answer must have (e.g. "text/event-stream"). Anything else, such
   * as a proxy's HTML page with status 200, fails as 'invalid-response' with a snippet of it.
   */
  expectContentType?: string;
}

export interface HttpResponse<T> {
  data: T;
  status: number;
  /** Redacted: sensitive headers masked, known secrets masked in the values. */
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
