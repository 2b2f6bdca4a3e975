// One imported request → a cell of the service its host belongs to (path relative to the
// connection, as cells are written), or a Markdown block with a note when no service covers it.
// Keys are taken out on the way: they go to `secrets`, never into the text.
import type { ServiceId } from '../../core/connections';
import type { CodeLanguage } from '../types';
import type { RawRequest } from './curl';
import type { ImportedSecret, KnownConnection } from './types';

export type Piece = { kind: 'markdown'; value: string } | { kind: 'code'; language: CodeLanguage; name?: string; value: string };

export interface ConvertContext {
  connections: readonly KnownConnection[];
  secrets: ImportedSecret[];
  report: string[];
  /** Fills in the importer's own variables (`.http` file variables, Postman variables). */
  expand: (text: string) => string;
  /** The variable a value came from, when it came from one (for the secret's record). */
  variableOf?: (text: string) => string | undefined;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'api-key', 'x-api-key', 'x-goog-api-key', 'cookie']);
const DROPPED_HEADERS = new Set(['host', 'content-length']);
const CREDENTIAL_PARAMS = new Set(['key', 'api_key', 'apikey', 'auth_signature']);
/** Pusher's signing parameters: the engine signs each request afresh. */
const PUSHER_SIGNING_PARAMS = new Set(['auth_key', 'auth_timestamp', 'auth_version', 'body_md5']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const MAPS_HOSTS = new Set(['places.googleapis.com', 'routes.googleapis.com', 'addressvalidation.googleapis.com', 'geocode.googleapis.com']);
const AZURE_HOST = /\.(?:openai\.azure\.com|services\.ai\.azure\.com|cognitiveservices\.azure\.com)$/i;
const PUSHER_HOST = /^api(?:-[a-z0-9]+)?\.pusher(?:app)?\.com$/i;

/** A value that names a key instead of holding one: `$OPENAI_API_KEY`, `{{token}}`, `<API_KEY>`, `YOUR_API_KEY`. */
export function isPlaceholder(value: string): boolean {
  const v = value.replace(/^(Bearer|Basic|Token)\s+/i, '').trim();
  return (
    v === '' || /^\$\{?[A-Za-z_]\w*\}?$/.test(v) || /\{\{[^}]*\}\}/.test(v) || /^<[^>]*>$/.test(v) || /^[A-Z][A-Z0-9_]*$/.test(v) || /^(your|my)[-_ ]/i.test(v)
  );
}

interface Classified {
  service: ServiceId;
  /** Length of the expanded URL's prefix that is the connection's base (origin + base path). */
  baseLength: number;
  note?: string;
}

/** Which of our services a URL belongs to, or why none does. */
export function classify(url: URL, connections: readonly KnownConnection[]): Classified | { note: string } {
  const href = url.href;
  for (const c of connections) {
    const base = c.baseUrl.replace(/\/+$/, '');
    if (href === base || href.startsWith(`${base}/`) || href.startsWith(`${base}?`)) return { service: c.service, baseLength: base.length };
  }
  const origin = url.origin.length;
  const host = url.hostname.toLowerCase();
  if (host === 'api.openai.com') {
    return url.pathname.startsWith('/v1/')
      ? { service: 'llm', baseLength: origin + 3 }
      : { note: `${url.origin}${url.pathname} is outside the OpenAI /v1 API` };
  }
  if (AZURE_HOST.test(host)) {
    return url.pathname.startsWith('/openai/v1/')
      ? { service: 'llm', baseLength: origin + '/openai/v1'.length }
      : { note: 'Azure OpenAI deployment URLs (…/openai/deployments/…) are not covered: use the /openai/v1 API' };
  }
  if (MAPS_HOSTS.has(host)) return { service: 'maps', baseLength: origin };
  if (host === 'maps.googleapis.com')
    return {
      note: 'the legacy Maps web services (maps.googleapis.com) are not covered: the maps cells speak the Places, Routes, Address Validation and Geocoding APIs',
    };
  if (PUSHER_HOST.test(host)) return { service: 'realtime', baseLength: origin };
  return { note: `${url.host} is not a host of the LLM, Maps or Realtime services (nor of a known connection)` };
}

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

function secretRecord(
  ctx: ConvertContext,
  raw: string,
  value: string,
  service: ServiceId | undefined,
  origin: string,
  where: { header?: string; param?: string },
): void {
  const variable = ctx.variableOf?.(raw);
  if (ctx.secrets.some((s) => s.value === value && s.origin === origin)) return;
  ctx.secrets.push({ service, origin, ...where, ...(variable ? { variable } : {}), value });
}

/** Removes credential and signing parameters from a target's query; records the keys. */
function cleanQuery(target: string, ctx: ConvertContext, label: string, service: ServiceId | undefined, origin: string): string {
  const q = target.indexOf('?');
  if (q === -1) return target;
  const kept: string[] = [];
  for (const pair of target.slice(q + 1).split('&')) {
    if (pair === '') continue;
    const name = decodeURIComponent(pair.split('=', 1)[0]).toLowerCase();
    const value = pair.includes('=') ? pair.slice(pair.indexOf('=') + 1) : '';
    if (CREDENTIAL_PARAMS.has(name)) {
      const real = ctx.expand(value);
      const isKey = name !== 'auth_signature';
      if (!isPlaceholder(real)) secretRecord(ctx, value, decodeURIComponent(real), service, origin, { param: name });
      ctx.report.push(
        `${label}: the ${name} query parameter was removed (${isKey ? 'the key comes from the connection' : 'the engine signs each request itself'})`,
      );
    } else if (service === 'realtime' && PUSHER_SIGNING_PARAMS.has(name)) {
      ctx.report.push(`${label}: the Pusher signing parameters (${[...PUSHER_SIGNING_PARAMS].join(', ')}) were removed: the engine signs each request itself`);
    } else kept.push(pair);
  }
  return kept.length ? `${target.slice(0, q)}?${kept.join('&')}` : target.slice(0, q);
}

/** Headers a cell may carry; credentials are recorded and dropped. */
function cleanHeaders(req: RawRequest, ctx: ConvertContext, label: string, service: ServiceId | undefined, origin: string): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  for (const [name, value] of req.headers) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) {
      const real = ctx.expand(value);
      if (!isPlaceholder(real)) secretRecord(ctx, value, real.replace(/^(Bearer|Token)\s+/i, ''), service, origin, { header: name });
      ctx.report.push(
        `${label}: the ${name} header was removed (${lower === 'cookie' ? 'cookies are not carried over' : 'the key comes from the connection'})`,
      );
    } else if (DROPPED_HEADERS.has(lower)) ctx.report.push(`${label}: the ${name} header was removed (set by the connection and the engine)`);
    else kept.push([name, value]);
  }
  return kept;
}

function longestFence(text: string): number {
  return Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length));
}

/** A request none of our services covers, kept as a fenced `http` block (credentials removed). */
export function keptAsMarkdown(req: RawRequest, headers: Array<[string, string]>, url: string, note: string): Piece {
  const lines = [`${req.method} ${url}`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (req.body !== undefined) lines.push('', req.body);
  const text = lines.join('\n');
  const fence = '`'.repeat(longestFence(text) + 1);
  return { kind: 'markdown', value: `> **Not imported as a cell:** ${note}. Kept as written (keys removed):\n\n${fence}http\n${text}\n${fence}` };
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

/** The request as cells (usually one) or a Markdown block saying why it is not a cell. */
export function convertRequest(req: RawRequest, ctx: ConvertContext, label: string, name?: string): Piece[] {
  const expandedUrl = ctx.expand(req.url);
  let url: URL | undefined;
  try {
    url = new URL(expandedUrl);
  } catch {
    url = undefined;
  }
  if (!url) {
    const headers = cleanHeaders(req, ctx, label, undefined, '');
    ctx.report.push(`${label}: kept as Markdown: "${req.url}" is not an absolute URL (after filling in variables)`);
    return [keptAsMarkdown(req, headers, req.url, 'the URL is not an absolute http(s) URL')];
  }
  const where = classify(url, ctx.connections);
  const service = 'service' in where ? where.service : undefined;
  const headers = cleanHeaders(req, ctx, label, service, url.origin);
  if (!('service' in where)) {
    ctx.report.push(`${label}: kept as Markdown: ${where.note}`);
    return [keptAsMarkdown(req, headers, cleanQuery(req.url, ctx, label, undefined, url.origin), where.note)];
  }
  let target = relativeTarget(req.url, expandedUrl, where.baseLength, ctx.expand);
  if (target === '' || target.startsWith('?')) target = `/${target}`;
  target = cleanQuery(target, ctx, label, where.service, url.origin);
  if (where.service === 'realtime') {
    const app = /^\/apps\/([^/]+)\/(batch_)?events$/.exec(target);
    if (req.method === 'POST' && app) {
      ctx.report.push(`${label}: published to app ${app[1]}; the cell publishes to the app of its realtime connection`);
      const pieces = publishPieces(req.body, name, label, ctx);
      if (typeof pieces !== 'string') return pieces;
      ctx.report.push(`${label}: kept as Markdown: ${pieces}`);
      return [keptAsMarkdown(req, headers, cleanQuery(req.url, ctx, label, 'realtime', url.origin), pieces)];
    }
    const note = 'only publishing events (POST /apps/<id>/events) becomes a realtime cell';
    ctx.report.push(`${label}: kept as Markdown: ${note}`);
    return [keptAsMarkdown(req, headers, cleanQuery(req.url, ctx, label, 'realtime', url.origin), note)];
  }
  if (!METHODS.has(req.method)) {
    const note = `${req.method} is not a method a cell sends (${[...METHODS].join(', ')})`;
    ctx.report.push(`${label}: kept as Markdown: ${note}`);
    return [keptAsMarkdown(req, headers, target, note)];
  }
  const lines = [`${req.method} ${target}`, ...headers.map(([n, v]) => `${n}: ${v}`)];
  if (req.body !== undefined && req.body.trim() !== '') lines.push('', dedent(req.body));
  return [{ kind: 'code', language: where.service, ...(name ? { name } : {}), value: lines.join('\n') }];
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
