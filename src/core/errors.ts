import { certificateProblem } from './net/tlsReasons';
import { sharedAcrossBundles } from './sharedClass';

/**
 * The one error type every service client throws. It carries what a user needs to act on a
 * failure and what support needs to trace it: the HTTP status, the service's own error code and
 * message, and the request id.
 */
export type ApiErrorKind =
  | 'http' //            the service answered with a non-2xx status
  | 'invalid-response' // 2xx (or error) body that is not JSON or does not match the schema
  | 'timeout'
  | 'network' //         connection refused/reset, DNS, TLS
  | 'cancelled'
  | 'rate-limited' //    the client-side limiter or a 429 whose retries ran out
  | 'stream' //          an error reported inside a stream that had already begun
  | 'auth' //            no key stored / origin not approved / restricted mode
  | 'protocol'; //       realtime protocol violations (bad frames, close codes)

export interface ApiErrorInit {
  kind: ApiErrorKind;
  service: string;
  message: string;
  status?: number;
  code?: string;
  serviceMessage?: string;
  requestId?: string;
  retryAfterMs?: number;
  cause?: unknown;
  answer?: ErrorAnswer;
}

/** What a server answered with an error status, as it came (a notebook cell asserts on it). */
export interface ErrorAnswer {
  readonly text: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export class ApiError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.ApiError');
  }

  readonly kind: ApiErrorKind;
  readonly service: string;
  readonly status?: number;
  readonly code?: string;
  readonly serviceMessage?: string;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  /**
   * The body and headers of an HTTP error answer: `?? json.error.code` on a documented 404 reads
   * them, where the cell once saw only "HTTP 404". Never part of the message: it may hold anything.
   */
  readonly answer?: ErrorAnswer;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.service = init.service;
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.serviceMessage;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.answer = init.answer;
  }

  /** One line for a notification: "OpenAI 429 rate_limit_exceeded: Slow down (request id req_1)". */
  describe(): string {
    const text = this.serviceMessage ?? this.message;
    // A sentence that names the service or the code itself ("Maps could not be reached (ENOTFOUND …)")
    // is not preceded by them again.
    const service = text.startsWith(`${this.service} `) ? undefined : this.service;
    const code = this.code !== undefined && text.includes(this.code) ? undefined : this.code;
    const head = [service, this.status, code].filter((p) => p !== undefined && p !== '').join(' ');
    return `${head ? `${head}: ` : ''}${text}${requestIdSuffix(this.requestId)}`;
  }
}

/**
 * The one text a user sees for any failure, wherever it is shown (notifications, trees, documents,
 * logs, notebook outputs, CLI reports): an ApiError's status, the service's own words and the
 * request id; for anything else its message. Callers redact it where they print it.
 */
export function errorText(e: unknown): string {
  if (isApiError(e)) return e.describe();
  if (!(e instanceof Error)) return String(e);
  // A raw certificate error (one no layer put in words with its host) still says what was wrong.
  const certificate = e.name === 'NetworkFailure' ? undefined : certificateProblem((e as { code?: unknown }).code as string | undefined, undefined, e.message);
  return certificate ?? e.message;
}

/** " (request id req_1)", or "" when there is none: how every message names the request. */
export function requestIdSuffix(requestId: string | undefined): string {
  return requestId ? ` (request id ${requestId})` : '';
}

/** `e instanceof ApiError`, which holds for an ApiError from any bundle (src/core/sharedClass.ts). */
export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
