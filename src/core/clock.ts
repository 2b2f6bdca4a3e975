/**
 * Time as the HTTP retries, the rate limiter, the realtime client and its log see it: one
 * abstraction so tests substitute one manual clock and no timer escapes it.
 */
export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fn` once after `ms`. Unlike a sleep, which someone awaits, a timer is background work
   * (a reconnect, a ping, a log flush), so on the system clock it never keeps the process alive,
   * unless `awaited`: a deadline that settles a promise someone awaits (a subscription that must
   * be confirmed in time) must fire even when nothing else is left to run, or a CLI process would
   * end with that promise unsettled and report nothing.
   */
  setTimer(fn: () => void, ms: number, opts?: TimerOptions): TimerHandle;
  /** Cancels a timer; undefined or an already fired handle is ignored. */
  clearTimer(handle: TimerHandle | undefined): void;
}

export interface TimerOptions {
  /** The timer settles something awaited: keep the process alive until it fires or is cleared. */
  awaited?: boolean;
}

declare const timerHandle: unique symbol;
/** Opaque: only the clock that made it can read it. */
export interface TimerHandle {
  readonly [timerHandle]: true;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      // Not unref'd: an awaited retry wait is the only thing keeping a CLI's request alive.
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  setTimer: (fn, ms, opts) => {
    const timer = setTimeout(fn, Math.max(0, ms));
    // Background timers never keep a process alive on their own (tests, the sandbox CLI).
    if (!opts?.awaited) timer.unref?.();
    return timer as unknown as TimerHandle;
  },
  clearTimer: (handle) => {
    if (handle !== undefined) clearTimeout(handle as unknown as NodeJS.Timeout);
  },
};
