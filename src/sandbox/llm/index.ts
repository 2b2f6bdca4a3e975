// Local OpenAI-compatible service, faithful enough that the official `openai` npm client works
// against it unchanged. Shapes follow openai-node and ../shared/protocols.md §2.
//   /v1/...                  OpenAI style, `Authorization: Bearer <key>`
//   /openai/v1/...           Azure OpenAI "v1" style, `api-key: <key>` (or Bearer); adds
//   /openai/deployments/<d>/ Azure content-filter chunks and apim-request-id
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, header, newId, readBody, safeEqual, sendJson, type SandboxResource } from '../http';
import { listen } from '../listen';
import { pathSegments, requestUrl, Router, type PathParams } from '../router';
import type { ListenOptions, RunningService } from '../types';
import { estimatePromptTokens, estimateTokens, sandboxAnswerTokens, sandboxEmbedding, sandboxFinishReason } from './answer';
import { faultAfterTokens, findModel, LLM_MODELS, MAX_EMBEDDING_DIMENSIONS, type SandboxModel } from './models';
import { ModelRateLimits } from './rateLimit';
import { chatRequestSchema, embeddingsRequestSchema, parseRequest, type ChatRequestBody, type EmbeddingsRequestBody, type OpenAiErrorBody } from './requests';
import { AZURE_FILTER_RESULTS, MID_STREAM_ERROR, writeStream, type Usage } from './stream';

export { LLM_MODELS, LIMITED_MODEL, FAULTY_MODEL, EMBEDDING_MODEL, faultAfterTokens, type SandboxModel } from './models';
export { sandboxAnswer, sandboxAnswerTokens, sandboxAnswerLength, sandboxFinishReason, sandboxEmbedding, estimatePromptTokens, type SandboxMessage } from './answer';
export { MID_STREAM_ERROR } from './stream';

/** Default streaming speed: visibly live in an editor, yet a typical answer is done in well under a second. */
export const DEFAULT_TOKEN_RATE = 200;
/** Window of the tightly limited model: short, so a 429 countdown is seen and then passes. */
export const DEFAULT_LIMITED_WINDOW_MS = 10_000;
const WINDOW_MS = 60_000;
/** Longest answer the x-sandbox-answer-tokens header may ask for (a benchmark stream is 25,000). */
export const MAX_ANSWER_TOKENS = 100_000;
/** Inputs per embeddings request, as OpenAI allows. */
export const MAX_EMBEDDING_INPUTS = 2048;

/** Sandbox-only request headers (ignored by real services), for tests and benchmarks. */
export const SANDBOX_HEADERS = {
  /** Tokens per second for this stream; 0 = unthrottled. */
  tokenRate: 'x-sandbox-token-rate',
  /** Answer length in tokens (e.g. 20000 for a benchmark stream). */
  answerTokens: 'x-sandbox-answer-tokens',
  /** "error": error payload mid-stream; "disconnect": drop the connection mid-stream. */
  fault: 'x-sandbox-fault',
} as const;

export interface LlmSandboxOptions extends ListenOptions {
  apiKey: string;
  /** Tokens per second for streamed answers (default DEFAULT_TOKEN_RATE; 0 = unthrottled). */
  tokenRate?: number;
  /** Rate window of the tightly limited model (default DEFAULT_LIMITED_WINDOW_MS). */
  limitedWindowMs?: number;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  azure: boolean;
  /** Azure deployment named in the path; it stands for the model. */
  deployment?: string;
  started: number;
}

function openAiError(ctx: Ctx, status: number, error: OpenAiErrorBody, headers: Record<string, string> = {}): void {
  sendJson(ctx.res, status, { error }, { ...baseHeaders(ctx), ...headers });
}

function baseHeaders(ctx: Ctx): Record<string, string> {
  return {
    'x-request-id': ctx.requestId,
    'openai-version': '2020-10-01',
    'openai-processing-ms': String(Date.now() - ctx.started),
    ...(ctx.azure ? { 'apim-request-id': ctx.requestId } : {}),
  };
}

function invalid(message: string, param: string | null = null, code: string | null = null): OpenAiErrorBody {
  return { message, type: 'invalid_request_error', param, code };
}

/**
 * Splits a decoded Azure path (`openai/v1/…`, `openai/deployments/<d>/…`, `openai/…`) into the
 * OpenAI one (`v1/…`) plus the deployment, if any.
 */
function normalisePath(segments: readonly string[]): { segments: string[]; azure: boolean; deployment?: string } {
  if (segments[0] !== 'openai') return { segments: [...segments], azure: false };
  let rest = segments.slice(1);
  if (rest[0] === 'v1') rest = rest.slice(1);
  if (rest[0] === 'deployments' && rest.length > 2 && rest[1] !== '') return { segments: ['v1', ...rest.slice(2)], azure: true, deployment: rest[1] };
  return { segments: ['v1', ...rest], azure: true };
}

function modelJson(m: SandboxModel) {
  return { id: m.id, object: 'model', created: m.created, owned_by: m.owned_by };
}

function numberHeader(req: IncomingMessage, name: string): number | undefined | 'invalid' {
  const raw = header(req, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 'invalid';
}

export async function startLlmSandbox(opts: LlmSandboxOptions): Promise<RunningService> {
  const limits = new ModelRateLimits();
  const limitedWindowMs = opts.limitedWindowMs ?? DEFAULT_LIMITED_WINDOW_MS;
  const defaultRate = opts.tokenRate ?? DEFAULT_TOKEN_RATE;

  async function readJson(ctx: Ctx): Promise<{ ok: true; value: unknown } | { ok: false }> {
    let text: string;
    try {
      text = await readBody(ctx.req);
    } catch (e) {
      const status = (e as { status?: number }).status ?? 400;
      openAiError(ctx, status, invalid(status === 413 ? 'Request body too large for the sandbox (1 MB).' : 'Could not read the request body.'));
      return { ok: false };
    }
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      openAiError(
        ctx,
        400,
        invalid(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        ),
      );
      return { ok: false };
    }
  }

  /** Resolves the model (404 if unknown, 400 if the wrong kind) and takes a rate slot (429 if none). */
  function admit(ctx: Ctx, id: string, kind: SandboxModel['kind'], tokens: number): { model: SandboxModel; headers: Record<string, string> } | undefined {
    const model = findModel(id);
    if (!model) {
      openAiError(ctx, 404, invalid(`The model \`${id}\` does not exist or you do not have access to it.`, null, 'model_not_found'));
      return undefined;
    }
    if (model.kind !== kind) {
      const what = kind === 'chat' ? 'a chat model' : 'an embedding model';
      openAiError(ctx, 400, invalid(`\`${id}\` is not ${what}, so it is not supported on this endpoint.`, 'model', 'unsupported_model'));
      return undefined;
    }
    const decision = limits.take(model.id, model.requestsPerWindow, model.tightLimit ? limitedWindowMs : WINDOW_MS, tokens);
    if (!decision.allowed) {
      const ms = decision.retryAfterMs ?? 1000;
      const seconds = (ms / 1000).toFixed(3).replace(/\.?0+$/, '');
      openAiError(
        ctx,
        429,
        {
          message: `Rate limit reached for ${model.id} in organization org-sandbox on requests per min (RPM): Limit ${decision.limit}, Used ${decision.limit}, Requested 1. Please try again in ${seconds}s.`,
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
        { ...decision.headers, 'retry-after': String(Math.ceil(ms / 1000)), 'retry-after-ms': String(Math.ceil(ms)) },
      );
      return undefined;
    }
    return { model, headers: decision.headers };
  }

  async function chatCompletions(ctx: Ctx): Promise<void> {
    const json = await readJson(ctx);
    if (!json.ok) return;
    if (ctx.deployment && typeof json.value === 'object' && json.value !== null && !('model' in json.value)) {
      (json.value as Record<string, unknown>).model = ctx.deployment;
    }
    const parsed = parseRequest(chatRequestSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    const body: ChatRequestBody = parsed.value;
    const modelId = ctx.deployment ?? body.model;

    const rate = numberHeader(ctx.req, SANDBOX_HEADERS.tokenRate);
    const answerTokens = numberHeader(ctx.req, SANDBOX_HEADERS.answerTokens);
    if (rate === 'invalid') return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.tokenRate}: expected tokens per second (0 = unthrottled).`));
    if (answerTokens === 'invalid' || (answerTokens !== undefined && (!Number.isInteger(answerTokens) || answerTokens < 1 || answerTokens > MAX_ANSWER_TOKENS))) {
      return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.answerTokens}: expected a whole number from 1 to ${MAX_ANSWER_TOKENS}.`));
    }
    const fault = header(ctx.req, SANDBOX_HEADERS.fault);
    if (fault !== undefined && fault !== 'error' && fault !== 'disconnect') {
      return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.fault}: expected "error" or "disconnect".`));
    }

    const answerOpts = { tokens: answerTokens, maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined };
    const promptTokens = estimatePromptTokens(body.messages);
    const tokens = sandboxAnswerTokens(body.messages, modelId, answerOpts);
    const admitted = admit(ctx, modelId, 'chat', promptTokens + tokens.length);
    if (!admitted) return;
    const { model } = admitted;
    const finishReason = sandboxFinishReason(body.messages, modelId, answerOpts);
    const usage: Usage = {
      prompt_tokens: promptTokens,
      completion_tokens: tokens.length,
      total_tokens: promptTokens + tokens.length,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    const id = newId('chatcmpl-');
    const created = Math.floor(Date.now() / 1000);
    const failing = model.failsMidStream || fault !== undefined;
    const headers = { ...baseHeaders(ctx), ...admitted.headers };

    if (body.stream) {
      const cut = faultAfterTokens(tokens.length);
      return writeStream(
        ctx.res,
        {
          id,
          created,
          model: model.id,
          tokens,
          finishReason,
          usage: body.stream_options?.include_usage ? usage : undefined,
          azure: ctx.azure,
          tokenRate: rate ?? defaultRate,
          errorAfter: model.failsMidStream || fault === 'error' ? cut : undefined,
          disconnectAfter: fault === 'disconnect' ? cut : undefined,
        },
        headers,
      );
    }
    if (failing) {
      return openAiError(ctx, 500, MID_STREAM_ERROR, admitted.headers);
    }
    const filter = ctx.azure ? { content_filter_results: AZURE_FILTER_RESULTS } : {};
    sendJson(
      ctx.res,
      200,
      {
        id,
        object: 'chat.completion',
        created,
        model: model.id,
        system_fingerprint: 'fp_sandbox',
        choices: [{ index: 0, message: { role: 'assistant', content: tokens.join(''), refusal: null, annotations: [] }, logprobs: null, finish_reason: finishReason, ...filter }],
        usage,
        service_tier: 'default',
        ...(ctx.azure ? { prompt_filter_results: [{ prompt_index: 0, content_filter_results: AZURE_FILTER_RESULTS }] } : {}),
      },
      headers,
    );
  }

  async function embeddings(ctx: Ctx): Promise<void> {
    const json = await readJson(ctx);
    if (!json.ok) return;
    if (ctx.deployment && typeof json.value === 'object' && json.value !== null && !('model' in json.value)) {
      (json.value as Record<string, unknown>).model = ctx.deployment;
    }
    const parsed = parseRequest(embeddingsRequestSchema, json.value);
    if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
    const body: EmbeddingsRequestBody = parsed.value;
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
    const admitted = admit(ctx, modelId, 'embedding', promptTokens);
    if (!admitted) return;
    const dims = body.dimensions ?? admitted.model.dimensions ?? 256;
    const data = inputs.map((text, index) => {
      const vector = sandboxEmbedding(text, dims);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    sendJson(ctx.res, 200, { object: 'list', data, model: admitted.model.id, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } }, { ...baseHeaders(ctx), ...admitted.headers });
  }

  const routes = new Router<(ctx: Ctx, params: PathParams) => void | Promise<void>>()
    .add('GET', '/v1/resources', (ctx) => {
      const resources: SandboxResource[] = LLM_MODELS.map((m) => ({ id: m.id, kind: 'model', name: m.id, detail: `${m.kind} model owned by ${m.owned_by}` }));
      sendJson(ctx.res, 200, { resources }, baseHeaders(ctx));
    })
    .add('GET', '/v1/models', (ctx) => sendJson(ctx.res, 200, { object: 'list', data: LLM_MODELS.map(modelJson) }, baseHeaders(ctx)))
    .add('GET', '/v1/models/{model}', (ctx, { model: id }) => {
      const m = findModel(id);
      if (!m) return openAiError(ctx, 404, invalid(`The model '${id}' does not exist`, 'model', 'model_not_found'));
      sendJson(ctx.res, 200, modelJson(m), baseHeaders(ctx));
    })
    .add('POST', '/v1/chat/completions', chatCompletions)
    .add('POST', '/v1/embeddings', embeddings);

  return listen(opts, async (req: IncomingMessage, res: ServerResponse) => {
    const url = requestUrl(req.url);
    const decoded = url && pathSegments(url.pathname);
    const { segments, azure, deployment } = normalisePath(decoded ?? []);
    const ctx: Ctx = { req, res, requestId: newId('req_'), azure, deployment, started: Date.now() };
    if (!url || !decoded) return openAiError(ctx, 400, invalid('Invalid URL: the path has malformed percent-encoding.', null, 'invalid_url'));
    const key = (azure ? header(req, 'api-key') : undefined) ?? bearer(req);
    if (!safeEqual(key, opts.apiKey)) {
      const shown = key ? `${key.slice(0, 3)}…${key.slice(-2)}` : '';
      const how = azure ? 'an api-key header' : 'an Authorization header (Bearer <key>)';
      return openAiError(ctx, 401, invalid(key ? `Incorrect API key provided: ${shown}.` : `You didn't provide an API key. Provide it in ${how}.`, null, key ? 'invalid_api_key' : null));
    }
    const method = req.method ?? 'GET';
    const route = routes.matchSegments(method, segments);
    if (route.kind !== 'found') return openAiError(ctx, 404, invalid(`Invalid URL (${method} ${url.pathname})`, null, 'unknown_url'));
    return route.handler(ctx, route.params);
  });
}
