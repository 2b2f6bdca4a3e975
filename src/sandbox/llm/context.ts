// What every route of the LLM sandbox shares: the request context, OpenAI-shaped errors and
// headers, JSON body reading and model admission (404 / wrong kind / 429 with Retry-After).
import type { Slots } from './slots';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock';
import { header, readBody, sendJson } from '../http';
import type { ModelCatalogue, SandboxModel } from './models';
import type { ModelRateLimits } from './rateLimit';
import { parseRequest, type OpenAiErrorBody } from './requests';
import type * as z from 'zod/mini';
import { DEPRECATIONS_URL, retiredModel } from '../../services/llm/retiredModels';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  azure: boolean;
  /** Azure deployment named in the path; it stands for the model. */
  deployment?: string;
  started: number;
  /** The request's query parameters (list filters, Azure's api-version). */
  query: URLSearchParams;
}

/** Server-wide settings and state the routes need. */
export interface LlmService {
  /** Time for the rate windows and paced streams (the system clock unless a test passes its own). */
  clock: Clock;
  /** The models this sandbox serves (the catalogue plus the model map). */
  models: ModelCatalogue;
  limits: ModelRateLimits;
  /** Large embeddings requests computing or waiting (see embeddings.ts). */
  embeddingSlots: Slots;
  limitedWindowMs: number;
  /** Tokens per second for streams whose model and request say nothing else. */
  defaultRate: number;
}

const WINDOW_MS = 60_000;

export function baseHeaders(ctx: Ctx): Record<string, string> {
  return {
    'x-request-id': ctx.requestId,
    'openai-version': '2020-10-01',
    'openai-processing-ms': String(Date.now() - ctx.started),
    ...(ctx.azure ? { 'apim-request-id': ctx.requestId } : {}),
  };
}

export function openAiError(ctx: Ctx, status: number, error: OpenAiErrorBody, headers: Record<string, string> = {}): void {
  sendJson(ctx.res, status, { error }, { ...baseHeaders(ctx), ...headers });
}

export function invalid(message: string, param: string | null = null, code: string | null = null): OpenAiErrorBody {
  return { message, type: 'invalid_request_error', param, code };
}

export function numberHeader(req: IncomingMessage, name: string): number | undefined | 'invalid' {
  const raw = header(req, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 'invalid';
}

/** Reads, parses and validates the body against `schema`; undefined when the 400/413 has been sent. */
export async function readRequest<T>(ctx: Ctx, schema: z.ZodMiniType<T>): Promise<T | undefined> {
  const json = await readJson(ctx);
  if (!json.ok) return undefined;
  const parsed = parseRequest(schema, json.value);
  if (parsed.ok) return parsed.value;
  openAiError(ctx, 400, parsed.error);
  return undefined;
}

/** Reads and parses the body; on failure the 400/413 has been sent already. */
export async function readJson(ctx: Ctx): Promise<{ ok: true; value: unknown } | { ok: false }> {
  let text: string;
  try {
    text = await readBody(ctx.req);
  } catch (e) {
    const status = (e as { status?: number }).status ?? 400;
    openAiError(ctx, status, invalid(status === 413 ? 'Request body too large for the sandbox (1 MB).' : 'Could not read the request body.'));
    return { ok: false };
  }
  try {
    const value = JSON.parse(text) as unknown;
    // Azure names the model in the path; the body then need not.
    if (ctx.deployment && typeof value === 'object' && value !== null && !('model' in value)) {
      (value as Record<string, unknown>).model = ctx.deployment;
    }
    return { ok: true, value };
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

/** OpenAI's 404 for a model it does not serve; a retired one gets its own wording (see retiredModels.ts). */
export function modelNotFound(id: string): OpenAiErrorBody {
  return retiredModel(id)
    ? invalid(`The model \`${id}\` has been deprecated, learn more here: ${DEPRECATIONS_URL}`, null, 'model_not_found')
    : invalid(`The model \`${id}\` does not exist or you do not have access to it.`, null, 'model_not_found');
}

/** What OpenAI answers when a model is asked for on an endpoint of another kind. */
function wrongKind(id: string, kind: SandboxModel['kind'], model: SandboxModel): { status: number; error: OpenAiErrorBody } {
  // OpenAI's own wording for the two mix-ups notebooks make most (a 404 with param "model").
  if (kind === 'chat' && model.kind === 'completion') {
    return {
      status: 404,
      error: invalid('This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?', 'model'),
    };
  }
  if (kind === 'completion' && model.kind === 'chat') {
    return {
      status: 404,
      error: invalid('This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?', 'model'),
    };
  }
  return {
    status: 400,
    error: invalid(
      `\`${id}\` is a${/^[aeiou]/.test(model.kind) ? 'n' : ''} ${model.kind} model, not a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind} model, so it is not supported on this endpoint.`,
      'model',
      'unsupported_model',
    ),
  };
}

/**
 * Resolves the model (404 if unknown, an error if the wrong kind or `refuse` finds fault with the
 * request for it) and takes a rate slot (429 if none). Undefined when the answer has been sent.
 */
export function admit(
  svc: LlmService,
  ctx: Ctx,
  id: string,
  kind: SandboxModel['kind'],
  tokens: number,
  refuse?: (model: SandboxModel) => OpenAiErrorBody | undefined,
): { model: SandboxModel; headers: Record<string, string> } | undefined {
  const model = svc.models.find(id);
  if (!model) {
    openAiError(ctx, 404, modelNotFound(id));
    return undefined;
  }
  if (model.kind !== kind) {
    const { status, error } = wrongKind(id, kind, model);
    openAiError(ctx, status, error);
    return undefined;
  }
  const refusal = refuse?.(model);
  if (refusal) {
    openAiError(ctx, 400, refusal);
    return undefined;
  }
  const decision = svc.limits.take(model.id, model.requestsPerWindow, model.tightLimit ? svc.limitedWindowMs : WINDOW_MS, tokens);
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
