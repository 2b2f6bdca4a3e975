// /v1/files: upload (multipart: `file` and `purpose`), list, retrieve, content and delete, in
// OpenAI's shapes. Files live in memory for the sandbox's lifetime, within MAX_FILES and
// MAX_STORED_BYTES; past that an upload is refused (with what to do) rather than anything dropped
// silently.
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { baseHeaders, invalid, openAiError, type Ctx } from './context';
import { formFields, readMultipart, type UploadSlots } from './multipart';
import { parseRequest } from './requests';
import { sendCursorPage } from './listPage';

export const MAX_FILES = 32;
export const MAX_STORED_BYTES = 64 * 1024 * 1024;

const PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

const uploadSchema = z.object({ purpose: z.enum(PURPOSES) });

export interface StoredFile {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  expires_at: null;
  filename: string;
  purpose: string;
  status: 'processed';
  status_details: null;
}

export class FileStore {
  private readonly files = new Map<string, { meta: StoredFile; data: Buffer }>();
  private bytes = 0;

  /** Room for `size` more bytes in one more file. */
  fits(size: number): boolean {
    return this.files.size < MAX_FILES && this.bytes + size <= MAX_STORED_BYTES;
  }

  add(filename: string, purpose: string, data: Buffer): StoredFile {
    const meta: StoredFile = {
      id: newId('file-', 11),
      object: 'file',
      bytes: data.length,
      created_at: Math.floor(Date.now() / 1000),
      expires_at: null,
      filename,
      purpose,
      status: 'processed',
      status_details: null,
    };
    this.files.set(meta.id, { meta, data });
    this.bytes += data.length;
    return meta;
  }

  get(id: string): { meta: StoredFile; data: Buffer } | undefined {
    return this.files.get(id);
  }

  delete(id: string): boolean {
    const f = this.files.get(id);
    if (!f) return false;
    this.files.delete(id);
    this.bytes -= f.data.length;
    return true;
  }

  /** Newest first, as OpenAI lists them by default. */
  list(): StoredFile[] {
    return [...this.files.values()].map((f) => f.meta).reverse();
  }
}

/** The 400 for a file the store has no room for; `param` names the request's field that brought it. */
export function refuseStorageFull(ctx: Ctx, param: string): void {
  openAiError(
    ctx,
    400,
    invalid(
      `The sandbox holds at most ${MAX_FILES} files and ${MAX_STORED_BYTES / 1024 / 1024} MB in all; delete some (DELETE /v1/files/{file_id}) and upload again.`,
      param,
      'sandbox_storage_full',
    ),
  );
}

export function noSuchFile(ctx: Ctx, id: string): void {
  openAiError(ctx, 404, invalid(`No such File object: ${id}`, 'id'));
}

export async function uploadFile(ctx: Ctx, store: FileStore, slots: UploadSlots): Promise<void> {
  const form = await readMultipart(ctx, slots);
  if (!form) return;
  const { fields, files } = formFields(form);
  const parsed = parseRequest(uploadSchema, fields);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const file = files.get('file');
  if (!file) return openAiError(ctx, 400, invalid("Missing required parameter: 'file'.", 'file', 'missing_required_parameter'));
  if (!store.fits(file.size)) return refuseStorageFull(ctx, 'file');
  const meta = store.add(file.name || 'upload', parsed.value.purpose, Buffer.from(await file.arrayBuffer()));
  sendJson(ctx.res, 200, meta, baseHeaders(ctx));
}

export function listFiles(ctx: Ctx, store: FileStore): void {
  const purpose = ctx.query.get('purpose');
  sendCursorPage(
    ctx,
    store.list().filter((f) => !purpose || f.purpose === purpose),
    10_000,
  );
}

export function retrieveFile(ctx: Ctx, store: FileStore, id: string): void {
  const f = store.get(id);
  if (!f) return noSuchFile(ctx, id);
  sendJson(ctx.res, 200, f.meta, baseHeaders(ctx));
}

export function fileContent(ctx: Ctx, store: FileStore, id: string): void {
  const f = store.get(id);
  if (!f) return noSuchFile(ctx, id);
  ctx.res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': f.data.length, ...baseHeaders(ctx) });
  ctx.res.end(f.data);
}

export function deleteFile(ctx: Ctx, store: FileStore, id: string): void {
  if (!store.delete(id)) return noSuchFile(ctx, id);
  sendJson(ctx.res, 200, { id, object: 'file', deleted: true }, baseHeaders(ctx));
}
