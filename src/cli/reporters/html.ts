// --reporter html: one self-contained page to keep as a CI artifact or mail to a colleague. Inline
// CSS and a Content-Security-Policy that loads nothing (no scripts, fonts or images from anywhere);
// regressions first, then the matrix table, cost totals, and each run's cells with the model's
// answer, every check and each judge's reason. run.ts passes the page through the redactor.
import type { CellResult } from '../../notebook/runApi';
import { cellChecks, checkName } from '../../features/notebook/checkRows';
import { formatCostTotal, formatUsd, matrixView, type MatrixColumn } from '../../features/notebook/matrixTable';
import type { Regression } from './baseline';
import { cellLabel, type RunSummary, type SuiteReport } from './types';
import { escapeHtml } from '../../features/webviewPage';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328;background:#fff}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}
h3{font-size:1rem;margin:1.25rem 0 .4rem}.muted{color:#59636e}
table{border-collapse:collapse;margin:.5rem 0 1rem;min-width:24rem}th,td{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}
.pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}.none{color:#8c959f}
.cards{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0}.card{border:1px solid #d0d7de;border-radius:6px;padding:.6rem 1rem;min-width:9rem}
.card b{display:block;font-size:1.4rem}.regressions{border:1px solid #cf222e;background:#fff5f5;border-radius:6px;padding:.5rem 1rem}
pre{background:#f6f8fa;border-radius:6px;padding:.6rem .8rem;white-space:pre-wrap;word-break:break-word;margin:.3rem 0}
.reason{border-left:3px solid #8250df;padding-left:.6rem;margin:.2rem 0 .4rem;color:#3d444d}
ul.checks{list-style:none;padding:0;margin:.3rem 0}ul.checks li{margin:.3rem 0}
`;

const mark = (passed: boolean) => (passed ? '<span class="pass">✓ pass</span>' : '<span class="fail">✗ fail</span>');

function totals(summary: RunSummary): { tokens: number; costUsd: number; unpriced: number; answers: number } {
  const out = { tokens: 0, costUsd: 0, unpriced: 0, answers: 0 };
  for (const cell of summary.suites.flatMap((s) => s.cells)) {
    for (const a of cell.assertions) out.costUsd += a.costUsd ?? 0;
    if (!cell.llm) continue;
    out.answers++;
    out.tokens += cell.llm.tokens?.total ?? 0;
    if (cell.llm.costUsd === undefined) out.unpriced++;
    else out.costUsd += cell.llm.costUsd;
  }
  return out;
}

function matrixSection(summary: RunSummary): string {
  const view = matrixView(summary);
  if (!view) return '';
  const head = `<tr><th>check</th>${view.columns.map((c) => `<th>${escapeHtml(c.label)}</th>`).join('')}</tr>`;
  const rows = view.checks.map(
    (check) =>
      `<tr><td>${escapeHtml(check)}</td>${view.columns.map((c) => `<td>${c.checks.has(check) ? mark(c.checks.get(check) === true) : '<span class="none">–</span>'}</td>`).join('')}</tr>`,
  );
  const figure = (label: string, f: (c: MatrixColumn) => string) =>
    `<tr><th>${label}</th>${view.columns.map((c) => `<td class="num">${f(c)}</td>`).join('')}</tr>`;
  return `<h2>Matrix</h2><table>${head}${rows.join('')}${figure('passed', (c) => `${[...c.checks.values()].filter(Boolean).length}/${c.checks.size}`)}${figure(
    'latency (ms)',
    (c) => String(Math.round(c.latencyMs)),
  )}${figure('tokens', (c) => String(c.tokens))}${figure('cost (USD)', (c) => formatCostTotal(c.costUsd, c.unpriced))}</table>`;
}

function cellSection(cell: CellResult): string {
  const parts = [`<h3>${mark(cell.ok)} ${escapeHtml(cellLabel(cell))} <span class="muted">(line ${cell.line}, ${Math.round(cell.durationMs)} ms)</span></h3>`];
  const llm = cell.llm;
  if (llm) {
    const facts = [
      llm.model && `model ${escapeHtml(llm.model)}`,
      llm.tokens && `${llm.tokens.total} tokens (${llm.tokens.prompt} in, ${llm.tokens.completion} out)`,
      `cost ${formatUsd(llm.costUsd)} USD`,
      llm.ttftMs !== undefined && `first token after ${Math.round(llm.ttftMs)} ms`,
    ].filter(Boolean);
    parts.push(`<div class="muted">${facts.join(' · ')}</div>`);
    if (llm.answer) parts.push(`<pre>${escapeHtml(llm.answer)}</pre>`);
    for (const t of llm.toolCalls ?? []) parts.push(`<pre>tool call ${escapeHtml(t.name)}(${escapeHtml(t.arguments)})</pre>`);
  }
  if (cell.error) parts.push(`<pre class="fail">${escapeHtml(cell.error)}</pre>`);
  const items = cellChecks(cell)
    .filter((c) => c.assertion)
    .map(({ assertion: a }) => {
      if (!a) return '';
      // A judge's reason says more than its expected and actual: it is shown instead.
      const detail = a.passed || a.reason !== undefined ? '' : ` <span class="muted">expected ${escapeHtml(a.expected)}, actual ${escapeHtml(a.actual)}</span>`;
      const spent = a.costUsd !== undefined ? ` (${formatUsd(a.costUsd)} USD)` : '';
      const reason = a.reason !== undefined ? `<div class="reason">judge ${escapeHtml(a.judgeModel ?? '')}${spent}: ${escapeHtml(a.reason)}</div>` : '';
      return `<li>${mark(a.passed)} <code>${escapeHtml(checkName(a))}</code>${detail}${reason}</li>`;
    });
  if (items.length) parts.push(`<ul class="checks">${items.join('')}</ul>`);
  return parts.join('\n');
}

function suiteSection(s: SuiteReport): string {
  return [`<h2>${escapeHtml(s.name)}</h2>`, ...s.cells.map(cellSection), s.error ? `<pre class="fail">${escapeHtml(s.error)}</pre>` : ''].join('\n');
}

function regressionSection(found: readonly Regression[] | undefined): string {
  if (!found) return '';
  if (found.length === 0) return '<p class="muted">No regressions against the baseline.</p>';
  const items = found.map(
    ({ suite, check }) =>
      `<li>${mark(false)} ${escapeHtml(suite.name)} › ${escapeHtml(check.name)}${check.assertion ? ` <span class="muted">expected ${escapeHtml(check.assertion.expected)}, actual ${escapeHtml(check.assertion.actual)}</span>` : ''}</li>`,
  );
  return `<div class="regressions"><h2>${found.length} regressions</h2><p>Passed in the baseline, fail now.</p><ul class="checks">${items.join('')}</ul></div>`;
}

/** The whole page. `found`: the regressions when the run had --baseline. */
export function htmlReport(summary: RunSummary, found?: readonly Regression[]): string {
  const t = totals(summary);
  const cards = [
    ['cells passed', String(summary.passed)],
    ['cells failed', String(summary.failed)],
    ['model answers', String(t.answers)],
    ['tokens', String(t.tokens)],
    ['cost (USD)', formatCostTotal(t.costUsd, t.unpriced)],
  ]
    .map(([k, v]) => `<div class="card"><b>${v}</b>${k}</div>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API Workbench report</title>
<style>${CSS}</style>
</head>
<body>
<h1>API Workbench report</h1>
<div class="muted">${summary.suites.length} notebook run(s) · ${Math.round(summary.durationMs)} ms${summary.bailed ? ' · stopped at the first failure (--bail)' : ''}</div>
${regressionSection(found)}
<div class="cards">${cards}</div>
${matrixSection(summary)}
${summary.suites.map(suiteSection).join('\n')}
</body>
</html>
`;
}
