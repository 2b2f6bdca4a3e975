// The host side of the script engine: each script runs in a worker thread (worker.ts, bundled as
// dist/scriptWorker.js). QuickJS's interrupt handler only runs between bytecode steps, so a script
// inside one long native operation (`a.push("x".repeat(1 << 20))` in a loop, an ArrayBuffer bomb)
// would block the thread for a minute; here the host waits for the script's time limit plus a grace
// period, then ends the thread, reports the script stopped at its time limit, and starts a new thread
// for the next script only when one comes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ScriptRun } from './engine';
import { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from '../../core/scriptLimits';
import type { ScriptInput } from './model';
import { workerMessageSchema, type WorkerRequest } from './workerProtocol';

/** Time past the limit given to the engine's own interrupt handler before the thread is ended. */
export const WORKER_GRACE_MS = 500;
/** The engine's start in a new thread (loading its WebAssembly) on a busy machine. */
const START_MS = 30_000;

const WORKER_FILE = 'scriptWorker.js';

/**
 * dist/scriptWorker.js: beside the bundle that runs (dist/extension's chunks, dist/cli.js), or, for
 * the unit tests and benchmarks built into out/, the checkout's dist/ (built by the same command).
 */
export function scriptWorkerFile(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, WORKER_FILE), path.join(dir, 'dist', WORKER_FILE)]) if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`the script engine's ${WORKER_FILE} is missing beside ${__dirname}: rebuild with node esbuild.mjs`);
  }
}

interface Pending {
  resolve: (run: ScriptRun) => void;
  reject: (error: Error) => void;
  /** Script time spent before the last pause, and when the clock last started (undefined: paused). */
  spentMs: number;
  runningSince: number | undefined;
  timer: NodeJS.Timeout | undefined;
  started: number;
}

/** One run's script engine: scripts run one after another in one worker thread, started lazily. */
export class ScriptWorkerEngine {
  readonly limits: ScriptLimits;
  private worker: Worker | undefined;
  /** The thread has answered a script within its limits: a script sent now starts at once. */
  private engineLoaded = false;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(limits: Partial<ScriptLimits> = {}) {
    this.limits = { ...DEFAULT_SCRIPT_LIMITS, ...limits };
  }

  /** Runs `source` with `input`; resolves with what the script did, also when a limit stopped it. */
  run(source: string, input: ScriptInput): Promise<ScriptRun> {
    const next = this.queue.then(() => this.runNow(source, input));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Starts the thread and loads the engine now (~0.2-0.3 s on a busy machine), so the first script
   * does not wait for it: called when a notebook with scripts opens or a run of one starts.
   */
  warm(): void {
    if (this.worker) return;
    const worker = (this.worker = this.startWorker());
    const request: WorkerRequest = { kind: 'warm', limits: this.limits };
    worker.postMessage(request);
  }

  dispose(): void {
    this.endWorker();
  }

  private runNow(source: string, input: ScriptInput): Promise<ScriptRun> {
    const worker = (this.worker ??= this.startWorker());
    return new Promise<ScriptRun>((resolve, reject) => {
      const pending: Pending = { resolve, reject, spentMs: 0, runningSince: undefined, timer: undefined, started: performance.now() };
      this.pending = pending;
      // A loaded engine starts the script at once (it says when it pauses: a context it had not made
      // ahead, a library); until then the engine is loading (its WebAssembly, the prelude).
      const clockRunning = this.engineLoaded;
      if (clockRunning) this.clock(pending, true);
      else pending.timer = setTimeout(() => this.fail(new Error(`the script engine did not start within ${START_MS / 1000} s`)), START_MS);
      const request: WorkerRequest = { kind: 'run', source, input, limits: this.limits, clockRunning };
      worker.ref();
      worker.postMessage(request);
    });
  }

  private startWorker(): Worker {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:worker_threads costs a CLI run ~4 ms at start; only a cell with a script needs it (issue 39)
    const { Worker: WorkerThread } = require('node:worker_threads') as { Worker: typeof Worker };
    const worker = new WorkerThread(scriptWorkerFile());
    this.engineLoaded = false;
    worker.on('message', (raw: unknown) => {
      if (worker !== this.worker) return;
      const parsed = workerMessageSchema().safeParse(raw);
      if (!parsed.success) return this.fail(new Error('the script engine answered in a form the host does not know'));
      const message = parsed.data;
      const pending = this.pending;
      if (!pending) return;
      if (message.kind === 'clock') return this.clock(pending, message.running);
      clearTimeout(pending.timer);
      this.pending = undefined;
      worker.unref();
      // After a limit the engine makes a new runtime (its prelude too) before the next script.
      this.engineLoaded = message.kind === 'done' && !message.run.failure?.limit;
      if (message.kind === 'done') pending.resolve(message.run);
      else pending.reject(new Error(message.message));
    });
    worker.on('error', (e) => worker === this.worker && this.fail(e));
    worker.on('exit', (code) => worker === this.worker && this.fail(new Error(`the script engine's thread ended (exit code ${code})`)));
    // A worker waiting for the next script does not keep the CLI's process alive (ref'd while it runs one).
    worker.unref();
    return worker;
  }

  /** Arms the deadline while the script's own time runs; holds it while the engine loads a library. */
  private clock(pending: Pending, running: boolean): void {
    const now = performance.now();
    clearTimeout(pending.timer);
    pending.timer = undefined;
    if (!running) {
      if (pending.runningSince !== undefined) pending.spentMs += now - pending.runningSince;
      pending.runningSince = undefined;
      return;
    }
    pending.runningSince = now;
    const left = this.limits.timeMs + WORKER_GRACE_MS - pending.spentMs;
    pending.timer = setTimeout(() => this.stopAtTimeLimit(pending), Math.max(0, left));
  }

  /** The script is inside a native operation past its limit: the thread ends, the next script gets a new one. */
  private stopAtTimeLimit(pending: Pending): void {
    if (this.pending !== pending) return;
    this.pending = undefined;
    this.endWorker();
    pending.resolve({ logs: [], failure: { limit: 'time', message: 'time' }, durationMs: performance.now() - pending.started });
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    this.endWorker();
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  private endWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}
