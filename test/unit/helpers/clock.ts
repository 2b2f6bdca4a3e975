// A Clock the test drives: time only moves when the test (or an instant sleep) moves it, and every
// requested sleep is recorded, so waits can be asserted without spending real time. Timers
// (setTimer) fire synchronously inside advance()/advanceTo(), in deadline order.
import type { Clock, TimerHandle } from '../../../src/core/clock';

interface Sleeper {
  at: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  cleanup: () => void;
}

interface Timer {
  at: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  /** Every `sleep(ms)` requested, in order. */
  readonly sleeps: number[] = [];
  private t: number;
  private sleepers: Sleeper[] = [];
  private readonly timers = new Map<number, Timer>();
  private timerSeq = 0;

  /**
   * @param start initial time in ms
   * @param instant when true, sleep advances time by `ms` and resolves at once; otherwise sleepers
   *   wait until `advance`/`advanceTo` reaches their deadline.
   */
  constructor(
    start = 0,
    private readonly instant = false,
  ) {
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
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.instant) {
      this.t += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason as Error);
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

  setTimer(fn: () => void, ms: number): TimerHandle {
    const id = ++this.timerSeq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id as unknown as TimerHandle;
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  /** How many sleeps are waiting for time to pass. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** How many timers have not fired (nor been cleared) yet. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** The earliest deadline of a waiting sleep. */
  nextWake(): number | undefined {
    return this.sleepers.length ? Math.min(...this.sleepers.map((s) => s.at)) : undefined;
  }

  advance(ms: number): void {
    this.advanceTo(this.t + ms);
  }

  /**
   * Sets the time and wakes every sleeper whose deadline has come. Due timers fire in deadline
   * order with the clock at their deadline, including timers they set that fall due before `t`.
   */
  advanceTo(t: number): void {
    if (t < this.t) throw new Error(`time cannot go back (${this.t} → ${t})`);
    for (;;) {
      let next: [number, Timer] | undefined;
      for (const e of this.timers) if (e[1].at <= t && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
    }
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
