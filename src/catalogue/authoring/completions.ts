// What to offer at a cursor in a cell: request lines, headers and their values, JSON body keys and
// values, field-mask fields with their SKU, `{{` variables and paths into named cells' last
// results, `??` subjects and operators, realtime commands and channels. Pure and fast: everything
// it reads is in memory (the catalogue, the context), so it can run on every keystroke.
import { CHECK_OPERATORS, CHECK_SUBJECTS, REALTIME_COMMANDS, parsePath, walk } from '../../notebook/api';
import { FIELD_MASK_HEADER, findHeader, headersFor } from '../headers';
import { maskFieldsOf } from '../maskFields';
import { describeModel, modelFacts } from '../models';
import { MODEL_KIND_LABELS, modelKind, modelKindsForPath, orderModels } from '../modelKinds';
import { HTTP_METHODS, operationsOf, type Operation } from '../operations';
import { fieldAt, fieldsAt } from '../schemaFields';
import { cellLayout, positionAt, range, type CellLayout } from './cellLayout';
import { jsonCursor } from './jsonCursor';
import { fieldDetail, requestOperation } from './specCells';
import { specHeaderCompletions, specRequestLineCompletions } from './specCompletions';
import { inScriptBlock, scriptCompletions } from './scriptAssist';
import type { AuthoringContext, CellInput, Completion, Range } from './types';

const RESULT_PARTS: ReadonlyArray<[string, string]> = [
  ['json', 'the parsed answer'],
  ['status', 'the HTTP status'],
  ['headers', 'a response header: headers.<name>'],
  ['text', "the answer as text (a model's answer: its text, streamed or not)"],
  ['body', 'the response body as received'],
  ['count', 'LISTEN: messages received'],
  ['duration', 'milliseconds the request took'],
];

/** The kinds of realtime channel, by the prefix their name starts with (Pusher's naming). */
const CHANNEL_PREFIXES: ReadonlyArray<[string, string]> = [
  ['private-', 'a private channel: subscribing needs the app’s signature'],
  ['presence-', 'a presence channel: private, and it lists who is subscribed'],
  ['private-encrypted-', 'an end-to-end encrypted private channel'],
];

export function cellCompletions(cell: CellInput, offset: number, ctx: AuthoringContext): Completion[] {
  const pos = positionAt(cell.value, offset);
  const layout = cellLayout(cell.value, cell.language);
  const lineText = layout.lines[pos.line] ?? '';
  const before = lineText.slice(0, pos.col);
  if (inScriptBlock(layout.lines, pos.line, pos.col)) return scriptCompletions(before, pos.line);

  const open = before.lastIndexOf('{{');
  if (open !== -1 && !before.slice(open).includes('}}')) return referenceCompletions(before.slice(open + 2), pos.line, pos.col, ctx);

  if (before.trimStart().startsWith('??')) return checkCompletions(cell, layout, before, pos.line, pos.col, ctx);
  if (cell.language === 'vars') return [];
  if (cell.language === 'realtime') return realtimeCompletions(cell, layout, before, pos.line, pos.col, ctx);

  if (layout.requestLine === undefined || pos.line <= layout.requestLine)
    return (
      (cell.language === 'http' ? specRequestLineCompletions(before, pos.line, pos.col, ctx) : undefined) ??
      requestLineCompletions(cell.language, before, pos.line, pos.col)
    );
  if (pos.line < layout.headerEnd) return headerCompletions(cell, layout, before, pos.line, pos.col, ctx);
  if (pos.line < layout.checksStart) return bodyCompletions(cell, layout, pos.line, pos.col, ctx);
  return [];
}

/** The word being typed before the cursor (letters, digits and `chars`). */
function wordRange(before: string, line: number, col: number, chars = '_-'): Range {
  let start = before.length;
  const ok = (c: string) => /[A-Za-z0-9]/.test(c) || chars.includes(c);
  while (start > 0 && ok(before[start - 1])) start--;
  return range(line, start, col);
}

function requestLineCompletions(language: string, before: string, line: number, col: number): Completion[] {
  const m = /^(\s*)([A-Za-z]*)$/.exec(before);
  const ops = operationsOf(language);
  if (m) {
    const r = range(line, m[1].length, col);
    const lines: Completion[] = ops.map((o, i) => ({
      label: `${o.method} ${o.path}`,
      kind: 'path',
      detail: o.summary,
      range: r,
      sortText: `0${String(i).padStart(3, '0')}`,
    }));
    return [
      ...lines,
      ...HTTP_METHODS.map((method): Completion => ({ label: method, kind: 'method', insertText: `${method} `, range: r, sortText: `1${method}` })),
    ];
  }
  const withMethod = /^(\s*)([A-Za-z]+)\s+(\S*)$/.exec(before);
  if (!withMethod) return [];
  const method = withMethod[2].toUpperCase();
  const r = range(line, before.length - withMethod[3].length, col);
  return ops.filter((o) => o.method === method).map((o) => ({ label: o.path, kind: 'path', detail: o.summary, range: r }));
}

function operationOf(cell: CellInput, layout: CellLayout, ctx: AuthoringContext): Operation | undefined {
  return layout.requestLine === undefined ? undefined : requestOperation(cell.language, layout.lines[layout.requestLine], ctx);
}

function headerCompletions(cell: CellInput, layout: CellLayout, before: string, line: number, col: number, ctx: AuthoringContext): Completion[] {
  const colon = before.indexOf(':');
  // An http cell's operation (from the notebook's spec) names its own headers: first in the list.
  const documented = cell.language === 'http' ? specHeaderCompletions(operationOf(cell, layout, ctx), before, line, col, wordRange(before, line, col)) : [];
  if (colon === -1) {
    const r = wordRange(before, line, col);
    const own = new Set(documented.map((c) => c.label.toLowerCase()));
    const common = headersFor(cell.language)
      .filter((h) => !own.has(h.name.toLowerCase()))
      .map((h): Completion => ({ label: h.name, kind: 'header', detail: h.detail, insertText: `${h.name}: `, range: r, sortText: `2${h.name}` }));
    return [...documented, ...common];
  }
  if (documented.length) return documented;
  const name = before.slice(0, colon).trim();
  if (name.toLowerCase() === FIELD_MASK_HEADER.toLowerCase()) {
    const op = operationOf(cell, layout, ctx);
    if (!op) return [];
    const comma = Math.max(before.lastIndexOf(','), colon);
    const typedStart = comma + 1 + (before.slice(comma + 1).length - before.slice(comma + 1).trimStart().length);
    const r = range(line, typedStart, col);
    return maskFieldsOf(op).map((f, i) => ({
      label: f.path,
      kind: 'field',
      detail: f.sku ? `${f.sku.tier}: ${f.sku.sku}, $${f.sku.pricePer1000} per 1,000` : op.summary,
      range: r,
      // Cheaper tiers first, so the list itself steers towards the cheaper mask.
      sortText: `${f.sku ? String(f.sku.pricePer1000).padStart(6, '0') : '000000'}${String(i).padStart(4, '0')}`,
    }));
  }
  const header = findHeader(name);
  const valueStart = colon + 1 + (before.slice(colon + 1).length - before.slice(colon + 1).trimStart().length);
  const r = range(line, valueStart, col);
  return (header?.values ?? []).map((v) => ({ label: v, kind: 'value', range: r }));
}

function bodyCompletions(cell: CellInput, layout: CellLayout, line: number, col: number, ctx: AuthoringContext): Completion[] {
  const op = operationOf(cell, layout, ctx);
  const fields = op?.body?.();
  if (!fields) return [];
  const start = layout.bodyStart !== undefined && layout.bodyStart <= line ? layout.bodyStart : line;
  const bodyLines = layout.lines.slice(start, layout.checksStart);
  const offset = bodyLines.slice(0, line - start).reduce((n, l) => n + l.length + 1, 0) + col;
  const cursor = jsonCursor(bodyLines.join('\n'), offset);
  if (!cursor) return [];
  const typedStart = cursor.inString ? col - cursor.typed.length - 1 : col;
  // Replace from the opening quote through a closing one VS Code may have typed already.
  const closing = cursor.inString && layout.lines[line][col] === '"' ? 1 : 0;
  const r = range(line, typedStart, col + closing);
  if (cursor.slot === 'key') {
    const list = fieldsAt(fields, cursor.path) ?? [];
    return list.map((f) => ({
      label: f.name,
      kind: 'field',
      detail: fieldDetail(f),
      ...(f.description ? { documentation: f.description } : {}),
      insertText: `"${f.name}": `,
      range: r,
      sortText: `${f.required ? 0 : 1}${f.name}`,
    }));
  }
  const path = cursor.key === undefined ? cursor.path : [...cursor.path, cursor.key];
  const key = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (key === 'model' && cell.language === 'llm') {
    const offers = ctx.models('llm', cell.attributes.connection) ?? [];
    // Only the models the operation can use (chat models for /chat/completions), in the one order.
    const kinds = op ? modelKindsForPath(op.path) : undefined;
    const usable = orderModels(kinds ? offers.filter((m) => kinds.includes(modelKind(m.id))) : offers);
    return usable.map((m, i) => ({
      label: m.id,
      kind: 'model',
      detail: [MODEL_KIND_LABELS[modelKind(m.id)], ...describeModel(modelFacts(m.id, offers), offers)].join(' · '),
      insertText: `"${m.id}"`,
      range: r,
      sortText: String(i).padStart(4, '0'),
    }));
  }
  const field = fieldAt(fields, path);
  const values = field?.values ?? (field?.types.includes('boolean') ? ['true', 'false'] : []);
  return values.map((v) => ({ label: v, kind: 'value', insertText: field?.types.includes('string') ? `"${v}"` : v, range: r }));
}

/** The check subjects a cell of `language` can use: the LLM-only ones (their detail starts "llm:") only in llm cells. */
function checkCompletions(cell: CellInput, layout: CellLayout, before: string, line: number, col: number, ctx: AuthoringContext): Completion[] {
  const rest = before.replace(/^\s*\?\?\s*/, '');
  const restStart = before.length - rest.length;
  if (!/\s/.test(rest)) {
    if (rest.startsWith('json') && /[.[]/.test(rest)) return checkPathCompletions(cell, layout, rest, restStart, line, col, ctx);
    const r = range(line, restStart, col);
    return CHECK_SUBJECTS.filter((s) => !s.llm || cell.language === 'llm').map((s) => ({
      label: s.word,
      kind: 'subject',
      detail: s.detail,
      insertText: s.shape === 'header' || s.shape === 'judge' ? `${s.word} ` : s.shape === 'similar' ? 'similar "' : s.word,
      range: r,
    }));
  }
  const header = /^header\s+(\S*)$/i.exec(rest);
  if (header) {
    const result = cell.attributes.name ? ctx.result(cell.attributes.name) : undefined;
    const r = range(line, col - header[1].length, col);
    return Object.keys(result?.response?.headers ?? {}).map((h) => ({ label: h, kind: 'header', range: r }));
  }
  if (/^(header\s+\S+|\S+)\s+\S*$/.test(rest)) {
    const r = wordRange(before, line, col, '=!<>');
    return CHECK_OPERATORS.map((o, i) => ({ label: o.word, kind: 'operator', detail: o.detail, range: r, sortText: String(i).padStart(2, '0') }));
  }
  return [];
}

/** `?? json.places[0].` → the fields the answer has there: from the cell's last result, else the operation's answer. */
function checkPathCompletions(
  cell: CellInput,
  layout: CellLayout,
  rest: string,
  restStart: number,
  line: number,
  col: number,
  ctx: AuthoringContext,
): Completion[] {
  const cut = Math.max(rest.lastIndexOf('.'), rest.lastIndexOf('['));
  const base = parsePath(rest.slice(4, cut));
  if (!base) return [];
  const typed = rest.slice(cut + 1);
  const r = range(line, restStart + cut + 1, col);
  const result = cell.attributes.name ? ctx.result(cell.attributes.name) : undefined;
  if (result?.response?.json !== undefined) return keysOf(walk(result.response.json, base), r, rest[cut] === '[');
  const op = operationOf(cell, layout, ctx);
  if (!op?.response) return [];
  let tree = op.response;
  for (const key of base) {
    if (typeof key === 'number' || typeof tree !== 'object') continue;
    tree = tree[key] ?? 'leaf';
  }
  if (typeof tree !== 'object') return [];
  return Object.keys(tree)
    .filter((k) => k.startsWith(typed) || typed === '')
    .map((k) => ({ label: k, kind: 'field', range: r }));
}

function keysOf(value: unknown, r: Range, inBrackets: boolean): Completion[] {
  if (Array.isArray(value)) {
    return value.slice(0, 20).map((item, i) => ({
      label: `[${i}]`,
      kind: 'field',
      detail: preview(item),
      // After a `.` the index replaces the dot's word; after `[` only the number is typed.
      insertText: inBrackets ? `${i}]` : `[${i}]`,
      range: inBrackets ? r : { start: { line: r.start.line, col: r.start.col - 1 }, end: r.end },
    }));
  }
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => ({ label: k, kind: 'field', detail: preview(v), range: r }));
}

function preview(v: unknown): string {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function referenceCompletions(typed: string, line: number, col: number, ctx: AuthoringContext): Completion[] {
  const inner = typed.trimStart();
  const startCol = col - inner.length;
  const cut = Math.max(inner.lastIndexOf('.'), inner.lastIndexOf('['));
  if (cut === -1) {
    const r = range(line, startCol, col);
    const out: Completion[] = [];
    for (const [name, def] of ctx.variables) out.push({ label: name, kind: 'variable', detail: ctx.mask(def.value), range: r, sortText: `0${name}` });
    for (const name of ctx.extraVariables) out.push({ label: name, kind: 'variable', detail: 'given from outside', range: r, sortText: `0${name}` });
    for (const [name, cell] of ctx.cells)
      out.push({ label: name, kind: 'cell', detail: `${cell.language} cell`, insertText: `${name}.`, range: r, sortText: `1${name}` });
    return out;
  }
  const name = inner.slice(0, inner.search(/[.[]/));
  const cell = ctx.cells.get(name);
  if (!cell) return [];
  const afterName = inner.slice(name.length);
  const r = range(line, startCol + cut + 1, col);
  if (!/^\.[a-z]*$/.test(afterName) || afterName.includes('[')) {
    const m = /^\.json(.*)$/.exec(inner.slice(name.length, cut));
    if (!m) return [];
    const base = parsePath(m[1]);
    const json = ctx.result(name)?.response?.json;
    if (!base || json === undefined) return [];
    return keysOf(walk(json, base), r, inner[cut] === '[');
  }
  return RESULT_PARTS.map(([part, detail]) => ({ label: part, kind: 'field', detail, range: r }));
}

function realtimeCompletions(cell: CellInput, layout: CellLayout, before: string, line: number, col: number, ctx: AuthoringContext): Completion[] {
  if (layout.requestLine !== undefined && line > layout.requestLine) return [];
  const words = before.trimStart().split(/\s+/);
  if (words.length === 1) {
    const r = wordRange(before, line, col);
    return REALTIME_COMMANDS.map((c) => ({ label: c.verb, kind: 'verb', detail: c.usage, insertText: `${c.verb} `, range: r }));
  }
  const verb = words[0].toUpperCase();
  if (words.length === 2 && ['PUBLISH', 'LISTEN', 'CHANNEL', 'USERS', 'CHANNELS'].includes(verb)) {
    const r = wordRange(before, line, col, '_-=@,.;:#');
    const known = (ctx.channels(cell.attributes.connection) ?? []).map((c): Completion => ({ label: c, kind: 'channel', insertText: `${c} `, range: r }));
    // Offered even when nothing is known (disconnected, or no channel occupied yet): the kinds of channel by prefix.
    const prefixes = CHANNEL_PREFIXES.map(([prefix, detail]): Completion => ({
      label: prefix,
      kind: 'channel',
      detail,
      insertText: prefix,
      range: r,
      sortText: `~${prefix}`,
    }));
    return [...known, ...prefixes];
  }
  return [];
}
