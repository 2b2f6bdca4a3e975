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

function works(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0;
}

export const PYTHON = existsSync(VENV_PYTHON) ? VENV_PYTHON : 'python3';

/** Why `language` cannot run here, or undefined when it can. */
export function missingToolchain(language: CodeLanguage | 'python-pusher' | 'black'): string | undefined {
  switch (language) {
    case 'curl':
      return works('curl', ['--version']) ? undefined : 'curl is not installed';
    case 'python':
      return works(PYTHON, ['-c', 'import requests']) ? undefined : 'Python 3 with requests is not installed';
    case 'python-sdk':
      return works(PYTHON, ['-c', 'import openai']) ? undefined : `the Python openai SDK is not installed (bash scripts/setup.sh puts it in ${PYTHON_VENV})`;
    case 'python-pusher':
      return works(PYTHON, ['-c', 'import pusher']) ? undefined : `the Python pusher SDK is not installed (bash scripts/setup.sh puts it in ${PYTHON_VENV})`;
    case 'black':
      return works(PYTHON, ['-m', 'black', '--version']) ? undefined : `black is not installed (bash scripts/setup.sh puts it in ${PYTHON_VENV})`;
    case 'javascript':
      return undefined;
    case 'javascript-sdk':
      return existsSync(path.join(repoRoot(), 'node_modules', 'openai')) ? undefined : 'the openai npm package is not installed';
    case 'java':
      return works('java', ['-version']) ? undefined : 'Java is not installed';
    case 'go':
      return works('go', ['version']) ? undefined : 'Go is not installed';
    case 'csharp':
      return works('dotnet', ['--version']) ? undefined : '.NET is not installed';
    case 'php':
      return works('php', ['--version']) ? undefined : 'PHP is not installed';
  }
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

/** Writes `code` to a file of its own and runs it with `env` added; node finds the project's node_modules (the SDKs). */
export function runCode(language: CodeLanguage, code: string, env: Record<string, string>, timeoutMs = 60_000): Promise<Ran> {
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-code-'));
  const file = path.join(dir, FILE_NAMES[language]);
  writeFileSync(file, code);
  // An ES module resolves packages from its own folder up: a link to the project's node_modules.
  if (language.startsWith('javascript')) spawnSync('ln', ['-s', path.join(repoRoot(), 'node_modules'), path.join(dir, 'node_modules')]);
  const [cmd, args] = command(language, file);
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: dir, env: { ...process.env, ...env }, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
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
