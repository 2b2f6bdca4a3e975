// Long work on the extension host's one thread (a 20 MB answer parsed and redacted) is done in
// slices: the work asks `due()` between small steps and, when its slice is used up, awaits
// `pause()`, which lets timers, I/O and the editor's messages run before it goes on.

/** How long a slice may hold the thread: well under what a user notices as a stutter. */
export const DEFAULT_SLICE_MS = 8;

/** Steps between two clock reads: reading the clock on every small step would cost more than the step. */
const STEPS_PER_CHECK = 64;

export class TimeSlicer {
  private deadline: number;
  private steps = 0;

  constructor(private readonly sliceMs = DEFAULT_SLICE_MS) {
    this.deadline = performance.now() + sliceMs;
  }

  /** True when the current slice is used up (checked on every STEPS_PER_CHECK-th call). */
  due(): boolean {
    if (++this.steps < STEPS_PER_CHECK) return false;
    this.steps = 0;
    return performance.now() >= this.deadline;
  }

  /** True when the current slice is used up (reads the clock: for steps of a millisecond or more). */
  expired(): boolean {
    return performance.now() >= this.deadline;
  }

  /** Gives the event loop a turn (timers and I/O included), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.deadline = performance.now() + this.sliceMs;
    this.steps = 0;
  }
}

/**
 * Runs a generator that yields wherever it may be paused: with a slicer, pausing between slices;
 * without one, straight through (for small values, where a pause would only add latency).
 */
export async function runSliced<T>(work: Generator<unknown, T>, slicer: TimeSlicer): Promise<T> {
  for (let step = work.next(); ; step = work.next()) {
    if (step.done) return step.value;
    await slicer.pause();
  }
}

/** The same generator run to its end in one go. */
export function runAtOnce<T>(work: Generator<unknown, T>): T {
  for (let step = work.next(); ; step = work.next()) if (step.done) return step.value;
}
