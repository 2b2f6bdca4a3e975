// Starts the shipped sandbox (dist/sandbox.js, built by `npm run bench`) in its own process, as the
// extension does, so the sandbox's work does not share the measured clients' thread.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { SandboxInfo } from '../../src/sandbox/types';

export interface SandboxProcess {
  info: SandboxInfo;
  /** Milliseconds from spawn to the ready line. */
  readyMs: number;
  stop(): Promise<void>;
}

/** `args` are the CLI's options (see `node dist/sandbox.js --help`); `--port 0` is always given. */
export async function startSandboxProcess(args: readonly string[]): Promise<SandboxProcess> {
  const script = path.resolve(__dirname, '../../../dist/sandbox.js');
  const started = performance.now();
  const child = spawn(process.execPath, [script, '--port', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Its stderr (the human-readable ready line, "stopping") would interleave with the figures; it is
  // kept and shown only if the sandbox fails.
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`sandbox exited with ${code ?? signal}:\n${stderr}`);
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`sandbox did not start within 10 s:\n${stderr}`)), 10_000);
    rl.once('line', (l) => {
      clearTimeout(timer);
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code} before it was ready:\n${stderr}`));
    });
  });
  const readyMs = performance.now() - started;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { info: JSON.parse(line) as SandboxInfo, readyMs, stop };
}
