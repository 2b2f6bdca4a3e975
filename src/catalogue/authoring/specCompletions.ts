// What an http cell is offered from the notebook's OpenAPI document: its operations on the request
// line (`GET {{baseUrl}}/pets/{{petId}}`, path parameters as variables, as the importer writes
// them), its query parameters after `?` or `&` and their values, and its header parameters. The
// body's fields come through the operation, as a service's do (completions.ts).
import { HTTP_METHODS, type Operation } from '../operations';
import type { FieldSpec } from '../schemaFields';
import { range } from './cellLayout';
import { BASE_VARIABLE, fieldDetail, readySpec, specTarget } from './specCells';
import type { AuthoringContext, Completion, Range } from './types';

/** `/pets/{petId}` as a cell writes it: `{{baseUrl}}/pets/{{petId}}`. */
const cellPath = (op: Operation) => `{{${BASE_VARIABLE}}}${op.path.replace(/\{([^}]+)\}/g, (_w, name: string) => `{{${name.replace(/[^\w-]+/g, '_')}}}`)}`;

function fieldCompletion(f: FieldSpec, r: Range, insertText: string): Completion {
  return {
    label: f.name,
    kind: 'field',
    detail: fieldDetail(f),
    ...(f.description ? { documentation: f.description } : {}),
    insertText,
    range: r,
    sortText: `${f.required ? 0 : 1}${f.name}`,
  };
}

function valueCompletions(f: FieldSpec | undefined, r: Range): Completion[] {
  const values = f?.values ?? (f?.types.includes('boolean') ? ['true', 'false'] : []);
  return values.map((v) => ({ label: v, kind: 'value', detail: f?.description, range: r }));
}

/** The request line's completions from the spec; undefined when the notebook names none (or it is not read yet). */
export function specRequestLineCompletions(before: string, line: number, col: number, ctx: AuthoringContext): Completion[] | undefined {
  const spec = readySpec(ctx);
  if (!spec) return undefined;
  const methodOnly = /^(\s*)([A-Za-z]*)$/.exec(before);
  if (methodOnly) {
    const r = range(line, methodOnly[1].length, col);
    return [
      ...spec.operations.map((o, i): Completion => ({
        label: `${o.method} ${cellPath(o)}`,
        kind: 'path',
        detail: o.summary,
        ...(o.description ? { documentation: o.description } : {}),
        range: r,
        sortText: `0${String(i).padStart(4, '0')}`,
      })),
      ...HTTP_METHODS.map((method): Completion => ({ label: method, kind: 'method', insertText: `${method} `, range: r, sortText: `1${method}` })),
    ];
  }
  const withMethod = /^(\s*)([A-Za-z]+)\s+(\S*)$/.exec(before);
  if (!withMethod) return undefined;
  const typed = withMethod[3];
  const question = typed.indexOf('?');
  if (question === -1) {
    const method = withMethod[2].toUpperCase();
    const r = range(line, before.length - typed.length, col);
    return spec.operations
      .filter((o) => o.method === method)
      .map((o) => ({
        label: `{{${BASE_VARIABLE}}}${o.path}`,
        kind: 'path',
        detail: o.summary,
        ...(o.description ? { documentation: o.description } : {}),
        insertText: cellPath(o),
        range: r,
      }));
  }
  const op = specTarget(before, ctx)?.op;
  const query = op?.parameters?.filter((p) => p.in === 'query') ?? [];
  const pairStart = Math.max(typed.lastIndexOf('&'), question) + 1;
  const pair = typed.slice(pairStart);
  const eq = pair.indexOf('=');
  if (eq !== -1) {
    const name = pair.slice(0, eq);
    return valueCompletions(
      query.find((p) => p.name === name),
      range(line, col - (pair.length - eq - 1), col),
    );
  }
  const present = new Set(
    typed
      .slice(question + 1)
      .split('&')
      .map((p) => p.split('=')[0]),
  );
  const r = range(line, col - pair.length, col);
  return query.filter((p) => !present.has(p.name) || p.name === pair).map((p) => fieldCompletion(p, r, `${p.name}=`));
}

/** The operation's header parameters (before the common headers), or the values one takes. */
export function specHeaderCompletions(op: Operation | undefined, before: string, line: number, col: number, nameRange: Range): Completion[] {
  const headers = op?.parameters?.filter((p) => p.in === 'header') ?? [];
  const colon = before.indexOf(':');
  if (colon === -1) return headers.map((p) => fieldCompletion(p, nameRange, `${p.name}: `));
  const name = before.slice(0, colon).trim().toLowerCase();
  const valueStart = colon + 1 + (before.slice(colon + 1).length - before.slice(colon + 1).trimStart().length);
  return valueCompletions(
    headers.find((p) => p.name.toLowerCase() === name),
    range(line, valueStart, col),
  );
}
