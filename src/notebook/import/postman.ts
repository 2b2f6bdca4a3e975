// A Postman collection (v2.1, or v2.0 which has the same shape) → a notebook: folders become
// headings, requests cells, collection variables a vars cell, scripts a note under the request.
import * as z from 'zod/mini';
import { convertRequest, type Piece } from './convert';
import type { RawRequest } from './curl';
import { ImportError, type ImportedSecret, type ImportOptions, type ImportResult } from './types';
import { cellName, varsPiece, writeNotebook } from './write';
import { errorText } from '../../core/errors';

const SCHEMAS = [
  'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
  'https://schema.getpostman.com/json/collection/v2.0.0/collection.json',
];
/** `token`, `api_key`, `accessToken`, `clientSecret`: names of keys. */
const isSecretName = (n: string): boolean => /(^|[_-])(api[_-]?key|key|secret|token|password)$/i.test(n) || /[a-z](Key|Secret|Token|Password)$/.test(n);

const keyValue = z.looseObject({ key: z.string(), value: z.optional(z.unknown()), disabled: z.optional(z.boolean()) });
const auth = z.looseObject({ type: z.string() });
const description = z.optional(z.union([z.string(), z.looseObject({ content: z.optional(z.string()) }), z.null()]));
const event = z.looseObject({ listen: z.string(), script: z.optional(z.looseObject({ exec: z.optional(z.union([z.string(), z.array(z.string())])) })) });
const url = z.union([z.string(), z.looseObject({ raw: z.optional(z.string()), query: z.optional(z.array(keyValue)) })]);
const request = z.union([
  z.string(),
  z.looseObject({
    method: z.optional(z.string()),
    url: z.optional(url),
    header: z.optional(z.union([z.array(keyValue), z.string()])),
    body: z.optional(z.nullable(z.looseObject({ mode: z.optional(z.string()), raw: z.optional(z.string()), urlencoded: z.optional(z.array(keyValue)) }))),
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
    throw new ImportError(source, 'JSON', errorText(e));
  }
  const col = check(collection, raw, '', source);
  if (!SCHEMAS.includes(col.info.schema))
    throw new ImportError(source, 'field info.schema', `"${col.info.schema}" is not a Postman collection v2.1 (or v2.0) schema; export the collection as v2.1`);
  const vars = new Map((col.variable ?? []).filter((v) => !v.disabled).map((v) => [v.key, text(v.value)]));
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
  if (col.event?.length) pieces.push(scriptNote(col.event, 'the collection'));

  const walk = (items: unknown[], at: string, depth: number, inherited: Auth | null | undefined) => {
    items.forEach((entry, i) => {
      const path = `${at}[${i}]`;
      const it = check(item, entry, path, source);
      const title = it.name ?? `request ${i + 1}`;
      const heading = '#'.repeat(Math.min(depth + 1, 6));
      const desc = descriptionText(it.description);
      if (it.item) {
        pieces.push({ kind: 'markdown', value: `${heading} ${title}${desc ? `\n\n${desc}` : ''}` });
        if (it.event?.length) pieces.push(scriptNote(it.event, `the folder "${title}"`));
        walk(it.item, `${path}.item`, depth + 1, it.auth === undefined ? inherited : it.auth);
        return;
      }
      if (it.request === undefined) throw new ImportError(source, `field ${path}`, 'an item needs "request" (a request) or "item" (a folder)');
      const r = it.request;
      const name = cellName(title, taken);
      const label = `"${title}"`;
      pieces.push({ kind: 'markdown', value: `${heading} ${title}${desc ? `\n\n${desc}` : ''}` });
      const req: RawRequest = typeof r === 'string' ? { method: 'GET', url: r, headers: [], line: 0 } : toRaw(r, report, label);
      const requestAuth = typeof r === 'string' ? undefined : r.auth;
      applyAuth(requestAuth === undefined ? inherited : requestAuth, req, report, label);
      pieces.push(...convertRequest(req, ctx, label, name));
      if (it.event?.length) {
        pieces.push(scriptNote(it.event, label));
        report.push(`${label}: its ${it.event.map((e) => e.listen).join(' and ')} script is listed in a note (not run)`);
      }
    });
  };
  walk(col.item, 'item', 1, col.auth);

  const kept: Array<[string, string]> = [];
  for (const [name, value] of vars) {
    const used = secrets.find((s) => s.variable === name);
    if (used || isSecretName(name)) {
      if (!used && value && !/\{\{/.test(value)) secrets.push({ origin: '', variable: name, value });
      report.push(`variable ${name}: not written (a key: it comes from the connection)`);
    } else kept.push([name, value]);
  }
  const varsCell = varsPiece(kept, report);
  if (varsCell) pieces.splice(1, 0, varsCell);
  return writeNotebook(pieces, secrets, report);
}

type RequestObject = Exclude<z.infer<typeof request>, string>;

function toRaw(r: RequestObject, report: string[], label: string): RawRequest {
  const u = r.url;
  let target = typeof u === 'string' ? u : (u?.raw ?? '');
  if (typeof u === 'object' && u.query && !u.raw)
    target += `?${u.query
      .filter((q) => !q.disabled)
      .map((q) => `${q.key}=${text(q.value)}`)
      .join('&')}`;
  const headers: Array<[string, string]> = Array.isArray(r.header) ? r.header.filter((h) => !h.disabled).map((h) => [h.key, text(h.value)]) : [];
  let body: string | undefined;
  const mode = r.body?.mode;
  if (mode === 'raw') body = r.body?.raw;
  else if (mode === 'urlencoded') {
    body = (r.body?.urlencoded ?? [])
      .filter((p) => !p.disabled)
      .map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(text(p.value))}`)
      .join('&');
    if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  } else if (mode) report.push(`${label}: the ${mode} body is not carried over (only raw and urlencoded bodies are)`);
  return { method: (r.method ?? 'GET').toUpperCase(), url: target, headers, body, line: 0 };
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

function scriptNote(events: Array<z.infer<typeof event>>, owner: string): Piece {
  const parts = events.map((e) => {
    const exec = e.script?.exec;
    const code = Array.isArray(exec) ? exec.join('\n') : (exec ?? '');
    const fence = '`'.repeat(Math.max(2, ...[...code.matchAll(/`{3,}/g)].map((m) => m[0].length)) + 1);
    return `${e.listen === 'prerequest' ? 'Pre-request' : e.listen === 'test' ? 'Test' : e.listen} script:\n\n${fence}js\n${code}\n${fence}`;
  });
  return { kind: 'markdown', value: `> **Postman scripts of ${owner}** are not run in notebooks (write \`??\` assertions instead).\n\n${parts.join('\n\n')}` };
}
