// The human report: a header per notebook, one line per cell (✓ or ✗ and its name), under a
// failed cell each failing assertion with expected and actual, the error and the request id;
// last, "N passed, N failed".
import { describeWaits, type CellResult } from '../../notebook/runApi';
import { matrixTable } from '../../features/notebook/matrixTable';
import { cellLabel, type RunSummary, type SuiteReport } from './types';

export interface PrettyOptions {
  /** Print the whole exchange of failed cells (already redacted by the engine). */
  outputFailed: boolean;
  /** Print what the cells' scripts logged (--verbose). */
  verbose?: boolean;
}

const INDENT = '    ';

function indentBlock(text: string, prefix: string): string[] {
  return text.split(/\r\n|\r|\n/).map((l) => prefix + l);
}

export function suiteHeader(suite: SuiteReport): string {
  return suite.name;
}

function exchange(r: CellResult): string[] {
  const out: string[] = [];
  if (r.request) {
    out.push(`${INDENT}> ${r.request.method} ${r.request.url}`);
    for (const [k, v] of Object.entries(r.request.headers)) out.push(`${INDENT}> ${k}: ${v}`);
    if (r.request.body !== undefined) out.push(...indentBlock(r.request.body, `${INDENT}> `));
  }
  if (r.response) {
    out.push(`${INDENT}< ${r.response.status}${r.response.truncated ? ` (body cut: ${r.response.size} bytes received)` : ''}`);
    for (const [k, v] of Object.entries(r.response.headers)) out.push(`${INDENT}< ${k}: ${v}`);
    if (r.response.text) out.push(...indentBlock(r.response.text, `${INDENT}< `));
  }
  return out;
}

/** The lines of one finished cell. */
export function cellLines(r: CellResult, opts: PrettyOptions): string[] {
  const ms = Math.round(r.durationMs);
  // A cell slowed by a 429 or the connection's rate limit says so, instead of reading like a slow service.
  const waited = describeWaits(r.waits);
  const timing = `${ms} ms${waited ? `, ${waited}` : ''}`;
  // A judge's reason is shown pass or fail: a pass is only as good as why it passed.
  const judged = r.assertions.filter((a) => a.passed && a.reason !== undefined).map((a) => `${INDENT}${a.source}: ${judgeLine(a)}`);
  const logs = opts.verbose ? (r.logs ?? []).flatMap((l) => indentBlock(l, `${INDENT}log: `)) : [];
  if (r.ok) return [`  ✓ ${cellLabel(r)} (${timing})`, ...judged, ...logs];
  const lines = [`  ✗ ${cellLabel(r)}${r.response ? ` (${r.response.status}, ${timing})` : waited ? ` (${waited})` : ''}`, ...judged];
  for (const a of r.assertions) {
    if (!a.passed) lines.push(`${INDENT}${a.source}  (line ${a.line})`, `${INDENT}  expected: ${a.expected}`, `${INDENT}  actual:   ${a.actual}`);
    if (!a.passed && a.judgeModel) lines.push(`${INDENT}  judge:    ${a.judgeModel}`);
  }
  if (r.error) lines.push(...indentBlock(r.error, INDENT));
  else if (r.response && r.response.status >= 400 && !r.assertions.some((a) => /^\?\?\s*status\b/.test(a.source))) {
    lines.push(`${INDENT}answered ${r.response.status} and no assertion on status expects that`);
  }
  if (r.response?.requestId) lines.push(`${INDENT}request id: ${r.response.requestId}`);
  lines.push(...logs);
  if (opts.outputFailed) lines.push(...exchange(r));
  return lines;
}

function judgeLine(a: CellResult['assertions'][number]): string {
  return `pass (${a.judgeModel ?? 'judge'}): ${a.reason ?? ''}`;
}

export function summaryLine(summary: Pick<RunSummary, 'passed' | 'failed'>): string {
  return `${summary.passed} passed, ${summary.failed} failed`;
}

/** The whole report as text (for --out with the pretty reporter). */
export function prettyReport(summary: RunSummary, opts: PrettyOptions): string {
  const lines: string[] = [];
  for (const s of summary.suites) {
    lines.push(suiteHeader(s));
    for (const c of s.cells) lines.push(...cellLines(c, opts));
    if (s.error) lines.push(`  ${s.error}`);
  }
  if (summary.bailed) lines.push('stopped at the first failure (--bail)');
  lines.push(...matrixTable(summary));
  lines.push(summaryLine(summary));
  return lines.join('\n') + '\n';
}
