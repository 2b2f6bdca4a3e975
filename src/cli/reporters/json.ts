// The results as JSON, for scripts: the counts, then each notebook run with its cells' results
// (bodies cut to REPORT_BODY_CHARS; every string already through the Redactor).
import type { Regression } from './baseline';
import type { RunSummary } from './types';

export const JSON_REPORT_VERSION = 1;

/** `found`: with --baseline, the regressions (listed first, as `<run> › <cell> › <check>`). */
export function jsonReport(summary: RunSummary, found?: readonly Regression[]): string {
  return (
    JSON.stringify(
      {
        version: JSON_REPORT_VERSION,
        ...(found && { regressions: found.map((r) => `${r.suite.name} › ${r.check.name}`) }),
        passed: summary.passed,
        failed: summary.failed,
        bailed: summary.bailed,
        ...(summary.shard && { shard: summary.shard }),
        durationMs: Math.round(summary.durationMs),
        suites: summary.suites.map((s) => ({
          name: s.name,
          file: s.file,
          ...(s.row !== undefined ? { row: s.row } : {}),
          ...(s.matrix !== undefined ? { matrix: s.matrix } : {}),
          ok: !s.error && s.problems.length === 0 && s.cells.every((c) => c.ok),
          startedAt: s.startedAt,
          durationMs: Math.round(s.durationMs),
          ...(s.error ? { error: s.error } : {}),
          problems: s.problems,
          cells: s.cells,
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
