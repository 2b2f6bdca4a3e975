// The script host: QuickJS compiled to WebAssembly, never the host's own JavaScript. One runtime per
// run, a fresh context per script (made ahead, see ScriptEngine.prepare), the prelude compiled once
// per runtime in a frozen context of its own (see prelude.ts); nothing of the host is reachable from
// inside (no process, no require of Node's modules, no file system, network or timers). Values cross as JSON text only; the
// few host functions take and return strings. Limits: time (an interrupt handler), memory and stack
// (the runtime's own limits) and log output (counted here).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { DEFAULT_SCRIPT_LIMITS, type LimitKind, type ScriptLimits } from '../../core/scriptLimits';
import { isScriptLibrary, librarySource, shippedScriptsDir } from './libraries';
import { scriptOutputSchema, type ScriptInput, type ScriptOutput } from './model';
import { LOCKDOWN, PRELUDE } from './prelude';

/** The file name the script's own code is evaluated under: its frames in a stack say `(script:LINE:COL)`. */
const SCRIPT_FILE = 'script';
const PRELUDE_FILE = 'prelude';
const REHEARSAL_INPUT: ScriptInput = {
  phase: 'post',
  requestName: 'rehearsal',
  variables: { name: 'value' },
  request: { method: 'GET', url: 'https://example.com/?q=1', headers: [{ key: 'Accept', value: 'application/json' }] },
  response: { code: 200, headers: [{ key: 'Content-Type', value: 'application/json' }], body: '{"a":[1]}', responseTime: 1, size: 9 },
};
const REHEARSAL_SCRIPT = `pm.test("t", () => { pm.response.to.have.status(200); pm.expect(pm.response.json().a).to.eql([1]); pm.expect(pm.request.headers.get("accept")).to.be.a("string"); });
pm.environment.set("name", pm.variables.get("name")); console.log(pm.request.url.toString());`;
/** Random bytes a script may ask for at once (crypto.getRandomValues' own limit). */
const MAX_RANDOM_BYTES = 65536;

let loading: Promise<QuickJSWASMModule> | undefined;

/**
 * The WebAssembly module, loaded once per process on the first script (~40 ms): the shipped
 * build's copy in dist/scripts/, else the package's own (unit tests run packages from node_modules).
 */
export function loadScriptModule(): Promise<QuickJSWASMModule> {
  loading ??= (async () => {
    const { newQuickJSWASMModuleFromVariant, newVariant } = await import('quickjs-emscripten-core');
    const variant = releaseVariant();
    const shipped = path.join(shippedScriptsDir(), 'quickjs.wasm');
    return newQuickJSWASMModuleFromVariant(existsSync(shipped) ? newVariant(variant, { wasmLocation: shipped }) : variant);
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * The release build with its Emscripten loader in CommonJS form: the package's own variant imports
 * the ES module form, which finds itself through import.meta.url, empty once esbuild has bundled it
 * into CommonJS (dist/notebook.js, dist/cli.js: "The argument 'filename' must be … Received undefined").
 */
function releaseVariant(): QuickJSSyncVariant {
  type Loader = Awaited<ReturnType<QuickJSSyncVariant['importModuleLoader']>>;
  return {
    type: 'sync',
    importFFI: () => import('@jitl/quickjs-wasmfile-release-sync/ffi').then((m) => m.QuickJSFFI),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    importModuleLoader: () => Promise.resolve(require('@jitl/quickjs-wasmfile-release-sync/emscripten-module') as Loader),
  };
}

export interface ScriptFailure {
  /** Set when a limit stopped the script. */
  limit?: LimitKind;
  /** The error as the engine gave it: "TypeError: cannot read property 'x' of null". */
  message: string;
  /** 1-based line in the script's own text. */
  line?: number;
}

export interface ScriptRun {
  /** What the script recorded (tests, variables, notes), also when it threw; absent when a limit stopped it. */
  output?: ScriptOutput;
  logs: string[];
  failure?: ScriptFailure;
  durationMs: number;
}

/** What the engine knows of the script that runs now; the host functions and the interrupt handler read it. */
interface RunState {
  logs: string[];
  logBytes: number;
  stop: LimitKind | undefined;
  /** When the script's time runs out (performance.now()). */
  deadline: number;
  /** The engine works for the script (its context, the APIs, a library): not the script's time. */
  loading: boolean;
  clock: ((running: boolean) => void) | undefined;
}

/** A fresh context with the host functions, waiting for its script. */
interface Prepared {
  context: QuickJSContext;
  /** Disposes the libraries the script loaded into this context. */
  release: () => void;
}

const idleState = (): RunState => ({ logs: [], logBytes: 0, stop: undefined, deadline: Infinity, loading: true, clock: undefined });

/** The prelude's realm: compiled once per runtime, then frozen; `begin` defines the APIs in a script's context. */
interface PreludeRealm {
  context: QuickJSContext;
  begin: QuickJSHandle;
}

/**
 * One run's engine: scripts run one after another, each in a new context of the same runtime, so a
 * script never sees what another left behind (its globals, a changed prototype). Compiling the
 * prelude costs more than most scripts (~4 ms), so it is compiled once per runtime (PreludeRealm);
 * the next script's context (~0.2 ms) is made ahead (`prepare`, while the caller waits for a request).
 */
export class ScriptEngine {
  private runtime: QuickJSRuntime | undefined;
  private realm: PreludeRealm | undefined;
  private prepared: Prepared | undefined;
  private state: RunState = idleState();

  private constructor(
    private readonly module: QuickJSWASMModule,
    readonly limits: ScriptLimits,
  ) {}

  static async create(limits: Partial<ScriptLimits> = {}): Promise<ScriptEngine> {
    return new ScriptEngine(await loadScriptModule(), { ...DEFAULT_SCRIPT_LIMITS, ...limits });
  }

  /**
   * Runs a small script of both phases' APIs once, so that the first script of the run finds the
   * engine's code compiled by Node (~20-40 ms more for the first script otherwise). Its own context,
   * as every script's; nothing of it stays.
   */
  rehearse(): void {
    this.run(REHEARSAL_SCRIPT, REHEARSAL_INPUT);
  }

  /** Makes the next script's context now (a no-op when one waits already). */
  prepare(): void {
    this.prepared ??= this.newPrepared();
  }

  /**
   * Runs `source` (a script's text) with `input`; never throws for anything the script does.
   * `clock(true)` is called when the script's own time starts or resumes, `clock(false)` while the
   * engine works for it (making a context it had not made ahead, loading a library): a watcher
   * outside (workerHost.ts) counts the same time.
   */
  run(source: string, input: ScriptInput, clock?: (running: boolean) => void): ScriptRun {
    const started = performance.now();
    const state: RunState = { ...idleState(), clock };
    if (!this.prepared) clock?.(false);
    const { context, release } = this.prepared ?? this.newPrepared();
    this.prepared = undefined;
    this.state = state;
    const runtime = this.runtime!;
    let failure: ScriptFailure | undefined;
    let output: ScriptOutput | undefined;
    let finish: QuickJSHandle | undefined;
    try {
      const inputText = context.newString(JSON.stringify(input));
      context.setProp(context.global, '__awb_input', inputText);
      inputText.dispose();
      // Defining the APIs over the input is the engine's own work: the script's time starts after it.
      const begun = context.callFunction(this.realm!.begin, context.undefined, context.global);
      if (begun.error) this.throwEngineError(context, begun.error);
      finish = begun.value;
      state.loading = false;
      state.deadline = performance.now() + this.limits.timeMs;
      clock?.(true);
      // On the wrapper's first line, so the script's line N is line N of the evaluated text.
      const result = context.evalCode(`(function(){${source}\n})()`, SCRIPT_FILE);
      if (result.error) failure = this.failureOf(context, result.error, state.stop);
      else {
        result.value.dispose();
        const jobs = runtime.executePendingJobs();
        if (jobs.error) failure = this.failureOf(context, jobs.error, state.stop);
      }
      if (state.stop && !failure?.limit) failure = { limit: state.stop, message: state.stop };
      if (!failure?.limit) output = this.collect(context, finish);
    } finally {
      finish?.dispose();
      release();
      context.dispose();
      this.state = idleState();
      // A runtime that ran out of memory or was stopped mid-way is not trusted with the next script.
      if (failure?.limit) this.disposeRuntime();
    }
    return { ...(output && { output }), logs: state.logs, ...(failure && { failure }), durationMs: performance.now() - started };
  }

  dispose(): void {
    this.disposeRuntime();
  }

  private newPrepared(): Prepared {
    const runtime = (this.runtime ??= this.newRuntime());
    this.realm ??= this.newPreludeRealm(runtime);
    const context = runtime.newContext();
    try {
      return { context, release: this.defineHostFunctions(context) };
    } catch (e) {
      context.dispose();
      throw e;
    }
  }

  private newPreludeRealm(runtime: QuickJSRuntime): PreludeRealm {
    const context = runtime.newContext();
    try {
      const prelude = this.evalOrThrow(context, PRELUDE, PRELUDE_FILE);
      const begin = context.getProp(prelude, 0);
      try {
        const lockdown = this.evalOrThrow(context, LOCKDOWN, PRELUDE_FILE);
        const locked = context.callFunction(lockdown, context.undefined, prelude);
        lockdown.dispose();
        if (locked.error) this.throwEngineError(context, locked.error);
        locked.value.dispose();
        return { context, begin };
      } catch (e) {
        begin.dispose();
        throw e;
      } finally {
        prelude.dispose();
      }
    } catch (e) {
      context.dispose();
      throw e;
    }
  }

  private newRuntime(): QuickJSRuntime {
    const runtime = this.module.newRuntime();
    runtime.setMemoryLimit(this.limits.memoryBytes);
    runtime.setMaxStackSize(this.limits.stackBytes);
    runtime.setInterruptHandler(() => {
      const state = this.state;
      if (state.stop) return true;
      if (!state.loading && performance.now() > state.deadline) state.stop = 'time';
      return state.stop !== undefined;
    });
    return runtime;
  }

  private disposeRuntime(): void {
    if (this.prepared) {
      this.prepared.release();
      this.prepared.context.dispose();
      this.prepared = undefined;
    }
    if (this.realm) {
      this.realm.begin.dispose();
      this.realm.context.dispose();
      this.realm = undefined;
    }
    this.runtime?.dispose();
    this.runtime = undefined;
  }

  /** The few host functions the prelude takes (and removes from the global object) before the script runs. */
  private defineHostFunctions(context: QuickJSContext): () => void {
    const set = (name: string, handle: QuickJSHandle) => {
      context.setProp(context.global, name, handle);
      handle.dispose();
    };
    set(
      '__awb_log',
      context.newFunction('log', (text) => {
        const state = this.state;
        const line = context.getString(text);
        state.logBytes += Buffer.byteLength(line) + 1;
        if (state.logBytes > this.limits.logBytes) state.stop = 'log';
        else state.logs.push(line);
      }),
    );
    set(
      '__awb_random',
      context.newFunction('random', (count) =>
        context.newString(randomBytes(Math.max(0, Math.min(MAX_RANDOM_BYTES, context.getNumber(count) | 0))).toString('hex')),
      ),
    );
    // Each library is loaded once per script, as Node's require caches: loading is not counted as
    // the script's time, so a script requiring in a loop would otherwise never reach its limit.
    const loaded = new Map<string, QuickJSHandle>();
    set(
      '__awb_require',
      context.newFunction('require', (nameHandle) => {
        const name = context.getString(nameHandle);
        if (!isScriptLibrary(name)) return context.undefined;
        const cached = loaded.get(name);
        if (cached) return cached.dup();
        // Loading a library is not the script's time: the deadline moves by what it took.
        const state = this.state;
        const t0 = performance.now();
        state.loading = true;
        state.clock?.(false);
        try {
          const result = context.evalCode(
            `(function(){var module={exports:{}};(function(module,exports,define){${librarySource(name)}\n})(module,module.exports,undefined);return module.exports})()`,
            name,
          );
          if (result.error) return result;
          loaded.set(name, result.value.dup());
          return result;
        } finally {
          state.loading = false;
          state.deadline += performance.now() - t0;
          state.clock?.(true);
        }
      }),
    );
    return () => loaded.forEach((handle) => handle.dispose());
  }

  /** The value of the engine's own code (the caller disposes it). */
  private evalOrThrow(context: QuickJSContext, code: string, file: string): QuickJSHandle {
    const result = context.evalCode(code, file);
    if (result.error) this.throwEngineError(context, result.error);
    return result.value;
  }

  private throwEngineError(context: QuickJSContext, error: QuickJSHandle): never {
    const dumped = context.dump(error) as unknown;
    error.dispose();
    throw new Error(`the script engine could not start (${describeError(dumped).message})`);
  }

  private failureOf(context: QuickJSContext, handle: QuickJSHandle, stop: LimitKind | undefined): ScriptFailure {
    const dumped = context.dump(handle) as unknown;
    handle.dispose();
    const { name, message, stack } = describeError(dumped);
    const line = /\(script:(\d+)/.exec(stack)?.[1];
    const limit: LimitKind | undefined =
      stop ??
      (name === 'InternalError' && /out of memory|string too long/.test(message)
        ? 'memory'
        : name === 'InternalError' && message === 'stack overflow'
          ? 'stack'
          : undefined);
    return { ...(limit && { limit }), message: name ? `${name}: ${message}` : message, ...(line && { line: Number(line) }) };
  }

  /** What the script recorded, read as JSON and checked. */
  private collect(context: QuickJSContext, finish: QuickJSHandle): ScriptOutput {
    const result = context.callFunction(finish, context.undefined);
    if (result.error) {
      const dumped = context.dump(result.error) as unknown;
      result.error.dispose();
      throw new Error(`the script's results could not be read (${describeError(dumped).message})`);
    }
    const text = context.getString(result.value);
    result.value.dispose();
    return scriptOutputSchema().parse(JSON.parse(text));
  }
}

function describeError(dumped: unknown): { name: string; message: string; stack: string } {
  if (dumped && typeof dumped === 'object') {
    const e = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    return {
      name: typeof e.name === 'string' ? e.name : '',
      message: typeof e.message === 'string' ? e.message : JSON.stringify(dumped),
      stack: typeof e.stack === 'string' ? e.stack : '',
    };
  }
  return { name: '', message: String(dumped), stack: '' };
}
