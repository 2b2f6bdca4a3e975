// What hovering shows: a `{{variable}}` or `{{cell.json.path}}` → its current value (secrets
// masked); a model id → what the connection says of it and its price; a field-mask field → its SKU
// and price per 1,000; a header or check word → what it is; an http cell's path, parameters and body
// fields → what the notebook's OpenAPI document says of them (specHover.ts).
import { CHECK_SUBJECTS } from '../../notebook/api';
import { FIELD_MASK_HEADER, findHeader } from '../headers';
import { maskFieldsOf } from '../maskFields';
import { describeModel, modelFacts } from '../models';
import { findOperation } from '../operations';
import { cellLayout, positionAt, range, references } from './cellLayout';
import { resolveReference, showValue } from './resolve';
import { inScriptBlock, scriptHover } from './scriptAssist';
import { specHover } from './specHover';
import type { AuthoringContext, CellInput, Hover } from './types';

export function cellHover(cell: CellInput, offset: number, ctx: AuthoringContext): Hover | undefined {
  const pos = positionAt(cell.value, offset);
  const layout = cellLayout(cell.value, cell.language);
  const text = layout.lines[pos.line] ?? '';
  if (inScriptBlock(layout.lines, pos.line, pos.col)) return scriptHover(text, pos.line, pos.col);

  const ref = references(layout.lines).find((r) => r.line === pos.line && r.start <= pos.col && pos.col <= r.end);
  if (ref) return { range: range(ref.line, ref.start, ref.end), lines: referenceHover(ref.ref, ctx) };

  if (cell.language === 'llm') {
    for (const m of text.matchAll(/"model"\s*:\s*"([^"{}]*)"/g)) {
      const start = m.index + m[0].lastIndexOf(`"${m[1]}"`) + 1;
      if (pos.col < start || pos.col > start + m[1].length) continue;
      const offers = ctx.models('llm', cell.attributes.connection);
      const lines = describeModel(modelFacts(m[1], offers), offers);
      return { range: range(pos.line, start, start + m[1].length), lines: [`**${m[1]}**`, ...(lines.length ? lines : ['nothing is known of this model yet'])] };
    }
  }

  // An operation's own path, parameters and body fields: from the notebook's spec or the service's catalogue.
  const documented = specHover(cell, layout, pos, ctx);
  if (documented) return documented;

  const header = /^(\s*)([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:(.*)$/.exec(text);
  if (header && layout.requestLine !== undefined && pos.line > layout.requestLine && pos.line < layout.headerEnd) {
    const nameEnd = header[1].length + header[2].length;
    if (header[2].toLowerCase() === FIELD_MASK_HEADER.toLowerCase() && pos.col > nameEnd)
      return maskFieldHover(cell, layout.lines[layout.requestLine], text, pos.line, pos.col);
    const known = findHeader(header[2]);
    if (known && pos.col <= nameEnd) return { range: range(pos.line, header[1].length, nameEnd), lines: [`**${known.name}**: ${known.detail}`] };
  }

  const check = /^(\s*\?\?\s*)([a-z]+)/.exec(text);
  if (check && pos.col >= check[1].length && pos.col <= check[0].length) {
    const subject = CHECK_SUBJECTS.find((s) => s.word === check[2]);
    if (subject) return { range: range(pos.line, check[1].length, check[0].length), lines: [`**${subject.word}**: ${subject.detail}`] };
  }
  return undefined;
}

function referenceHover(ref: string, ctx: AuthoringContext): string[] {
  const r = resolveReference(ref, ctx);
  const code = (v: string) => `\`\`\`\n${v}\n\`\`\``;
  switch (r.kind) {
    case 'variable':
      return [`**${r.name}**${r.def.env ? ` (env ${r.def.env})` : ''}`, code(showValue(r.def.value, ctx.mask))];
    case 'extra':
      return [`**${r.name}**: given from outside the notebook`];
    case 'system':
      return [`filled in when the cell runs (an http cell's credential); its value is never shown`];
    case 'cell':
      if (!r.ran) return [`**${ref}**: cell "${r.name}" has not run yet; run it to see the value`];
      if (r.value === undefined) return [`**${ref}**: cell "${r.name}"'s last result has no ${r.rest.slice(1)}`];
      return [`**${ref}** (last result of "${r.name}")`, code(showValue(r.value, ctx.mask))];
    case 'cellWithoutPart':
      return [`**${r.name}** is a ${r.cell.language} cell: say which part, e.g. {{${r.name}.json}}`];
    case 'unknownVariable':
      return [`**${r.name}** is not defined: define it in a vars cell`];
    case 'unknownCell':
      return [`no cell is named **${r.name}**`];
  }
}

function maskFieldHover(cell: CellInput, requestLine: string, text: string, line: number, col: number): Hover | undefined {
  const m = /^\s*([A-Za-z]+)\s+(\S+)/.exec(requestLine);
  const op = m ? findOperation(cell.language, m[1], m[2]) : undefined;
  if (!op) return undefined;
  let start = col;
  let end = col;
  const part = /[^,:\s]/;
  while (start > 0 && part.test(text[start - 1])) start--;
  while (end < text.length && part.test(text[end])) end++;
  const path = text.slice(start, end);
  if (!path) return undefined;
  const field = maskFieldsOf(op).find((f) => f.path === path);
  const lines = [`**${path}** (${op.summary})`];
  if (field?.sku)
    lines.push(`${field.sku.tier}: ${field.sku.sku}, $${field.sku.pricePer1000} per 1,000 ${field.sku.per === 'element' ? 'elements' : 'requests'}`);
  else if (field)
    lines.push(op.sku === 'computeRoutes' || op.sku === 'computeRouteMatrix' ? 'Routes bill by the request’s features, not by fields' : 'no SKU of its own');
  else lines.push('not a field the catalogue knows for this operation');
  return { range: range(line, start, end), lines };
}
