// The request history: what one entry holds, the limits that keep it small, and the list that
// applies them. Entries are redacted before they get here (see recorder.ts and fromCellResult.ts);
// this module only caps and orders them. vscode-free: the editor persists the list as JSON.
import * as z from 'zod/mini';
import { SERVICE_LABELS, type ServiceId } from '../core/connections';
import { once } from '../core/once';
import { validate } from '../core/validate';

export interface HistoryMessage {
  headers: Record<string, string>;
  body?: string;
  /** The body was cut at the history's byte limit (or by the engine's own cap). */
  truncated?: boolean;
}

/** The three services' requests, and http cells' (to any host, on no connection). */
export type HistoryService = ServiceId | 'http';

export const HISTORY_SERVICE_LABELS: Record<HistoryService, string> = { ...SERVICE_LABELS, http: 'HTTP' };

export interface HistoryCellRef {
  file: string;
  /** 1-based line of the cell's opening fence. */
  line: number;
  name?: string;
  passed: number;
  failed: number;
}

export interface HistoryEntry {
  id: string;
  /** ISO time the request was started. */
  at: string;
  /** Sent by a command (Ask, Search Places, Publish…) or by a notebook cell. */
  origin: 'command' | 'notebook';
  /** The id of the command that sent it (origin 'command'). */
  command?: string;
  service: HistoryService;
  connection?: string;
  /** Redacted. Realtime LISTEN: `<ws url>#<channel>` with method LISTEN. */
  method: string;
  url: string;
  /** The base URL the request was built on, so a notebook cell can name the path relative to it. */
  baseUrl?: string;
  request: HistoryMessage;
  status?: number;
  /** The whole request as the user waited for it (queueing, retries and a streamed body included). */
  durationMs?: number;
  requestId?: string;
  /** Why it failed (redacted ApiError description), or "Cancelled". */
  error?: string;
  /** Absent when responses are not kept (apiWorkbench.history.keepResponses = false). */
  response?: HistoryMessage & { note?: string };
  /** A notebook cell: where it is and how its assertions went. */
  cell?: HistoryCellRef;
}

export interface HistoryLimits {
  maxEntries: number;
  /** Per body, request and response each. */
  maxBodyBytes: number;
  keepResponses: boolean;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxEntries: 500, maxBodyBytes: 64 * 1024, keepResponses: true };
export const MAX_HISTORY_ENTRIES = 5000;

/** The first `maxBytes` bytes of `text` (UTF-8), never splitting a character. */
export function capText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // Fast path: a string of n UTF-16 units is at most 3n bytes.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return { text, truncated: false };
  // Every character is at least one byte, so the first maxBytes characters hold the cut: only they
  // are encoded (not all 20 MB of a big answer).
  const bytes = Buffer.from(text.slice(0, maxBytes), 'utf8');
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

function capMessage<M extends HistoryMessage>(m: M, maxBytes: number): M {
  if (m.body === undefined) return m;
  const { text, truncated } = capText(m.body, maxBytes);
  return truncated ? { ...m, body: text, truncated: true } : m;
}

/** The entry as the limits allow it to be kept: bodies capped, the response body dropped when responses are not kept. */
export function limitEntry(entry: HistoryEntry, limits: HistoryLimits): HistoryEntry {
  const out: HistoryEntry = { ...entry, request: capMessage(entry.request, limits.maxBodyBytes) };
  if (!limits.keepResponses) delete out.response;
  else if (entry.response) out.response = capMessage(entry.response, limits.maxBodyBytes);
  return out;
}

const historySchemas = once(() => {
  const messageSchema = z.object({
    headers: z.record(z.string(), z.string()),
    body: z.optional(z.string()),
    truncated: z.optional(z.boolean()),
    note: z.optional(z.string()),
  });

  const entrySchema = z.object({
    id: z.string(),
    at: z.string(),
    origin: z.enum(['command', 'notebook']),
    command: z.optional(z.string()),
    service: z.enum(['llm', 'maps', 'realtime', 'http']),
    connection: z.optional(z.string()),
    method: z.string(),
    url: z.string(),
    baseUrl: z.optional(z.string()),
    request: messageSchema,
    status: z.optional(z.number()),
    durationMs: z.optional(z.number()),
    requestId: z.optional(z.string()),
    error: z.optional(z.string()),
    response: z.optional(messageSchema),
    cell: z.optional(z.object({ file: z.string(), line: z.number(), name: z.optional(z.string()), passed: z.number(), failed: z.number() })),
  });

  const fileSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });
  return { entrySchema, fileSchema };
});

/** The stored file's shape, versioned so a later format can be told apart. */
export interface HistoryFile {
  version: 1;
  entries: HistoryEntry[];
}

/** Newest first, at most `maxEntries` long: adding past the cap drops the oldest. */
export class HistoryList {
  private items: HistoryEntry[] = [];

  constructor(entries: readonly HistoryEntry[] = []) {
    this.items = [...entries];
  }

  get entries(): readonly HistoryEntry[] {
    return this.items;
  }

  add(entry: HistoryEntry, limits: HistoryLimits): HistoryEntry {
    const kept = limitEntry(entry, limits);
    this.items.unshift(kept);
    this.trim(limits.maxEntries);
    return kept;
  }

  /** Applies a lowered cap (or keepResponses turned off) to what is already stored. */
  applyLimits(limits: HistoryLimits): void {
    this.trim(limits.maxEntries);
    if (!limits.keepResponses && this.items.some((e) => e.response)) this.items = this.items.map((e) => limitEntry(e, limits));
  }

  get(id: string): HistoryEntry | undefined {
    return this.items.find((e) => e.id === id);
  }

  clear(): void {
    this.items = [];
  }

  toFile(): HistoryFile {
    return { version: 1, entries: this.items };
  }

  /** Reads a stored file; entries that do not validate are dropped (a damaged file loses only them). */
  static fromFile(raw: unknown): HistoryList {
    const { entrySchema, fileSchema } = historySchemas();
    const file = validate(fileSchema, raw);
    if (!file.ok) return new HistoryList();
    const entries: HistoryEntry[] = [];
    for (const e of file.value.entries) {
      const v = validate(entrySchema, e);
      if (v.ok) entries.push(v.value);
    }
    return new HistoryList(entries);
  }

  private trim(max: number): void {
    const cap = Math.max(1, Math.min(max, MAX_HISTORY_ENTRIES));
    if (this.items.length > cap) this.items.length = cap;
  }
}

let counter = 0;
/** Unique within a window and sortable by time; entries are never shared between machines. */
export function newEntryId(now = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${now.toString(36)}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** `/v1/places:searchText?x=1` of an entry's URL (the whole URL when it cannot be read). */
export function entryPath(entry: Pick<HistoryEntry, 'url'>): string {
  try {
    const u = new URL(entry.url);
    if (u.protocol === 'ws:' || u.protocol === 'wss:') return u.hash.slice(1) || u.pathname;
    return u.pathname + u.search;
  } catch {
    return entry.url;
  }
}
