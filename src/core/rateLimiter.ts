import { systemClock, type Clock } from './clock';

const WINDOW_MS = 60_000;

/** One quota a request counts against: at most `limit` requests per window under `key`. */
export interface Quota {
  key: string;
  limit: number;
}

/**
 * A client-side limiter that never lets more than `limit` requests through in any 60 s window
 * (a sliding log, not a fixed bucket: a fixed bucket allows 2×limit across a boundary).
 * Keys separate independent quotas, e.g. one per connection and one per model.
 */
export class SlidingWindowLimiter {
  private readonly grants = new Map<string, number[]>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly clock: Clock = systemClock,
    /** Servers that enforce a quota (the sandbox) may use a shorter window, e.g. in tests. */
    private readonly windowMs: number = WINDOW_MS,
  ) {}

  /** Requests still allowed under `limit` for `key` right now. */
  remaining(key: string, limit: number): number {
    return Math.max(0, limit - this.recent(key).length);
  }

  /** Ms until the next slot frees up (0 when one is free). */
  waitTime(key: string, limit: number): number {
    const recent = this.recent(key);
    if (recent.length < limit) return 0;
    return recent[recent.length - limit] + this.windowMs - this.clock.now();
  }

  /** Takes a slot if one is free right now (no waiting); false when the window is full. */
  tryAcquire(key: string, limit: number): boolean {
    const recent = this.recent(key);
    if (recent.length >= limit) return false;
    recent.push(this.clock.now());
    return true;
  }

  /**
   * Takes a slot under every quota right now if all have room and nobody is queued for any of
   * them; false otherwise (then call acquireAll). The common case costs no promise at all.
   */
  tryAcquireAll(quotas: readonly Quota[]): boolean {
    for (const q of quotas) if (this.queues.has(q.key) || this.recent(q.key).length >= q.limit) return false;
    const now = this.clock.now();
    for (const q of quotas) this.grants.get(q.key)!.push(now);
    return true;
  }

  /**
   * Waits for a free slot and takes it. Callers for one key are served in order, so a burst
   * cannot starve an earlier request. Rejects with the signal's reason if cancelled while waiting.
   */
  acquire(key: string, limit: number, signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void> {
    return this.acquireAll([{ key, limit }], signal, onWait);
  }

  /**
   * Takes a slot under every quota at the same instant, once all have room. Taking them one after
   * another would date a slot before the request goes out (while it still waits for the next
   * quota), letting that quota overrun later. A quota's turn is taken only once the quotas before
   * it have room, so list the narrow quotas (per model) first: a request held back by its model
   * then does not block the connection's other requests. Every caller must list shared quotas in
   * the same order (HttpClient: the request's own, then the connection's), or two could wait on
   * each other.
   */
  async acquireAll(quotas: readonly Quota[], signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void> {
    const releases: (() => void)[] = [];
    try {
      const keys = [...new Set(quotas.map((q) => q.key))];
      for (const [i, key] of keys.entries()) {
        const held = new Set(keys.slice(0, i + 1));
        const prev = this.queues.get(key) ?? Promise.resolve();
        let release!: () => void;
        const done = new Promise<void>((r) => (release = r));
        // The next caller's turn starts when both we and everyone ahead of us are done.
        const tail = prev.then(() => done);
        this.queues.set(key, tail);
        releases.push(() => {
          release();
          void tail.then(() => {
            if (this.queues.get(key) === tail) this.queues.delete(key);
          });
        });
        await untilResolvedOrAborted(prev, signal);
        for (;;) {
          signal?.throwIfAborted();
          // Quotas whose turn we hold only gain room while we wait, so checking all keeps them free.
          const wait = Math.max(0, ...quotas.filter((q) => held.has(q.key)).map((q) => this.waitTime(q.key, q.limit)));
          if (wait <= 0) break;
          onWait?.(wait);
          await this.clock.sleep(wait, signal);
        }
      }
      const now = this.clock.now();
      for (const key of keys) this.recent(key).push(now);
    } finally {
      for (const release of releases) release();
    }
  }

  private recent(key: string): number[] {
    let list = this.grants.get(key);
    if (!list) this.grants.set(key, (list = []));
    const cutoff = this.clock.now() - this.windowMs;
    let drop = 0;
    while (drop < list.length && list[drop] <= cutoff) drop++;
    if (drop) list.splice(0, drop);
    return list;
  }
}

/** Resolves with `p` (which never rejects), or rejects with the signal's reason as soon as it aborts. */
function untilResolvedOrAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
