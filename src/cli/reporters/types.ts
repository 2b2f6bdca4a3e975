// What every reporter reads: one suite per notebook run (per data row with --data), its request
// cells' results kept small, and the counts.
import type { CellResult, NotebookProblem } from '../../notebook/api';

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
  if (r.request?.body !== undefined) out.request = { ...r.request, body: cut(r.request.body, max).text };
  if (r.response) {
    const body = cut(r.response.text, max);
    out.response = { ...r.response, text: body.text, truncated: r.response.truncated || body.cut };
    // The parsed body is as big as the text: kept only while the text is whole.
    if (body.cut) delete out.response.json;
  }
  return out;
}

/** Counted in "N passed, N failed": request cells, plus a vars cell that failed. Skipped ones are not. */
export function countsAsCell(r: CellResult): boolean {
  return !r.skipped && (r.service !== 'vars' || !r.ok);
}

/** A cell's name in reports: its name= attribute, else its request line. */
export function cellLabel(r: CellResult): string {
  if (r.name) return r.name;
  if (r.request) {
    let target = r.request.url;
    try {
      const u = new URL(r.request.url);
      // The query is left out: it can be long (signed realtime requests) and says little.
      // A realtime REST path names the app, and the sandbox's app id changes every run: a CI system
      // would see a new test each time. The app is the connection's, not the cell's.
      target = r.request.method === 'LISTEN' ? decodeURIComponent(u.hash.slice(1)) : u.pathname.replace(/^\/apps\/[^/]+\//, '/apps/{appId}/');
    } catch {
      // Not a URL (a realtime command): shown as it is.
    }
    return `${r.request.method} ${target} (line ${r.line})`;
  }
  return `${r.service} cell (line ${r.line})`;
}
