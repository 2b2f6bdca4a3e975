/**
 * When and how long to wait before trying again: HTTP requests (same rules as the official SDKs)
 * and realtime reconnects share `backoffDelay`, each caller with its own policy.
 */

export interface BackoffPolicy {
  /** First backoff step; doubled each attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** No wait is shorter than this, whatever the jitter (default 0). */
  minDelayMs?: number;
}

export interface RetryPolicy extends BackoffPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** A server-requested wait longer than this is not waited out: the error goes to the user. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The wait the server asked for, in ms: `retry-after-ms` first (OpenAI/Azure), then `retry-after`
 * as seconds or an HTTP date. Undefined when absent or unparseable.
 */
export function retryAfterFromHeaders(headers: HeaderBag, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = header(headers, 'retry-after');
  if (ra === undefined || ra.trim() === '') return undefined;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Exponential backoff with jitter in [50%, 100%] of the step (random() = 0 gives the whole step),
 * capped at maxDelayMs, never under minDelayMs. `attempt` starts at 0.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  return Math.max(policy.minDelayMs ?? 0, step * (1 - 0.5 * random()));
}
