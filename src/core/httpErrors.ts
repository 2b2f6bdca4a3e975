// The ApiErrors HttpClient reports, built in one place so that every string in them (message,
// service message, code, request id) has passed through the redactor: a server may echo the key
// back in any of them.
import type { Clock } from './clock';
import { ApiError, type ApiErrorInit, errorText } from './errors';
import { snippet, type Headers } from './httpExchange';
import type { Redactor } from './redact';
import { retryAfterFromHeaders } from './retry';
import { parseJson } from './validate';
import { ProxyError } from './net/failures';

/** What a service's error body says, in its own words (OpenAI `error.message`, Google `error.status`, …). */
export interface ServiceErrorInfo {
  code?: string;
  message?: string;
  retryAfterMs?: number;
}

export type ErrorParser = (status: number, body: unknown, headers: Headers) => ServiceErrorInfo;

/** Why an attempt was stopped on our side, if it was. */
export type Stop = 'timeout' | 'deadline' | 'cancelled' | undefined;

/** Error codes of network failures that prove the request never left: retrying cannot repeat it. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The local model servers the Connect… presets name, by their default port. */
const LOCAL_SERVER_HINTS: Record<number, string> = {
  11434: 'is `ollama serve` running?',
  1234: "is LM Studio's local server started (Developer tab, Start Server)?",
  8000: 'is the vLLM server (`vllm serve <model>`) running?',
};

export function neverSent(err: ApiError): boolean {
  return err.kind === 'network' && err.code !== undefined && NOT_SENT_CODES.has(err.code);
}

/** A host name that did not resolve: it will not resolve half a second later either, so it is not retried. */
const DNS_FAILURE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);

export function isDnsFailure(err: ApiError): boolean {
  return err.kind === 'network' && err.code !== undefined && DNS_FAILURE_CODES.has(err.code);
}

export class HttpErrors {
  constructor(
    private readonly service: string,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
    private readonly parseError: ErrorParser | undefined,
  ) {}

  make(kind: ApiError['kind'], message: string, extra: Partial<ApiErrorInit> = {}): ApiError {
    const r = (s: string | undefined) => (s === undefined ? undefined : this.redactor.text(s));
    return new ApiError({
      ...extra,
      kind,
      service: this.service,
      message: this.redactor.text(message),
      serviceMessage: r(extra.serviceMessage),
      code: r(extra.code),
      requestId: r(extra.requestId),
    });
  }

  /** A non-2xx answer, described from its body in the service's own words where it has them. */
  http(status: number, text: string, headers: Headers, requestId: string | undefined): ApiError {
    const parsed = parseJson(text);
    let info: ServiceErrorInfo = {};
    if (parsed.ok && this.parseError) {
      try {
        info = this.parseError(status, parsed.value, headers);
      } catch {
        info = {};
      }
    } else if (!parsed.ok && text.trim()) {
      info = { message: snippet(text) };
    }
    const retryAfterMs = retryAfterFromHeaders(headers, this.clock.now()) ?? info.retryAfterMs;
    const message = info.message ?? (parsed.ok ? undefined : text.trim() ? undefined : 'empty response body');
    return this.make(status === 429 ? 'rate-limited' : 'http', `${this.service} HTTP ${status}${message ? `: ${message}` : ''}`, {
      status,
      code: info.code,
      serviceMessage: message ?? `HTTP ${status}`,
      requestId,
      retryAfterMs,
      answer: { text, headers },
    });
  }

  tooLarge(e: Error, status: number | undefined, requestId: string | undefined): ApiError {
    return this.make('invalid-response', `${this.service} sent a ${e.message}`, { status, requestId, serviceMessage: e.message, cause: e });
  }

  /** The error for an attempt that failed without a complete answer: our timer, the user's cancel, or the network. */
  unanswered(e: unknown, stop: Stop, timeoutMs: number, requestId?: string, status?: number): ApiError {
    if (e instanceof ApiError) return e;
    if (stop === 'timeout' || stop === 'deadline')
      return this.make('timeout', `${this.service} did not answer within ${formatSeconds(timeoutMs)}`, { requestId, status, cause: e });
    if (stop === 'cancelled') return this.make('cancelled', 'Cancelled', { requestId, status, cause: e });
    const code = (e as { code?: string } | undefined)?.code;
    const msg = errorText(e);
    // A host name that does not resolve is a typo in the base URL or no network (DNS, VPN): say which
    // host, and what to check, instead of getaddrinfo's words.
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      const host = (e as { hostname?: unknown }).hostname;
      const which = typeof host === 'string' && host ? ` ${host}` : '';
      return this.make(
        'network',
        `${this.service} could not be reached (${code}${which}): check the host in the connection's base URL, or this machine's network (DNS, VPN, proxy)`,
        { requestId, status, code, cause: e },
      );
    }
    // A proxy that refused says so itself (ProxyError): only a refusal by the target itself is explained here.
    if (code === 'ECONNREFUSED' && !(e instanceof ProxyError)) return this.make('network', this.refused(e), { requestId, status, code, cause: e });
    // A failure put in words (a proxy's refusal, a certificate problem) names its code already.
    const prefix = code && !msg.includes(code) ? `${code} ` : '';
    return this.make('network', `${this.service} could not be reached: ${prefix}${msg}`, { requestId, status, code, cause: e });
  }

  /** Nothing listens at the address: which one, and (by its port) which local server to start. */
  private refused(e: unknown): string {
    const err = e as { address?: unknown; port?: unknown; message?: string };
    const fromMessage = /ECONNREFUSED (\S+):(\d+)/.exec(err.message ?? '');
    const address = typeof err.address === 'string' ? err.address : fromMessage?.[1];
    const port = typeof err.port === 'number' ? err.port : fromMessage ? Number(fromMessage[2]) : undefined;
    const where = address && port ? ` at ${address.includes(':') ? `[${address}]` : address}:${port}` : '';
    const hint = (port !== undefined && LOCAL_SERVER_HINTS[port]) || "is the server running, and is the port in the connection's base URL right?";
    return `${this.service} could not be reached: nothing is listening${where} (ECONNREFUSED): ${hint}`;
  }

  /** The error that ends a stream whose body had begun. */
  stream(e: unknown, stop: Stop, deadlineMs: number, requestId: string | undefined, status: number): ApiError {
    if (e instanceof ApiError) return e;
    if (stop === 'deadline')
      return this.make('timeout', `${this.service} stream did not finish within its deadline of ${formatSeconds(deadlineMs)}`, { requestId, status, cause: e });
    if (stop === 'cancelled') return this.make('cancelled', 'Cancelled', { requestId, status, cause: e });
    const code = (e as { code?: string } | undefined)?.code;
    if (code === 'UND_ERR_BODY_TIMEOUT') return this.make('timeout', `${this.service} stream went quiet`, { requestId, status, cause: e });
    const msg = errorText(e);
    return this.make('stream', `${this.service} stream broke: ${msg}`, { requestId, status, code, cause: e });
  }
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
