// `npm test`: type-check, lint, build, the unit suite (plain mocha), then the in-editor suite inside a
// real VS Code (code-server + Chromium): the whole suite on the oldest supported VS Code (trusted, then
// the restricted-mode tests untrusted), the smoke subset (@smoke) on the newest, and the packaged .vsix
// installed on the oldest (@vsix). The last line printed is always `N passed, N failed`, counting
// tests only; type-check, lint, build and setup are steps that pass or fail (a failed step fails
// `npm test` with a non-zero exit and is named above that line).
//   node scripts/test.mjs [--skip-editor] [--skip-typecheck] [--skip-lint]
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostInstalled } from './editor-cache.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--skip-editor', '--skip-typecheck', '--skip-lint'].includes(a)) {
    console.error(`unknown option ${a}\nusage: node scripts/test.mjs [--skip-editor] [--skip-typecheck] [--skip-lint]`);
    process.exit(2);
  }
}

/**
 * Editor runs per editor build (ids in scripts/editor-hosts.json). The oldest supported VS Code (the
 * engines.vscode floor) runs everything: the whole suite trusted, then the restricted-mode tests in an
 * untrusted workspace. The newest runs the smoke subset (titles tagged @smoke: activation, each view,
 * a notebook run, the webviews): what changes between VS Code versions is the workbench around the
 * extension, not its logic. Then (packagedRun) the .vsix as users get it, installed on the oldest,
 * runs the @vsix subset (activate, one command end to end).
 */
// The timeouts guard against a hung editor, not speed: a loaded 2-core machine ran the trusted suite
// in 290-370 s, so it gets twice that.
const EDITOR_RUNS = {
  oldest: [
    { label: 'trusted', args: ['--timeout', '720'] },
    { label: 'untrusted', args: ['--untrusted', '--grep', 'restricted mode', '--timeout', '180'] },
  ],
  newest: [{ label: 'smoke', args: ['--grep', '@smoke', '--timeout', '300'] }],
};
// A bound for a hung suite, not a measure of speed (that is npm run bench): the suite takes about
// 4 to 5 minutes on a 2-core machine at load 2, and ran past 5 minutes at load 8.
const UNIT_TIMEOUT_MS = 10 * 60_000;
// The ceiling of the package. It was 1.6 MB (the maps issue's ceiling) until the catalogue behind
// completions and `check`, the agent tools, the LLM checks (~90 KB compressed) and the editor's
// in-process MCP server (the SDK's server and Streamable HTTP transport, ~38 KB) made it 1.73 MB;
// the next savings are zod in five bundles, Ajv in two, and Leaflet in both webview bundles.
// 2.3 MB since collection scripts: the QuickJS WebAssembly engine (503 KB, 234 KB compressed) and
// the crypto-js and lodash sources scripts require (50 KB compressed), loaded only when a script
// runs; the package measured 2.25 MB with them.
// 2.5 MB since Copy as Code and OpenAPI import: httpsnippet's seven language targets and
// swagger-parser, openapi-sampler and js-yaml, all in dist/notebook.js (loaded when a notebook
// opens, not at activation); the package measured 2.33 MB with them.
const VSIX_BUDGET_MB = 2.5;
const EDITOR_HOSTS = JSON.parse(readFileSync(path.join(root, 'scripts', 'editor-hosts.json'), 'utf8')).hosts;
const VSIX_HOST = 'oldest';

function hostName(host) {
  return `VS Code ${host.vscode} (code-server ${host.codeServer})`;
}

const started = Date.now();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'awb-npm-test-'));
const totals = { passed: 0, failed: 0 };
/** Steps that failed (type-check, lint, build, setup, packaging, a driver that gave no summary): each fails `npm test`. */
const failedSteps = [];
/** Per editor build: { passed, failed, vscode (as the extension host reported it) }. */
const editorTotals = new Map();
/** One row per step for the summary: [name, result, seconds]. */
const rows = [];

function secs(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function banner(text) {
  console.log(`\n━━ ${text} ${'━'.repeat(Math.max(3, 70 - text.length))}`);
}

let current; // the child running now, stopped on Ctrl-C or a CI cancel
/** Children running beside it (editor installs), stopped likewise. */
const background = new Set();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = true;
    if (current) killGroup(current, 'SIGTERM');
    for (const child of background) killGroup(child, 'SIGTERM');
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Runs a command with our stdout/stderr (no stdin: CI has none) in its own process group, killed after timeoutMs. */
function run(cmd, argv, { timeoutMs } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    current = child;
    let timedOut = false;
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          console.error(`\n${path.basename(cmd)} ${argv.join(' ')}: still running after ${secs(timeoutMs)}, stopping it`);
          killGroup(child, 'SIGKILL');
        }, timeoutMs)
      : undefined;
    child.on('error', (e) => console.error(`${cmd}: ${e.message}`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      resolve({ code: code ?? 1, signal, timedOut });
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function listFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

/**
 * out/ is kept between builds, so a renamed or deleted test would still run from its old bundle.
 * Remove every out/test bundle whose test/ source is gone.
 */
function pruneOrphanBundles() {
  for (const js of listFiles(path.join(root, 'out', 'test'), '.js')) {
    const rel = path.relative(path.join(root, 'out', 'test'), js).replace(/\.js$/, '.ts');
    if (!existsSync(path.join(root, 'test', rel))) {
      rmSync(js, { force: true });
      rmSync(js + '.map', { force: true });
    }
  }
}

async function step(name, fn) {
  banner(name);
  const t0 = Date.now();
  const result = await fn();
  rows.push([name, result, secs(Date.now() - t0)]);
  if (typeof result === 'string' && result.startsWith('FAILED')) failedSteps.push(name);
  if (interrupted) {
    rmSync(tmp, { recursive: true, force: true });
    console.log('\ninterrupted');
    process.exit(130);
  }
  return result;
}

const node = process.execPath;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Installs a missing editor build (scripts/setup.sh <id>) in the background, its output kept in a
 * log that is printed when the build is first needed. On a fresh machine the installs take 5 to 6
 * minutes: run one after the other behind the checks, the unit suite and the oldest editor's runs,
 * instead of before them, they cost CI about a minute instead of six.
 */
function setupInBackground(host, after) {
  const log = path.join(tmp, `setup-${host.id}.log`);
  return after.then(
    () =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const fd = openSync(log, 'w');
        const child = spawn('bash', [path.join(root, 'scripts', 'setup.sh'), host.id], { stdio: ['ignore', fd, fd], detached: true });
        background.add(child);
        const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 20 * 60_000);
        child.on('error', (e) => console.error(`setup.sh: ${e.message}`));
        child.on('close', (code) => {
          clearTimeout(timer);
          closeSync(fd);
          background.delete(child);
          resolve({ code: code ?? 1, log, ms: Date.now() - t0 });
        });
      }),
  );
}

/** Editor build id → its background install (absent when it was installed already). */
const installs = new Map();
if (!args.has('--skip-editor')) {
  let previous = Promise.resolve();
  for (const host of EDITOR_HOSTS.filter((h) => !hostInstalled(h))) {
    previous = setupInBackground(host, previous);
    installs.set(host.id, previous);
  }
}

/** Waits for a build's background install and reports it as a step (with its log) the first time it is needed. */
async function awaitInstall(host) {
  const job = installs.get(host.id);
  if (!job) return;
  installs.delete(host.id);
  await step(`setup ${hostName(host)} (installed in the background)`, async () => {
    const r = await job;
    const lines = readFileSync(r.log, 'utf8').trimEnd().split('\n');
    console.log(lines.slice(r.code === 0 ? -12 : -80).join('\n'));
    return r.code === 0 ? `ok, ${secs(r.ms)} in the background` : `FAILED (exit ${r.code}, see above)`;
  });
}

if (!args.has('--skip-typecheck')) {
  await step('type-check (tsc --noEmit)', async () => {
    const r = await run(node, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit'], { timeoutMs: 5 * 60_000 });
    return r.code === 0 ? 'ok' : 'FAILED';
  });
}

// Lint is a step, not a count of tests: `npm run lint` (ESLint, Prettier and the layer rules) passes
// or fails. It needs no build, so it runs beside the build and the suites (whose in-editor runs
// mostly wait on the editor), its output kept in a log printed when its step is reported: that
// takes its one to two minutes off the run.
const lintJob = args.has('--skip-lint') ? undefined : runInBackground(npm, ['run', '--silent', 'lint'], path.join(tmp, 'lint.log'), 5 * 60_000);

/** Runs `cmd` with its output in `log`; resolves with its exit code (never rejects). Stopped with the run on Ctrl-C. */
function runInBackground(cmd, argv, log, timeoutMs) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const fd = openSync(log, 'w');
    const child = spawn(cmd, argv, { stdio: ['ignore', fd, fd], detached: true });
    background.add(child);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => console.error(`${cmd}: ${e.message}`));
    child.on('close', (code) => {
      clearTimeout(timer);
      closeSync(fd);
      background.delete(child);
      resolve({ code: code ?? 1, log, timedOut, ms: Date.now() - t0 });
    });
  });
}

const built = await step('build (esbuild --tests)', async () => {
  const r = await run(node, ['esbuild.mjs', '--tests'], { timeoutMs: 5 * 60_000 });
  if (r.code === 0) {
    pruneOrphanBundles();
    return 'ok';
  }
  return 'FAILED';
});

if (built === 'ok') {
  // The unit suite drives Debian's Chromium too (the webview pages' policies): the first install
  // brings it with the other Debian packages.
  const first = EDITOR_HOSTS.find((h) => installs.has(h.id));
  if (first) await awaitInstall(first);
  await step('unit suite (mocha)', async () => {
    if (listFiles(path.join(root, 'out', 'test', 'unit'), '.test.js').length === 0) return 'no unit tests';
    const totalsFile = path.join(tmp, 'unit.json');
    const r = await run(
      node,
      [
        path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
        // Files run in two worker processes: most unit tests wait on real local servers and child
        // processes, so two at a time take ~105 s where one at a time took ~190 s on 2 cores.
        // Each file keeps its own process state (environment, ports held, sandboxes started).
        '--parallel',
        '--jobs',
        String(Math.max(2, Math.min(4, os.availableParallelism()))),
        '--reporter',
        path.join(root, 'scripts', 'mocha-totals-reporter.cjs'),
        '--reporter-option',
        `totals=${totalsFile}`,
      ],
      { timeoutMs: UNIT_TIMEOUT_MS },
    );
    const t = readJson(totalsFile);
    if (!t) {
      return `FAILED: mocha ended without results (exit ${r.timedOut ? 'timeout' : r.code})`;
    }
    totals.passed += t.passed;
    totals.failed += t.failed;
    if (r.code !== 0 && t.failed === 0) {
      return `FAILED: mocha exited ${r.code} with no failed test`;
    }
    return `${t.passed} passed, ${t.failed} failed${t.pending ? `, ${t.pending} pending` : ''}`;
  });

  if (!args.has('--skip-editor')) {
    for (const host of EDITOR_HOSTS) {
      await awaitInstall(host);
      if (!hostInstalled(host)) {
        // Never skipped silently: an editor build that is not there is a failure with its name on it.
        await step(`in-editor on ${hostName(host)}`, async () => {
          editorTotals.set(host.id, { passed: 0, failed: 0, runs: [] });
          return 'FAILED: not installed (scripts/setup.sh failed, see above)';
        });
        continue;
      }
      for (const er of EDITOR_RUNS[host.id] ?? EDITOR_RUNS.newest) await editorRun(host, er.label, er.args);
    }
    const vsixHost = EDITOR_HOSTS.find((h) => h.id === VSIX_HOST);
    if (vsixHost && hostInstalled(vsixHost)) await packagedRun(vsixHost);
  }
}

/**
 * The product as users get it: `npm run package` builds the .vsix (within its size budget), then the
 * whole in-editor suite runs against that .vsix installed into a fresh editor, not the checkout.
 */
async function packagedRun(host) {
  const vsix = path.join(tmp, 'api-workbench.vsix');
  const packaged = await step('package (.vsix)', async () => {
    const r = await run(npm, ['run', 'package', '--', '-o', vsix], { timeoutMs: 5 * 60_000 });
    if (r.code !== 0 || !existsSync(vsix)) {
      return `FAILED: npm run package exited ${r.timedOut ? 'timeout' : r.code}`;
    }
    const mb = statSync(vsix).size / (1024 * 1024);
    if (mb > VSIX_BUDGET_MB) return `FAILED: ${mb.toFixed(2)} MB is over the ${VSIX_BUDGET_MB} MB budget`;
    return `ok, ${mb.toFixed(2)} MB (budget ${VSIX_BUDGET_MB} MB)`;
  });
  if (!packaged.startsWith('ok')) return;
  await editorRun(host, 'installed .vsix', ['--install-extension', vsix, '--no-dev-extension', '--grep', '@vsix', '--timeout', '240'], 'vsix');
}

/** One run of the in-editor suite in a fresh code-server; its counts go into the totals. */
function editorRun(host, title, args, label = title) {
  return step(`in-editor on ${hostName(host)}: ${title}`, async () => {
    const summary = path.join(tmp, `${host.id}-${label}.json`);
    const r = await run(
      node,
      [
        path.join(root, 'out', 'test', 'editor', 'runInCodeServer.js'),
        '--editor',
        host.id,
        '--label',
        label,
        '--summary',
        summary,
        '--screenshots-dir',
        path.join(root, 'out', 'screenshots', host.id),
        ...args,
      ],
      {
        // The driver has its own timeout and reports what it saw; this only catches a wedged driver.
        timeoutMs: 12 * 60_000,
      },
    );
    const s = readJson(summary);
    const sum = editorTotals.get(host.id) ?? { passed: 0, failed: 0, runs: [] };
    editorTotals.set(host.id, sum);
    sum.runs.push(label);
    if (!s) {
      return `FAILED: the driver ended without a summary (exit ${r.timedOut ? 'timeout' : r.code})`;
    }
    totals.passed += s.passed;
    totals.failed += s.failed;
    sum.passed += s.passed;
    sum.failed += s.failed;
    // The version the extension host reported (the driver fails the run if it is not the listed one).
    if (s.editor?.vscode) sum.vscode = s.editor.vscode;
    const counts = `${s.passed} passed, ${s.failed} failed${s.pending ? `, ${s.pending} pending` : ''}`;
    // A --grep that selects nothing would otherwise pass with only the secret scan counted: a failed step.
    const grep = args[args.indexOf('--grep') + 1];
    if (args.includes('--grep') && s.selected === 0) return `FAILED: --grep ${JSON.stringify(grep)} selected no test (${counts})`;
    if (args.includes('--grep') && s.selected === undefined && s.failed === 0)
      return `FAILED: the suite did not report how many tests --grep ${JSON.stringify(grep)} selected (${counts})`;
    return counts;
  });
}

if (lintJob) {
  await step('lint (npm run lint, run beside the others)', async () => {
    const r = await lintJob;
    const text = readFileSync(r.log, 'utf8').trimEnd();
    if (text) console.log(text);
    return r.code === 0 ? `ok, ${secs(r.ms)} in the background` : `FAILED (exit ${r.timedOut ? 'timeout' : r.code})`;
  });
}

rmSync(tmp, { recursive: true, force: true });
banner(`summary (${secs(Date.now() - started)})`);
const width = Math.max(...rows.map((r) => r[0].length));
for (const [name, result, time] of rows) console.log(`  ${name.padEnd(width)}  ${time.padStart(8)}  ${result}`);
if (!args.has('--skip-editor') && built === 'ok') {
  console.log('');
  for (const host of EDITOR_HOSTS) {
    const t = editorTotals.get(host.id);
    if (!t) console.log(`in-editor on ${hostName(host)}: did not run`);
    else
      console.log(
        `in-editor on VS Code ${t.vscode ?? `${host.vscode} (not reached)`} (code-server ${host.codeServer}): ${t.passed} passed, ${t.failed} failed (${t.runs.join(' + ') || 'no run'})`,
      );
  }
}
// An install still running (the build failed before it was needed) is not waited for.
for (const child of background) killGroup(child, 'SIGTERM');
if (failedSteps.length > 0) console.log(`\nfailed steps: ${failedSteps.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed === 0 && failedSteps.length === 0 ? 0 : 1;
