// Running generated code in tests: which toolchains this machine has (a language without one is
// skipped with the reason said), and one place that runs a file with the sandbox's keys.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { CodeLanguage } from '../../../src/features/codegen';
import { repoRoot } from '../helpers/sandboxProcess';

/** scripts/setup.sh installs the Python SDK (openai) and black here; plain `requests` comes from the system's Python. */
export const PYTHON_VENV = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'api-workbench', 'python');
const VENV_PYTHON = path.join(PYTHON_VENV, 'bin', 'python');

export const PYTHON = existsSync(VENV_PYTHON) ? VENV_PYTHON : 'python3';

type Toolchain = CodeLanguage | 'python-pusher' | 'black';

const setup = `bash scripts/setup.sh puts it in ${PYTHON_VENV}`;

/** How to tell each toolchain is here (a command that succeeds, or a file), and what to say when it is not. */
const PROBES: Record<Toolchain, { run?: [string, string[]]; file?: string; why: string }> = {
  curl: { run: ['curl', ['--version']], why: 'curl is not installed' },
  python: { run: [PYTHON, ['-c', 'import requests']], why: 'Python 3 with requests is not installed' },
  'python-sdk': { run: [PYTHON, ['-c', 'import openai']], why: `the Python openai SDK is not installed (${setup})` },
  'python-pusher': { run: [PYTHON, ['-c', 'import pusher']], why: `the Python pusher SDK is not installed (${setup})` },
  black: { run: [PYTHON, ['-m', 'black', '--version']], why: `black is not installed (${setup})` },
  javascript: { why: '' },
  'javascript-sdk': { file: path.join(repoRoot(), 'node_modules', 'openai'), why: 'the openai npm package is not installed' },
  java: { run: ['java', ['-version']], why: 'Java is not installed' },
  go: { run: ['go', ['version']], why: 'Go is not installed' },
  csharp: { run: ['dotnet', ['--version']], why: '.NET is not installed' },
  php: { run: ['php', ['--version']], why: 'PHP is not installed' },
};

const found = new Map<Toolchain, string | undefined>();

function verdict(toolchain: Toolchain, works: boolean): string | undefined {
  found.set(toolchain, works ? undefined : PROBES[toolchain].why);
  return found.get(toolchain);
}

/** Why `language` cannot run here, or undefined when it can; asked once per test run (each asking starts an interpreter). */
export function missingToolchain(language: Toolchain): string | undefined {
  if (found.has(language)) return found.get(language);
  const probe = PROBES[language];
  if (probe.file) return verdict(language, existsSync(probe.file));
  return verdict(language, !probe.run || spawnSync(probe.run[0], probe.run[1], { timeout: 20_000 }).status === 0);
}

/** Asks for every toolchain at once (each asking starts an interpreter, seconds on a loaded machine); missingToolchain then answers at once. */
export async function findToolchains(): Promise<void> {
  await Promise.all(
    (Object.keys(PROBES) as Toolchain[]).map(async (t) => {
      const probe = PROBES[t];
      if (found.has(t) || !probe.run) return missingToolchain(t);
      const [cmd, args] = probe.run;
      const works = await new Promise<boolean>((resolve) => execFile(cmd, args, { timeout: 20_000 }, (error) => resolve(!error)));
      verdict(t, works);
    }),
  );
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const FILE_NAMES: Record<CodeLanguage, string> = {
  curl: 'request.sh',
  python: 'request.py',
  'python-sdk': 'request.py',
  javascript: 'request.mjs',
  'javascript-sdk': 'request.mjs',
  java: 'Main.java',
  go: 'main.go',
  csharp: 'Program.cs',
  php: 'request.php',
};

function command(language: CodeLanguage, file: string): [string, string[]] {
  switch (language) {
    case 'curl':
      return ['bash', [file]];
    case 'python':
    case 'python-sdk':
      return [PYTHON, [file]];
    case 'javascript':
    case 'javascript-sdk':
      return [process.execPath, [file]];
    case 'java':
      return ['java', [file]];
    case 'go':
      return ['go', ['run', file]];
    case 'csharp':
      return ['dotnet', ['run', file]];
    case 'php':
      return ['php', [file]];
  }
}

/** `code` in a file of its own; node finds the project's node_modules (the SDKs) from there. */
function codeFile(language: CodeLanguage, code: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-code-'));
  const file = path.join(dir, FILE_NAMES[language]);
  writeFileSync(file, code);
  // An ES module resolves packages from its own folder up: a link to the project's node_modules.
  if (language.startsWith('javascript')) spawnSync('ln', ['-s', path.join(repoRoot(), 'node_modules'), path.join(dir, 'node_modules')]);
  return file;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Runs `code` with `env` added. */
export function runCode(language: CodeLanguage, code: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Ran> {
  const file = codeFile(language, code);
  const [cmd, args] = command(language, file);
  return run(cmd, args, path.dirname(file), env, timeoutMs);
}

// Starting an interpreter, and importing requests or openai in it, costs seconds on a loaded
// machine: many programs run in one. Python runs each file as __main__ in one process, one after
// the other (its stdout, stderr and exit status its own); Node runs each as a worker thread, a
// few at a time (a worker exits when its event loop is empty, as a process does).
const PYTHON_BATCH = `import contextlib, io, json, runpy, sys, traceback
results = []
for path in sys.argv[1:]:
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    results.append({"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()})
sys.__stdout__.write(json.dumps(results))
`;

const NODE_BATCH = `import { Worker } from "node:worker_threads";
const [limit, timeoutMs, ...files] = process.argv.slice(2);
const results = [];
let next = 0;
function one(file) {
  return new Promise((resolve) => {
    const worker = new Worker(file, { stdout: true, stderr: true });
    const text = { stdout: "", stderr: "" };
    const ended = ["stdout", "stderr"].map((s) => new Promise((done) => worker[s].setEncoding("utf8").on("data", (d) => (text[s] += d)).on("end", done)));
    const timer = setTimeout(() => worker.terminate(), Number(timeoutMs));
    let failed = false;
    worker.on("error", (e) => { failed = true; text.stderr += String(e && e.stack || e); });
    worker.on("exit", async (code) => { clearTimeout(timer); await Promise.all(ended); resolve({ code: failed && code === 0 ? 1 : code, ...text }); });
  });
}
await Promise.all(Array.from({ length: Number(limit) }, async () => {
  while (next < files.length) { const i = next++; results[i] = await one(files[i]); }
}));
process.stdout.write(JSON.stringify(results));
`;

async function batch(runner: { cmd: string; file: string; args: string[] }, files: string[], env: Record<string, string>, timeoutMs: number): Promise<Ran[]> {
  if (!files.length) return [];
  const started = Date.now();
  const ran = await run(runner.cmd, [runner.file, ...runner.args, ...files], path.dirname(runner.file), env, timeoutMs);
  if (process.env.AWB_TIMINGS) console.log(`      ${files.length} in one ${path.basename(runner.cmd)}: ${Date.now() - started} ms`);
  try {
    return JSON.parse(ran.stdout) as Ran[];
  } catch {
    return files.map(() => ({ ...ran, code: ran.code || 1 }));
  }
}

/** Runs each of `programs` (as runCode does), Python ones in one process and JavaScript ones in another; the results in order. */
export async function runMany(
  programs: ReadonlyArray<{ language: CodeLanguage; code: string }>,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Ran[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-batch-'));
  writeFileSync(path.join(dir, 'batch.py'), PYTHON_BATCH);
  writeFileSync(path.join(dir, 'batch.mjs'), NODE_BATCH);
  const files = programs.map((p) => codeFile(p.language, p.code));
  const group = (test: (l: CodeLanguage) => boolean) => programs.flatMap((p, i) => (test(p.language) ? [i] : []));
  const python = group((l) => l === 'python' || l === 'python-sdk');
  const node = group((l) => l === 'javascript' || l === 'javascript-sdk');
  const others = group((l) => !l.startsWith('python') && !l.startsWith('javascript'));
  const whole = timeoutMs * 4;
  const [py, js, rest] = await Promise.all([
    batch(
      { cmd: PYTHON, file: path.join(dir, 'batch.py'), args: [] },
      python.map((i) => files[i]),
      env,
      whole,
    ),
    batch(
      { cmd: process.execPath, file: path.join(dir, 'batch.mjs'), args: ['3', String(timeoutMs)] },
      node.map((i) => files[i]),
      env,
      whole,
    ),
    inBatches(
      others.map((i) => () => {
        const [cmd, args] = command(programs[i].language, files[i]);
        return run(cmd, args, path.dirname(files[i]), env, timeoutMs);
      }),
      2,
    ),
  ]);
  const out: Ran[] = [];
  python.forEach((p, k) => (out[p] = py[k]));
  node.forEach((p, k) => (out[p] = js[k]));
  others.forEach((p, k) => (out[p] = rest[k]));
  return out;
}

/** Runs `jobs` at most `limit` at a time (the machine is shared: two cores). */
export async function inBatches<T>(jobs: Array<() => Promise<T>>, limit = 3): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}
