// A route matrix as a table (origin, destination, distance, duration, condition) and as the page
// of its webview. vscode-free: unit-tested.
import type { RouteMatrixElement } from '../../services/maps/schemas';
import { formatDistance, formatDuration } from './resultBuilders';

export interface MatrixRow {
  origin: string;
  destination: string;
  originIndex: number;
  destinationIndex: number;
  distance: string;
  duration: string;
  /** ROUTE_EXISTS / ROUTE_NOT_FOUND, or the element's error. */
  condition: string;
  ok: boolean;
}

/** One row per origin/destination pair, in origin then destination order (Google streams them in any order). */
export function matrixRows(elements: readonly RouteMatrixElement[], origins: readonly string[], destinations: readonly string[]): MatrixRow[] {
  return elements
    .map((e) => {
      const o = e.originIndex ?? 0;
      const d = e.destinationIndex ?? 0;
      const failed = e.status?.code !== undefined && e.status.code !== 0;
      const exists = !failed && e.condition === 'ROUTE_EXISTS';
      return {
        origin: origins[o] ?? `origin ${o}`,
        destination: destinations[d] ?? `destination ${d}`,
        originIndex: o,
        destinationIndex: d,
        distance: exists ? formatDistance(e.distanceMeters) : '—',
        duration: exists ? formatDuration(e.duration) : '—',
        condition: failed ? `error: ${e.status?.message ?? `code ${e.status?.code}`}` : (e.condition ?? 'ROUTE_MATRIX_ELEMENT_CONDITION_UNSPECIFIED'),
        ok: exists,
      };
    })
    .sort((a, b) => a.originIndex - b.originIndex || a.destinationIndex - b.destinationIndex);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The table as Markdown (for copying, and for the tree's tooltip). */
export function matrixMarkdown(rows: readonly MatrixRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| Origin | Destination | Distance | Duration | Condition |',
    '|---|---|---:|---:|---|',
    ...rows.map((r) => `| ${cell(r.origin)} | ${cell(r.destination)} | ${r.distance} | ${r.duration} | ${cell(r.condition)} |`),
  ].join('\n');
}

/** The command the table's "Draw actual routes" link runs: the only one the page may run. */
export const DRAW_ROUTES_COMMAND = 'apiWorkbench.maps.drawMatrixRoutes';
/** The map draws at most 20 lines (see the geometry messages), so at most 20 pairs get a road. */
export const MAX_DRAWN_ROUTES = 20;

/** A link under the subtitle: a `command:` URI the panel allows (no script needed). */
export interface MatrixAction {
  href: string;
  label: string;
  tooltip: string;
}

/**
 * The webview page: a plain table in the editor's colours. No script at all (the policy allows
 * none); the one style block carries the nonce.
 */
export function matrixHtml(title: string, subtitle: string, rows: readonly MatrixRow[], nonce: string, action?: MatrixAction): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'`;
  const body = rows
    .map(
      (r) =>
        `<tr class="${r.ok ? 'ok' : 'none'}"><td>${escapeHtml(r.origin)}</td><td>${escapeHtml(r.destination)}</td><td class="num">${escapeHtml(r.distance)}</td><td class="num">${escapeHtml(r.duration)}</td><td class="cond"><code>${escapeHtml(r.condition)}</code></td></tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 16px; }
h1 { font-size: 1.3em; font-weight: 600; margin: 16px 0 4px; }
p { color: var(--vscode-descriptionForeground); margin: 0 0 12px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); }
th { font-weight: 600; background: var(--vscode-editorWidget-background); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.cond { white-space: nowrap; }
tr.none td { color: var(--vscode-disabledForeground, #888); }
code { font-family: var(--vscode-editor-font-family); font-size: 0.95em; }
a.action { display: inline-block; margin: 0 0 12px; color: var(--vscode-textLink-foreground); }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(subtitle)}</p>
${action ? `<a class="action" href="${escapeHtml(action.href)}" title="${escapeHtml(action.tooltip)}">${escapeHtml(action.label)}</a>\n` : ''}<table>
<thead><tr><th>Origin</th><th>Destination</th><th class="num">Distance</th><th class="num">Duration</th><th>Condition</th></tr></thead>
<tbody>
${body}
</tbody>
</table>
</body>
</html>`;
}

/** The table's link: the number of requests it will send is in its text, their SKU in its tooltip. */
export function drawRoutesAction(requests: number, sku: string): MatrixAction {
  return {
    href: `command:${DRAW_ROUTES_COMMAND}`,
    label: `Draw actual routes (${requests} route request${requests === 1 ? '' : 's'}, billed)`,
    tooltip: `One Compute Routes request per pair with a route${requests === MAX_DRAWN_ROUTES ? ` (the first ${MAX_DRAWN_ROUTES})` : ''}, asking for distance, duration and polyline only (${sku} each)`,
  };
}
