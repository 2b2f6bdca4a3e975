// Which operation of the notebook's OpenAPI document an http cell sends to: its URL is
// `{{baseUrl}}/path` (the variable the importer writes, or any vars value that is one of the
// document's servers) or starts with a server's URL; the rest is matched against the documented
// path templates. A cell to another host is not the spec's business and is left alone. Also how a
// field or parameter reads in a completion's detail and a hover.
import { findOperation, pathPattern, type Operation } from '../operations';
import type { FieldSpec } from '../schemaFields';
import type { SpecCatalogue } from '../specCatalogue';
import type { AuthoringContext } from './types';

/** The variable the importer writes cells with: `{{baseUrl}}/pets`. */
export const BASE_VARIABLE = 'baseUrl';

export interface SpecTarget {
  spec: SpecCatalogue;
  method: string;
  /** The path after the server, before `?` or `#`, and the column it starts at in the request line. */
  path: string;
  pathStart: number;
  /** The query after `?` and the column it starts at, when there is one. */
  query?: { text: string; start: number };
  /** The documented operations whose path fits (any method), most literal first. */
  pathOps: Operation[];
  /** The one of them with the cell's method. */
  op?: Operation;
}

const REQUEST_LINE = /^(\s*)([A-Za-z]+)(\s+)((?:\{\{[^{}]*\}\}|\S)+)/;

export function readySpec(ctx: AuthoringContext): SpecCatalogue | undefined {
  return ctx.spec?.state.kind === 'ready' ? ctx.spec.state.spec : undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** How much of `target` is the server: `{{baseUrl}}` or a server URL written out; undefined when the cell goes elsewhere. */
function serverPrefix(target: string, spec: SpecCatalogue, ctx: AuthoringContext): number | undefined {
  const variable = /^\{\{\s*([\w.-]+)\s*\}\}/.exec(target);
  if (variable) {
    const value = ctx.variables.get(variable[1])?.value;
    const isServer = value !== undefined && spec.servers.some((s) => trimSlash(s).toLowerCase() === trimSlash(value).toLowerCase());
    return variable[1] === BASE_VARIABLE || isServer ? variable[0].length : undefined;
  }
  const lower = target.toLowerCase();
  for (const s of spec.servers) {
    const server = trimSlash(s).toLowerCase();
    if (/^https?:\/\//.test(server) && lower.startsWith(server) && /^(?:[/?#]|$)/.test(lower.slice(server.length))) return server.length;
  }
  return undefined;
}

/** Template and path segment by segment, a `{{var}}` in the cell filling any one segment. */
function looselyFits(template: string, path: string): boolean {
  const a = template.split('/');
  const b = path.replace(/\/+$/, '').split('/');
  return a.length === b.length && a.every((seg, i) => seg === b[i] || seg.includes('{') || b[i].includes('{{'));
}

const literalLength = (op: Operation) => op.path.replace(/\{[^}]+\}/g, '').length;

/** The documented operations whose path fits `path` (any method), the most literal path first. */
export function operationsAt(spec: SpecCatalogue, path: string): Operation[] {
  let fits = spec.operations.filter((o) => pathPattern(o.path).test(path));
  if (!fits.length && path.includes('{{')) fits = spec.operations.filter((o) => looselyFits(o.path, path));
  if (!fits.length) return [];
  const best = Math.max(...fits.map(literalLength));
  // `/pets/mine` is the literal path, not `/pets/{petId}` with petId "mine".
  const bestPath = fits.find((o) => literalLength(o) === best)!.path;
  return fits.filter((o) => o.path === bestPath);
}

/** The request line's target as the spec sees it, or undefined when the cell is not the spec's. */
export function specTarget(requestLine: string, ctx: AuthoringContext): SpecTarget | undefined {
  const spec = readySpec(ctx);
  const m = REQUEST_LINE.exec(requestLine);
  if (!spec || !m) return undefined;
  const targetStart = m[1].length + m[2].length + m[3].length;
  const target = m[4];
  const prefix = serverPrefix(target, spec, ctx);
  if (prefix === undefined) return undefined;
  const rest = target.slice(prefix);
  const cut = rest.search(/[?#]/);
  const path = cut === -1 ? rest : rest.slice(0, cut);
  const pathStart = targetStart + prefix;
  const query = cut !== -1 && rest[cut] === '?' ? { text: rest.slice(cut + 1).replace(/#.*$/, ''), start: pathStart + cut + 1 } : undefined;
  const method = m[2].toUpperCase();
  const pathOps = operationsAt(spec, path || '/');
  return { spec, method, path, pathStart, ...(query ? { query } : {}), pathOps, op: pathOps.find((o) => o.method === method) };
}

/** The operation a request cell sends to: a service's (by its catalogue), or an http cell's (by the notebook's spec). */
export function requestOperation(language: string, requestLine: string, ctx: AuthoringContext): Operation | undefined {
  if (language === 'http') return specTarget(requestLine, ctx)?.op;
  const m = /^\s*([A-Za-z]+)\s+(\S+)/.exec(requestLine);
  return m ? findOperation(language, m[1], m[2]) : undefined;
}

/** `integer (int64) · one of: cat, dog · required`: a field in one line. */
export function fieldDetail(f: FieldSpec): string {
  const types = f.types.filter((t) => t !== 'unknown');
  const type = types.length ? types.join(' | ') : 'any';
  const items = f.types.includes('array') && f.items?.length && !f.fields ? ` of ${f.items.join(' | ')}` : '';
  const values = f.values?.length ? ` · one of: ${f.values.slice(0, 12).join(', ')}${f.values.length > 12 ? ', …' : ''}` : '';
  return `${type}${items}${f.format ? ` (${f.format})` : ''}${values}${f.required ? ' · required' : ''}`;
}

/** A field or parameter as a hover shows it (Markdown lines). */
export function fieldHoverLines(label: string, f: FieldSpec, where: string): string[] {
  return [`**${label}** ${fieldDetail(f)}`, ...(f.description ? [f.description] : []), where];
}

/** `GET /pets/{petId}` (listPets), with the document's summary and description. */
export function operationHoverLines(op: Operation, spec: SpecCatalogue): string[] {
  return [
    `**${op.method} ${op.path}**: ${op.summary}`,
    ...(op.description && op.description !== op.summary ? [op.description] : []),
    `from ${spec.ref} (${spec.title})`,
  ];
}
