// /v1/vector_stores: stores of uploaded files, their files (attach, list, retrieve, content,
// delete) and search, in openai-node's shapes (resources/vector-stores). A file is read as UTF-8
// text, cut into paragraph chunks and indexed at once (status `completed`, so the SDK's
// createAndPoll returns on its first look); search ranks chunks by the cosine of word counts, the
// same query always giving the same results in the same order.
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { baseHeaders, invalid, openAiError, readJson, type Ctx, type LlmService } from './context';
import { noSuchFile, type FileStore } from './files';
import { sendCursorPage, unixSeconds } from './listPage';
import { parseRequest } from './requests';

/** Words per chunk at most; a longer paragraph is cut. */
export const CHUNK_WORDS = 200;

const attributes = z.optional(z.nullable(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))));

const createSchema = z.object({
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  file_ids: z.optional(z.array(z.string())),
  metadata: z.optional(z.nullable(z.record(z.string(), z.string()))),
  expires_after: z.optional(z.object({ anchor: z.literal('last_active_at'), days: z.int().check(z.gte(1), z.lte(365)) })),
});
const updateSchema = z.object({ name: z.optional(z.nullable(z.string())), metadata: z.optional(z.nullable(z.record(z.string(), z.string()))) });
const attachSchema = z.object({ file_id: z.string(), attributes });
const searchSchema = z.object({
  query: z.union([z.string(), z.array(z.string())]),
  max_num_results: z.optional(z.int().check(z.gte(1), z.lte(50))),
  rewrite_query: z.optional(z.boolean()),
});

interface StoreFile {
  id: string;
  createdMs: number;
  filename: string;
  bytes: number;
  chunks: string[];
  attributes: Record<string, string | number | boolean> | null;
}

interface Store {
  id: string;
  createdMs: number;
  name: string;
  metadata: Record<string, string> | null;
  expiresAfter?: { anchor: 'last_active_at'; days: number };
  files: Map<string, StoreFile>;
  lastActiveMs: number;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Paragraphs, each cut at CHUNK_WORDS words. */
export function chunkText(text: string): string[] {
  const chunks: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const ws = para.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < ws.length; i += CHUNK_WORDS) chunks.push(ws.slice(i, i + CHUNK_WORDS).join(' '));
  }
  return chunks;
}

function counts(ws: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Cosine of the two texts' word counts, rounded so the score reads the same on every machine. */
export function similarity(query: string, chunk: string): number {
  const q = counts(words(query));
  const c = counts(words(chunk));
  let dot = 0;
  for (const [w, n] of q) dot += n * (c.get(w) ?? 0);
  const norm = (m: Map<string, number>) => Math.sqrt([...m.values()].reduce((s, n) => s + n * n, 0));
  const d = norm(q) * norm(c);
  return d ? Math.round((dot / d) * 10_000) / 10_000 : 0;
}

export class VectorStores {
  private readonly stores = new Map<string, Store>();

  constructor(
    private readonly svc: LlmService,
    private readonly files: FileStore,
  ) {}

  private json(s: Store) {
    const bytes = [...s.files.values()].reduce((n, f) => n + f.bytes, 0);
    return {
      id: s.id,
      object: 'vector_store',
      created_at: unixSeconds(s.createdMs),
      name: s.name,
      description: null,
      usage_bytes: bytes,
      file_counts: { in_progress: 0, completed: s.files.size, failed: 0, cancelled: 0, total: s.files.size },
      status: 'completed',
      expires_after: s.expiresAfter ?? null,
      expires_at: s.expiresAfter ? unixSeconds(s.lastActiveMs) + s.expiresAfter.days * 86_400 : null,
      last_active_at: unixSeconds(s.lastActiveMs),
      metadata: s.metadata,
    };
  }

  private fileJson(s: Store, f: StoreFile) {
    return {
      id: f.id,
      object: 'vector_store.file',
      usage_bytes: f.bytes,
      created_at: unixSeconds(f.createdMs),
      vector_store_id: s.id,
      status: 'completed',
      last_error: null,
      chunking_strategy: { type: 'static', static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } },
      attributes: f.attributes,
    };
  }

  private find(ctx: Ctx, id: string): Store | undefined {
    const s = this.stores.get(id);
    if (!s) openAiError(ctx, 404, invalid(`No vector store found with id '${id}'.`, 'vector_store_id', 'vector_store_not_found'));
    return s;
  }

  /** Indexes an uploaded file into the store; false (with the 404 sent) when there is no such file. */
  private attach(ctx: Ctx, s: Store, fileId: string, attrs: StoreFile['attributes']): StoreFile | undefined {
    const file = this.files.get(fileId);
    if (!file) {
      noSuchFile(ctx, fileId);
      return undefined;
    }
    const entry: StoreFile = {
      id: fileId,
      createdMs: this.svc.clock.now(),
      filename: file.meta.filename,
      bytes: file.data.length,
      chunks: chunkText(file.data.toString('utf8')),
      attributes: attrs,
    };
    s.files.set(fileId, entry);
    s.lastActiveMs = this.svc.clock.now();
    return entry;
  }

  async create(ctx: Ctx): Promise<void> {
    const json = await readJson(ctx);
    if (!json.ok) return;
    const parsed = parseRequest(createSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    const now = this.svc.clock.now();
    const s: Store = {
      id: newId('vs_', 12),
      createdMs: now,
      name: parsed.value.name ?? '',
      metadata: parsed.value.metadata ?? null,
      expiresAfter: parsed.value.expires_after,
      files: new Map(),
      lastActiveMs: now,
    };
    for (const fileId of parsed.value.file_ids ?? []) if (!this.attach(ctx, s, fileId, null)) return;
    this.stores.set(s.id, s);
    sendJson(ctx.res, 200, this.json(s), baseHeaders(ctx));
  }

  list(ctx: Ctx): void {
    sendCursorPage(
      ctx,
      [...this.stores.values()].reverse().map((s) => this.json(s)),
    );
  }

  retrieve(ctx: Ctx, id: string): void {
    const s = this.find(ctx, id);
    if (s) sendJson(ctx.res, 200, this.json(s), baseHeaders(ctx));
  }

  async update(ctx: Ctx, id: string): Promise<void> {
    const s = this.find(ctx, id);
    if (!s) return;
    const json = await readJson(ctx);
    if (!json.ok) return;
    const parsed = parseRequest(updateSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    if (parsed.value.name != null) s.name = parsed.value.name;
    if (parsed.value.metadata !== undefined) s.metadata = parsed.value.metadata;
    sendJson(ctx.res, 200, this.json(s), baseHeaders(ctx));
  }

  delete(ctx: Ctx, id: string): void {
    if (!this.find(ctx, id)) return;
    this.stores.delete(id);
    sendJson(ctx.res, 200, { id, object: 'vector_store.deleted', deleted: true }, baseHeaders(ctx));
  }

  async search(ctx: Ctx, id: string): Promise<void> {
    const s = this.find(ctx, id);
    if (!s) return;
    const json = await readJson(ctx);
    if (!json.ok) return;
    const parsed = parseRequest(searchSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    const queries = typeof parsed.value.query === 'string' ? [parsed.value.query] : parsed.value.query;
    const text = queries.join(' ');
    const hits = [...s.files.values()]
      .flatMap((f) => f.chunks.map((chunk) => ({ f, chunk, score: similarity(text, chunk) })))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score || a.f.createdMs - b.f.createdMs)
      .slice(0, parsed.value.max_num_results ?? 10);
    s.lastActiveMs = this.svc.clock.now();
    sendJson(
      ctx.res,
      200,
      {
        object: 'vector_store.search_results.page',
        search_query: queries,
        data: hits.map((h) => ({
          file_id: h.f.id,
          filename: h.f.filename,
          score: h.score,
          attributes: h.f.attributes ?? {},
          content: [{ type: 'text', text: h.chunk }],
        })),
        has_more: false,
        next_page: null,
      },
      baseHeaders(ctx),
    );
  }

  async attachFile(ctx: Ctx, id: string): Promise<void> {
    const s = this.find(ctx, id);
    if (!s) return;
    const json = await readJson(ctx);
    if (!json.ok) return;
    const parsed = parseRequest(attachSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    const f = this.attach(ctx, s, parsed.value.file_id, parsed.value.attributes ?? null);
    if (f) sendJson(ctx.res, 200, this.fileJson(s, f), baseHeaders(ctx));
  }

  listFiles(ctx: Ctx, id: string): void {
    const s = this.find(ctx, id);
    if (s)
      sendCursorPage(
        ctx,
        [...s.files.values()].reverse().map((f) => this.fileJson(s, f)),
      );
  }

  private findFile(ctx: Ctx, id: string, fileId: string): { s: Store; f: StoreFile } | undefined {
    const s = this.find(ctx, id);
    if (!s) return undefined;
    const f = s.files.get(fileId);
    if (!f) openAiError(ctx, 404, invalid(`No file found with id '${fileId}' in vector store '${id}'.`, 'file_id', 'file_not_found'));
    return f && { s, f };
  }

  retrieveFile(ctx: Ctx, id: string, fileId: string): void {
    const found = this.findFile(ctx, id, fileId);
    if (found) sendJson(ctx.res, 200, this.fileJson(found.s, found.f), baseHeaders(ctx));
  }

  fileContent(ctx: Ctx, id: string, fileId: string): void {
    const found = this.findFile(ctx, id, fileId);
    if (!found) return;
    const data = found.f.chunks.map((text) => ({ type: 'text', text }));
    sendJson(ctx.res, 200, { object: 'vector_store.file_content.page', data, has_more: false, next_page: null }, baseHeaders(ctx));
  }

  deleteFile(ctx: Ctx, id: string, fileId: string): void {
    const found = this.findFile(ctx, id, fileId);
    if (!found) return;
    found.s.files.delete(fileId);
    sendJson(ctx.res, 200, { id: fileId, object: 'vector_store.file.deleted', deleted: true }, baseHeaders(ctx));
  }
}
