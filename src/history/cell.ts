// A history entry as a notebook request cell (the engine's `*.awb.md` text): what "Add to
// Notebook", "Save Last Request as Notebook Cell" and "Re-run" produce. The cell names its path
// relative to the connection, so it runs against whichever connection the notebook uses, and
// never carries a key (keys come from the connection; masked values are left out).
import { MASK } from '../core/redact';
import type { CodeLanguage, NotebookCellData } from '../notebook/api';
import { serializeNotebook } from '../notebook/api';
import type { HistoryEntry } from './model';

/** Why an entry cannot become a cell, in words for the user. */
export class NotACellError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotACellError';
  }
}

export interface CellOptions {
  /** Other base URLs of the entry's connection to write the path relative to (the entry's own comes first). */
  baseUrls?: readonly string[];
  /** Pins the cell to this connection (`connection=` attribute); otherwise the notebook's active one runs it. */
  connection?: string;
  /** `name=` attribute, e.g. to refer to the answer from later cells. */
  name?: string;
  /** Adds `?? status == <2xx status>` when the entry succeeded (default true). */
  assertStatus?: boolean;
}

/** Headers the engine sets itself or a cell may not carry (keys, host). */
const LEFT_OUT_HEADERS = new Set([
  'accept',
  'content-length',
  'host',
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  'cookie',
  'user-agent',
  'connection',
]);

export function entryToCell(entry: HistoryEntry, opts: CellOptions = {}): NotebookCellData {
  const lines = entry.service === 'realtime' ? realtimeLines(entry) : httpLines(entry, opts);
  if (opts.assertStatus !== false && entry.error === undefined && entry.status !== undefined && entry.status >= 200 && entry.status < 300) {
    lines.push('', `?? status == ${entry.status}`);
  }
  const attributes: Record<string, string> = {};
  if (opts.name) attributes.name = opts.name;
  if (opts.connection) attributes.connection = opts.connection;
  const language: CodeLanguage = entry.service;
  return { kind: 'code', language, value: lines.join('\n'), metadata: Object.keys(attributes).length ? { attributes } : {} };
}

/** The cell as `*.awb.md` text (a fenced block with a line end), ready to append to a file. */
export function entryToCellText(entry: HistoryEntry, opts: CellOptions = {}): string {
  return serializeNotebook({ cells: [entryToCell(entry, opts)] });
}

function httpLines(entry: HistoryEntry, opts: CellOptions): string[] {
  if (entry.request.truncated) throw new NotACellError("The request's body was cut at the history's size limit, so it cannot be sent again as it was.");
  const lines = [`${entry.method.toUpperCase()} ${relativeTarget(entry, opts.baseUrls ?? [])}`];
  const hasBody = entry.request.body !== undefined && entry.request.body !== '';
  for (const [name, value] of Object.entries(entry.request.headers)) {
    const lower = name.toLowerCase();
    if (LEFT_OUT_HEADERS.has(lower) || value.includes(MASK)) continue;
    if (lower === 'content-type' && hasBody && value.startsWith('application/json')) continue;
    lines.push(`${name}: ${value}`);
  }
  if (hasBody) lines.push('', prettyJson(entry.request.body ?? ''));
  return lines;
}

/** The URL's path relative to one of the connection's base URLs (as the engine resolves it), or the whole URL. */
function relativeTarget(entry: HistoryEntry, extra: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(entry.url);
  } catch {
    throw new NotACellError(`"${entry.url}" is not a URL that a cell can send to.`);
  }
  // A masked query value (a token) would be sent as "***": leave the parameter out.
  for (const [k, v] of [...url.searchParams]) if (v === MASK) url.searchParams.delete(k);
  const full = url.toString();
  for (const raw of [entry.baseUrl, ...extra]) {
    if (!raw) continue;
    const base = raw.replace(/\/+$/, '');
    if (full === base) return '/';
    if (full.startsWith(base + '/') || full.startsWith(base + '?')) {
      const rest = full.slice(base.length);
      return rest.startsWith('/') ? rest : `/${rest}`;
    }
  }
  return full;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

interface PusherEvent {
  name?: unknown;
  channel?: unknown;
  channels?: unknown;
  data?: unknown;
}

function realtimeLines(entry: HistoryEntry): string[] {
  if (entry.method === 'LISTEN') {
    const channel = entryChannel(entry.url);
    const seconds = Math.max(1, Math.round((entry.durationMs ?? 4000) / 1000));
    return [`LISTEN ${channel} ${seconds}s`];
  }
  const path = safePath(entry.url);
  const body = entry.request.body;
  if (entry.method === 'POST' && body && /\/(batch_)?events$/.test(path)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body) as unknown;
    } catch {
      throw new NotACellError('The published event is not readable JSON, so it cannot be made into a PUBLISH cell.');
    }
    const first: PusherEvent | undefined = /\/batch_events$/.test(path) ? (parsed as { batch?: PusherEvent[] }).batch?.[0] : (parsed as PusherEvent);
    const channels: unknown[] | undefined = first && (Array.isArray(first.channels) ? (first.channels as unknown[]) : [first.channel]);
    const channel = channels?.[0];
    if (!first || typeof first.name !== 'string' || typeof channel !== 'string')
      throw new NotACellError('The published event names no channel and event, so it cannot be made into a PUBLISH cell.');
    const data = typeof first.data === 'string' ? prettyJson(first.data) : JSON.stringify(first.data ?? {}, null, 2);
    return [`PUBLISH ${channel} ${first.name}`, data];
  }
  throw new NotACellError(`${entry.method} ${path} is a realtime REST request that a notebook cannot make: realtime cells PUBLISH or LISTEN.`);
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function entryChannel(url: string): string {
  const hash = url.indexOf('#');
  return hash >= 0 ? decodeURIComponent(url.slice(hash + 1)) : url;
}
