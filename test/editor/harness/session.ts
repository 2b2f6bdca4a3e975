// `npm start` (scripts/start.mjs builds and calls this): the local sandbox plus a real VS Code
// (code-server) with the extension installed from the checkout and the sandbox's keys handed to it,
// for a person to use in their browser. Not a test: state persists in .vscode-test/start-<editor>/.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod/mini';
import { sandboxInfoSchema } from '../../../src/sandbox/info';
import { parseJson, validate } from '../../../src/core/validate';
import { launchWorkbenchBrowser } from './browser';
import { startCodeServer, workbenchUrl, type RunningCodeServer } from './codeServer';
import { describeHost, editorHost, repoRoot } from './paths';
import { createSampleWorkspace, DEFAULT_USER_SETTINGS, writeUserSettings } from './run';

export interface SessionOptions {
  /** Which code-server build ("oldest" by default: VS Code 1.100, the oldest the extension supports). */
  editorHost?: string;
  /** code-server port; taken if free, else any free port. */
  port: number;
  /** Headless check: open the workbench in Chromium, save a screenshot here, stop. */
  screenshot?: string;
  log?: (line: string) => void;
}

interface RunningSandbox {
  line: string;
  proc: ChildProcess;
}

const SANDBOX_START_TIMEOUT_MS = 15_000;

/** `node dist/sandbox.js [--port n]`; resolves with its ready line, or undefined if it exited first (port taken). */
function spawnSandbox(root: string, port: number | undefined): Promise<RunningSandbox | undefined> {
  const args = [path.join(root, 'dist', 'sandbox.js'), ...(port === undefined ? [] : ['--port', String(port)])];
  // Stdin stays open as a lifeline: if this process dies without cleaning up, the sandbox stops too.
  const proc = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, SANDBOX_EXIT_ON_STDIN_CLOSE: '1' } });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`the sandbox printed no ready line within ${SANDBOX_START_TIMEOUT_MS / 1000} s`));
    }, SANDBOX_START_TIMEOUT_MS);
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const line = out.slice(0, nl).trim();
      const json = parseJson(line);
      const info = json.ok ? validate(sandboxInfoSchema(), json.value) : undefined;
      if (!info?.ok) {
        proc.kill('SIGTERM');
        reject(new Error(`the sandbox's ready line is not a SandboxInfo (${info ? info.problem : 'not JSON'}): ${line}`));
        return;
      }
      resolve({ line, proc });
    });
    proc.on('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}

const manifestSchema = z.object({ name: z.string(), publisher: z.string(), version: z.string() });

/**
 * The extension as a user has it: a folder named <publisher>.<name>-<version> in the extensions dir.
 * A symlink to the checkout means a rebuild plus a window reload picks up changes.
 */
function linkExtension(root: string, extensionsDir: string): string {
  const json = parseJson(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const manifest = json.ok ? validate(manifestSchema, json.value) : undefined;
  if (!manifest?.ok) throw new Error(`package.json: ${manifest ? manifest.problem : 'not JSON'}`);
  const { publisher, name, version } = manifest.value;
  // Rebuilt each start, so an older version's link (and code-server's extensions.json about it) never lingers.
  rmSync(extensionsDir, { recursive: true, force: true });
  mkdirSync(extensionsDir, { recursive: true });
  const id = `${publisher}.${name}`;
  symlinkSync(root, path.join(extensionsDir, `${id}-${version}`), 'dir');
  return id;
}

export async function startSession(opts: SessionOptions): Promise<number> {
  const log = opts.log ?? ((l: string) => process.stdout.write(l + '\n'));
  const root = repoRoot();
  const editor = editorHost(opts.editorHost);
  // Per editor build: a newer VS Code's user data is not for an older one to open.
  const base = path.join(root, '.vscode-test', `start-${editor.id}`);
  const userDataDir = path.join(base, 'user-data');
  const extensionsDir = path.join(base, 'extensions');
  const workspace = path.join(root, '.vscode-test', 'demo-workspace');
  if (!existsSync(workspace)) createSampleWorkspace(workspace);
  const notebook = prepareDemoWorkspace(root, workspace, log);
  if (!existsSync(path.join(userDataDir, 'User', 'settings.json'))) writeUserSettings(userDataDir, DEFAULT_USER_SETTINGS);
  const id = linkExtension(root, extensionsDir);

  let sandbox: RunningSandbox | undefined;
  let server: RunningCodeServer | undefined;
  let stopping = false;
  const stopAll = async () => {
    stopping = true;
    await server?.stop();
    sandbox?.proc.kill('SIGTERM');
  };

  try {
    sandbox = await spawnSandbox(root, undefined);
    if (!sandbox) {
      log('[start] the sandbox could not use its default ports (8787-8789 taken?): using free ports instead');
      sandbox = await spawnSandbox(root, 0);
    }
    if (!sandbox) throw new Error('the sandbox exited before it was ready (see its output above)');
    log('[start] sandbox ready; its URLs and keys go to the extension in API_WORKBENCH_SANDBOX');

    // The extension opens the example notebook (a workbench opens files before notebook types are known).
    const env: Record<string, string> = { API_WORKBENCH_SANDBOX: sandbox.line, ...(notebook ? { API_WORKBENCH_OPEN_NOTEBOOK: notebook } : {}) };
    const common = {
      editor,
      userDataDir,
      extensionsDir,
      workspace,
      trusted: true,
      configFile: path.join(base, 'config.yaml'),
      logFile: path.join(base, 'code-server.log'),
      root,
      env,
    };
    try {
      server = await startCodeServer({ ...common, port: opts.port });
    } catch (e) {
      if (!/EADDRINUSE/.test(e instanceof Error ? e.message : String(e))) throw e;
      log(`[start] port ${opts.port} is taken: using a free port instead`);
      server = await startCodeServer({ ...common, port: 0 });
    }
    const url = workbenchUrl(server.url, { folder: workspace });
    log(`[start] ${describeHost(editor)} at ${server.url} with ${id} from ${root} (log: ${path.relative(root, common.logFile)})`);

    if (opts.screenshot) return await screenshotSession(url, opts.screenshot, log);

    log(
      `\n  Open ${url}\n  in your browser. It opens on the example notebook (${EXAMPLE_NOTEBOOK}): press Run All.\n  The API Workbench views (activity bar) show the "Local Sandbox" connections.\n  Ctrl-C stops the editor and the sandbox.\n`,
    );
    const running = server;
    const ended = await new Promise<string>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
      void running.exited.then((c) => resolve(`code-server exited (${c})`));
      sandbox?.proc.on('exit', (c) => resolve(`the sandbox exited (${c})`));
    });
    log(`[start] ${ended}: stopping`);
    return ended.startsWith('SIG') ? 0 : 1;
  } finally {
    if (!stopping) await stopAll();
  }
}

const EXAMPLE_NOTEBOOK = 'sandbox-tour.awb.md';

const DEMO_README = `# API Workbench demo workspace

This folder was opened by \`npm start\`. The local sandbox is running and every API Workbench view
uses its "Local Sandbox" connections: no account, key or internet needed.

## Try it

- **${EXAMPLE_NOTEBOOK}** is an API notebook: Markdown with runnable requests to a language model,
  a maps service and a realtime channel. Press **Run All** at the top of the notebook. Each result
  shows its status, time and request id, the checks (\`??\` lines) with ✓ or ✗, and tabs for the
  body, the headers and, for maps answers, a map.
- Change \`city\` in the first cell and run everything again: later cells use the answers of earlier
  ones (\`{{place.json.places[0].id}}\`).
- **API Workbench: New API Notebook** (Command Palette) starts a notebook of your own.
- The API Workbench icon in the activity bar opens the three views: models, maps and channels.

Keys never go into a notebook file: requests take them from the connection. Outputs are not
saved either, so a notebook stays clean in version control.
`;

/**
 * The demo workspace holds the example notebook (copied once, so a person's edits survive the next
 * start) and a README for a person. Returns the notebook to open, if the example exists.
 */
function prepareDemoWorkspace(root: string, workspace: string, log: (l: string) => void): string | undefined {
  const readme = path.join(workspace, 'README.md');
  if (!existsSync(readme) || readFileSync(readme, 'utf8').startsWith('# Sample workspace')) writeFileSync(readme, DEMO_README);
  const source = path.join(root, 'examples', EXAMPLE_NOTEBOOK);
  const target = path.join(workspace, EXAMPLE_NOTEBOOK);
  if (!existsSync(source)) {
    log(`[start] ${path.relative(root, source)} is missing: the workspace opens without the example notebook`);
    return existsSync(target) ? target : undefined;
  }
  if (!existsSync(target)) copyFileSync(source, target);
  return target;
}

/** Headless proof that the session works: the workbench with the API Workbench views open. */
async function screenshotSession(url: string, file: string, log: (l: string) => void): Promise<number> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'awb-start-browser-'));
  const wb = await launchWorkbenchBrowser(profile);
  try {
    await wb.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const container = wb.page.locator('.activitybar [aria-label^="API Workbench"]').first();
    await container.waitFor({ timeout: 30_000 });
    await container.click();
    await wb.page.mouse.move(700, 300); // no hover tooltip over the views
    // The views fill in after activation and the sandbox adoption; bounded, this is a snapshot for a person.
    await wb.page
      .locator('.pane-header[aria-label*="Language Models"]')
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await wb.page.waitForTimeout(4000);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await wb.page.screenshot({ path: file });
    log(`[start] screenshot: ${path.resolve(file)}`);
    return 0;
  } finally {
    await wb.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
