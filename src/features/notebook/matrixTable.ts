// Runs of one notebook with different values (the CLI's --matrix, the editor's Run with Models) side
// by side: checks down, values across (✓/✗ per check), then each value's latency, tokens and cost.
import { matrixLabel, suiteChecks, type NotebookRunView } from './checkRows';

/** `--matrix model=a,b`: a variable and the values each run sets it to. */
export interface MatrixAxis {
  name: string;
  values: string[];
}

/** Every combination of the axes' values, the first axis varying slowest; [] without axes. */
export function matrixCombinations(axes: readonly MatrixAxis[]): Array<Record<string, string>> {
  if (axes.length === 0) return [];
  let combos: Array<Record<string, string>> = [{}];
  for (const axis of axes) combos = combos.flatMap((c) => axis.values.map((v) => ({ ...c, [axis.name]: v })));
  return combos;
}

export interface MatrixColumn {
  label: string;
  /** Check name → passed, for the checks this value ran. */
  checks: Map<string, boolean>;
  /** Wall time of the llm cells that a model answered. */
  latencyMs: number;
  tokens: number;
  /** Of the answers whose price is known, and of the checks' own requests (judges, embeddings). */
  costUsd: number;
  /** Answers whose cost is not known (no price for the model, or no usage in the answer). */
  unpriced: number;
  answers: number;
}

export interface MatrixView {
  /** Row names, in the order first met. */
  checks: string[];
  columns: MatrixColumn[];
}

/** Runs outside a matrix are not in it; undefined when no run had matrix values. */
export function matrixView(summary: { suites: readonly NotebookRunView[] }): MatrixView | undefined {
  const suites = summary.suites.filter((s) => s.matrix !== undefined);
  if (suites.length === 0) return undefined;
  const files = new Set(suites.map((s) => `${s.file}\n${s.row ?? ''}`));
  const prefix = (s: NotebookRunView) => (files.size > 1 ? `${s.file}${s.row !== undefined ? ` [row ${s.row}]` : ''} › ` : '');
  const checks: string[] = [];
  const columns = new Map<string, MatrixColumn>();
  for (const s of suites) {
    const label = matrixLabel(s.matrix);
    let col = columns.get(label);
    if (!col) columns.set(label, (col = { label, checks: new Map(), latencyMs: 0, tokens: 0, costUsd: 0, unpriced: 0, answers: 0 }));
    for (const row of suiteChecks(s)) {
      const name = prefix(s) + row.name;
      if (!checks.includes(name)) checks.push(name);
      col.checks.set(name, (col.checks.get(name) ?? true) && row.passed);
    }
    for (const cell of s.cells) {
      // Judges and embeddings are part of what the run cost.
      for (const a of cell.assertions) col.costUsd += a.costUsd ?? 0;
      if (!cell.llm) continue;
      col.answers++;
      col.latencyMs += cell.response?.durationMs ?? cell.durationMs;
      col.tokens += cell.llm.tokens?.total ?? 0;
      if (cell.llm.costUsd === undefined) col.unpriced++;
      else col.costUsd += cell.llm.costUsd;
    }
  }
  return { checks, columns: [...columns.values()] };
}

/** USD with enough digits to tell two cheap runs apart: 0.000384, 0.0123, 1.24. */
export function formatUsd(usd: number | undefined): string {
  if (usd === undefined) return 'unknown';
  if (usd === 0) return '0';
  return usd >= 0.01 ? usd.toFixed(4) : String(Number(usd.toPrecision(3)));
}

/** A total that says how many answers it leaves out: `0.000384 + 1 unpriced`. */
export function formatCostTotal(usd: number, unpriced: number): string {
  return unpriced === 0 ? formatUsd(usd) : `${formatUsd(usd)} + ${unpriced} unpriced`;
}

function pad(text: string, width: number): string {
  const len = Array.from(text).length;
  return len >= width ? text : text + ' '.repeat(width - len);
}

/** A check name is cut (…) at this length; never shorter than MIN_NAME, however many columns there are. */
const MAX_NAME = 70;
const MIN_NAME = 24;
const GAP = 2;

/**
 * The table's lines (with a blank line before it); [] when the run had no --matrix. `maxWidth`: the
 * check names are shortened (…) and columns headed by their value alone, so the table fits that many
 * characters where it can (the editor's Run with Models; a terminal's table caps names at 70 characters).
 */
export function matrixTable(summary: { suites: readonly NotebookRunView[] }, opts: { maxWidth?: number } = {}): string[] {
  const view = matrixView(summary);
  if (!view) return [];
  // Fitted to a width (one axis, named in the title): a column is headed by its value alone, `gpt-4o`, not `model=gpt-4o`.
  const label = (c: MatrixColumn) => (opts.maxWidth !== undefined && !c.label.includes(', ') ? c.label.replace(/^[^=]*=/, '') : c.label);
  const cell = (c: MatrixColumn, check: string) => (c.checks.has(check) ? (c.checks.get(check) ? '✓' : '✗') : '–');
  const valueRows: Array<[string, string[]]> = [
    ...view.checks.map((check): [string, string[]] => [check, view.columns.map((c) => cell(c, check))]),
    ['passed', view.columns.map((c) => `${[...c.checks.values()].filter(Boolean).length}/${c.checks.size}`)],
    ['latency (ms)', view.columns.map((c) => String(Math.round(c.latencyMs)))],
    ['tokens', view.columns.map((c) => String(c.tokens))],
    ['cost (USD)', view.columns.map((c) => formatCostTotal(c.costUsd, c.unpriced))],
  ];
  const valuesWidth = view.columns.reduce(
    (sum, c, i) => sum + GAP + Math.max(Array.from(label(c)).length, ...valueRows.map(([, values]) => Array.from(values[i]).length)),
    0,
  );
  const maxName = opts.maxWidth === undefined ? MAX_NAME : Math.min(MAX_NAME, Math.max(MIN_NAME, opts.maxWidth - valuesWidth));
  const shorten = (n: string) =>
    Array.from(n).length > maxName
      ? `${Array.from(n)
          .slice(0, maxName - 1)
          .join('')}…`
      : n;
  const rows: string[][] = [['check', ...view.columns.map(label)], ...valueRows.map(([name, values]) => [shorten(name), ...values])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => Array.from(r[i]).length)));
  return [
    '',
    ...rows.map((r) =>
      r
        .map((cell, i) => pad(cell, widths[i]))
        .join(' '.repeat(GAP))
        .trimEnd(),
    ),
  ];
}
