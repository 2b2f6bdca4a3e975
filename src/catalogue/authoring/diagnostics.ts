// The problems of one cell while it is typed, before anything is sent: what the engine's parser
// already refuses, plus what only the catalogue knows (undefined variables, a malformed JSON body,
// a check on a field the answer never has, a field mask that bills a dearer SKU, a model or
// connection the user does not have, and an http cell that does not fit the notebook's OpenAPI
// document: specDiagnostics.ts). The editor shows them per cell; `api-workbench check` prints them.
import { analyseCell, type AssertionSpec, type HttpSpec } from '../../notebook/api';
import { retiredModel, retiredModelAdvice } from '../../services/llm/retiredModels';
import { skuOf } from '../../services/maps/sku';
import { FIELD_MASK_HEADER } from '../headers';
import { maskSelects, responseHas } from '../maskFields';
import { findOperation, type Operation } from '../operations';
import { blankReferences, cellLayout, lineRange, range, references, type CellLayout } from './cellLayout';
import { jsonFault } from '../../core/jsonFault';
import { nearestOf } from './nearest';
import { resolveReference } from './resolve';
import { specCellProblems, specFileProblems } from './specDiagnostics';
import type { AuthoringContext, CellInput, Diagnostic, QuickFix } from './types';

export { nearestOf };

export function cellDiagnostics(cell: CellInput, ctx: AuthoringContext): Diagnostic[] {
  const layout = cellLayout(cell.value, cell.language);
  const analysed = analyseCell({ kind: 'code', language: cell.language, value: cell.value, metadata: { attributes: { ...cell.attributes } } }, 0);
  const out: Diagnostic[] = [];
  for (const p of analysed.problems) {
    // Fence line 0, so line 1 is the cell's first line; the fence itself is line -1.
    const line = p.line - 1;
    out.push({ range: line < 0 ? range(-1, 0) : lineRange(layout.lines, line), severity: 'error', message: p.message, code: 'syntax' });
  }
  out.push(...referenceProblems(cell, layout, ctx));
  const spec = analysed.spec;
  if (spec?.kind === 'http') {
    out.push(...jsonBodyProblems(layout, contentType(spec)));
    const op = findOperation(cell.language, spec.method, spec.target);
    if (op) {
      const mask = spec.headers.find((h) => h.name.toLowerCase() === FIELD_MASK_HEADER.toLowerCase());
      if (mask && op.sku && !mask.value.includes('{{'))
        out.push(...maskProblems(op, mask.value, mask.line - 1, layout, cell.index, checkedFields(op, analysed.assertions)));
      out.push(...checkPathProblems(op, mask && { value: mask.value, line: mask.line - 1 }, analysed.assertions, layout, cell.index));
    }
    if (cell.language === 'llm') out.push(...modelProblems(cell, layout, ctx));
    out.push(...specCellProblems(cell, layout, spec, ctx));
  } else if (spec?.kind === 'realtimeRest' && spec.op === 'batch') {
    out.push(...jsonBodyProblems(layout, 'application/json'));
  }
  if (cell.language === 'vars') out.push(...specFileProblems(cell, ctx));
  out.push(...connectionProblems(cell, ctx));
  return out;
}

function contentType(spec: HttpSpec): string | undefined {
  return spec.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
}

function referenceProblems(cell: CellInput, layout: CellLayout, ctx: AuthoringContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A vars cell's values are taken as written.
  if (cell.language === 'vars') return out;
  for (const r of references(layout.lines)) {
    if (!r.ref) continue;
    const where = range(r.line, r.start, r.end);
    const resolved = resolveReference(r.ref, ctx);
    if (resolved.kind === 'unknownVariable') {
      out.push({
        range: where,
        severity: 'error',
        message: `unknown variable "${r.ref}": define it in a vars cell (${r.ref} = …) or pass it in`,
        code: 'undefined-variable',
        fixes: [...didYouMeanFix(cell, r, ctx), ...(defineFix(r.ref, ctx) ?? [])],
      });
    } else if (resolved.kind === 'unknownCell') {
      const names = [...ctx.cells.keys()];
      out.push({
        range: where,
        severity: 'error',
        message: `unknown cell "${resolved.name}" in {{${r.ref}}}: no cell has name=${resolved.name}${names.length ? ` (named cells: ${names.join(', ')})` : ''}`,
        code: 'unknown-cell',
      });
    } else if (resolved.kind === 'cellWithoutPart') {
      out.push({
        range: where,
        severity: 'error',
        message: `{{${r.ref}}} names a cell: say which part, e.g. {{${r.ref}.json.id}}, {{${r.ref}.status}} or {{${r.ref}.text}}`,
        code: 'cell-without-part',
      });
    } else if (resolved.kind === 'cell' && resolved.ran && resolved.value === undefined) {
      out.push({
        range: where,
        severity: 'warning',
        message: `{{${r.ref}}}: cell "${resolved.name}"'s last result has no ${resolved.rest.slice(1)}`,
        code: 'missing-in-result',
      });
    }
  }
  return out;
}

/** `{{cty}}` → "Use {{city}}": the defined variable nearest to a misspelt one (fewest edits), first among the fixes. */
function didYouMeanFix(cell: CellInput, r: { ref: string; line: number; refStart: number }, ctx: AuthoringContext): QuickFix[] {
  const name = /^[^.[]+/.exec(r.ref)?.[0] ?? r.ref;
  const nearest = nearestOf(name, [...ctx.variables.keys()]);
  if (!nearest || nearest === name) return [];
  return [
    {
      title: `Did you mean "${nearest}"? Use {{${nearest}}}`,
      cellIndex: cell.index,
      edit: { range: range(r.line, r.refStart, r.refStart + name.length), newText: nearest },
    },
  ];
}

/** Appends `name = ` to the notebook's vars cell (the first without env=), for the user to finish. */
function defineFix(name: string, ctx: AuthoringContext): QuickFix[] | undefined {
  const vars = ctx.varsCell;
  if (!vars) return undefined;
  const empty = vars.end.line === 0 && vars.end.col === 0;
  return [
    {
      title: `Define "${name}" in the vars cell`,
      cellIndex: vars.index,
      edit: { range: range(vars.end.line, vars.end.col), newText: `${empty ? '' : '\n'}${name} = ` },
    },
  ];
}

function jsonBodyProblems(layout: CellLayout, type: string | undefined): Diagnostic[] {
  if (layout.bodyStart === undefined) return [];
  if (type !== undefined && !/json/i.test(type)) return [];
  const lines = layout.lines.slice(layout.bodyStart, layout.checksStart);
  const text = lines.join('\n');
  const trimmed = text.trim();
  // A body of `< ./file` lines, or plain text, is sent as it is.
  if (!/^[[{]/.test(trimmed)) return [];
  const fault = jsonFault(blankReferences(text));
  if (!fault) return [];
  let line = 0;
  let col = fault.offset;
  for (const l of lines) {
    if (col <= l.length) break;
    col -= l.length + 1;
    line++;
  }
  return [
    {
      range: range(layout.bodyStart + Math.min(line, lines.length - 1), col, col + 1),
      severity: 'error',
      message: `the body is not valid JSON: ${fault.message} (fix it, or set a Content-Type that is not JSON)`,
      code: 'malformed-json',
    },
  ];
}

const perThousand = (n: number): string => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })} per 1,000`;

/** The top-level answer fields the cell's own checks read (`?? json.places[0].rating` → rating). */
function checkedFields(op: Operation, assertions: readonly AssertionSpec[]): string[] {
  const search = op.sku === 'searchText' || op.sku === 'searchNearby';
  return assertions.flatMap((a) => {
    if (a.subject.kind !== 'json') return [];
    const names = a.subject.path.filter((p): p is string => typeof p === 'string');
    const top = search && names[0] === 'places' ? names[1] : names[0];
    return top ? [top] : [];
  });
}

/**
 * A mask whose fields bill above the cheapest SKU that serves the cell (the operation's cheapest,
 * or the SKU of the fields its checks read): information, with the price and a fix dropping the
 * dear fields nothing checks. A mask the checks need is not flagged.
 */
function maskProblems(op: Operation, mask: string, line: number, layout: CellLayout, cellIndex: number, checked: readonly string[]): Diagnostic[] {
  if (!op.sku) return [];
  const sku = skuOf(op.sku, mask);
  const needed = skuOf(op.sku, checked.join(','));
  if (sku.pricePer1000 <= needed.pricePer1000 || sku.because.length === 0) return [];
  const text = layout.lines[line] ?? '';
  const valueStart = text.indexOf(':') + 1;
  const paths = mask.split(',').map((p) => p.trim());
  const dearFields = sku.because.filter((f) => !checked.includes(f));
  const dear = new Set(dearFields);
  const kept = paths.filter((p) => !maskTopFields(op, p).some((f) => dear.has(f)));
  const cheaper = kept.length ? skuOf(op.sku, kept.join(',')) : undefined;
  const fixes: QuickFix[] | undefined =
    cheaper && kept.length < paths.length
      ? [
          {
            title: `Drop ${dearFields.join(', ')} (${cheaper.sku}, ${perThousand(cheaper.pricePer1000)})`,
            cellIndex,
            edit: { range: range(line, valueStart, text.length), newText: ` ${kept.join(',')}` },
          },
        ]
      : undefined;
  return [
    {
      range: range(line, text.length - text.trimStart().length, text.length),
      severity: 'information',
      message: `this mask bills as ${sku.sku} (${perThousand(sku.pricePer1000)} ${sku.per === 'element' ? 'elements' : 'requests'}) because of ${dearFields.join(', ')}${cheaper && cheaper.sku !== sku.sku ? `; without ${dearFields.length === 1 ? 'it' : 'them'}: ${cheaper.sku} (${perThousand(cheaper.pricePer1000)})` : ''}`,
      code: 'dearer-sku',
      fixes,
    },
  ];
}

function maskTopFields(op: Operation, path: string): string[] {
  const segs = path.split(/[./]/);
  return [(op.sku === 'searchText' || op.sku === 'searchNearby') && segs[0] === 'places' ? (segs[1] ?? '') : segs[0]];
}

/** `?? json.<path>` on a field the operation's answer never has, or one the mask does not ask for. */
function checkPathProblems(
  op: Operation,
  maskHeader: { value: string; line: number } | undefined,
  assertions: readonly AssertionSpec[],
  layout: CellLayout,
  cellIndex: number,
): Diagnostic[] {
  const mask = maskHeader?.value;
  const out: Diagnostic[] = [];
  for (const a of assertions) {
    if (a.subject.kind !== 'json' || a.subject.path.length === 0) continue;
    const line = a.line - 1;
    const text = layout.lines[line] ?? '';
    const word = /json\S*/.exec(text);
    const where = word ? range(line, word.index, word.index + word[0].length) : lineRange(layout.lines, line);
    const shown = word?.[0] ?? 'json';
    const has = responseHas(op, a.subject.path);
    if (has === false) {
      out.push({ range: where, severity: 'warning', message: `${shown}: the answer of ${op.summary} has no such field`, code: 'not-in-response' });
    } else if (has && mask !== undefined && !mask.includes('{{') && !maskSelects(mask, op, a.subject.path)) {
      out.push({
        range: where,
        severity: 'warning',
        message: `${shown}: not in the ${FIELD_MASK_HEADER}, so the answer will not have it: add it to the mask`,
        code: 'not-in-mask',
        fixes: maskHeader && addToMaskFix(op, maskHeader.line, a.subject.path, layout, cellIndex),
      });
    }
  }
  return out;
}

/** "Add places.rating to the field mask": appends the checked field's top-level path to the mask line. */
function addToMaskFix(op: Operation, maskLine: number, path: ReadonlyArray<string | number>, layout: CellLayout, cellIndex: number): QuickFix[] | undefined {
  const names = path.filter((p): p is string => typeof p === 'string');
  const search = op.sku === 'searchText' || op.sku === 'searchNearby';
  const field = search && names[0] === 'places' && names[1] ? `places.${names[1]}` : names[0];
  if (!field) return undefined;
  const text = (layout.lines[maskLine] ?? '').trimEnd();
  return [{ title: `Add ${field} to the field mask`, cellIndex, edit: { range: range(maskLine, text.length, text.length), newText: `,${field}` } }];
}

/** `"model": "…"` that the connection does not offer (only when its models are known). */
function modelProblems(cell: CellInput, layout: CellLayout, ctx: AuthoringContext): Diagnostic[] {
  const offers = ctx.models('llm', cell.attributes.connection);
  if (layout.bodyStart === undefined) return [];
  const out: Diagnostic[] = [];
  for (let line = layout.bodyStart; line < layout.checksStart; line++) {
    const text = layout.lines[line];
    for (const m of text.matchAll(/"model"\s*:\s*"([^"{}]*)"/g)) {
      const id = m[1];
      const start = m.index + m[0].lastIndexOf(`"${id}"`) + 1;
      const where = range(line, start, start + id.length);
      // Known whatever the connection offers: OpenAI answers these 404 everywhere.
      const retired = retiredModel(id);
      if (retired) {
        out.push({
          range: where,
          severity: 'warning',
          message: `${retiredModelAdvice(retired)}: use "${retired.replacement}" (OpenAI answers "${id}" 404)`,
          code: 'retired-model',
          fixes: [{ title: `Use "${retired.replacement}"`, cellIndex: cell.index, edit: { range: where, newText: retired.replacement } }],
        });
        continue;
      }
      if (!offers || offers.length === 0 || offers.some((o) => o.id === id)) continue;
      const nearest = nearestOf(
        id,
        offers.map((o) => o.id),
      );
      out.push({
        range: where,
        severity: 'warning',
        message: `the connection does not offer the model "${id}"${nearest ? `: did you mean "${nearest}"?` : ''}`,
        code: 'unknown-model',
        fixes: nearest ? [{ title: `Use "${nearest}"`, cellIndex: cell.index, edit: { range: where, newText: nearest } }] : undefined,
      });
    }
  }
  return out;
}

function connectionProblems(cell: CellInput, ctx: AuthoringContext): Diagnostic[] {
  const name = cell.attributes.connection;
  if (name === undefined || (cell.language !== 'llm' && cell.language !== 'maps' && cell.language !== 'realtime')) return [];
  const names = ctx.connectionNames(cell.language);
  if (!names || names.includes(name)) return [];
  return [
    {
      range: range(-1, 0),
      severity: 'error',
      message: `no ${cell.language} connection is named "${name}"${names.length ? ` (there are: ${names.join(', ')})` : ''}`,
      code: 'unknown-connection',
    },
  ];
}
