// POST /v1/embeddings: deterministic unit vectors, as floats or base64 float32.
//
// Bounded so the sandbox survives its users: a request of 2,048 inputs at 1,536 dimensions is ~60 MB
// of JSON, and 64 of them at once ran the process out of heap (8 stalled it for seconds and every
// WebSocket closed). Now each answer is written one vector at a time, with backpressure and a turn
// of the event loop between slices (memory per request stays small, sockets keep being served),
// and at most MAX_COMPUTING requests compute at once with MAX_WAITING queued behind them; beyond
// that the answer is 503 with retry-after, which the official clients retry.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import { estimateTokens, sandboxEmbedding } from './answer';
import { admit, baseHeaders, invalid, openAiError, readJson, type Ctx, type LlmService } from './context';
import type { SandboxModel } from './models';
import { embeddingsRequestSchema, parseRequest, type OpenAiErrorBody } from './requests';

/** Inputs per embeddings request, as OpenAI allows. */
export const MAX_EMBEDDING_INPUTS = 2048;

export async function embeddings(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(embeddingsRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const modelId = ctx.deployment ?? body.model;
  // Checked before any work: each input costs a vector of up to 3,072 numbers (text-embedding-3-large).
  const inputCount = typeof body.input === 'string' || body.input.every((x) => typeof x === 'number') ? 1 : body.input.length;
  if (inputCount > MAX_EMBEDDING_INPUTS) {
    return openAiError(
      ctx,
      400,
      invalid(
        `Invalid 'input': array too long. Expected an array with maximum length ${MAX_EMBEDDING_INPUTS}, but got an array with length ${inputCount} instead.`,
        'input',
        'array_above_max_length',
      ),
    );
  }
  // Token-id inputs are embedded by their decimal text, which keeps them deterministic too.
  const texts = typeof body.input === 'string' ? [body.input] : body.input.map((x) => (typeof x === 'string' ? x : Array.isArray(x) ? x.join(',') : String(x)));
  const flatIds = Array.isArray(body.input) && body.input.every((x) => typeof x === 'number');
  const inputs = flatIds ? [texts.join(',')] : texts;
  const promptTokens = inputs.reduce((n, t) => n + estimateTokens(t), 0);
  const admitted = admit(svc, ctx, modelId, 'embedding', promptTokens, (model) => dimensionsRefusal(model, body.dimensions));
  if (!admitted) return;
  const dims = body.dimensions ?? admitted.model.dimensions ?? 256;
  if (!(await svc.embeddingSlots.acquire())) {
    return openAiError(
      ctx,
      503,
      { message: 'The sandbox is busy with other large embeddings requests. Please retry after 1 s.', type: 'server_error', param: null, code: 'overloaded' },
      { 'retry-after': '1', 'retry-after-ms': '1000' },
    );
  }
  try {
    const res = ctx.res;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...baseHeaders(ctx), ...admitted.headers });
    // The same bytes JSON.stringify of the whole answer gives, written a vector at a time.
    if (!(await write(res, '{"object":"list","data":['))) return;
    for (let index = 0; index < inputs.length; index++) {
      const vector = sandboxEmbedding(inputs[index], dims);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      if (!(await write(res, (index ? ',' : '') + JSON.stringify({ object: 'embedding', index, embedding })))) return;
      if (index % SLICE === SLICE - 1) await nextTurn();
    }
    res.end(`],"model":${JSON.stringify(admitted.model.id)},"usage":${JSON.stringify({ prompt_tokens: promptTokens, total_tokens: promptTokens })}}`);
  } finally {
    svc.embeddingSlots.release();
  }
}

/** A `dimensions` the model cannot give: above its size, or any at all for a model of one size (text-embedding-ada-002). */
function dimensionsRefusal(model: SandboxModel, dimensions: number | undefined): OpenAiErrorBody | undefined {
  if (dimensions === undefined) return undefined;
  if (model.maxDimensions === undefined) return invalid('This model does not support specifying dimensions.', 'dimensions');
  if (dimensions <= model.maxDimensions) return undefined;
  return invalid(
    `Invalid 'dimensions': expected a value less than or equal to ${model.maxDimensions}, but got ${dimensions} instead.`,
    'dimensions',
    'invalid_value',
  );
}

/** Vectors computed between two turns of the event loop. */
const SLICE = 32;

/** Writes `text`, waiting for the socket to drain when its buffer is full; false once the client is gone. */
async function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(text)) return true;
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => () => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
