/** Timers the realtime client and log run on; tests pass short or manual ones so nothing waits 120 s. */
export interface TimerApi {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimers: TimerApi = {
  now: () => Date.now(),
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // The client never keeps a process alive on its own (tests, the sandbox CLI).
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

