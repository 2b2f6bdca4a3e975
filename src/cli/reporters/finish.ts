// The end of a run, shared by `run` and `merge-reports` so that a merged set of shard reports
// prints and writes exactly what one unsharded run would: the machine report (--reporter, --out),
// the regressions against --baseline, the matrix table and the summary line.
import { writeFileSync } from 'node:fs';
import { CliError } from '../errors';
import type { LineSink } from '../progress';
import { matrixTable } from '../../features/notebook/matrixTable';
import { regressionCountLine, regressionLines, regressions, type Baseline, type Regression } from './baseline';
import { htmlReport } from './html';
import { jsonReport } from './json';
import { junitReport } from './junit';
import { prettyReport, summaryLine } from './pretty';
import type { RunSummary } from './types';
import type { ReporterName } from '../args';

export interface FinishOptions {
  reporter: ReporterName;
  out?: string;
  outputFailed: boolean;
  verbose?: boolean;
}

/** The report --reporter asks for; with --baseline, regressions come first and their count last. */
export function reportText(opts: FinishOptions, summary: RunSummary, found: Regression[] | undefined): string {
  switch (opts.reporter) {
    case 'junit':
      return junitReport(summary);
    case 'json':
      return jsonReport(summary, found);
    case 'html':
      return htmlReport(summary, found);
    case 'pretty': {
      const text = prettyReport(summary, opts);
      return found ? `${regressionLines(found).join('\n')}${found.length ? '\n' : ''}${text}${regressionCountLine(found)}\n` : text;
    }
  }
}

/**
 * Writes the machine report (to --out, or to stdout when the human lines go to stderr), then the
 * closing lines through `line`. Returns the regressions found against `baseline`.
 */
export function finishReport(
  opts: FinishOptions,
  summary: RunSummary,
  baseline: Baseline | undefined,
  io: { stdout: LineSink; line: (text: string) => void; redact: (text: string) => string },
): Regression[] | undefined {
  const found = baseline && regressions(summary, baseline);
  const machineToStdout = opts.reporter !== 'pretty' && opts.out === undefined;
  if (opts.out !== undefined || machineToStdout) {
    // Defence in depth: the engine redacts every result, and the whole report passes once more.
    const text = io.redact(reportText(opts, summary, found));
    if (opts.out !== undefined) {
      try {
        writeFileSync(opts.out, text);
      } catch (e) {
        throw new CliError(`${opts.out}: cannot write the report (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
    } else io.stdout.write(text);
  }
  if (found) for (const l of regressionLines(found)) io.line(l);
  for (const l of matrixTable(summary)) io.line(l);
  io.line(summaryLine(summary));
  if (found) io.line(regressionCountLine(found));
  return found;
}
