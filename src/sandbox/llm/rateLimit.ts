// Server-side per-model quotas, reported the way OpenAI does: x-ratelimit-* headers on every
// model request, and 429 with retry-after / retry-after-ms once the window is full.

const TOKENS_PER_WINDOW = 1_000_000;

interface Grant {
  at: number;
  tokens: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Set when refused: how long until a request slot frees up. */
  retryAfterMs?: number;
  limit: number;
}

/** OpenAI writes reset times as durations like "1s", "6m0s", "250ms". */
export function formatReset(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number(s.toFixed(3))}s`;
  return `${Math.floor(s / 60)}m${Math.round(s % 60)}s`;
}

export class ModelRateLimits {
  private readonly grants = new Map<string, Grant[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes a slot for `model` if one is free (with its token cost) and says what to answer. */
  take(model: string, limit: number, windowMs: number, tokens: number): RateDecision {
    const now = this.now();
    const list = this.recent(model, now, windowMs);
    const used = list.reduce((n, g) => n + g.tokens, 0);
    if (list.length >= limit) {
      const retryAfterMs = Math.max(1, list[list.length - limit].at + windowMs - now);
      return { allowed: false, retryAfterMs, limit, headers: this.headers(limit, 0, retryAfterMs, used, list, windowMs, now) };
    }
    list.push({ at: now, tokens });
    const reset = list[0].at + windowMs - now;
    return { allowed: true, limit, headers: this.headers(limit, limit - list.length, reset, used + tokens, list, windowMs, now) };
  }

  private headers(limit: number, remaining: number, resetMs: number, usedTokens: number, list: Grant[], windowMs: number, now: number): Record<string, string> {
    const tokenReset = list.length ? list[0].at + windowMs - now : 0;
    return {
      'x-ratelimit-limit-requests': String(limit),
      'x-ratelimit-remaining-requests': String(remaining),
      'x-ratelimit-reset-requests': formatReset(resetMs),
      'x-ratelimit-limit-tokens': String(TOKENS_PER_WINDOW),
      'x-ratelimit-remaining-tokens': String(Math.max(0, TOKENS_PER_WINDOW - usedTokens)),
      'x-ratelimit-reset-tokens': formatReset(tokenReset),
    };
  }

  private recent(model: string, now: number, windowMs: number): Grant[] {
    let list = this.grants.get(model);
    if (!list) this.grants.set(model, (list = []));
    let drop = 0;
    while (drop < list.length && list[drop].at + windowMs <= now) drop++;
    if (drop) list.splice(0, drop);
    return list;
  }
}
