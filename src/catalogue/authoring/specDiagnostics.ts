// An http cell against the notebook's OpenAPI document, before anything is sent: a path or method
// the document does not have, a required parameter, header or body field left out, a parameter or
// field it does not know, and a value of the wrong type or outside its enum. Values that are
// `{{variables}}` are not known until the cell runs and are never flagged.
import type { HttpSpec } from '../../notebook/api';
import type { Operation, OperationParameter } from '../operations';
import type { FieldSpec } from '../schemaFields';
import { lineRange, range, type CellLayout } from './cellLayout';
import { nearestOf } from './nearest';
import { jsonTree, type JsonNode } from './jsonTree';
import { readySpec, specTarget } from './specCells';
import type { AuthoringContext, CellInput, Diagnostic, Range } from './types';

/** The vars line naming a spec that cannot be read: the reason, where the user can fix it. */
export function specFileProblems(cell: CellInput, ctx: AuthoringContext): Diagnostic[] {
  const spec = ctx.spec;
  if (!spec || spec.state.kind !== 'failed' || spec.def.cellIndex !== cell.index) return [];
  const text = cell.value.split(/\r\n|\r|\n/);
  return [{ range: lineRange(text, spec.def.line), severity: 'error', message: `${spec.state.message}.`, code: 'spec-unreadable' }];
}

export function specCellProblems(cell: CellInput, layout: CellLayout, http: HttpSpec, ctx: AuthoringContext): Diagnostic[] {
  if (cell.language !== 'http' || layout.requestLine === undefined || !readySpec(ctx)) return [];
  const line = layout.requestLine;
  const target = specTarget(layout.lines[line], ctx);
  if (!target) return [];
  const { spec, op } = target;
  const pathEnd = target.pathStart + target.path.length;
  if (!target.pathOps.length) {
    const nearest = nearestOf(
      target.path,
      [...new Set(spec.operations.map((o) => o.path))].filter((p) => !p.includes('{')),
    );
    return [
      {
        range: range(line, target.pathStart, pathEnd),
        severity: 'error',
        message: `"${target.path || '/'}" is not a path in ${spec.ref}${nearest ? `: did you mean "${nearest}"?` : ': complete the path after the method to see the documented ones.'}`,
        code: 'spec-unknown-path',
      },
    ];
  }
  if (!op) {
    const methodStart = layout.lines[line].length - layout.lines[line].trimStart().length;
    const methods = target.pathOps.map((o) => o.method).join(', ');
    return [
      {
        range: range(line, methodStart, methodStart + target.method.length),
        severity: 'error',
        message: `${target.method} is not documented for ${target.pathOps[0].path} in ${spec.ref}: it takes ${methods}.`,
        code: 'spec-unknown-method',
      },
    ];
  }
  const where = `${op.method} ${op.path} in ${spec.ref}`;
  const out: Diagnostic[] = [];
  const params = op.parameters ?? [];
  // Path parameters written out: `/pets/abc` where petId is an integer.
  const segments = op.path.split('/');
  let col = target.pathStart;
  target.path.split('/').forEach((seg, i) => {
    const name = /^\{([^}]+)\}$/.exec(segments[i] ?? '')?.[1];
    const p = name !== undefined ? params.find((x) => x.in === 'path' && x.name === name) : undefined;
    if (p && !seg.includes('{{')) out.push(...textValueProblems(p, decodeSafe(seg), range(line, col, col + seg.length), 'path parameter', where));
    col += seg.length + 1;
  });
  out.push(...queryProblems(params, target.query, line, lineRange(layout.lines, line), where));
  for (const p of params) {
    if (p.in !== 'header' || IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
    const h = http.headers.find((x) => x.name.toLowerCase() === p.name.toLowerCase());
    if (!h) {
      if (p.required)
        out.push({
          range: lineRange(layout.lines, line),
          severity: 'error',
          message: `the header ${p.name} is required by ${where}: add a line "${p.name}: …" under the request line.`,
          code: 'spec-missing-parameter',
        });
      continue;
    }
    const text = layout.lines[h.line - 1] ?? '';
    const valueStart = text.indexOf(':') + 1 + (text.slice(text.indexOf(':') + 1).length - text.slice(text.indexOf(':') + 1).trimStart().length);
    if (!h.value.includes('{{')) out.push(...textValueProblems(p, h.value, range(h.line - 1, valueStart, text.trimEnd().length), 'header', where));
  }
  out.push(...bodyProblems(op, layout, where));
  return out;
}

/** OpenAPI ignores parameters of these names: the request's own headers say them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function queryProblems(
  params: readonly OperationParameter[],
  query: { text: string; start: number } | undefined,
  line: number,
  requestLine: Range,
  where: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const known = params.filter((p) => p.in === 'query');
  const seen = new Set<string>();
  let col = query?.start ?? 0;
  for (const pair of query?.text ? query.text.split('&') : []) {
    const eq = pair.indexOf('=');
    const name = decodeSafe(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    const nameRange = range(line, col, col + (eq === -1 ? pair.length : eq));
    seen.add(name);
    const p = known.find((x) => x.name === name);
    if (!p && name && !name.includes('{{')) {
      const nearest = nearestOf(
        name,
        known.map((x) => x.name),
      );
      out.push({
        range: nameRange,
        severity: 'warning',
        message: `"${name}" is not a query parameter of ${where}${nearest ? `: did you mean "${nearest}"?` : known.length ? ` (it takes ${known.map((x) => x.name).join(', ')}).` : ': it takes none.'}`,
        code: 'spec-unknown-parameter',
      });
    } else if (p && eq !== -1 && !value.includes('{{')) {
      const valueStart = col + eq + 1;
      out.push(...textValueProblems(p, decodeSafe(value), range(line, valueStart, valueStart + value.length), 'query parameter', where));
    }
    col += pair.length + 1;
  }
  for (const p of known) {
    if (!p.required || seen.has(p.name)) continue;
    out.push({
      range: requestLine,
      severity: 'error',
      message: `the query parameter "${p.name}" is required by ${where}: add ${query ? '&' : '?'}${p.name}=… to the URL.`,
      code: 'spec-missing-parameter',
    });
  }
  return out;
}

/** A parameter's text (`two` for an integer, `dragon` outside an enum). */
function textValueProblems(p: FieldSpec, text: string, where: Range, what: string, op: string): Diagnostic[] {
  const types = p.types.filter((t) => t !== 'unknown' && t !== 'null');
  const fits = (t: string) =>
    t === 'string' || t === 'array' || t === 'object'
      ? true
      : t === 'integer'
        ? /^[+-]?\d+$/.test(text)
        : t === 'number'
          ? text.trim() !== '' && Number.isFinite(Number(text))
          : t === 'boolean'
            ? text === 'true' || text === 'false'
            : false;
  if (types.length && !types.some(fits))
    return [{ range: where, severity: 'error', message: `the ${what} "${p.name}" is ${article(types)} in ${op}, not "${text}".`, code: 'spec-wrong-type' }];
  if (p.values?.length && !types.includes('array') && !p.values.includes(text))
    return [
      {
        range: where,
        severity: 'error',
        message: `the ${what} "${p.name}" is one of ${p.values.join(', ')} in ${op}, not "${text}".`,
        code: 'spec-not-in-enum',
      },
    ];
  return [];
}

const article = (types: readonly string[]) => types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)).join(' or ');

function bodyProblems(op: Operation, layout: CellLayout, where: string): Diagnostic[] {
  const fields = op.body?.();
  if (layout.bodyStart === undefined) {
    if (!op.bodyRequired) return [];
    return [
      {
        range: lineRange(layout.lines, layout.requestLine ?? 0),
        severity: 'error',
        message: `${where} requires a body: add it after a blank line under the headers.`,
        code: 'spec-missing-body',
      },
    ];
  }
  if (!fields) return [];
  const lines = layout.lines.slice(layout.bodyStart, layout.checksStart);
  const text = lines.join('\n');
  if (!/^\s*\{/.test(text)) return [];
  const tree = jsonTree(text);
  if (!tree) return [];
  const starts: number[] = [];
  let offset = 0;
  for (const l of lines) {
    starts.push(offset);
    offset += l.length + 1;
  }
  const bodyStart = layout.bodyStart;
  const at = (from: number, to: number): Range => {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > from) i--;
    const col = from - starts[i];
    return range(bodyStart + i, col, Math.min(col + (to - from), lines[i].length));
  };
  const out: Diagnostic[] = [];
  checkValue(tree, { name: 'body', types: ['object'], required: true, fields: [...fields] }, '', at, where, out, 0);
  return out;
}

function valueFits(t: string, node: JsonNode): boolean {
  if (node.kind === 'object') return t === 'object';
  if (node.kind === 'array') return t === 'array';
  if (node.kind !== 'value') return true;
  const v = node.value;
  if (v === null) return t === 'null';
  if (typeof v === 'number') return t === 'number' || (t === 'integer' && Number.isInteger(v));
  return typeof v === t;
}

function describeValue(node: JsonNode): string {
  if (node.kind === 'object') return 'an object';
  if (node.kind === 'array') return 'an array';
  if (node.kind === 'value') return JSON.stringify(node.value);
  return 'a variable';
}

/** One value against its field: type, enum, then (objects) required and unknown fields, (arrays) each item. */
function checkValue(
  node: JsonNode,
  field: FieldSpec,
  path: string,
  at: (from: number, to: number) => Range,
  where: string,
  out: Diagnostic[],
  depth: number,
): void {
  if (node.kind === 'reference' || depth > 16) return;
  const label = path ? `the field "${path}"` : 'the body';
  const types = field.types.filter((t) => t !== 'unknown');
  if (types.length && !types.some((t) => valueFits(t, node))) {
    out.push({
      range: at(node.start, node.end),
      severity: 'error',
      message: `${label} is ${article(types)} in ${where}, not ${describeValue(node)}.`,
      code: 'spec-wrong-type',
    });
    return;
  }
  if (node.kind === 'value' && field.values?.length && node.value !== null && !field.types.includes('array')) {
    const text = String(node.value);
    if (!text.includes('{{') && !field.values.includes(text))
      out.push({
        range: at(node.start, node.end),
        severity: 'error',
        message: `${label} is one of ${field.values.map((v) => JSON.stringify(v)).join(', ')} in ${where}, not ${JSON.stringify(node.value)}.`,
        code: 'spec-not-in-enum',
      });
    return;
  }
  if (node.kind === 'array') {
    const item: FieldSpec = {
      name: field.name,
      types: field.fields ? ['object'] : (field.items ?? []),
      required: false,
      ...(field.values ? { values: field.values } : {}),
      ...(field.fields ? { fields: field.fields } : {}),
      ...(field.open ? { open: true } : {}),
    };
    node.items.forEach((n, i) => checkValue(n, item, `${path}[${i}]`, at, where, out, depth + 1));
    return;
  }
  if (node.kind !== 'object' || !field.fields) return;
  const fields = field.fields;
  for (const e of node.entries) {
    const f = fields.find((x) => x.name === e.key);
    const child = path ? `${path}.${e.key}` : e.key;
    if (f) checkValue(e.value, f, child, at, where, out, depth + 1);
    else if (!field.open) {
      const nearest = nearestOf(
        e.key,
        fields.map((x) => x.name),
      );
      out.push({
        range: at(e.keyStart, e.keyEnd),
        severity: 'warning',
        message: `the field "${child}" is not in the schema of ${where}${nearest ? `: did you mean "${nearest}"?` : '.'}`,
        code: 'spec-unknown-field',
      });
    }
  }
  const missing = fields.filter((f) => f.required && !node.entries.some((e) => e.key === f.name));
  if (missing.length)
    out.push({
      range: at(node.start, node.start + 1),
      severity: 'error',
      message: `${label} lacks the required field${missing.length > 1 ? 's' : ''} ${missing.map((f) => `"${f.name}"`).join(', ')} (${where}).`,
      code: 'spec-missing-field',
    });
}
