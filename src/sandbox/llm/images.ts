// POST /v1/images/generations: a deterministic PNG per image (stripes in colours taken from the
// prompt, at the requested size), as `b64_json`, or, for `response_format: "url"` (dall-e's
// default), as a URL the sandbox serves itself without a key, as OpenAI's signed URLs need none.
// Served images are kept in a small bounded store (oldest dropped first), so URLs expire as
// OpenAI's do, only sooner.
import * as z from 'zod/mini';
import { header, newId, sendJson } from '../http';
import { estimateTokens } from './answer';
import { admit, baseHeaders, invalid, openAiError, readJson, type Ctx, type LlmService } from './context';
import { stripedPng } from './media';
import { parseRequest, type OpenAiErrorBody } from './requests';

/** Where the sandbox serves the images it made (outside /v1: no key, like a signed URL). */
export const IMAGE_PATH_PREFIX = 'sandbox-images';
const STORE_COUNT = 32;
const STORE_BYTES = 8 * 1024 * 1024;

/** The last images made for `response_format: "url"`: at most STORE_COUNT, STORE_BYTES in all. */
export class ImageStore {
  private readonly images = new Map<string, Buffer>();
  private bytes = 0;

  put(png: Buffer): string {
    const id = newId('img_');
    this.images.set(id, png);
    this.bytes += png.length;
    for (const [old, data] of this.images) {
      if (this.images.size <= STORE_COUNT && this.bytes <= STORE_BYTES) break;
      this.images.delete(old);
      this.bytes -= data.length;
    }
    return id;
  }

  get(id: string): Buffer | undefined {
    return this.images.get(id);
  }
}

const DALL_E_2_SIZES = ['256x256', '512x512', '1024x1024'];
const DALL_E_3_SIZES = ['1024x1024', '1792x1024', '1024x1792'];
const GPT_IMAGE_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536'];

const imagesRequestSchema = z.object({
  prompt: z.string().check(z.minLength(1)),
  model: z.optional(z.nullable(z.string())),
  n: z.optional(z.nullable(z.int().check(z.gte(1), z.lte(10)))),
  size: z.optional(z.nullable(z.string())),
  response_format: z.optional(z.nullable(z.enum(['url', 'b64_json']))),
  quality: z.optional(z.nullable(z.string())),
  style: z.optional(z.nullable(z.string())),
  output_format: z.optional(z.nullable(z.enum(['png', 'jpeg', 'webp']))),
});
type ImagesRequest = z.infer<typeof imagesRequestSchema>;

/** What OpenAI refuses for this model: a size it does not make, n > 1 on dall-e-3, response_format on gpt-image. */
function imageRefusal(modelId: string, body: ImagesRequest): OpenAiErrorBody | undefined {
  const gptImage = !modelId.startsWith('dall-e');
  const sizes = modelId.startsWith('dall-e-2') ? DALL_E_2_SIZES : modelId.startsWith('dall-e-3') ? DALL_E_3_SIZES : GPT_IMAGE_SIZES;
  if (body.size && !sizes.includes(body.size)) {
    return invalid(`Invalid value: '${body.size}'. Supported values are: ${sizes.map((s) => `'${s}'`).join(', ')}.`, 'size', 'invalid_value');
  }
  if (modelId.startsWith('dall-e-3') && (body.n ?? 1) > 1) return invalid('You must provide n=1 for this model.', 'n', 'invalid_value');
  if (gptImage && body.response_format) return invalid("Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
  if (body.output_format && body.output_format !== 'png') {
    return invalid(`The sandbox makes PNG images only; ask for output_format "png" (got "${body.output_format}").`, 'output_format', 'unsupported_value');
  }
  return undefined;
}

export async function imageGenerations(svc: LlmService, ctx: Ctx, store: ImageStore): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(imagesRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  // dall-e-2 is OpenAI's default model here.
  const modelId = ctx.deployment ?? body.model ?? 'dall-e-2';
  const admitted = admit(svc, ctx, modelId, 'image', estimateTokens(body.prompt), (m) => imageRefusal(m.id, body));
  if (!admitted) return;
  const gptImage = !admitted.model.id.startsWith('dall-e');
  const size = !body.size || body.size === 'auto' ? '1024x1024' : body.size;
  const [width, height] = size.split('x').map(Number);
  const asUrl = !gptImage && (body.response_format ?? 'url') === 'url';
  const host = header(ctx.req, 'host') ?? 'localhost';
  const data = Array.from({ length: body.n ?? 1 }, (_, i) => {
    const png = stripedPng(`${admitted.model.id}\n${i}\n${body.prompt}`, width, height);
    const revised = admitted.model.id.startsWith('dall-e-3') ? { revised_prompt: `Sandbox image of: ${body.prompt}` } : {};
    return asUrl ? { url: `http://${host}/${IMAGE_PATH_PREFIX}/${store.put(png)}.png`, ...revised } : { b64_json: png.toString('base64'), ...revised };
  });
  const usage = gptImage
    ? {
        usage: {
          input_tokens: estimateTokens(body.prompt),
          output_tokens: 0,
          total_tokens: estimateTokens(body.prompt),
          input_tokens_details: { text_tokens: estimateTokens(body.prompt), image_tokens: 0 },
        },
      }
    : {};
  sendJson(ctx.res, 200, { created: Math.floor(Date.now() / 1000), data, ...usage }, { ...baseHeaders(ctx), ...admitted.headers });
}

/** GET /sandbox-images/<id>.png: true when the path was one (answered 200 or 404). */
export function serveStoredImage(ctx: Ctx, segments: readonly string[], store: ImageStore): boolean {
  if (segments[0] !== IMAGE_PATH_PREFIX || segments.length !== 2) return false;
  const png = /^(img_[0-9a-f]+)\.png$/.exec(segments[1]);
  const data = png && store.get(png[1]);
  if (!data) {
    openAiError(ctx, 404, invalid('This sandbox image no longer exists: the sandbox keeps only its last 32 images. Generate it again.', null, 'not_found'));
    return true;
  }
  ctx.res.writeHead(200, { 'content-type': 'image/png', 'content-length': data.length, ...baseHeaders(ctx) });
  ctx.res.end(data);
  return true;
}
