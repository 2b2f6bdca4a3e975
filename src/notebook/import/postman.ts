// A Postman collection (v2.1, or v2.0 which has the same shape) → a notebook: folders become
// headings, requests cells, collection and path variables a vars cell, scripts a note under the
// request; an item that cannot be read is a note naming the field, the rest still imports.
import * as z from 'zod/mini';
import { convertRequest, keptNote, type Piece } from './convert';
import { isPlaceholder, maskCredentials, maskKeyParams } from './credentials';
import { multipartBody, type FormPart } from './multipart';
import type { RawRequest } from './curl';
import { ImportError, type ImportedSecret, type ImportOptions, type ImportResult } from './types';
import { cellName, varsPiece, writeNotebook } from './write';
import { jsonErrorText, quoteCut } from '../../core/quote';
import { isSecretParam } from '../../core/secretNames';
import { attachScripts, inlineBlock, postmanEventCode } from './scriptBlocks';

const SCHEMAS = [
  'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
  'https://schema.getpostman.com/json/collection/v2.0.0/collection.json',
];

// Postman writes `{"key": null, "value": null}` for an empty pair (`?&a=1`): read, then skipped.
const keyValue = z.looseObject({ key: z.nullable(z.string()), value: z.optional(z.unknown()), disabled: z.optional(z.boolean()) });
const formField = z.looseObject({
  key: z.nullable(z.string()),
  value: z.optional(z.unknown()),
  type: z.optional(z.string()),
  src: z.optional(z.union([z.string(), z.array(z.string()), z.null()])),
  contentType: z.optional(z.string()),
  disabled: z.optional(z.boolean()),
});
const auth = z.looseObject({ type: z.string() });
const description = z.optional(z.union([z.string(), z.looseObject({ content: z.optional(z.string()) }), z.null()]));
const event = z.looseObject({ listen: z.string(), script: z.optional(z.looseObject({ exec: z.optional(z.union([z.string(), z.array(z.string())])) })) });
const url = z.union([
  z.string(),
  z.looseObject({ raw: z.optional(z.string()), query: z.optional(z.array(keyValue)), variable: z.optional(z.array(keyValue)) }),
]);
const request = z.union([
  z.string(),
  z.looseObject({
    method: z.optional(z.string()),
    url: z.optional(url),
    header: z.optional(z.union([z.array(keyValue), z.string()])),
    body: z.optional(
      z.nullable(
        z.looseObject({
          mode: z.optional(z.string()),
          raw: z.optional(z.string()),
          urlencoded: z.optional(z.array(keyValue)),
          formdata: z.optional(z.array(formField)),
          disabled: z.optional(z.boolean()),
        }),
      ),
    ),
    auth: z.optional(z.nullable(auth)),
    description,
  }),
]);
const item = z.looseObject({
  name: z.optional(z.string()),
  description,
  item: z.optional(z.array(z.unknown())),
  request: z.optional(request),
  event: z.optional(z.array(event)),
  auth: z.optional(z.nullable(auth)),
});
const collection = z.looseObject({
  info: z.looseObject({ name: z.string(), schema: z.string(), description }),
  item: z.array(z.unknown()),
  variable: z.optional(z.array(keyValue)),
  auth: z.optional(z.nullable(auth)),
  event: z.optional(z.array(event)),
});

type Item = z.infer<typeof item>;

/** Folders inside folders, at most (Postman's own app shows a handful). */
const MAX_FOLDER_DEPTH = 100;
type Auth = z.infer<typeof auth>;

function check<T>(schema: z.ZodMiniType<T>, value: unknown, at: string, source: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = [at, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))].filter(Boolean).join('.').replace(/\.\[/g, '[');
  throw new ImportError(source, `field ${field || '(top level)'}`, issue.message);
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const descriptionText = (d: Item['description']): string => (typeof d === 'string' ? d : (d?.content ?? ''));

/** Reads a collection; throws ImportError naming the field that is not what Postman writes. */
export function importPostman(json: string, opts: ImportOptions = {}): ImportResult {
  const source = opts.source ?? 'collection.json';
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new ImportError(source, 'JSON', jsonErrorText(e));
  }
  if (isV1(raw)) throw new ImportError(source, 'collection format', 'Postman collection v1 is not supported: export it as v2.1 from Postman');
  const col = check(collection, raw, '', source);
  if (!SCHEMAS.includes(col.info.schema))
    throw new ImportError(
      source,
      'field info.schema',
      `"${quoteCut(col.info.schema)}" is not a Postman collection v2.1 (or v2.0) schema; export the collection as v2.1`,
    );
  const vars = new Map((col.variable ?? []).filter((v) => !v.disabled && v.key !== null).map((v) => [v.key!, text(v.value)]));
  const secrets: ImportedSecret[] = [];
  const report: string[] = [];
  const expand = (t: string, depth = 0): string =>
    depth > 10 ? t : t.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) => (vars.has(name) ? expand(vars.get(name)!, depth + 1) : whole));
  const variableOf = (t: string) => /\{\{\s*([^{}\s]+)\s*\}\}/.exec(t)?.[1];
  const ctx = { connections: opts.connections ?? [], secrets, report, expand, variableOf };
  const taken = new Set<string>();
  const pieces: Piece[] = [
    { kind: 'markdown', value: `# ${col.info.name}${descriptionText(col.info.description) ? `\n\n${descriptionText(col.info.description)}` : ''}` },
  ];
  const walk = (items: unknown[], at: string, depth: number, inherited: Auth | null | undefined, scripts: InheritedScripts) => {
    items.forEach((entry, i) => {
      const path = `${at}[${i}]`;
      const parsed = item.safeParse(entry);
      if (!parsed.success || (parsed.data.item === undefined && parsed.data.request === undefined)) {
        pieces.push(unreadableItem(entry, path, parsed.success ? undefined : parsed.error.issues[0], report));
        return;
      }
      const it = parsed.data;
      // A request named after its URL carries the URL's key: masked before it names anything.
      const title = maskKeyParams(it.name ?? `request ${i + 1}`);
      const heading = '#'.repeat(Math.min(depth + 1, 6));
      const desc = descriptionText(it.description);
      if (it.item) {
        // Each level is a call of walk(): a collection 2,000 folders deep ended the import with a stack overflow.
        if (depth >= MAX_FOLDER_DEPTH) throw new ImportError(source, `field ${path}`, `folders are nested deeper than ${MAX_FOLDER_DEPTH} levels`);
        pieces.push({ kind: 'markdown', value: `${heading} ${title}${desc ? `\n\n${desc}` : ''}` });
        walk(it.item, `${path}.item`, depth + 1, it.auth === undefined ? inherited : it.auth, inheritScripts(scripts, it.event));
        return;
      }
      const r = it.request!;
      const name = cellName(title, taken);
      const label = `"${title}"`;
      pieces.push({ kind: 'markdown', value: `${heading} ${title}${desc ? `\n\n${desc}` : ''}` });
      const req: RawRequest = typeof r === 'string' ? { method: 'GET', url: r, headers: [], line: 0 } : toRaw(r, report, label, vars);
      const requestAuth = typeof r === 'string' ? undefined : r.auth;
      applyAuth(requestAuth === undefined ? inherited : requestAuth, req, report, label);
      const made = convertRequest(req, ctx, label, name);
      const own = inheritScripts(scripts, it.event);
      const blocks = { pre: own.pre.map((c) => inlineBlock('<', c)), post: own.post.map((c) => inlineBlock('>', c)) };
      const writable = [...blocks.pre, ...blocks.post].every((b) => b !== undefined);
      pieces.push(...made);
      if (!writable || !attachScripts(made, blocks.pre as string[], blocks.post as string[])) {
        const events = [
          ...own.pre.map((exec) => ({ listen: 'prerequest', script: { exec } })),
          ...own.post.map((exec) => ({ listen: 'test', script: { exec } })),
        ];
        if (events.length) {
          pieces.push(scriptNote(events, label));
          report.push(`${label}: its scripts are listed in a note (the request is not a cell, or a script holds "%}")`);
        }
      }
    });
  };
  walk(col.item, 'item', 1, col.auth, inheritScripts({ pre: [], post: [] }, col.event));

  const kept: Array<[string, string]> = [];
  for (const [name, value] of vars) {
    const used = secrets.find((s) => s.variable === name);
    if (used || isSecretParam(name)) {
      if (!used && !isPlaceholder(value) && !/\{\{/.test(value)) secrets.push({ origin: '', variable: name, value });
      report.push(`variable ${name}: not written (a key: it comes from the connection)`);
    } else kept.push([name, value]);
  }
  const varsCell = varsPiece(kept, report);
  if (varsCell) pieces.splice(1, 0, varsCell);
  return writeNotebook(pieces, secrets, report);
}

type RequestObject = Exclude<z.infer<typeof request>, string>;

function toRaw(r: RequestObject, report: string[], label: string, vars: Map<string, string>): RawRequest {
  const u = r.url;
  let target = typeof u === 'string' ? u : (u?.raw ?? '');
  if (typeof u === 'object' && u.query && !u.raw)
    target += `?${u.query
      .filter((q) => !q.disabled && q.key !== null)
      .map((q) => `${q.key}=${text(q.value)}`)
      .join('&')}`;
  if (typeof u === 'object' && u.variable) target = pathVariables(target, u.variable, vars, report, label);
  const headers: Array<[string, string]> = Array.isArray(r.header)
    ? r.header.filter((h) => !h.disabled && h.key !== null).map((h) => [h.key!, text(h.value)])
    : [];
  let body: string | undefined;
  const b = r.body;
  const mode = b?.mode;
  if (b?.disabled) report.push(`${label}: the ${mode ?? ''} body is disabled in Postman: not carried over`);
  else if (mode === 'raw') body = b?.raw;
  else if (mode === 'urlencoded') {
    body = (b?.urlencoded ?? [])
      .filter((p) => !p.disabled && p.key !== null)
      .map((p) => `${encodeURIComponent(p.key!)}=${encodeURIComponent(text(p.value))}`)
      .join('&');
    if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  } else if (mode === 'formdata') {
    const parts = (b?.formdata ?? []).filter((p) => !p.disabled && p.key !== null).map((p) => formPart(p, report, label));
    const multipart = multipartBody(parts);
    const at = headers.findIndex(([n]) => n.toLowerCase() === 'content-type');
    if (at !== -1) headers.splice(at, 1);
    headers.push(['Content-Type', multipart.contentType]);
    body = multipart.body;
  } else if (mode) report.push(`${label}: the ${mode} body is not carried over (raw, urlencoded and formdata bodies are)`);
  return { method: (r.method ?? 'GET').toUpperCase(), url: target, headers, body, line: 0 };
}

/** A formdata entry as a multipart part: a file entry reads `< ./path` (Postman's `src`). */
function formPart(p: z.infer<typeof formField>, report: string[], label: string): FormPart {
  const name = p.key!;
  if (p.type !== 'file') return { name, value: text(p.value), ...(p.contentType ? { contentType: p.contentType } : {}) };
  const src = Array.isArray(p.src) ? p.src[0] : p.src;
  if (!src) report.push(`${label}: the file of form field "${name}" is not named in the collection: set it in the cell`);
  if (Array.isArray(p.src) && p.src.length > 1) report.push(`${label}: form field "${name}" sends ${p.src.length} files: only the first is carried over`);
  return { name, file: src || 'file-to-upload', ...(p.contentType ? { contentType: p.contentType } : {}) };
}

/**
 * `/models/:model_id` with `url.variable` → `/models/{{model_id}}`, the value a notebook variable
 * (a second request with another value for the same name gets `model_id_2`).
 */
function pathVariables(target: string, variables: ReadonlyArray<z.infer<typeof keyValue>>, vars: Map<string, string>, report: string[], label: string): string {
  let out = target;
  for (const v of variables) {
    if (v.key === null || !new RegExp(`/:${escape(v.key)}(?=[/?#]|$)`).test(out)) continue;
    const value = text(v.value);
    let name = v.key;
    for (let i = 2; vars.has(name) && vars.get(name) !== value; i++) name = `${v.key}_${i}`;
    vars.set(name, value);
    out = out.replace(new RegExp(`/:${escape(v.key)}(?=[/?#]|$)`), `/{{${name}}}`);
    if (name !== v.key) report.push(`${label}: the path variable ${v.key} is {{${name}}} (another request gives ${v.key} another value)`);
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** v1 collections have `requests` and `order` at the top and no `info`. */
function isV1(raw: unknown): boolean {
  return !!raw && typeof raw === 'object' && !('info' in raw) && Array.isArray((raw as { requests?: unknown }).requests);
}

/** An item that is not what Postman writes: a note naming the field, with its method and URL when they can be read (keys masked). */
function unreadableItem(entry: unknown, path: string, issue: z.core.$ZodIssue | undefined, report: string[]): Piece {
  const field = [path, ...(issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))].join('.').replace(/\.\[/g, '[');
  const why = issue ? `field ${field}: ${issue.message}` : `field ${path}: an item needs "request" (a request) or "item" (a folder)`;
  const e = (entry && typeof entry === 'object' ? entry : {}) as { name?: unknown; request?: unknown };
  const name = typeof e.name === 'string' ? maskKeyParams(e.name) : path;
  const r = (e.request && typeof e.request === 'object' ? e.request : {}) as { method?: unknown; url?: unknown };
  const rawUrl =
    typeof r.url === 'string'
      ? r.url
      : r.url && typeof r.url === 'object'
        ? (r.url as { raw?: unknown }).raw
        : typeof e.request === 'string'
          ? e.request
          : undefined;
  report.push(`"${name}": kept as a note: ${why}`);
  const note = `**Not imported as a cell:** the request "${name}" could not be read (${why}).`;
  if (typeof rawUrl !== 'string') return { kind: 'markdown', value: `> ${note}` };
  return keptNote(note, `${typeof r.method === 'string' ? r.method.toUpperCase() : 'GET'} ${maskCredentials(rawUrl)}`);
}

/** Postman auth objects become the header or parameter they send, so the converter takes the key out. */
function applyAuth(a: Auth | null | undefined, req: RawRequest, report: string[], label: string): void {
  if (!a || a.type === 'noauth') return;
  const entries = (a as Record<string, unknown>)[a.type];
  const field = (k: string) => (Array.isArray(entries) ? text((entries as Array<{ key?: string; value?: unknown }>).find((e) => e.key === k)?.value) : '');
  if (a.type === 'bearer') req.headers.push(['Authorization', `Bearer ${field('token')}`]);
  else if (a.type === 'apikey') {
    const name = field('key') || 'api-key';
    if (field('in') === 'query') req.url += `${req.url.includes('?') ? '&' : '?'}${name}=${field('value')}`;
    else req.headers.push([name, field('value')]);
  } else if (a.type === 'basic') req.headers.push(['Authorization', `Basic ${field('username')}:${field('password')}`]);
  else report.push(`${label}: ${a.type} auth is not carried over (the key comes from the connection)`);
}

/** Scripts that run around each request below: collection's first, then each folder's (Postman's order). */
interface InheritedScripts {
  pre: string[];
  post: string[];
}

function inheritScripts(outer: InheritedScripts, events: Array<z.infer<typeof event>> | undefined): InheritedScripts {
  const of = (listen: string) => (events ?? []).filter((e) => e.listen === listen).flatMap((e) => postmanEventCode(e.script?.exec) ?? []);
  return { pre: [...outer.pre, ...of('prerequest')], post: [...outer.post, ...of('test')] };
}

function scriptNote(events: Array<z.infer<typeof event>>, owner: string): Piece {
  const parts = events.map((e) => {
    const exec = e.script?.exec;
    const code = Array.isArray(exec) ? exec.join('\n') : (exec ?? '');
    const fence = '`'.repeat(Math.max(2, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length)) + 1);
    return `${e.listen === 'prerequest' ? 'Pre-request' : e.listen === 'test' ? 'Test' : e.listen} script:\n\n${fence}js\n${code}\n${fence}`;
  });
  return { kind: 'markdown', value: `> **Postman scripts of ${owner}**, kept as written: they could not be placed in a cell.\n\n${parts.join('\n\n')}` };
}
