// /v1/uploads: a large file sent in parts (openai-node's resources/uploads): create with the total
// size, add parts (multipart `data`), complete with the part ids in order; the parts joined become
// a File (POST /v1/files's object) if they add up to the declared bytes and match the md5 when one
// is given. An upload expires an hour after creation, as OpenAI's do.
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { baseHeaders, invalid, openAiError, readRequest, type Ctx, type LlmService } from './context';
import { MAX_STORED_BYTES, refuseStorageFull, type FileStore, type StoredFile } from './files';
import { unixSeconds } from './listPage';
import { formFields, readMultipart, type UploadSlots } from './multipart';

export const UPLOAD_LIFETIME_MS = 60 * 60 * 1000;

const createSchema = z.object({
  bytes: z.int().check(z.gte(1), z.lte(MAX_STORED_BYTES)),
  filename: z.string().check(z.minLength(1)),
  mime_type: z.string(),
  purpose: z.enum(['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals']),
});
const completeSchema = z.object({ part_ids: z.array(z.string()), md5: z.optional(z.string()) });

interface Upload {
  id: string;
  createdMs: number;
  bytes: number;
  filename: string;
  purpose: string;
  status: 'pending' | 'completed' | 'cancelled';
  parts: Map<string, { createdMs: number; data: Buffer }>;
  file?: StoredFile;
}

export class Uploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(
    private readonly svc: LlmService,
    private readonly files: FileStore,
    private readonly slots: UploadSlots,
  ) {}

  private status(u: Upload): Upload['status'] | 'expired' {
    return u.status === 'pending' && this.svc.clock.now() >= u.createdMs + UPLOAD_LIFETIME_MS ? 'expired' : u.status;
  }

  private json(u: Upload) {
    return {
      id: u.id,
      object: 'upload',
      bytes: u.bytes,
      created_at: unixSeconds(u.createdMs),
      filename: u.filename,
      purpose: u.purpose,
      status: this.status(u),
      expires_at: unixSeconds(u.createdMs + UPLOAD_LIFETIME_MS),
      file: u.file ?? null,
    };
  }

  /** The upload if it is still pending; otherwise the 404 or 400 has been sent. */
  private pending(ctx: Ctx, id: string): Upload | undefined {
    const u = this.uploads.get(id);
    if (!u) {
      openAiError(ctx, 404, invalid(`No upload found with id '${id}'.`, 'upload_id', 'upload_not_found'));
      return undefined;
    }
    const status = this.status(u);
    if (status !== 'pending') {
      openAiError(
        ctx,
        400,
        invalid(`Upload ${id} is ${status}; only a pending upload takes parts or can be completed or cancelled.`, 'upload_id', 'upload_not_pending'),
      );
      return undefined;
    }
    return u;
  }

  async create(ctx: Ctx): Promise<void> {
    const body = await readRequest(ctx, createSchema);
    if (!body) return;
    const u: Upload = {
      id: newId('upload_', 12),
      createdMs: this.svc.clock.now(),
      bytes: body.bytes,
      filename: body.filename,
      purpose: body.purpose,
      status: 'pending',
      parts: new Map(),
    };
    this.uploads.set(u.id, u);
    sendJson(ctx.res, 200, this.json(u), baseHeaders(ctx));
  }

  async addPart(ctx: Ctx, id: string): Promise<void> {
    if (!this.pending(ctx, id)) return;
    const form = await readMultipart(ctx, this.slots);
    if (!form) return;
    const data = formFields(form).files.get('data');
    if (!data) return openAiError(ctx, 400, invalid("Missing required parameter: 'data'.", 'data', 'missing_required_parameter'));
    // Read again: the upload may have been completed or cancelled while the part arrived.
    const u = this.pending(ctx, id);
    if (!u) return;
    const received = [...u.parts.values()].reduce((n, p) => n + p.data.length, 0);
    if (received + data.size > u.bytes) {
      return openAiError(
        ctx,
        400,
        invalid(`This part would make ${received + data.size} bytes, more than the ${u.bytes} the upload was created for.`, 'data', 'bytes_exceeded'),
      );
    }
    const partId = newId('part_', 12);
    const createdMs = this.svc.clock.now();
    u.parts.set(partId, { createdMs, data: Buffer.from(await data.arrayBuffer()) });
    sendJson(ctx.res, 200, { id: partId, object: 'upload.part', created_at: unixSeconds(createdMs), upload_id: u.id }, baseHeaders(ctx));
  }

  async complete(ctx: Ctx, id: string): Promise<void> {
    if (!this.pending(ctx, id)) return;
    const complete = await readRequest(ctx, completeSchema);
    if (!complete) return;
    const u = this.pending(ctx, id);
    if (!u) return;
    const unknown = complete.part_ids.find((p) => !u.parts.has(p));
    if (unknown) return openAiError(ctx, 400, invalid(`Part ${unknown} does not belong to upload ${id}.`, 'part_ids', 'invalid_part_id'));
    const data = Buffer.concat(complete.part_ids.map((p) => u.parts.get(p)!.data));
    if (data.length !== u.bytes) {
      return openAiError(
        ctx,
        400,
        invalid(
          `The parts add up to ${data.length} bytes, but the upload was created for ${u.bytes}; send the missing parts, or start a new upload.`,
          'part_ids',
          'bytes_mismatch',
        ),
      );
    }
    if (complete.md5 && createHash('md5').update(data).digest('hex') !== complete.md5.toLowerCase()) {
      return openAiError(ctx, 400, invalid('The md5 checksum does not match the parts given.', 'md5', 'checksum_mismatch'));
    }
    if (!this.files.fits(data.length)) return refuseStorageFull(ctx, 'part_ids');
    u.file = this.files.add(u.filename, u.purpose, data);
    u.status = 'completed';
    u.parts.clear();
    sendJson(ctx.res, 200, this.json(u), baseHeaders(ctx));
  }

  cancel(ctx: Ctx, id: string): void {
    const u = this.pending(ctx, id);
    if (!u) return;
    u.status = 'cancelled';
    u.parts.clear();
    sendJson(ctx.res, 200, this.json(u), baseHeaders(ctx));
  }
}
