// `npm run test:electron`: the same in-editor suite under @vscode/test-electron, for machines with a
// desktop VS Code (or internet to download one). Screenshots need code-server's Playwright page, so
// takeScreenshot() is a no-op here; results, output and the secret scan work the same.
//   node out/test/editor/runInElectron.js [--untrusted] [--grep <text>] [--timeout <s>] [--keep] [--summary <file>]
// Environment:
//   VSCODE_EXECUTABLE  a VS Code binary to use (no download)
//   VSCODE_VERSION     version to download otherwise (default 1.100.3, the oldest supported)
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import * as z from 'zod/mini';
import { parseJson, validate } from '../../src/core/validate';
import { repoRoot } from './harness/paths';
import type { SuiteFailure } from './harness/protocol';
import { composeOutcome, finishRun, prepareRun, readResults, scanRunForSecrets, suiteEnv } from './harness/run';

const CHILD_ENV = 'API_WORKBENCH_ELECTRON_CHILD';
const DOWNLOAD_TIMEOUT_MS = 120_000;
const log = (line: string) => process.stdout.write(line + '\n');

const childConfigSchema = z.object({
  executable: z.string(),
  extensionDevelopmentPath: z.string(),
  extensionTestsPath: z.string(),
  launchArgs: z.array(z.string()),
  env: z.record(z.string(), z.string()),
});
type ChildConfig = z.infer<typeof childConfigSchema>;

/** In a child process of our own group, so a hung VS Code can be killed with everything it started. */
async function child(config: ChildConfig): Promise<never> {
  try {
    const code = await runTests({
      vscodeExecutablePath: config.executable,
      extensionDevelopmentPath: config.extensionDevelopmentPath,
      extensionTestsPath: config.extensionTestsPath,
      launchArgs: config.launchArgs,
      extensionTestsEnv: config.env,
    });
    process.exit(code);
  } catch (e) {
    console.error(`VS Code ended with an error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}

async function resolveExecutable(root: string): Promise<string> {
  const given = process.env.VSCODE_EXECUTABLE;
  if (given) {
    if (!existsSync(given)) throw new Error(`VSCODE_EXECUTABLE=${given} does not exist`);
    return given;
  }
  const version = process.env.VSCODE_VERSION ?? '1.100.3';
  log(`[electron] no VSCODE_EXECUTABLE: downloading VS Code ${version} into .vscode-test/ (or using the copy there)`);
  let timer: NodeJS.Timeout | undefined;
  const tooSlow = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`)), DOWNLOAD_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([downloadAndUnzipVSCode({ version, cachePath: path.join(root, '.vscode-test'), timeout: 15_000 }), tooSlow]);
  } catch (e) {
    throw new Error(
      `could not download VS Code ${version}: ${e instanceof Error ? e.message : String(e)}\n` +
        'This machine has no desktop VS Code to test with. Either set VSCODE_EXECUTABLE=/path/to/code, ' +
        'or run the same suite in code-server: npm run test:editor',
      { cause: e },
    );
  } finally {
    clearTimeout(timer);
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      untrusted: { type: 'boolean' },
      grep: { type: 'string' },
      timeout: { type: 'string' },
      keep: { type: 'boolean' },
      summary: { type: 'string' },
    },
    strict: true,
  });
  const timeoutMs = (values.timeout ? Number(values.timeout) : 480) * 1000;
  if (!(timeoutMs > 0)) throw new Error(`--timeout must be a positive number of seconds, got ${values.timeout}`);
  const root = repoRoot();
  const trusted = !values.untrusted;
  const suitePath = path.join(root, 'out', 'test', 'editor', 'suite', 'index.js');
  if (!existsSync(suitePath)) throw new Error(`suite not built: ${suitePath} (run node esbuild.mjs --tests)`);
  const startedAt = Date.now();
  const executable = await resolveExecutable(root);

  const dirs = prepareRun('electron');
  const launchArgs = [
    dirs.workspace,
    '--user-data-dir',
    dirs.userDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
    '--skip-welcome',
    '--skip-release-notes',
    '--disable-telemetry',
    '--disable-updates',
    ...(trusted ? ['--disable-workspace-trust'] : []),
    // Chromium refuses to run as root without it.
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
  ];
  const config: ChildConfig = {
    executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: suitePath,
    launchArgs,
    env: suiteEnv(dirs, { trusted, host: 'electron', ...(values.grep ? { grep: values.grep } : {}) }),
  };
  log(`[electron] ${executable}; workspace ${trusted ? 'trusted' : 'NOT trusted'}`);

  const failures: SuiteFailure[] = [];
  const proc = spawn(process.execPath, [__filename], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const code = await new Promise<number | 'timeout'>((resolve) => {
    const timer = setTimeout(() => {
      try {
        if (proc.pid) process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      resolve('timeout');
    }, timeoutMs);
    proc.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c ?? 1);
    });
  });
  if (proc.pid) {
    try {
      process.kill(-proc.pid, 'SIGKILL'); // anything VS Code left behind
    } catch {
      // the group is gone
    }
  }

  const results = readResults(dirs.files.results);
  if (code === 'timeout') {
    failures.push({
      title: 'timeout',
      message: `VS Code did not finish within ${timeoutMs / 1000} s${results?.current ? `; last test: ${results.current}` : ''}`,
    });
  } else if (!results?.done) {
    const hint = process.platform === 'linux' && !process.env.DISPLAY ? ' (no DISPLAY is set: run it under xvfb-run)' : '';
    failures.push({ title: 'editor suite', message: `VS Code exited (${code}) without the suite reporting results${hint}` });
  } else if (code !== 0 && results.failed === 0) {
    failures.push({ title: 'editor suite', message: `VS Code exited ${code} with no failed test` });
  }
  for (const f of failures) log(`[electron] ${f.title}: ${f.message}`);
  const { scan, failure } = await scanRunForSecrets(dirs, log);
  if (failure) failures.push(failure);
  const outcome = composeOutcome(dirs, { ...(results ? { results } : {}), harnessFailures: failures, ...(scan ? { scan } : {}), screenshots: [], startedAt });
  finishRun(dirs, outcome, values.keep ?? false, log);
  if (values.summary) writeFileSync(values.summary, JSON.stringify(outcome, null, 2));
  log(
    `[electron] ${outcome.passed} passed, ${outcome.failed} failed${outcome.pending ? `, ${outcome.pending} pending` : ''} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  return outcome.failed === 0 ? 0 : 1;
}

const childConfig = process.env[CHILD_ENV];
if (childConfig !== undefined) {
  const json = parseJson(childConfig);
  const config = json.ok ? validate(childConfigSchema, json.value) : undefined;
  if (!config?.ok) {
    console.error(`[electron] unreadable ${CHILD_ENV}`);
    process.exit(1);
  }
  void child(config.value);
} else {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`[electron] ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
