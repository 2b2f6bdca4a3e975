// --baseline previous.json: a report of an earlier run (--reporter json) read back, and the checks
// that passed there and fail now (regressions). Runs are matched by notebook file name (not its
// folder, so a report from another checkout still matches), data row and matrix values; checks by
// `<cell> › <check>`.
import path from 'node:path';
import * as z from 'zod/mini';
import { once } from '../../core/once';
import { parseJson, validate } from '../../core/validate';
import type { CellResult } from '../../notebook/runApi';
import { CliError } from '../errors';
import { readTextFile } from '../textFile';
import { suiteChecks, type CheckRow } from '../../features/notebook/checkRows';
import type { RunSummary, SuiteReport } from './types';

/**
 * What reading a --reporter json report back relies on, shared with merge-reports: a cell's fields
 * the checks and reporters read (nested objects keep what they do not name, so a merged report
 * loses nothing), and a suite's identity.
 */
export const reportCellShape = {
  name: z.optional(z.string()),
  line: z.number(),
  service: z.string(),
  ok: z.boolean(),
  error: z.optional(z.string()),
  request: z.optional(z.looseObject({ method: z.string(), url: z.string() })),
  response: z.optional(z.looseObject({ status: z.number() })),
  assertions: z.array(z.looseObject({ source: z.string(), line: z.number(), passed: z.boolean(), expected: z.string(), actual: z.string() })),
};

export const reportSuiteShape = {
  name: z.string(),
  file: z.string(),
  row: z.optional(z.number()),
  matrix: z.optional(z.record(z.string(), z.string())),
};

const reportSchema = once(() =>
  z.object({
    version: z.number(),
    suites: z.array(z.object({ ...reportSuiteShape, cells: z.array(z.object(reportCellShape)) })),
  }),
);

/** Check key → passed, of the earlier run. */
export type Baseline = Map<string, boolean>;

export interface Regression {
  suite: SuiteReport;
  check: CheckRow;
}

/** The same run of the same notebook, wherever the notebook was: its file name, row and matrix values. */
function runKey(s: Pick<SuiteReport, 'name' | 'file'>): string {
  return path.basename(s.file) + (s.name.startsWith(s.file) ? s.name.slice(s.file.length) : ` ${s.name}`);
}

/** Reads a --reporter json report; a file that is not one is a usage error naming what is wrong. */
export function loadBaseline(file: string): Baseline {
  // Through the CLI's one reader: a regular file, capped (`--baseline /dev/zero` grew to 8 GB).
  const text = readTextFile(file, 'baseline report (--baseline)');
  const json = parseJson(text);
  const report = json.ok ? validate(reportSchema(), json.value) : { ok: false as const, problem: 'not JSON' };
  if (!report.ok) throw new CliError(`--baseline ${file} is not a report of "api-workbench run --reporter json" (${report.problem})`);
  const out: Baseline = new Map();
  for (const s of report.value.suites) {
    // The fields checks.ts reads are validated above; the rest of a CellResult is not needed here.
    const cells = s.cells.map((c) => ({ ...c, cellIndex: 0, file: s.file, startedAt: '', durationMs: 0 }) as unknown as CellResult);
    for (const row of suiteChecks({ cells })) out.set(`${runKey(s)} › ${row.name}`, row.passed);
  }
  return out;
}

/** Checks that passed in the baseline and fail now, in run order. */
export function regressions(summary: Pick<RunSummary, 'suites'>, baseline: Baseline): Regression[] {
  return summary.suites.flatMap((suite) =>
    suiteChecks(suite)
      .filter((check) => !check.passed && baseline.get(`${runKey(suite)} › ${check.name}`) === true)
      .map((check) => ({ suite, check })),
  );
}

/** The lines that list regressions first in a report (none without any). */
export function regressionLines(found: readonly Regression[]): string[] {
  if (found.length === 0) return [];
  const out = [`Regressions (passed in the baseline, fail now):`];
  for (const { suite, check } of found) {
    out.push(`  ✗ ${suite.name} › ${check.name}`);
    if (check.assertion) out.push(`      expected: ${check.assertion.expected}`, `      actual:   ${check.assertion.actual}`);
    else if (check.cell.error) out.push(`      ${check.cell.error.split('\n')[0]}`);
  }
  return [...out, ''];
}

/** The last line of a run with --baseline. */
export function regressionCountLine(found: readonly Regression[]): string {
  return `${found.length} regressions`;
}
