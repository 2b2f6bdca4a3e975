// Runs a compiled in-editor suite inside a real VS Code: code-server + Debian Chromium.
// One call = one fresh editor (own user data, extensions and browser profile), so runs never share
// state. Afterwards the editor's files are searched for the secrets the suite declared.
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readdirSync, readSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { launchWorkbenchBrowser, type Workbench } from './browser';
import { installExtension, startCodeServer, workbenchUrl, type RunningCodeServer } from './codeServer';
import { describeHost, editorHost, repoRoot } from './paths';
import { ENV, type ResultsFile, type SuiteFailure } from './protocol';
import { composeOutcome, createEmptyExtension, finishRun, prepareRun, readResults, scanRunForSecrets, suiteEnv, type SuiteOutcome } from './run';
import { startScreenshotServer, type ScreenshotServer } from './screenshotServer';

export type { SuiteOutcome } from './run';

export interface RunSuiteOptions {
  /** Which code-server build: "oldest" (default, VS Code 1.100) or "newest" (see scripts/editor-hosts.json). */
  editorHost?: string;
  /** Folder to open. Default: a fresh folder with a few sample files, deleted afterwards. */
  workspace?: string;
  /** Default true. false = Workspace Trust stays on and the folder opens in restricted mode. */
  trusted?: boolean;
  /** Extra environment for the extension host (it inherits code-server's environment). */
  env?: Record<string, string>;
  /** Compiled suite module exporting run(). Default: out/test/editor/suite/index.js. */
  suitePath?: string;
  /** Extension loaded from source (extensionDevelopmentPath). Default: the checkout. null = none (test an installed .vsix). */
  extensionPath?: string | null;
  /**
   * .vsix files (or marketplace ids) installed into the fresh extensions dir before the editor starts.
   * With extensionPath null, the suite is copied into the first one's folder and run from there, so
   * the tests share that extension's `vscode` API object (VS Code gives each extension its own; a
   * test that stubs vscode.window.showInputBox must be inside the extension it drives).
   */
  installExtensions?: string[];
  /**
   * Take the screenshots the suite asks for (and let the workbench settle before each). Default:
   * SCREENSHOTS=1 in the environment; otherwise takeScreenshot() returns at once, taking none.
   */
  screenshots?: boolean;
  /**
   * Where suite-requested screenshots go. Default: out/screenshots (git-ignored), so a test run
   * leaves the tree clean; `npm run screenshots` writes the README's copies to media/screenshots.
   */
  screenshotsDir?: string;
  /** Where a screenshot of a failed or stuck run goes. Default: out/test-failures. */
  failuresDir?: string;
  /** Whole run, start to cleanup. Default 8 minutes (API_WORKBENCH_TEST_TIMEOUT_S overrides). */
  timeoutMs?: number;
  /** How long the extension host may take to start the suite after the page loads. Default 120 s. */
  suiteStartTimeoutMs?: number;
  /** User settings for the fresh profile, over DEFAULT_USER_SETTINGS (run.ts). */
  userSettings?: Record<string, unknown>;
  /** mocha --grep inside the editor (a plain substring of the full test title). */
  grep?: string;
  /** "i/n": only the i-th of n slices of the suite's files (see mochaRunner). */
  shard?: string;
  /** Names the run in messages and temp folders, e.g. "editor", "untrusted", "vsix". */
  label?: string;
  /** Keep the temp folder (user data, logs) even when the run passed. */
  keepDirs?: boolean;
  log?: (line: string) => void;
}

const POLL_MS = 250;

function defaultTimeoutMs(): number {
  const s = Number(process.env.API_WORKBENCH_TEST_TIMEOUT_S);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 8 * 60_000;
}

/** Streams a growing file (mocha's output) to `log`, line by line. */
function tailFile(file: string, log: (line: string) => void): { stop(): void } {
  let offset = 0;
  let partial = '';
  const flush = () => {
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size <= offset) return;
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      readSync(fd, buf, 0, buf.length, offset);
      offset = size;
      const lines = (partial + buf.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) log(l);
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(flush, POLL_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      flush();
      if (partial) log(partial);
      partial = '';
    },
  };
}

/**
 * Copies the compiled suite folder to the same relative path inside an installed extension. Its
 * bundles keep packages external, so <extension>/out/node_modules links to the checkout's: found by
 * the tests, out of the extension's own resolution path (dist/ cannot see it), so a dependency
 * missing from the .vsix still fails.
 */
function copySuiteInto(extensionDir: string, suitePath: string, root: string): string {
  const suiteDir = path.dirname(suitePath);
  const rel = path.relative(root, suiteDir);
  const inside = rel.startsWith('..') || path.isAbsolute(rel) ? path.join('out', 'test-suite') : rel;
  const target = path.join(extensionDir, inside);
  cpSync(suiteDir, target, { recursive: true });
  const modules = path.join(extensionDir, 'out', 'node_modules');
  if (!existsSync(modules)) symlinkSync(path.join(root, 'node_modules'), modules, 'dir');
  return path.join(target, path.basename(suitePath));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function runSuite(opts: RunSuiteOptions = {}): Promise<SuiteOutcome> {
  const root = repoRoot();
  const editor = editorHost(opts.editorHost);
  const label = opts.label ?? 'editor';
  const log = opts.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const startedAt = Date.now();
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs();
  const suiteStartTimeoutMs = opts.suiteStartTimeoutMs ?? 120_000;
  const trusted = opts.trusted ?? true;
  let suitePath = path.resolve(opts.suitePath ?? path.join(root, 'out', 'test', 'editor', 'suite', 'index.js'));
  const scanExclude: string[] = [];
  const screenshotsDir = path.resolve(opts.screenshotsDir ?? path.join(root, 'out', 'screenshots'));
  const failuresDir = path.resolve(opts.failuresDir ?? path.join(root, 'out', 'test-failures'));
  const dirs = prepareRun(label, {
    ...(opts.workspace ? { workspace: opts.workspace } : {}),
    ...(opts.userSettings ? { userSettings: opts.userSettings } : {}),
  });
  const extensionPath =
    opts.extensionPath === null ? createEmptyExtension(path.join(dirs.runDir, 'empty-extension')) : path.resolve(opts.extensionPath ?? root);

  const failures: SuiteFailure[] = [];
  const workbenchLog: string[] = [];
  const noteWorkbench = (line: string) => {
    workbenchLog.push(line);
    if (workbenchLog.length > 300) workbenchLog.splice(0, workbenchLog.length - 300);
  };
  let stage = 'starting';
  let server: RunningCodeServer | undefined;
  let wb: Workbench | undefined;
  let shots: ScreenshotServer | undefined;
  let tail: ReturnType<typeof tailFile> | undefined;
  let results: ResultsFile | undefined;

  /** A run that did not end by itself: say where it stood, show what the window showed, keep the evidence. */
  const reportStuck = async (title: string, why: string) => {
    const current = readResults(dirs.files.results)?.current;
    const lines = [`${why} (stage: ${stage}${current ? `; last test: ${current}` : ''}; after ${secs(Date.now() - startedAt)})`];
    if (wb) {
      try {
        mkdirSync(failuresDir, { recursive: true });
        const shot = path.join(failuresDir, `${label}-${title.replace(/[^a-z0-9]+/gi, '-')}.png`);
        await wb.page.screenshot({ path: shot, timeout: 15_000 });
        lines.push(`screenshot of the window: ${shot}`);
      } catch (e) {
        lines.push(`(no screenshot: ${e instanceof Error ? e.message : String(e)})`);
      }
    }
    if (workbenchLog.length) lines.push('last workbench log lines:', ...workbenchLog.slice(-30).map((l) => `  ${l}`));
    if (server) lines.push('last code-server output:', ...server.tail(30).map((l) => `  ${l}`));
    failures.push({ title, message: lines.join('\n') });
    log(`\n[${label}] ${title}: ${lines.join('\n  ')}`);
  };

  try {
    if (!existsSync(suitePath)) throw new Error(`suite not built: ${suitePath} (run node esbuild.mjs --tests)`);
    shots = await startScreenshotServer(screenshotsDir, log);
    const dirOpts = { userDataDir: dirs.userDataDir, extensionsDir: dirs.extensionsDir, configFile: dirs.files.config };
    const installedDirs: string[] = [];
    for (const ext of opts.installExtensions ?? []) {
      stage = `installing ${ext}`;
      const before = new Set(readdirSync(dirs.extensionsDir));
      await installExtension(editor, ext, dirOpts);
      installedDirs.push(
        ...readdirSync(dirs.extensionsDir)
          .filter((f) => !before.has(f) && statSync(path.join(dirs.extensionsDir, f)).isDirectory())
          .map((f) => path.join(dirs.extensionsDir, f)),
      );
      log(`[${label}] installed ${ext}`);
    }
    if (opts.extensionPath === null && installedDirs.length > 0) {
      suitePath = copySuiteInto(installedDirs[0], suitePath, root);
      // The copy is test code we put there, not something the editor wrote: not part of the secret scan.
      scanExclude.push(path.dirname(suitePath));
      log(`[${label}] running the suite from inside the installed extension: ${suitePath}`);
    }

    stage = 'starting code-server';
    const installed: Record<string, string> = opts.extensionPath === null && installedDirs.length > 0 ? { [ENV.installedDir]: installedDirs[0] } : {};
    const env = {
      ...opts.env,
      ...installed,
      ...suiteEnv(dirs, {
        trusted,
        host: 'code-server',
        screenshotUrl: shots.url,
        screenshots: opts.screenshots ?? process.env.SCREENSHOTS === '1',
        ...(opts.grep ? { grep: opts.grep } : {}),
        ...(opts.shard ? { shard: opts.shard } : {}),
      }),
    };
    server = await startCodeServer({
      ...dirOpts,
      editor,
      extensionTests: true,
      workspace: dirs.workspace,
      trusted,
      env,
      logFile: dirs.files.codeServerLog,
      root,
    });
    log(`[${label}] ${describeHost(editor)} at ${server.url} ready after ${secs(Date.now() - startedAt)}; workspace ${trusted ? 'trusted' : 'NOT trusted'}`);

    stage = 'launching Chromium';
    wb = await launchWorkbenchBrowser(dirs.browserDir);
    const page = wb.page;
    shots.attach(page);
    let exitCode: number | undefined;
    let crashed: string | undefined;
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      exitCode = typeof code === 'number' ? code : 1;
    });
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => {
      const text = Array.isArray(args) ? args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : String(args);
      noteWorkbench(`${String(type)}: ${text}`);
      if (/Extension host .*terminated unexpectedly/i.test(text)) crashed = `the extension host crashed: ${text}`;
    });
    page.on('pageerror', (e) => noteWorkbench(`pageerror: ${e.message}`));
    page.on('crash', () => {
      crashed = 'the workbench page crashed';
    });

    stage = 'loading the workbench';
    const url = workbenchUrl(server.url, { folder: dirs.workspace, extensionDevelopmentPath: extensionPath, extensionTestsPath: suitePath });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const loaded = Date.now();
    stage = 'waiting for the extension host to start the suite';
    tail = tailFile(dirs.files.mochaLog, log);

    let serverExit: string | undefined;
    void server.exited.then((c) => {
      serverExit = c;
    });
    for (;;) {
      if (exitCode !== undefined) break;
      if (crashed) {
        await reportStuck('editor crashed', crashed);
        break;
      }
      if (serverExit !== undefined) {
        await reportStuck('code-server exited', `code-server exited (${serverExit}) while the suite ran`);
        break;
      }
      if (!existsSync(path.dirname(dirs.files.results))) {
        await reportStuck(
          'run folder deleted',
          `something deleted ${dirs.runDir} while the suite ran (a cleanup of ${path.join(path.dirname(dirs.runDir), 'awb-*')}?)`,
        );
        break;
      }
      if (stage.startsWith('waiting') && readResults(dirs.files.results)?.started) stage = 'running tests';
      if (stage.startsWith('waiting') && Date.now() - loaded > suiteStartTimeoutMs) {
        await reportStuck(
          'suite never started',
          `the extension host did not start ${path.relative(root, suitePath)} within ${secs(suiteStartTimeoutMs)} of the page loading`,
        );
        break;
      }
      if (Date.now() - startedAt > timeoutMs) {
        await reportStuck('timeout', `the suite did not finish within ${secs(timeoutMs)}`);
        break;
      }
      await sleep(POLL_MS);
    }
    tail.stop();
    results = readResults(dirs.files.results);
    if (results?.editorVersion && results.editorVersion !== editor.vscode) {
      // The summary names the versions that ran: a different install must not pass for the listed one.
      failures.push({
        title: 'editor version',
        message: `expected VS Code ${editor.vscode} (code-server ${editor.codeServer}), the extension host reports ${results.editorVersion}`,
      });
    }
    if (exitCode !== undefined) {
      stage = 'finished';
      if (!results?.done) failures.push({ title: 'editor suite', message: `the workbench reported exit code ${exitCode} but the suite wrote no results` });
      else if (exitCode !== 0 && results.failed === 0)
        failures.push({ title: 'editor suite', message: `run() rejected (exit code ${exitCode}) with no failed test; see the output above` });
    }
  } catch (e) {
    await reportStuck('editor harness', e instanceof Error ? e.message : String(e));
  } finally {
    tail?.stop();
    await wb?.close();
    await server?.stop();
    await shots?.close();
  }

  // Only now: the browser and server are gone, so everything they buffered is on disk.
  const { scan, failure } = await scanRunForSecrets(dirs, log, scanExclude);
  if (failure) failures.push(failure);
  const outcome = composeOutcome(dirs, {
    editor: { vscode: editor.vscode, codeServer: editor.codeServer },
    ...(results ? { results } : {}),
    harnessFailures: failures,
    ...(scan ? { scan } : {}),
    screenshots: shots?.taken ?? [],
    startedAt,
  });
  finishRun(dirs, outcome, opts.keepDirs ?? false, log);
  return outcome;
}
