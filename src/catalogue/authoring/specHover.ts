// Hovering an http cell whose notebook names an OpenAPI document: the path shows its operation
// (summary, description), a query parameter or header its type, enum and description, a body key
// its field's. Body keys of a service's cell (llm, maps) show the same from the catalogue.
import { fieldAt } from '../schemaFields';
import { range, type CellLayout } from './cellLayout';
import { jsonCursor } from './jsonCursor';
import { fieldHoverLines, operationHoverLines, requestOperation, specTarget } from './specCells';
import type { AuthoringContext, CellInput, Hover, Position } from './types';

export function specHover(cell: CellInput, layout: CellLayout, pos: Position, ctx: AuthoringContext): Hover | undefined {
  if (layout.requestLine === undefined) return undefined;
  const requestLine = layout.lines[layout.requestLine];
  if (pos.line === layout.requestLine && cell.language === 'http') return requestLineHover(requestLine, pos, ctx);
  const op = requestOperation(cell.language, requestLine, ctx);
  if (!op) return undefined;
  const text = layout.lines[pos.line] ?? '';
  const where = `${op.method} ${op.path}`;
  if (pos.line < layout.headerEnd) {
    const header = /^(\s*)([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:/.exec(text);
    const p = header && op.parameters?.find((x) => x.in === 'header' && x.name.toLowerCase() === header[2].toLowerCase());
    if (!header || !p || pos.col > header[1].length + header[2].length) return undefined;
    return { range: range(pos.line, header[1].length, header[1].length + header[2].length), lines: fieldHoverLines(p.name, p, `header of ${where}`) };
  }
  const fields = op.body?.();
  if (!fields || layout.bodyStart === undefined || pos.line < layout.bodyStart || pos.line >= layout.checksStart) return undefined;
  // The key under the cursor: from its opening quote to its closing one.
  const open = text.lastIndexOf('"', pos.col - 1);
  const close = text.indexOf('"', pos.col);
  if (open === -1 || close === -1 || !/^\s*:/.test(text.slice(close + 1))) return undefined;
  const bodyLines = layout.lines.slice(layout.bodyStart, layout.checksStart);
  const offset = bodyLines.slice(0, pos.line - layout.bodyStart).reduce((n, l) => n + l.length + 1, 0) + open + 1;
  const cursor = jsonCursor(bodyLines.join('\n'), offset);
  if (cursor?.slot !== 'key') return undefined;
  const key = text.slice(open + 1, close);
  const field = fieldAt(fields, [...cursor.path, key]);
  if (!field) return undefined;
  return { range: range(pos.line, open + 1, close), lines: fieldHoverLines(key, field, `body of ${where}`) };
}

function requestLineHover(requestLine: string, pos: Position, ctx: AuthoringContext): Hover | undefined {
  const target = specTarget(requestLine, ctx);
  if (!target) return undefined;
  const pathEnd = target.pathStart + target.path.length;
  if (pos.col <= pathEnd) {
    const op = target.op ?? target.pathOps[0];
    if (!op) return undefined;
    const start = requestLine.length - requestLine.trimStart().length;
    return { range: range(pos.line, start, pathEnd), lines: operationHoverLines(op, target.spec) };
  }
  if (!target.query || !target.op) return undefined;
  let col = target.query.start;
  for (const pair of target.query.text.split('&')) {
    const name = pair.split('=')[0];
    if (pos.col >= col && pos.col <= col + name.length) {
      const p = target.op.parameters?.find((x) => x.in === 'query' && x.name === name);
      return (
        p && { range: range(pos.line, col, col + name.length), lines: fieldHoverLines(p.name, p, `query parameter of ${target.op.method} ${target.op.path}`) }
      );
    }
    col += pair.length + 1;
  }
  return undefined;
}
