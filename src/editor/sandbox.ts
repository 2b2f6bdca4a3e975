import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import vscode from 'vscode';
import { connectionOrigins, sandboxConnections, type Connection } from '../core/connections';
import { parseJson, validate } from '../core/validate';
import { sandboxInfoSchema } from '../sandbox/info';
import type { SandboxInfo } from '../sandbox/types';
import type { Config } from './config';
import type { ConnectionStore } from './connections';
import type { DiagnosticsLog } from './log';
import { CONTEXT_KEYS } from '../features/ids';
import type { SecretStore } from './secrets';

const READY_TIMEOUT_MS = 15_000;

/**
 * Runs the local sandbox (dist/sandbox.js) as a child process of the extension host and turns its
 * ready line into a "Local Sandbox" connection per service, keys stored in SecretStorage. When the
 * editor was launched by `npm start`, the sandbox is already running and its line arrives in the
 * API_WORKBENCH_SANDBOX environment variable: then it is adopted instead of started.
 */
export class SandboxController implements vscode.Disposable {
  private child: ChildProcess | undefined;
  private starting: Promise<SandboxInfo> | undefined;
  private current: SandboxInfo | undefined;

  constructor(
    private readonly extensionPath: string,
    private readonly connections: ConnectionStore,
    private readonly secrets: SecretStore,
    private readonly config: Config,
    private readonly log: DiagnosticsLog,
  ) {}

  get info(): SandboxInfo | undefined {
    return this.current;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Adopts a sandbox announced by the environment (npm start). Returns true if it did. */
  async adoptFromEnvironment(): Promise<boolean> {
    const raw = process.env.API_WORKBENCH_SANDBOX;
    if (!raw) return false;
    const info = this.parseInfo(raw);
    if (!info) {
      this.log.warn('API_WORKBENCH_SANDBOX is set but is not a valid sandbox line; ignoring it.');
      return false;
    }
    await this.connect(info);
    this.log.info(`Adopted the local sandbox started outside the editor (LLM ${info.llm.baseUrl}).`);
    return true;
  }

  /**
   * Starts the sandbox (or returns the running one) and makes it the active connection everywhere.
   * When it already runs, its connections and keys are stored again: "Try the Local Sandbox" then
   * repairs a sandbox connection whose key was changed by hand or left over from an older run.
   */
  start(): Promise<SandboxInfo> {
    const running = this.current;
    if (running) return this.connect(running).then(() => running);
    this.starting ??= this.spawn()
      .then(async (info) => {
        await this.connect(info);
        return info;
      })
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (this.current) for (const c of sandboxConnections(this.current).connections) await this.secrets.clear(c);
    this.current = undefined;
    this.connections.setManaged('sandbox', []);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.sandboxRunning, false);
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 3000);
        child.once('exit', () => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  private parseInfo(line: string): SandboxInfo | undefined {
    const json = parseJson(line.trim());
    if (!json.ok) return undefined;
    const v = validate(sandboxInfoSchema(), json.value);
    return v.ok ? v.value : undefined;
  }

  private spawn(): Promise<SandboxInfo> {
    const script = path.join(this.extensionPath, 'dist', 'sandbox.js');
    const port = this.config.get('sandbox.port');
    return new Promise<SandboxInfo>((resolve, reject) => {
      // fork() runs Electron as plain Node (ELECTRON_RUN_AS_NODE) on desktop and node in code-server.
      const child = fork(script, ['--port', String(port)], { silent: true, execArgv: [], env: { ...process.env, API_WORKBENCH_SANDBOX: '' } });
      this.child = child;
      let buffered = '';
      let settled = false;
      const fail = (why: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill();
        reject(new Error(why));
      };
      const timer = setTimeout(() => fail(`the sandbox did not report ready within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        if (settled) return;
        buffered += chunk;
        const nl = buffered.indexOf('\n');
        if (nl < 0) return;
        const info = this.parseInfo(buffered.slice(0, nl));
        if (!info) return fail('the sandbox printed an unexpected ready line');
        settled = true;
        clearTimeout(timer);
        resolve(info);
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim()) this.log.info(`[sandbox] ${line.trim()}`);
      });
      child.on('error', (e) => fail(`could not start the sandbox: ${e.message}`));
      child.on('exit', (code, signal) => {
        if (!settled) return fail(`the sandbox exited before it was ready (${signal ?? `exit code ${code}`})`);
        if (this.child === child) {
          this.log.warn(`The local sandbox stopped (${signal ?? `exit code ${code}`}).`);
          this.child = undefined;
          this.current = undefined;
          this.connections.setManaged('sandbox', []);
        }
      });
    });
  }

  private async connect(info: SandboxInfo): Promise<void> {
    const conns = sandboxConnections(info).connections;
    const keyOf: Record<Connection['service'], string> = { llm: info.llm.apiKey, maps: info.maps.apiKey, realtime: info.realtime.secret };
    for (const c of conns) await this.secrets.set(c, keyOf[c.service], connectionOrigins(c));
    this.current = info;
    this.connections.setManaged('sandbox', conns);
    for (const c of conns) await this.connections.setActive(c.service, c.name);
    // However it came to run (the command, a welcome link, `npm start`), the walkthrough's step is done.
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.sandboxRunning, true);
  }

  dispose(): void {
    if (this.child && this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}
