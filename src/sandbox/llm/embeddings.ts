// POST /v1/embeddings: deterministic unit vectors, as floats or base64 float32.
import { sendJson } from '../http';
import { estimateTokens, sandboxEmbedding } from './answer';
import { admit, baseHeaders, invalid, openAiError, readJson, type Ctx, type LlmService } from './context';
import { MAX_EMBEDDING_DIMENSIONS } from './models';
import { embeddingsRequestSchema, parseRequest } from './requests';

/** Inputs per embeddings request, as OpenAI allows. */
export const MAX_EMBEDDING_INPUTS = 2048;

export async function embeddings(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(embeddingsRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const modelId = ctx.deployment ?? body.model;
  // Checked before any work: each input costs a vector of up to MAX_EMBEDDING_DIMENSIONS numbers.
  const inputCount = typeof body.input === 'string' || body.input.every((x) => typeof x === 'number') ? 1 : body.input.length;
  if (inputCount > MAX_EMBEDDING_INPUTS) {
    return openAiError(
      ctx,
      400,
      invalid(`Invalid 'input': array too long. Expected an array with maximum length ${MAX_EMBEDDING_INPUTS}, but got an array with length ${inputCount} instead.`, 'input', 'array_above_max_length'),
    );
  }
  if (body.dimensions !== undefined && body.dimensions > MAX_EMBEDDING_DIMENSIONS) {
    return openAiError(ctx, 400, invalid(`Invalid 'dimensions': expected a value less than or equal to ${MAX_EMBEDDING_DIMENSIONS}, but got ${body.dimensions} instead.`, 'dimensions', 'invalid_value'));
  }
  // Token-id inputs are embedded by their decimal text, which keeps them deterministic too.
  const texts = typeof body.input === 'string' ? [body.input] : body.input.map((x) => (typeof x === 'string' ? x : Array.isArray(x) ? x.join(',') : String(x)));
  const flatIds = Array.isArray(body.input) && body.input.every((x) => typeof x === 'number');
  const inputs = flatIds ? [texts.join(',')] : texts;
  const promptTokens = inputs.reduce((n, t) => n + estimateTokens(t), 0);
  const admitted = admit(svc, ctx, modelId, 'embedding', promptTokens);
  if (!admitted) return;
  const dims = body.dimensions ?? admitted.model.dimensions ?? 256;
  const data = inputs.map((text, index) => {
    const vector = sandboxEmbedding(text, dims);
    const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
    return { object: 'embedding', index, embedding };
  });
  sendJson(ctx.res, 200, { object: 'list', data, model: admitted.model.id, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } }, { ...baseHeaders(ctx), ...admitted.headers });
}
