// `api-workbench run`: checks everything first (exit 2 with nothing sent), then runs each notebook
// (once per data row) through the engine, up to --parallel at a time, printing each cell as it
// finishes, and writes the report. Every key the CLI reads is registered with one Redactor, and
// every line that leaves the process passes it.
import path from 'node:path';
import { connectionId, type Connection, type SandboxEndpoints } from '../core/connections';
import { Redactor } from '../core/redact';
import { connectionLabel, connectionsHost, runNotebook, SANDBOX_CONNECTION_NAME, type CellResult, type NotebookHost } from '../notebook/runApi';
import type { Sandbox } from '../sandbox/host';
import { masterKeyProblem } from '../services/realtime/masterKey';
import type { MatrixAxis, RunArgs } from './args';
import { loadConnectionsFile } from './connectionsFile';
import { checkHttpCells } from './httpCellChecks';
import { configureCliNetwork } from './network';
import { prepareTokens } from './credentials';
import { loadDataRows, type DataRow } from './data';
import { CliError } from './errors';
import { notebookFiles } from './files';
import { loadNotebooks, usedConnections, type LoadedNotebook } from './preflight';
import { Console, type LineSink } from './progress';
import { loadBaseline } from './reporters/baseline';
import { finishReport } from './reporters/finish';
import { cellLines, suiteHeader } from './reporters/pretty';
import { keysFromEnv, runCredentials, type RunCredentials } from './envKeys';
import { refuseSandboxNameClash, withSandbox } from './sandboxConnections';
import { countsAsCell, trimResult, type RunSummary, type SuiteReport } from './reporters/types';
import { matrixLabel } from '../features/notebook/checkRows';
import { matrixCombinations } from '../features/notebook/matrixTable';
import { errorText } from '../core/errors';
import { shardJobs, shardRange } from './shard';

/** How long a first Ctrl-C lets a run stop cleanly before it quits. */
const INTERRUPT_GRACE_MS = 1_500;

/** Bytes of each response body the engine keeps for assertions; the rest is counted, not stored. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface Streams {
  stdout: LineSink;
  stderr: LineSink;
  env: NodeJS.ProcessEnv;
  /**
   * What is running now, kept up to date for the process's last word: if the event loop empties
   * while a cell still waits (a promise only a socket or timer could settle, and none is left),
   * main says which cell never finished instead of exiting 0 with no summary.
   */
  inFlight?: Map<string, string>;
}

interface Job {
  notebook: LoadedNotebook;
  row?: { index: number; values: DataRow };
  /** --matrix: this run's values. */
  matrix?: Record<string, string>;
}

/** Connections and their keys for this run, every key already known to the redactor. */
interface Setup {
  connections: Connection[];
  key(c: Connection): string | undefined | Promise<string | undefined>;
  /** After a 401 to a token: it is forgotten, and the request sent once more with a new one. */
  keyRefused(c: Connection, key: string): boolean;
  /** The encryption master key of a realtime connection, from its encryptionMasterKeyEnv. */
  masterKey(c: Connection): string | undefined;
  /** Hosts http cells may send to: --allow-host and the connections file's "hosts". */
  allowedHosts: string[];
  /** What `{{$env}}` may read, and the credentials the engine keeps out of other requests. */
  credentials: RunCredentials;
  sandbox?: Sandbox;
  sandboxEndpoints?: SandboxEndpoints;
}

async function setUp(args: RunArgs, notebooks: readonly LoadedNotebook[], redactor: Redactor, env: NodeJS.ProcessEnv): Promise<Setup> {
  const file = args.connectionsFile
    ? loadConnectionsFile(args.connectionsFile)
    : { connections: [], keyEnv: new Map<string, string>(), masterKeyEnv: new Map<string, string>(), hosts: [], env: [] };
  const allowedHosts = [...args.allowHosts, ...file.hosts];
  // The name rule needs no key yet: a `{{$env OPENAI_API_KEY}}` stops the run before anything starts.
  const policy = (await runCredentials({ file, allowEnv: args.allowEnv, env, connections: [], key: () => undefined, ready: () => false })).envPolicy;
  checkHttpCells(notebooks, allowedHosts, env, policy, args.environment);
  const sandboxName = SANDBOX_CONNECTION_NAME;
  if (args.sandbox) refuseSandboxNameClash(file.connections, args.connectionsFile);
  const available = [...(args.sandbox ? (['llm', 'maps', 'realtime'] as const).map((service) => ({ service, name: sandboxName })) : []), ...file.connections];
  const hint = args.sandbox ? 'add one to the --connections file' : 'use --sandbox, or give one in a --connections file';
  const used = usedConnections(notebooks, available, hint);

  // Keys: only from the variables the file names, checked before anything starts or is sent.
  const keys = keysFromEnv(used, file.keyEnv, env, redactor);
  const masterKeys = new Map<string, string>();
  for (const c of used) {
    const variable = file.masterKeyEnv.get(connectionId(c));
    if (variable === undefined) continue;
    const value = env[variable]?.trim();
    if (!value)
      throw new CliError(
        `the encryption master key of the realtime connection "${c.name}" is read from the environment variable ${variable}, which is not set`,
      );
    redactor.addSecret(value);
    const problem = masterKeyProblem(value);
    if (problem) throw new CliError(`the environment variable ${variable} (the encryption master key of "${c.name}"): ${problem}`);
    masterKeys.set(connectionId(c), value);
  }

  // Tokens are fetched now, before the sandbox starts or anything is sent: a failing command stops here.
  const usedFromFile = file.connections.filter((c) => used.some((u) => u.service === c.service && u.name === c.name));
  const tokens = await prepareTokens(usedFromFile, env, redactor);

  const defaults = await withSandbox(args.sandbox, args.modelMap, file.connections, redactor, args.replay !== undefined && !args.recordMissing);
  const withTimeout = (c: Connection): Connection => (args.timeoutMs !== undefined && c.service !== 'realtime' ? { ...c, timeoutMs: args.timeoutMs } : c);
  const key = (c: Connection) => (c.source === 'sandbox' ? defaults.key(c) : (tokens.token(c) ?? keys.get(connectionId(c))));
  const isUsed = (c: Connection) => c.source === 'sandbox' || usedFromFile.includes(c);
  const credentials = await runCredentials({ file, allowEnv: args.allowEnv, env, connections: defaults.connections, key, ready: isUsed });
  for (const c of used) {
    const master = masterKeys.get(connectionId(c));
    if (master) credentials.known.push({ value: master, owner: connectionLabel(c) });
  }
  return {
    connections: defaults.connections.map(withTimeout),
    credentials,
    key,
    keyRefused: (c, key) => tokens.refused(c, key),
    masterKey: (c) => masterKeys.get(connectionId(c)),
    allowedHosts,
    sandbox: defaults.sandbox,
    sandboxEndpoints: defaults.endpoints,
  };
}

function jobsOf(notebooks: readonly LoadedNotebook[], rows: DataRow[] | undefined, axes: readonly MatrixAxis[]): Job[] {
  const plain: Job[] = rows
    ? notebooks.flatMap((notebook) => rows.map((values, index) => ({ notebook, row: { index: index + 1, values } })))
    : notebooks.map((notebook) => ({ notebook }));
  const combos = matrixCombinations(axes);
  return combos.length === 0 ? plain : plain.flatMap((job) => combos.map((matrix) => ({ ...job, matrix })));
}

/** Runs `args` and returns the exit code (0 all passed, 1 a cell failed). CliError = exit 2. */
export async function runCommand(args: RunArgs, io: Streams): Promise<number> {
  const started = performance.now();
  const redactor = new Redactor();
  configureCliNetwork(args, io.env, redactor);
  const notebooks = loadNotebooks(notebookFiles(args.paths));
  const rows = args.dataFile ? loadDataRows(args.dataFile) : undefined;
  // Read before anything is sent: a baseline that is not a report stops the run (exit 2).
  const baseline = args.baseline !== undefined ? loadBaseline(args.baseline) : undefined;
  // The pretty lines go to the terminal; when a machine report goes to stdout, they go to stderr.
  const machineToStdout = args.reporter !== 'pretty' && args.out === undefined;
  const out = new Console(machineToStdout ? io.stderr : io.stdout, (t) => redactor.text(t));

  const setup = await setUp(args, notebooks, redactor, io.env);
  // Loaded only for --record / --replay: a recording's request keys hash with node:crypto, ~5 ms of a run's start.
  const tape =
    args.record !== undefined || args.replay !== undefined ? (await import('./cassette')).openCassette(args, redactor, setup.sandboxEndpoints) : undefined;
  const stopRun = new AbortController();
  const onSigint = () => {
    if (stopRun.signal.aborted) process.exit(130);
    out.line('interrupted: stopping (Ctrl-C again to quit at once)');
    stopRun.abort();
    // Ctrl-C ends a run within 2 s, always: whatever is still closing (a socket, the sandbox) is cut
    // off. Unref'd: a run that finishes stopping sooner exits on its own, with its summary.
    setTimeout(() => {
      out.line(`interrupted: not stopped within ${INTERRUPT_GRACE_MS / 1000} s, quitting`);
      process.exit(130);
    }, INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSigint);

  const summary: RunSummary = { suites: [], passed: 0, failed: 0, durationMs: 0, bailed: false };
  const allJobs = jobsOf(notebooks, rows, args.matrix);
  const jobs = shardJobs(allJobs, args.shard);
  if (args.shard) {
    summary.shard = { ...args.shard, jobs: allJobs.length };
    const { start, end } = shardRange(allJobs.length, args.shard);
    out.line(
      `shard ${args.shard.index}/${args.shard.total}: ${jobs.length === 0 ? 'no jobs' : `jobs ${start + 1}–${end}`} of ${allJobs.length} (merge the shards' --reporter json reports with merge-reports)`,
    );
  }
  const serial = args.parallel === 1 || jobs.length === 1;
  let running = 0;
  try {
    const runJob = async (job: Job): Promise<SuiteReport> => {
      const name = `${job.notebook.file}${job.row ? ` [row ${job.row.index}]` : ''}${job.matrix ? ` [${matrixLabel(job.matrix)}]` : ''}`;
      const suite: SuiteReport = {
        file: job.notebook.file,
        row: job.row?.index,
        ...(job.matrix && { matrix: job.matrix }),
        name,
        startedAt: new Date().toISOString(),
        durationMs: 0,
        problems: [],
        cells: [],
      };
      const t0 = performance.now();
      if (serial) out.line(suiteHeader(suite));
      io.inFlight?.set(name, name);
      const onResult = (r: CellResult) => {
        io.inFlight?.set(name, name);
        if (!countsAsCell(r)) return;
        // Cells cut short by --bail or Ctrl-C are not failures of their own.
        if (r.cancelled && stopRun.signal.aborted) return;
        const kept = trimResult(r);
        suite.cells.push(kept);
        if (kept.ok) summary.passed++;
        else summary.failed++;
        if (serial) for (const l of cellLines(kept, args)) out.line(l);
        if (!kept.ok && args.bail && !stopRun.signal.aborted) {
          summary.bailed = true;
          stopRun.abort();
        }
      };
      const host: NotebookHost = connectionsHost({
        connections: setup.connections,
        key: (c) => setup.key(c),
        keyRefused: (c, key) => setup.keyRefused(c, key),
        encryptionMasterKey: (c) => setup.masterKey(c),
        allowedHosts: setup.allowedHosts,
        env: io.env,
        envPolicy: setup.credentials.envPolicy,
        knownCredentials: setup.credentials.known,
        redactor,
        listenTape: tape?.cassette,
        onResult,
        onRequest: (cell) => {
          io.inFlight?.set(name, `${name} › ${cell.name ? `"${cell.name}" ` : ''}(line ${cell.line})`);
          out.setStatus(`${running > 1 ? `${running} notebooks · ` : ''}${name} › ${cell.name ?? `line ${cell.line}`}`);
        },
      });
      try {
        const run = () =>
          runNotebook(
            job.notebook.text,
            {
              host,
              file: job.notebook.file,
              // `< ./file` lines of request bodies are read next to the notebook.
              baseDir: path.dirname(job.notebook.file),
              environment: args.environment,
              variables: { ...args.variables, ...job.row?.values, ...job.matrix },
              maxBodyBytes: MAX_BODY_BYTES,
              cellTimeoutMs: args.timeoutMs,
              judgeModel: args.judgeModel,
            },
            stopRun.signal,
          );
        const report = tape ? await tape.cassette.run(job.notebook.file, run) : await run();
        suite.problems = report.problems;
      } catch (e) {
        // An engine failure is this notebook's, not the run's: reported, counted, the rest goes on.
        suite.error = `could not run: ${errorText(e)}`;
        summary.failed++;
      }
      io.inFlight?.delete(name);
      suite.durationMs = performance.now() - t0;
      if (!serial) {
        out.line(suiteHeader(suite));
        for (const c of suite.cells) for (const l of cellLines(c, args)) out.line(l);
      }
      if (suite.error) out.line(`  ${suite.error}`);
      return suite;
    };

    const reports: Array<SuiteReport | undefined> = new Array<SuiteReport | undefined>(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && !stopRun.signal.aborted) {
        const i = next++;
        running++;
        try {
          reports[i] = await runJob(jobs[i]);
        } finally {
          running--;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(args.parallel, jobs.length) }, worker));
    summary.suites = reports.filter((r): r is SuiteReport => r !== undefined);
  } finally {
    process.off('SIGINT', onSigint);
    if (tape) {
      const written = tape.close();
      const { mode, replayed, recordedCount } = tape.cassette;
      if (mode !== 'record') out.line(`replayed ${replayed} answer(s) from ${args.replay}`);
      if (mode !== 'replay') out.line(`recorded ${recordedCount} answer(s) to ${written.length ? written.join(', ') : args.record}`);
    }
    out.stop();
    await setup.sandbox?.close().catch(() => undefined);
  }
  summary.durationMs = performance.now() - started;

  if (summary.bailed) out.line(`stopped at the first failure (--bail): ${jobs.length - summary.suites.length} notebook run(s) not started`);
  finishReport(args, summary, baseline, { stdout: io.stdout, line: (l) => out.line(l), redact: (t) => redactor.text(t) });
  return summary.failed > 0 || (stopRun.signal.aborted && !summary.bailed) ? 1 : 0;
}
