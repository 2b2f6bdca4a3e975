// Runs the built sandbox CLI (dist/sandbox.js) as a child process, the way the extension and
// `npm run sandbox` do, and reads its ready line.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';

/** The checkout: the nearest folder above this file that holds esbuild.mjs. */
export function repoRoot(): string {
  for (let dir = __dirname, i = 0; i < 10; i++, dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'esbuild.mjs'))) return dir;
  }
  throw new Error(`no esbuild.mjs above ${__dirname}`);
}

/**
 * `npm run test:unit` builds dist/ before mocha runs; when mocha is run on its own and the CLI is
 * missing, build it here so the test exercises the real bundle.
 */
export function ensureSandboxBuilt(): string {
  const root = repoRoot();
  const cli = path.join(root, 'dist', 'sandbox.js');
  if (!existsSync(cli)) {
    const r = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0 || !existsSync(cli)) throw new Error(`building dist/sandbox.js failed: ${r.stderr || r.error?.message}`);
  }
  return cli;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SandboxProcess {
  proc: ChildProcessWithoutNullStreams;
  /** The first stdout line, parsed as JSON (not yet validated). */
  ready: unknown;
  stdout(): string;
  stderr(): string;
  exited: Promise<Exit>;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/** Kills whatever a failed test left running, so no sandbox outlives the suite. */
export function killLeftovers(): void {
  for (const p of running) p.kill('SIGKILL');
  running.clear();
}

/** Environment without SANDBOX_* variables from the caller's shell, plus `env`. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SANDBOX_')) out[k] = v;
  return { ...out, ...env };
}

/** Starts the CLI and runs it to exit, for argument errors and start-up failures. */
export function runSandboxToExit(args: string[], env: Record<string, string> = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [ensureSandboxBuilt(), ...args], { cwd: repoRoot(), env: cleanEnv(env) });
  running.add(proc);
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve) =>
    proc.on('exit', (code, signal) => {
      running.delete(proc);
      // 'exit' can come before the pipes drain; 'close' marks the end of the output.
      proc.on('close', () => resolve({ code, signal, stdout, stderr }));
    }),
  );
}

/**
 * Starts the CLI and resolves once it printed its first stdout line, or rejects after `readyWithinMs`.
 * The bound is for a sandbox that never starts, not a measure of speed: 2 s failed a test at load 10
 * (the unit suite beside an in-editor run) where the sandbox took longer to print its line.
 */
export function startSandboxProcess(args: string[], env: Record<string, string> = {}, readyWithinMs = 20_000): Promise<SandboxProcess> {
  const proc = spawn(process.execPath, [ensureSandboxBuilt(), ...args], { cwd: repoRoot(), env: cleanEnv(env) });
  running.add(proc);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<Exit>((resolve) => {
    proc.on('exit', (code, signal) => {
      running.delete(proc);
      proc.on('close', () => resolve({ code, signal }));
    });
  });
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise<SandboxProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no ready line within ${readyWithinMs} ms; stderr: ${stderr}`));
    }, readyWithinMs);
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited (${e.code ?? e.signal}) before its ready line; stderr: ${stderr}`));
    });
    proc.stdout.on('data', (d: Buffer) => {
      const before = stdout;
      stdout += d.toString('utf8');
      if (before.includes('\n') || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const line = stdout.slice(0, stdout.indexOf('\n'));
      let ready: unknown;
      try {
        ready = JSON.parse(line);
      } catch {
        proc.kill('SIGKILL');
        return reject(new Error(`ready line is not JSON: ${line}`));
      }
      resolve({
        proc,
        ready,
        stdout: () => stdout,
        stderr: () => stderr,
        exited,
        stop: (signal = 'SIGTERM') => {
          proc.kill(signal);
          return exited;
        },
      });
    });
  });
}

/** A base port where base, base+1 and base+2 are all free on 127.0.0.1 right now. */
export async function freePortRange(count = 3): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const held: Server[] = [];
    try {
      for (let i = 0; i < count; i++) held.push(await listenOn(base + i));
      return base;
    } catch {
      // taken: try another range
    } finally {
      await Promise.all(held.map((s) => new Promise((r) => s.close(r))));
    }
  }
  throw new Error('no free port range found');
}

/** Holds `port` on 127.0.0.1 until the returned server is closed. */
export function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
}
