// A Clock the test drives: time only moves when the test (or an instant sleep) moves it, and every
// requested sleep is recorded, so waits can be asserted without spending real time.
import type { Clock } from '../../../src/core/clock';

interface Sleeper {
  at: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  cleanup: () => void;
}

export class ManualClock implements Clock {
  /** Every `sleep(ms)` requested, in order. */
  readonly sleeps: number[] = [];
  private t: number;
  private sleepers: Sleeper[] = [];

  /**
   * @param start initial time in ms
   * @param instant when true, sleep advances time by `ms` and resolves at once; otherwise sleepers
   *   wait until `advance`/`advanceTo` reaches their deadline.
   */
  constructor(start = 0, private readonly instant = false) {
    this.t = start;
  }

  /** A clock whose sleeps take no real time (start defaults to a whole second, for HTTP dates). */
  static instant(start = Date.UTC(2025, 0, 1, 12, 0, 0)): ManualClock {
    return new ManualClock(start, true);
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.instant) {
      this.t += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        at: this.t + Math.max(0, ms),
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** How many sleeps are waiting for time to pass. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** The earliest deadline of a waiting sleep. */
  nextWake(): number | undefined {
    return this.sleepers.length ? Math.min(...this.sleepers.map((s) => s.at)) : undefined;
  }

  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /** Sets the time and wakes every sleeper whose deadline has come. */
  advanceTo(t: number): void {
    if (t < this.t) throw new Error(`time cannot go back (${this.t} → ${t})`);
    this.t = t;
    const due = this.sleepers.filter((s) => s.at <= t).sort((a, b) => a.at - b.at);
    this.sleepers = this.sleepers.filter((s) => s.at > t);
    for (const s of due) {
      s.cleanup();
      s.resolve();
    }
  }
}

/** Lets every pending promise callback run (one macrotask turn). */
export function settle(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}
