// A run seen check by check, as JUnit, the matrix table, the HTML report and --baseline count it:
// each `??` line of a cell is one check, named `<cell> › <check>`; a cell without checks, or one that
// failed for a reason none of its checks names (an error, an unasserted HTTP error), is a check of
// its own, named by the cell.
// Shared by the CLI's reporters and the editor's Run with Models (no vscode here).
import type { AssertionResult, CellResult } from '../../notebook/api';
import { SCRIPT_TEST_EXPECTED } from '../../core/scriptTests';

/** One run of one notebook (a CLI suite; a model of Run with Models), as the check views read it. */
export interface NotebookRunView {
  file: string;
  /** "file", "file [row 2]", "file [model=gpt-4o]". */
  name: string;
  /** 1-based data row (--data). */
  row?: number;
  /** --matrix (or Run with Models): the values this run set. */
  matrix?: Record<string, string>;
  cells: CellResult[];
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

export interface CheckRow {
  /** `<cell> › <check>`, or the cell's label for the cell itself: the same from run to run. */
  name: string;
  passed: boolean;
  cell: CellResult;
  /** Absent for the cell's own row. */
  assertion?: AssertionResult;
}

/** `?? status == 200` → `status == 200`. */
export function checkName(a: Pick<AssertionResult, 'source'>): string {
  return a.source.replace(/^\?\?\s*/, '');
}

export function cellChecks(cell: CellResult): CheckRow[] {
  const label = cellLabel(cell);
  const rows: CheckRow[] = cell.assertions.map((a) => ({ name: `${label} › ${checkName(a)}`, passed: a.passed, cell, assertion: a }));
  const explained = cell.assertions.some((a) => !a.passed);
  if (rows.length === 0 || (!cell.ok && !explained)) rows.push({ name: label, passed: cell.ok, cell });
  return rows;
}

export function suiteChecks(suite: Pick<NotebookRunView, 'cells'>): CheckRow[] {
  return suite.cells.flatMap(cellChecks);
}

/** `model=gpt-4o` (several axes: `model=gpt-4o, temperature=0`); '' outside a matrix. */
export function matrixLabel(values: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(values ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** What failed, in one line, and the whole story (expected, actual, error, status, request id). */
export function failureText(row: CheckRow): { message: string; details: string } {
  const { cell: r, assertion: a } = row;
  const lines: string[] = [];
  // A script's test (pm.test, client.test) has no expected value: its failure is its message.
  const scriptTest = a?.expected === SCRIPT_TEST_EXPECTED;
  if (a && scriptTest) lines.push(`${a.source} (script test, line ${a.line})`, `  failed: ${a.actual}`);
  else if (a) {
    lines.push(`${a.source} (line ${a.line})`, `  expected: ${a.expected}`, `  actual:   ${a.actual}`);
    if (a.reason !== undefined) lines.push(`  judge ${a.judgeModel ?? ''}: ${a.reason}`.replace('judge :', 'judge:'));
  } else if (r.error) lines.push(r.error);
  if (!a && r.response && r.response.status >= 400) lines.push(`answered ${r.response.status} and no assertion on status expects that`);
  if (r.response) lines.push(`status: ${r.response.status}`);
  if (r.response?.requestId) lines.push(`request id: ${r.response.requestId}`);
  const message = a
    ? scriptTest
      ? `${a.source}: ${a.actual}`
      : `${a.source}: expected ${a.expected}, actual ${a.actual}`
    : (r.error?.split('\n')[0] ?? `status ${r.response?.status ?? '?'}`);
  return { message, details: lines.join('\n') };
}
