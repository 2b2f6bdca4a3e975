// Reading `multipart/form-data` requests (audio uploads, files): bounded in size (413 in OpenAI's
// shape past UPLOAD_LIMIT_BYTES), in time (408 past UPLOAD_BODY_TIMEOUT_MS) and in concurrency (a few
// bodies parsed at once, a few more waiting, the rest a 503 with retry-after), then parsed by Node's own fetch machinery (undici's
// Request.formData), not by hand.
import { readBodyBytes } from '../../core/nodeHttp';
import { header } from '../http';
import { invalid, openAiError, type Ctx } from './context';
import { Slots } from './slots';

/** OpenAI's own limit for audio uploads (25 MB); the sandbox applies it to every upload. */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

/** How long an upload's body may take to arrive (answered 408 past it); the sandbox is local, 25 MB takes well under a second. */
export const UPLOAD_BODY_TIMEOUT_MS = 30_000;

/**
 * Uploads parsed at once (each may hold its body about three times while parsing; more wait or get
 * a 503), and bodies being received at once. A slot to parse is taken only once the body is in:
 * taken before, ten uploads sending a byte every 5 s held every slot and the sandbox answered every
 * other upload 503.
 */
export class UploadSlots {
  readonly parsing = new Slots(2, 8);
  readonly receiving = new Slots(16, 0);
  constructor(readonly bodyTimeoutMs = UPLOAD_BODY_TIMEOUT_MS) {}
}

/** The parsed form, or undefined once a 400/408/413/503 has been sent. */
export async function readMultipart(ctx: Ctx, slots: UploadSlots): Promise<FormData | undefined> {
  const type = header(ctx.req, 'content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    openAiError(
      ctx,
      400,
      invalid(`This endpoint takes multipart/form-data (with a boundary), not "${type || 'no content type'}".`, null, 'invalid_content_type'),
    );
    return undefined;
  }
  const bytes = await receive(ctx, slots);
  if (!bytes) return undefined;
  if (!(await slots.parsing.acquire())) return busy(ctx);
  try {
    // readBodyBytes concatenates into one Buffer over a plain ArrayBuffer: viewed, not copied.
    return await new Request('http://sandbox/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length),
    }).formData();
  } catch {
    openAiError(
      ctx,
      400,
      invalid('Could not parse the multipart form: check the boundary and that each part has a Content-Disposition header.', null, 'invalid_multipart'),
    );
    return undefined;
  } finally {
    slots.parsing.release();
  }
}

/** The whole body, or undefined once a 408/413/503/400 has been sent. */
async function receive(ctx: Ctx, slots: UploadSlots): Promise<Buffer | undefined> {
  if (!(await slots.receiving.acquire())) return busy(ctx);
  try {
    return await readBodyBytes(ctx.req, UPLOAD_LIMIT_BYTES, slots.bodyTimeoutMs);
  } catch (e) {
    const status = (e as { status?: number }).status;
    // Read past the limit (and thrown away) by readBodyBytes, so the client gets this answer, not a reset.
    if (status === 413) return tooLarge(ctx);
    if (status === 408) {
      // The rest of the body is not read: the connection is closed once the answer is out.
      ctx.res.once('finish', () => ctx.req.socket.destroy());
      openAiError(
        ctx,
        408,
        invalid(`The request body did not arrive within ${slots.bodyTimeoutMs / 1000} s. Send the upload again.`, null, 'request_timeout'),
        { connection: 'close' },
      );
      return undefined;
    }
    openAiError(ctx, 400, invalid('Could not read the request body.'));
    return undefined;
  } finally {
    slots.receiving.release();
  }
}

function busy(ctx: Ctx): undefined {
  openAiError(
    ctx,
    503,
    { message: 'The sandbox is busy with other uploads. Please retry after 1 s.', type: 'server_error', param: null, code: 'overloaded' },
    { 'retry-after': '1', 'retry-after-ms': '1000' },
  );
  return undefined;
}

function tooLarge(ctx: Ctx): undefined {
  openAiError(
    ctx,
    413,
    invalid(`Maximum content size limit (${UPLOAD_LIMIT_BYTES}) exceeded. The sandbox takes uploads of up to 25 MB.`, null, 'request_too_large'),
  );
  return undefined;
}

/** The form's text fields as an object (for zod), and its file parts by name. */
export function formFields(form: FormData): { fields: Record<string, string | string[]>; files: Map<string, File> } {
  const fields: Record<string, string | string[]> = {};
  const files = new Map<string, File>();
  form.forEach((value, name) => {
    if (typeof value !== 'string') {
      files.set(name, value);
      return;
    }
    // `timestamp_granularities[]` and the like repeat: keep every value.
    const key = name.replace(/\[\]$/, '');
    const had = fields[key];
    fields[key] = had === undefined ? (name.endsWith('[]') ? [value] : value) : [...(Array.isArray(had) ? had : [had]), value];
  });
  return { fields, files };
}
