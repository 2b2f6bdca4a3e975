// What every reporter reads: one suite per notebook run (per data row with --data), its request
// cells' results kept small, and the counts.
import type { CellResult, NotebookProblem } from '../../notebook/runApi';

export interface SuiteReport {
  file: string;
  /** 1-based data row (--data). */
  row?: number;
  /** --matrix: the values this run set (`{ model: 'gpt-4o' }`). */
  matrix?: Record<string, string>;
  /** "file", "file [row 2]", "file [model=gpt-4o]". */
  name: string;
  startedAt: string;
  durationMs: number;
  problems: NotebookProblem[];
  /** Request cells (and vars cells that failed), bodies cut to REPORT_BODY_CHARS. */
  cells: CellResult[];
  /** Why the notebook stopped early or did not run (--bail, an internal error). */
  error?: string;
}

export interface RunSummary {
  suites: SuiteReport[];
  passed: number;
  failed: number;
  durationMs: number;
  /** --bail stopped the run. */
  bailed: boolean;
  /** --shard i/n: which slice this run was, and how many jobs all n slices hold together. */
  shard?: { index: number; total: number; jobs: number };
}

/** Characters of a check line, its expected and its actual value kept in a report. */
export const LINE_CHARS = 1024;

/** Characters of a request or response body kept in a report (the engine keeps up to 1 MiB for assertions). */
export const REPORT_BODY_CHARS = 8 * 1024;

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length > max ? { text: `${text.slice(0, max)}… (${text.length - max} more characters not shown)`, cut: true } : { text, cut: false };
}

/** A copy of `r` small enough to keep for every cell of a long run. */
export function trimResult(r: CellResult, max = REPORT_BODY_CHARS): CellResult {
  // A check line is printed with what it expects: both cut, or a 50 MB line would be printed twice.
  const out: CellResult = {
    ...r,
    assertions: r.assertions.map((a) => ({
      ...a,
      source: cut(a.source, LINE_CHARS).text,
      expected: cut(a.expected, LINE_CHARS).text,
      actual: cut(a.actual, LINE_CHARS).text,
    })),
  };
  if (r.error !== undefined) out.error = cut(r.error, max).text;
  // The answer again, as reports show it (the HTML report prints it): cut like the body.
  if (r.llm) out.llm = { ...r.llm, answer: cut(r.llm.answer, max).text };
  if (r.request?.body !== undefined) out.request = { ...r.request, body: cut(r.request.body, max).text };
  if (r.response) {
    const body = cut(r.response.text, max);
    out.response = { ...r.response, text: body.text, truncated: r.response.truncated || body.cut };
    // The parsed body is as big as the text: kept only while the text is whole.
    if (body.cut) delete out.response.json;
  }
  return out;
}

export { countsAsCell } from '../../notebook/runApi';

export { cellLabel } from '../../features/notebook/checkRows';
