// Starting and stopping code-server (the VS Code server build) for tests and for `npm start`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, writeFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { codeServerEntry, hostNode, repoRoot, type EditorHost } from './paths';

export interface CodeServerOptions {
  /** Which code-server build (and the Node it needs) to run. */
  editor: EditorHost;
  userDataDir: string;
  extensionsDir: string;
  /** Folder opened by default (also given in the workbench URL). */
  workspace?: string;
  /** true when the workbench URL will carry a test payload (adds the host's testArgs). */
  extensionTests?: boolean;
  /** false = leave Workspace Trust on, so the folder opens in restricted mode until trusted. */
  trusted: boolean;
  /** Added to this process's environment; the extension host inherits code-server's environment. */
  env?: Record<string, string>;
  host?: string;
  /** 0 (default) = any free port, read back from code-server's "listening" line. */
  port?: number;
  /** Where code-server keeps its config file (it writes one on first start if missing). */
  configFile: string;
  /** Copy of everything code-server prints. */
  logFile?: string;
  startTimeoutMs?: number;
  root?: string;
}

export interface RunningCodeServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash) */
  url: string;
  port: number;
  pid: number;
  /** Last lines code-server printed, for failure reports. */
  tail(lines?: number): string[];
  /** Resolves with the exit code (or signal name) when the main process ends. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** Process groups still alive: killed synchronously if this process exits without cleaning up. */
const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const pgid of liveGroups) killGroup(pgid, 'SIGKILL');
});

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM the group (code-server, its extension host, pty host, watchers), SIGKILL after graceMs. */
export async function stopGroup(pgid: number, graceMs = 5000): Promise<void> {
  killGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
  liveGroups.delete(pgid);
}

/** The environment code-server and its extension host get: ours without a parent VS Code's IPC hooks, plus `extra`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Inherited from a VS Code terminal these would point the server at the wrong instance.
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) onLine(p);
  };
}

const LISTENING = /HTTP server listening on (http:\/\/[^\s/]+)/;

export function codeServerArgs(opts: CodeServerOptions): string[] {
  return [
    '--auth',
    'none',
    '--bind-addr',
    `${opts.host ?? '127.0.0.1'}:${opts.port ?? 0}`,
    '--config',
    opts.configFile,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(opts.trusted ? ['--disable-workspace-trust'] : []),
    ...(opts.extensionTests ? opts.editor.testArgs : []),
    '--user-data-dir',
    opts.userDataDir,
    '--extensions-dir',
    opts.extensionsDir,
    ...(opts.workspace ? [opts.workspace] : []),
  ];
}

function ensureConfig(configFile: string): void {
  // Without --config code-server writes ~/.config/code-server/config.yaml (with a password) on first start.
  if (!existsSync(configFile)) writeFileSync(configFile, 'auth: none\ncert: false\n');
}

export function startCodeServer(opts: CodeServerOptions): Promise<RunningCodeServer> {
  const root = opts.root ?? repoRoot();
  const entry = codeServerEntry(opts.editor);
  ensureConfig(opts.configFile);
  const child: ChildProcess = spawn(hostNode(opts.editor), [entry, ...codeServerArgs(opts)], {
    cwd: opts.workspace ?? root,
    env: childEnv(opts.env),
    // Own process group, so stop() reaches the extension host and helpers too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return Promise.reject(new Error('could not spawn code-server'));
  liveGroups.add(pid);

  const lines: string[] = [];
  let log: WriteStream | undefined;
  if (opts.logFile) log = createWriteStream(opts.logFile, { flags: 'a' });
  let resolveUrl: ((url: string) => void) | undefined;
  const onLine = (line: string) => {
    lines.push(line);
    if (lines.length > 400) lines.splice(0, lines.length - 400);
    log?.write(line + '\n');
    const m = LISTENING.exec(line);
    if (m && resolveUrl) resolveUrl(m[1]);
  };
  child.stdout?.on('data', lineSplitter(onLine));
  child.stderr?.on('data', lineSplitter(onLine));

  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      log?.end();
      resolve(signal ?? String(code));
    });
  });
  const tail = (n = 40) => lines.slice(-n);
  const stop = () => stopGroup(pid);
  const timeoutMs = opts.startTimeoutMs ?? 60_000;

  return new Promise<RunningCodeServer>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`code-server did not report listening within ${timeoutMs / 1000} s. Its last output:\n${tail(20).join('\n')}`));
    }, timeoutMs);
    timer.unref();
    resolveUrl = (url) => {
      clearTimeout(timer);
      const port = Number(new URL(url).port);
      resolve({ url, port, pid, tail, exited, stop });
    };
    void exited.then((code) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`code-server exited (${code}) before listening. Its output:\n${tail(30).join('\n')}`));
    });
  });
}

/** `code-server --install-extension <vsix|id>` into the given dirs (the installed-.vsix test run). */
export function installExtension(
  editor: EditorHost,
  extension: string,
  dirs: { userDataDir: string; extensionsDir: string; configFile: string },
): Promise<void> {
  ensureConfig(dirs.configFile);
  const args = [
    '--config',
    dirs.configFile,
    '--user-data-dir',
    dirs.userDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
    '--install-extension',
    path.resolve(extension),
    '--force',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(hostNode(editor), [codeServerEntry(editor), ...args], { env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: string[] = [];
    child.stdout?.on(
      'data',
      lineSplitter((l) => out.push(l)),
    );
    child.stderr?.on(
      'data',
      lineSplitter((l) => out.push(l)),
    );
    const timer = setTimeout(() => {
      if (child.pid) killGroup(child.pid, 'SIGKILL');
      reject(new Error(`installing ${extension} took over 120 s:\n${out.join('\n')}`));
    }, 120_000);
    timer.unref();
    child.on('exit', (code) => {
      clearTimeout(timer);
      const text = out.join('\n');
      // code-server exits 0 even when an install fails; its message says which.
      if (code === 0 && !/Failed|Error/i.test(text)) resolve();
      else reject(new Error(`installing ${extension} failed (exit ${code}):\n${text}`));
    });
  });
}

/** The workbench URL that opens `folder` and, for tests, loads an extension from source and runs a suite. */
export function workbenchUrl(base: string, opts: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string {
  const authority = new URL(base).host;
  const remote = (p: string) => `vscode-remote://${authority}${path.resolve(p)}`;
  const payload: [string, string][] = [];
  if (opts.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(opts.extensionDevelopmentPath)]);
  if (opts.extensionTestsPath) payload.push(['extensionTestsPath', remote(opts.extensionTestsPath)]);
  const q = new URLSearchParams();
  if (opts.folder) q.set('folder', path.resolve(opts.folder));
  if (payload.length) q.set('payload', JSON.stringify(payload));
  const qs = q.toString();
  return `${base}/${qs ? `?${qs}` : ''}`;
}
