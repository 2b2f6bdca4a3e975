// What every driver does around an in-editor run, whatever the host (code-server or Electron):
// a fresh set of folders, the environment that tells the suite where to report, reading the
// results back, and the secret scan afterwards.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV, parseResults, type ResultsFile, type SuiteFailure } from './protocol';
import { readSecretsFile, scanForSecrets, type SecretScanResult } from './secretScan';

/** A quiet editor: no welcome page over the screenshots, nothing reaching for the network. */
export const DEFAULT_USER_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  // The demo workspace of `npm start` sits inside the checkout: no "open the parent repository?" prompt.
  'git.openRepositoryInParentFolders': 'never',
};

export interface RunDirs {
  label: string;
  /** Temp folder holding everything below (deleted after a clean pass). */
  runDir: string;
  userDataDir: string;
  extensionsDir: string;
  /** Browser profile (code-server runs only). */
  browserDir: string;
  workspace: string;
  /** True when the workspace was created for this run (a caller's folder is never deleted). */
  ownWorkspace: boolean;
  files: {
    results: string;
    mochaLog: string;
    secrets: string;
    codeServerLog: string;
    config: string;
  };
}

export interface PrepareOptions {
  workspace?: string;
  userSettings?: Record<string, unknown>;
}

/** A small folder with files the commands can work on (a JSON request, an address, coordinates). */
export function createSampleWorkspace(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'README.md'), '# Sample workspace\n\nOpened by the API Workbench in-editor tests.\n');
  writeFileSync(path.join(dir, 'request.json'), JSON.stringify({ model: 'sandbox-chat', messages: [{ role: 'user', content: 'Hello' }] }, null, 2) + '\n');
  writeFileSync(path.join(dir, 'places.txt'), '1600 Amphitheatre Parkway, Mountain View, CA\n48.8584,2.2945\n');
  return dir;
}

export function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const dir = path.join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
}

/**
 * The workbench runs extensionTestsPath only in an extension development window, so testing an
 * installed .vsix still needs a development extension: an empty one.
 */
export function createEmptyExtension(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: 'test-host', publisher: 'api-workbench-tests', version: '0.0.0', engines: { vscode: '^1.100.0' } };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  return dir;
}

export function prepareRun(label: string, opts: PrepareOptions = {}): RunDirs {
  const runDir = mkdtempSync(path.join(os.tmpdir(), `awb-${label}-`));
  const dir = (name: string) => {
    const p = path.join(runDir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const userDataDir = dir('ud');
  writeUserSettings(userDataDir, { ...DEFAULT_USER_SETTINGS, ...opts.userSettings });
  const control = dir('control');
  return {
    label,
    runDir,
    userDataDir,
    extensionsDir: dir('exts'),
    browserDir: dir('browser'),
    workspace: path.resolve(opts.workspace ?? createSampleWorkspace(path.join(runDir, 'workspace'))),
    ownWorkspace: !opts.workspace,
    files: {
      results: path.join(control, 'results.json'),
      mochaLog: path.join(control, 'mocha.log'),
      secrets: path.join(control, 'secrets.jsonl'),
      codeServerLog: path.join(control, 'code-server.log'),
      config: path.join(control, 'config.yaml'),
    },
  };
}

/** The environment that connects the suite (protocol.ts) to this run. */
export function suiteEnv(
  dirs: RunDirs,
  opts: { trusted: boolean; host: 'code-server' | 'electron'; screenshotUrl?: string; screenshots?: boolean; grep?: string; shard?: string },
): Record<string, string> {
  return {
    [ENV.results]: dirs.files.results,
    [ENV.log]: dirs.files.mochaLog,
    [ENV.secrets]: dirs.files.secrets,
    [ENV.trusted]: opts.trusted ? '1' : '0',
    [ENV.color]: process.stdout.isTTY ? '1' : '0',
    [ENV.host]: opts.host,
    ...(opts.screenshotUrl ? { [ENV.screenshot]: opts.screenshotUrl } : {}),
    [ENV.screenshots]: opts.screenshots ? '1' : '0',
    ...(opts.grep ? { [ENV.grep]: opts.grep } : {}),
    ...(opts.shard ? { [ENV.shard]: opts.shard } : {}),
  };
}

export function readResults(file: string): ResultsFile | undefined {
  if (!existsSync(file)) return undefined;
  return parseResults(readFileSync(file, 'utf8'));
}

/**
 * Search everything the editor wrote for the secrets the suite declared: user data, extensions,
 * the workspace and (code-server) the browser profile, where the web workbench keeps globalState and
 * the window and extension-host logs. Run it only after the editor has exited, so all is on disk.
 */
export async function scanRunForSecrets(
  dirs: RunDirs,
  log: (line: string) => void,
  exclude: string[] = [],
): Promise<{ scan?: SecretScanResult; failure?: SuiteFailure }> {
  const values = readSecretsFile(dirs.files.secrets);
  if (values.length === 0) return {};
  const roots = [dirs.userDataDir, dirs.extensionsDir, dirs.workspace, dirs.browserDir];
  const scan = await scanForSecrets(values, roots, exclude);
  const where = `${scan.filesScanned} files (${(scan.bytesScanned / 1e6).toFixed(1)} MB) under the user-data dir, extensions dir, workspace and browser profile`;
  if (scan.skipped) log(`[${dirs.label}] secret scan: ${scan.skipped} value(s) shorter than 8 characters not searched`);
  if (scan.hits.length === 0) {
    log(`[${dirs.label}] secret scan passed: ${scan.values} secret value(s) found in none of ${where}`);
    return { scan };
  }
  const list = scan.hits.map((h) => `${path.relative(dirs.runDir, h.file)} (secret ${h.what})`);
  log(`[${dirs.label}] secret scan FAILED: ${scan.values} secret value(s) searched in ${where}; found in:`);
  for (const l of list) log(`    ${l}`);
  return { scan, failure: { title: 'secret scan', message: `a secret value was found in ${scan.hits.length} place(s):\n${list.join('\n')}` } };
}

export interface SuiteOutcome {
  label: string;
  /**
   * The editor the suite ran in: vscode as the extension host reported it (else the version the driver
   * started), codeServer absent under Electron.
   */
  editor?: { vscode: string; codeServer?: string };
  passed: number;
  failed: number;
  pending: number;
  /** Tests the suite selected (every test, or those its --grep matched); absent if it never started. */
  selected?: number;
  /** Test failures plus the harness's own (stuck run, crash, "secret scan"). */
  failures: SuiteFailure[];
  screenshots: string[];
  secretScan?: SecretScanResult;
  durationMs: number;
  /** Temp folder with user data, logs and control files (deleted after a clean pass unless kept). */
  runDir: string;
}

function editorOf(started: SuiteOutcome['editor'], results: ResultsFile | undefined): Pick<SuiteOutcome, 'editor'> {
  const vscode = results?.editorVersion ?? started?.vscode;
  if (!vscode) return {};
  return { editor: { vscode, ...(started?.codeServer ? { codeServer: started.codeServer } : {}) } };
}

/** Adds up the suite's results and the harness's findings; the secret scan counts as one test. */
export function composeOutcome(
  dirs: RunDirs,
  parts: {
    editor?: SuiteOutcome['editor'];
    results?: ResultsFile;
    harnessFailures: SuiteFailure[];
    scan?: SecretScanResult;
    screenshots: string[];
    startedAt: number;
  },
): SuiteOutcome {
  const { results, harnessFailures, scan } = parts;
  return {
    label: dirs.label,
    ...editorOf(parts.editor, results),
    passed: (results?.passed ?? 0) + (scan && scan.hits.length === 0 ? 1 : 0),
    failed: (results?.failed ?? 0) + harnessFailures.length,
    pending: results?.pending ?? 0,
    ...(results?.selected !== undefined ? { selected: results.selected } : {}),
    failures: [...(results?.failures ?? []), ...harnessFailures],
    screenshots: parts.screenshots,
    ...(scan ? { secretScan: scan } : {}),
    durationMs: Date.now() - parts.startedAt,
    runDir: dirs.runDir,
  };
}

export function finishRun(dirs: RunDirs, outcome: SuiteOutcome, keep: boolean, log: (line: string) => void): void {
  for (const s of outcome.screenshots) log(`[${dirs.label}] screenshot: ${s}`);
  if (outcome.failed === 0 && !keep) rmSync(dirs.runDir, { recursive: true, force: true });
  else log(`[${dirs.label}] run folder (user data, logs, editor output): ${dirs.runDir}`);
}
