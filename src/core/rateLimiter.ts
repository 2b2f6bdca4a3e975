import { systemClock, type Clock } from './clock';

const WINDOW_MS = 60_000;

/**
 * A client-side limiter that never lets more than `limit` requests through in any 60 s window
 * (a sliding log, not a fixed bucket: a fixed bucket allows 2×limit across a boundary).
 * Keys separate independent quotas, e.g. one per connection and one per model.
 */
export class SlidingWindowLimiter {
  private readonly grants = new Map<string, number[]>();
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** Requests still allowed under `limit` for `key` right now. */
  remaining(key: string, limit: number): number {
    return Math.max(0, limit - this.recent(key).length);
  }

  /** Ms until the next slot frees up (0 when one is free). */
  waitTime(key: string, limit: number): number {
    const recent = this.recent(key);
    if (recent.length < limit) return 0;
    return recent[recent.length - limit] + WINDOW_MS - this.clock.now();
  }

  /**
   * Waits for a free slot and takes it. Callers for one key are served in order, so a burst
   * cannot starve an earlier request. Rejects with the signal's reason if cancelled while waiting.
   */
  acquire(key: string, limit: number, signal?: AbortSignal, onWait?: (ms: number) => void): Promise<void> {
    const prev = this.queues.get(key) ?? Promise.resolve();
    const mine = prev.catch(() => undefined).then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        const wait = this.waitTime(key, limit);
        if (wait <= 0) break;
        onWait?.(wait);
        await this.clock.sleep(wait, signal);
      }
      this.recent(key).push(this.clock.now());
    });
    const tail = mine.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return mine;
  }

  private recent(key: string): number[] {
    let list = this.grants.get(key);
    if (!list) this.grants.set(key, (list = []));
    const cutoff = this.clock.now() - WINDOW_MS;
    let drop = 0;
    while (drop < list.length && list[drop] <= cutoff) drop++;
    if (drop) list.splice(0, drop);
    return list;
  }
}
