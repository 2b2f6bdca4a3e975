// `api-workbench merge-reports a.json b.json …`: the --reporter json reports of the shards of one
// run (--shard i/n) read back and joined into the report one unsharded run would have written: the
// suites in the unsharded order (shards are contiguous slices, so shard order is job order), the
// counts summed, and the matrix table, baseline verdict and reporters of `run` itself
// (reporters/finish.ts). A shard given twice or missing is a usage error: a merged report that
// silently lacks a slice would read as green.
import * as z from 'zod/mini';
import { parseJson, validate } from '../core/validate';
import type { CellResult, NotebookProblem } from '../notebook/api';
import type { MergeReportsArgs } from './args';
import { CliError } from './errors';
import { Console, type LineSink } from './progress';
import { loadBaseline, regressions, reportCellShape, reportSuiteShape } from './reporters/baseline';
import { finishReport, reportText } from './reporters/finish';
import type { RunSummary, SuiteReport } from './reporters/types';
import { readTextFile } from './textFile';

// The fields the reporters read are checked; the rest of each cell (answers, costs, timings) is kept as written.
const reportSchema = z.object({
  version: z.number(),
  passed: z.number(),
  failed: z.number(),
  bailed: z.boolean(),
  durationMs: z.number(),
  shard: z.optional(z.object({ index: z.number(), total: z.number(), jobs: z.number() })),
  suites: z.array(
    z.object({
      ...reportSuiteShape,
      startedAt: z.string(),
      durationMs: z.number(),
      error: z.optional(z.string()),
      problems: z.array(z.looseObject({})),
      cells: z.array(z.looseObject(reportCellShape)),
    }),
  ),
});

type Report = z.infer<typeof reportSchema> & { file: string };

function readReport(file: string): Report {
  const text = readTextFile(file, 'report');
  const json = parseJson(text);
  const report = json.ok ? validate(reportSchema, json.value) : { ok: false as const, problem: 'not JSON' };
  if (!report.ok) throw new CliError(`${file} is not a report of "api-workbench run --reporter json" (${report.problem})`);
  return { ...report.value, file };
}

/** The shards in order; every one of 1..n exactly once, or a usage error naming what is wrong. */
function orderShards(reports: Report[]): Report[] {
  const sharded = reports.filter((r) => r.shard);
  if (sharded.length === 0) return reports;
  if (sharded.length !== reports.length) {
    const plain = reports.find((r) => !r.shard);
    throw new CliError(`${plain?.file} is the report of a whole run, the others are shards (--shard i/n): merge the shards of one run`);
  }
  const total = sharded[0].shard?.total ?? 0;
  const other = sharded.find((r) => r.shard?.total !== total || r.shard.jobs !== sharded[0].shard?.jobs);
  if (other)
    throw new CliError(
      `${other.file} is shard ${other.shard?.index}/${other.shard?.total} of ${other.shard?.jobs} jobs, ${sharded[0].file} is shard ${sharded[0].shard?.index}/${total} of ${sharded[0].shard?.jobs}: they are not slices of the same run`,
    );
  const byIndex = new Map<number, Report>();
  for (const r of sharded) {
    const index = r.shard?.index ?? 0;
    const seen = byIndex.get(index);
    if (seen) throw new CliError(`shard ${index}/${total} is given twice (${seen.file} and ${r.file}): give each shard's report once`);
    byIndex.set(index, r);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length)
    throw new CliError(`shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${total} missing: the merged report would leave out their jobs`);
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
}

/** The summary one run over every shard's jobs would have made. */
export function mergeSummaries(reports: Report[]): RunSummary {
  const ordered = orderShards(reports);
  const suites: SuiteReport[] = [];
  const seen = new Map<string, string>();
  for (const r of ordered) {
    for (const s of r.suites) {
      const earlier = seen.get(s.name);
      if (earlier) throw new CliError(`${s.name} ran in both ${earlier} and ${r.file}: each job must be in one report only`);
      seen.set(s.name, r.file);
      suites.push({ ...s, problems: s.problems as unknown as NotebookProblem[], cells: s.cells as unknown as CellResult[] });
    }
  }
  return {
    suites,
    passed: ordered.reduce((n, r) => n + r.passed, 0),
    failed: ordered.reduce((n, r) => n + r.failed, 0),
    // Shards run side by side: the set took as long as its slowest one.
    durationMs: Math.max(0, ...ordered.map((r) => r.durationMs)),
    bailed: ordered.some((r) => r.bailed),
  };
}

/** Exit code as `run` would give: 1 when a cell failed in any shard. */
export function mergeReportsCommand(args: MergeReportsArgs, io: { stdout: LineSink; stderr: LineSink }): number {
  const reports = args.inputs.map(readReport);
  const summary = mergeSummaries(reports);
  const baseline = args.baseline !== undefined ? loadBaseline(args.baseline) : undefined;
  const machineToStdout = args.reporter !== 'pretty' && args.out === undefined;
  // The reports were redacted when each shard wrote them; nothing new enters here.
  const out = new Console(machineToStdout ? io.stderr : io.stdout, (t) => t, false);
  if (args.reporter === 'pretty' && args.out === undefined) {
    // `run` printed each suite's lines as it went; a merge has only the report to print.
    const found = baseline && regressions(summary, baseline);
    io.stdout.write(reportText(args, summary, found));
  } else finishReport(args, summary, baseline, { stdout: io.stdout, line: (l) => out.line(l), redact: (t) => t });
  return summary.failed > 0 ? 1 : 0;
}
