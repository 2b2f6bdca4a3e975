// Runs the BUILT command-line runner (dist/cli.js, made by `node esbuild.mjs [--tests]`) as a
// child process, as a CI job would, on notebooks written to a temp folder.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLI = path.resolve(__dirname, '../../../../dist/cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Highest resident set (VmHWM, KiB) seen while polling /proc; 0 where /proc is missing. */
  peakKiB: number;
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "node esbuild.mjs --tests" first`);
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'awb-cli-'));
}

export function write(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

export function read(file: string): string {
  return readFileSync(file, 'utf8');
}

/** Lines of text without the trailing empty one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l, i, all) => !(i === all.length - 1 && l === ''));
}

export function lastLine(text: string): string {
  return lines(text).at(-1) ?? '';
}

function vmHwmKiB(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** `node dist/cli.js …args` in `cwd`; env adds to (or, with undefined, removes from) the parent's. */
export function runCli(args: readonly string[], opts: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKiB = 0;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const poll = setInterval(() => (peakKiB = Math.max(peakKiB, vmHwmKiB(child.pid ?? 0))), 25);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ code, stdout, stderr, peakKiB });
    });
  });
}

export const MODELS = (name: string, check = '?? status == 200') => `\`\`\`llm name=${name}\nGET /models\n\n${check}\n\`\`\`\n`;
export const SEARCH = (name: string, query: string, ...checks: string[]) =>
  `\`\`\`maps name=${name}\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName\n\n{"textQuery": "${query}"}\n\n${['?? status == 200', ...checks].join('\n')}\n\`\`\`\n`;

/** A local listener that counts what reaches it: the "foreign origin" a key must never go to. */
export async function countingServer(respond?: (res: ServerResponse) => void): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    if (respond) respond(res);
    else res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, server };
}

export function assertNoStack(text: string): void {
  assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `a stack trace was printed:\n${text}`);
}
