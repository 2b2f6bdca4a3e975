// One imported request → a cell of the service its host belongs to (path relative to the
// connection, as cells are written), an `http` cell (absolute URL) for any other host, or an
// `http` block with a note when it cannot be a cell. Keys are taken out on the way: they go to
// `secrets`, never into the text.
import type { CodeLanguage } from '../types';
import { retiredModel, retiredModelAdvice } from '../../services/llm/retiredModels';
import { classify, type ServiceTarget } from './classify';
import { cleanBody, cleanHeaders, cleanQuery, takeUserinfo, withoutUserinfo, type Destination, type SecretContext } from './credentials';
import type { RawRequest } from './curl';
import type { KnownConnection } from './types';

export type Piece =
  | { kind: 'markdown'; value: string }
  | { kind: 'code'; language: CodeLanguage; name?: string; connection?: string; value: string }
  /** A runnable `http` cell (absolute URL, credentials by reference). */
  | { kind: 'http'; name?: string; value: string };

export interface ConvertContext extends SecretContext {
  connections: readonly KnownConnection[];
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Cuts `original` (with `{{vars}}`) where its expansion reaches `baseLength`; the expanded rest when a variable straddles it. */
function relativeTarget(original: string, expanded: string, baseLength: number, expand: (t: string) => string): string {
  const parts = original.split(/(\{\{[^{}]*\}\})/);
  let length = 0;
  let offset = 0;
  for (const part of parts) {
    if (length === baseLength) return original.slice(offset);
    const isVar = part.startsWith('{{');
    const grows = isVar ? expand(part).length : part.length;
    if (!isVar && length + grows >= baseLength) return original.slice(offset + (baseLength - length));
    if (length + grows > baseLength) break;
    length += grows;
    offset += part.length;
  }
  return length === baseLength ? original.slice(offset) : expanded.slice(baseLength);
}

function longestFence(text: string): number {
  return Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
}

/**
 * A cell's request line is `METHOD target` with no space in the target: spaces in a URL (Postman and
 * browsers send them as %20) are written as %20, `{{variables}}` as they are.
 */
function encodeSpaces(target: string, ctx: ConvertContext, label: string): string {
  const encoded = target
    .split(/(\{\{[^}]*\}\})/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\s/g, (c) => encodeURIComponent(c))))
    .join('');
  if (encoded !== target) ctx.report.push(`${label}: spaces in the URL are sent as %20, as Postman does`);
  return encoded;
}

/** A request that cannot be a cell, kept as a fenced `http` block under a note saying why (credentials removed). */
export function keptAsBlock(req: RawRequest, headers: Array<[string, string]>, url: string, note: string): Piece {
  return keptNote(`**Not imported as a cell:** ${note}. Kept as written (keys removed):`, requestText(req.method, url, headers, req.body));
}

/**
 * A note with the request under it, both inside one blockquote: a fence in a quote is no ```http
 * cell to the notebook (it cannot run, as it could not be converted), yet reads as HTTP.
 */
export function keptNote(note: string, request: string): Piece {
  const quoted = `${note}\n\n${fenced('http', request)}`
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
  return { kind: 'markdown', value: quoted };
}

/** `text` in a fence longer than any run of backticks inside it. */
export function fenced(info: string, text: string): string {
  const fence = '`'.repeat(longestFence(text) + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}

function requestText(method: string, url: string, headers: ReadonlyArray<[string, string]>, body: string | undefined): string {
  const lines = [`${method} ${url}`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (body !== undefined && body.trim() !== '') lines.push('', dedent(body));
  return lines.join('\n');
}

/** A request kept as an `http` block whatever its host (a script, a file body, a pasted cURL): keys removed, the reason noted. */
export function keepAsBlock(req: RawRequest, ctx: ConvertContext, label: string, note: string): Piece {
  let origin = '';
  try {
    origin = new URL(withoutUserinfo(ctx.expand(req.url))).origin;
  } catch {
    /* not absolute: nothing to record the keys against */
  }
  const to: Destination = { origin, httpCell: false };
  const url = cleanQuery(takeUserinfo(req.url, ctx, label, to).url, ctx, label, to);
  return kept(req, ctx, label, to, cleanHeaders(req.headers, ctx, label, to), url, note)[0];
}

/** Kept as a block: the report says so (stderr of `api-workbench import`) with the same reason as the note. */
function kept(req: RawRequest, ctx: ConvertContext, label: string, to: Destination, headers: Array<[string, string]>, url: string, note: string): Piece[] {
  ctx.report.push(`${label}: kept as an http block: ${note}`);
  return [keptAsBlock({ ...req, body: cleanBody(req.body, req.headers, ctx, label, to) }, headers, url, note)];
}

function publishPieces(body: string | undefined, name: string | undefined, label: string, ctx: ConvertContext): Piece[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.expand(body ?? ''));
  } catch {
    return 'the Pusher publish body is not JSON';
  }
  if (!parsed || typeof parsed !== 'object') return 'the Pusher publish body is not a JSON object';
  const events = Array.isArray((parsed as { batch?: unknown }).batch)
    ? ((parsed as { batch: unknown[] }).batch as Array<Record<string, unknown>>)
    : [parsed as Record<string, unknown>];
  const pieces: Piece[] = [];
  for (const ev of events) {
    const channels =
      typeof ev.channel === 'string' ? [ev.channel] : Array.isArray(ev.channels) ? ev.channels.filter((c): c is string => typeof c === 'string') : [];
    if (typeof ev.name !== 'string' || channels.length === 0) return 'a Pusher event needs a "name" and a "channel" (or "channels")';
    const data = typeof ev.data === 'string' ? ev.data : JSON.stringify(ev.data ?? {});
    if (channels.length > 1) ctx.report.push(`${label}: published to ${channels.length} channels: one PUBLISH cell each`);
    channels.forEach((channel, i) => {
      const cellName = name && pieces.length === 0 && i === 0 ? name : undefined;
      pieces.push({ kind: 'code', language: 'realtime', ...(cellName ? { name: cellName } : {}), value: `PUBLISH ${channel} ${ev.name as string}\n${data}` });
    });
  }
  return pieces;
}

/** The request as cells (usually one) or an `http` block with a note saying why it is not a cell. */
export function convertRequest(req: RawRequest, ctx: ConvertContext, label: string, name?: string): Piece[] {
  let url: URL | undefined;
  try {
    url = new URL(withoutUserinfo(ctx.expand(req.url)));
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol)) {
    const to: Destination = { origin: '', httpCell: false };
    const headers = cleanHeaders(req.headers, ctx, label, to);
    return kept(
      req,
      ctx,
      label,
      to,
      headers,
      takeUserinfo(req.url, ctx, label, to).url,
      `"${req.url}" is not an absolute http(s) URL (after filling in variables)`,
    );
  }
  const where = classify(url, ctx.connections);
  if (where.kind === 'http' && !METHODS.has(req.method)) {
    const to: Destination = { origin: url.origin, httpCell: false };
    const bare = takeUserinfo(req.url, ctx, label, to).url;
    const note = `${req.method} is not a method a cell sends (${[...METHODS].join(', ')})`;
    return kept(req, ctx, label, to, cleanHeaders(req.headers, ctx, label, to), cleanQuery(bare, ctx, label, to), note);
  }
  if (where.kind === 'http') return [httpCell(req, ctx, label, url, where.note, name)];
  const to: Destination = { service: where.service, origin: url.origin, httpCell: false };
  const bare = { ...req, url: takeUserinfo(req.url, ctx, label, to).url };
  const headers = cleanHeaders(bare.headers, ctx, label, to);
  if (where.service !== 'realtime' && !METHODS.has(req.method)) {
    // Kept with its absolute URL: a block is read (and exported) on its own, without a connection.
    const note = `${req.method} is not a method ${where.service === 'llm' ? 'an' : 'a'} ${where.service} cell sends (${[...METHODS].join(', ')})`;
    return kept(req, ctx, label, to, headers, cleanQuery(bare.url, ctx, label, to), note);
  }
  const target = serviceTarget(bare, ctx, label, where, to);
  if (where.service === 'realtime') return realtimePieces(bare, ctx, label, headers, target, url.origin, name);
  if (where.absolute)
    ctx.report.push(`${label}: no ${where.service} connection is for ${url.host}: the cell keeps the absolute URL (a run asks for a connection to that host)`);
  const attrs = { ...(name ? { name } : {}), ...(where.connection ? { connection: where.connection } : {}) };
  const body = cleanBody(req.body, req.headers, ctx, label, to);
  if (where.service === 'llm') reportRetiredModel(body ?? '', target, ctx, label);
  return [{ kind: 'code', language: where.service, ...attrs, value: requestText(req.method, encodeSpaces(target, ctx, label), headers, body) }];
}

/** A model id OpenAI has shut down (in the body's "model" or an /engines/{id}/ path): the report names its replacement. */
function reportRetiredModel(body: string, target: string, ctx: ConvertContext, label: string): void {
  const ids = [...body.matchAll(/"model"\s*:\s*"([^"]+)"/g)].map((m) => m[1]);
  const engine = /\/engines\/([^/?]+)\//.exec(target);
  if (engine) ids.push(decodeURIComponent(engine[1]));
  for (const id of new Set(ids)) {
    const retired = retiredModel(id);
    if (retired)
      ctx.report.push(`${label}: ${retiredModelAdvice(retired)}; the cell keeps "${id}" (OpenAI answers it 404): change it to "${retired.replacement}"`);
  }
}

/** The request line's target: relative to the connection's base, or absolute when no connection serves it. */
function serviceTarget(req: RawRequest, ctx: ConvertContext, label: string, where: ServiceTarget, to: Destination): string {
  if (where.absolute) return cleanQuery(req.url, ctx, label, to);
  const expanded = ctx.expand(req.url);
  let target = relativeTarget(req.url, expanded, where.baseLength, ctx.expand);
  if (target === '' || target.startsWith('?')) target = `/${target}`;
  return cleanQuery(target, ctx, label, to);
}

function realtimePieces(
  req: RawRequest,
  ctx: ConvertContext,
  label: string,
  headers: Array<[string, string]>,
  target: string,
  origin: string,
  name?: string,
): Piece[] {
  const to: Destination = { service: 'realtime', origin, httpCell: false };
  const app = /^\/apps\/([^/]+)\/(batch_)?events$/.exec(target);
  if (req.method === 'POST' && app) {
    ctx.report.push(`${label}: published to app ${app[1]}; the cell publishes to the app of its realtime connection`);
    const pieces = publishPieces(req.body, name, label, ctx);
    if (typeof pieces !== 'string') return pieces;
    return kept(req, ctx, label, to, headers, cleanQuery(req.url, ctx, label, to), pieces);
  }
  return kept(req, ctx, label, to, headers, cleanQuery(req.url, ctx, label, to), 'only publishing events (POST /apps/<id>/events) becomes a realtime cell');
}

/** A request to a host of no service: a runnable `http` cell with its absolute URL, keys by reference. */
function httpCell(req: RawRequest, ctx: ConvertContext, label: string, url: URL, why: string, name?: string): Piece {
  const to: Destination = { origin: url.origin, httpCell: true };
  const { url: bare, header } = takeUserinfo(req.url, ctx, label, to);
  // A variable standing for the origin ({{baseUrl}}/x, https://{{host}}/x) is filled in: an http cell names its host.
  const absolute = /^https?:\/\/[^/?#{}]+([/?#]|$)/i.test(bare) ? bare : ctx.expand(bare);
  const headers = cleanHeaders(header ? [...req.headers, header] : req.headers, ctx, label, to);
  ctx.report.push(`${label}: an http cell (${why})`);
  const value = requestText(
    req.method,
    encodeSpaces(cleanQuery(absolute, ctx, label, to), ctx, label),
    headers,
    cleanBody(req.body, req.headers, ctx, label, to),
  );
  return { kind: 'http', ...(name ? { name } : {}), value: envReferences(value) };
}

/** REST Client's and httpYac's environment-variable references in the notebook's spelling: `{{$processEnv X}}`, `{{$dotenv X}}` → `{{$env X}}`. */
export function envReferences(text: string): string {
  return text.replace(/\{\{\s*\$(?:processEnv|dotenv)\s+%?([A-Za-z_]\w*)\s*\}\}/g, '{{$env $1}}');
}

/** A body pasted inside quotes keeps the indentation of the command around it: take it off. */
function dedent(body: string): string {
  const lines = body.trim().split(/\r\n|\r|\n/);
  const indents = lines
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  const closing = /^[ \t]*/.exec(lines.at(-1) ?? '')![0].length;
  // Only when the closing line is the least indented (a JSON object's "}"): then it lines up with the first.
  if (cut === 0 || closing !== cut) return lines.join('\n');
  return [lines[0], ...lines.slice(1).map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length)))].join('\n');
}
