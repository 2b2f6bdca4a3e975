// Runs inside the extension host: mocha over every *.test.js of a compiled suite folder, reporting
// through files (see protocol.ts) because the driver cannot see the extension host's console.
import { appendFileSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { collectHostErrors, HOST_ERRORS_TITLE, hostErrorsMessage } from './hostErrors';
import { ENV, type ResultsFile, type SuiteFailure } from './protocol';

export interface MochaSuiteOptions {
  /** Per-test timeout; generous because the first command of a suite may activate the extension. */
  timeoutMs?: number;
  /** vscode.version (the suite index passes it: this module does not import vscode). */
  editorVersion?: string;
  /** Fail the run (one named failure) on any unhandled rejection or uncaught exception while it runs. */
  failOnHostErrors?: boolean;
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n');
}

/**
 * The `run()` of a suite index: resolves when every test passed, rejects otherwise (the workbench
 * then reports exit code 1 to the driver). Results and mocha's spec output go to the files named in
 * the environment; without them (a suite started by hand) output goes to the console only.
 */
export function runMochaSuite(dir: string, opts: MochaSuiteOptions = {}): Promise<void> {
  const env = process.env;
  const resultsFile = env[ENV.results];
  const logFile = env[ENV.log];
  const consoleLog = console.log.bind(console);
  const results: ResultsFile = {
    started: true,
    done: false,
    passed: 0,
    failed: 0,
    pending: 0,
    failures: [],
    ...(opts.editorVersion ? { editorVersion: opts.editorVersion } : {}),
  };
  const save = () => {
    if (!resultsFile) return;
    try {
      // Write-then-rename: the driver polls this file and must never read it half-written.
      writeFileSync(resultsFile + '.tmp', JSON.stringify(results));
      renameSync(resultsFile + '.tmp', resultsFile);
    } catch (e) {
      // Throwing from a runner event would stop mocha mid-run; the driver notices the missing file.
      consoleLog(`cannot write ${resultsFile}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const fail = (title: string, err: unknown) => {
    const message = err instanceof Error ? firstLines(err.stack ?? err.message, 12) : String(err);
    const failure: SuiteFailure = { title, message };
    results.failures.push(failure);
  };
  save();

  if (logFile) {
    // The spec reporter prints through Base.consoleLog; copying it to a file lets the driver stream it.
    Mocha.reporters.Base.consoleLog = (...data: unknown[]) => {
      try {
        appendFileSync(logFile, format(...data) + '\n');
      } catch {
        // The driver reports a vanished run folder; the console copy below still reaches the workbench log.
      }
      consoleLog(...data);
    };
  }

  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: env[ENV.color] === '1',
    timeout: opts.timeoutMs ?? 30_000,
    ...(env[ENV.grep] ? { grep: env[ENV.grep] } : {}),
  });
  const files = suiteShard(
    readdirSync(dir)
      .filter((f) => f.endsWith('.test.js'))
      .sort()
      .map((f) => path.join(dir, f)),
    env[ENV.shard],
  );

  return new Promise<void>((resolve, reject) => {
    const finish = (error?: Error) => {
      results.done = true;
      save();
      if (error) reject(error);
      else resolve();
    };
    if (files.length === 0) {
      fail('load suite', new Error(`no *.test.js files in ${dir}`));
      results.failed = 1;
      finish(new Error(`no *.test.js files in ${dir}`));
      return;
    }
    for (const f of files) mocha.addFile(f);
    const hostErrors = opts.failOnHostErrors ? collectHostErrors() : undefined;
    let runner: Mocha.Runner;
    try {
      runner = mocha.run();
    } catch (e) {
      // A test file that throws while loading (bad import, syntax) aborts mocha before any test runs.
      fail('load test files', e);
      hostErrors?.stop();
      results.failed = 1;
      finish(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    // After mocha.run() the runner's total counts only the tests the --grep selected.
    results.selected = runner.total;
    save();
    runner.on('test', (t) => {
      results.current = t.fullTitle();
      save();
    });
    runner.on('pass', () => {
      results.passed++;
      save();
    });
    runner.on('pending', () => {
      results.pending++;
    });
    runner.on('fail', (t, err) => {
      results.failed++;
      fail(t.fullTitle(), err);
      save();
    });
    runner.on('end', () => {
      const errors = hostErrors?.stop() ?? [];
      if (errors.length) {
        results.failed++;
        results.failures.push({ title: HOST_ERRORS_TITLE, message: hostErrorsMessage(errors) });
        Mocha.reporters.Base.consoleLog(`\n  ${HOST_ERRORS_TITLE}: FAILED\n${hostErrorsMessage(errors)}\n`);
      }
      finish(results.failed > 0 ? new Error(`${results.failed} in-editor test(s) failed`) : undefined);
    });
  });
}

/**
 * The files of slice `shard` ("i/n") of the suite: each file goes, the one with most tests first, to
 * the slice with the fewest tests so far, so n editors running the n slices side by side finish at
 * about the same time. The same files give the same slices, so a failure reruns in its own slice.
 */
export function suiteShard(files: readonly string[], shard: string | undefined): string[] {
  const m = shard ? /^(\d+)\/(\d+)$/.exec(shard) : null;
  if (!m) return [...files];
  const [index, count] = [Number(m[1]), Number(m[2])];
  const slices = Array.from({ length: count }, () => ({ tests: 0, files: new Set<string>() }));
  // A test is an `it('title'` in the bundle (the bundled product code has none of that shape).
  const weighed = files.map((f) => ({ f, tests: readFileSync(f, 'utf8').match(/(?<![.\w$])it\(["'`]/g)?.length ?? 1 }));
  weighed.sort((a, b) => b.tests - a.tests || (a.f < b.f ? -1 : 1));
  for (const { f, tests } of weighed) {
    const lightest = slices.reduce((min, s) => (s.tests < min.tests ? s : min));
    lightest.tests += tests;
    lightest.files.add(f);
  }
  return files.filter((f) => slices[index - 1]?.files.has(f));
}
