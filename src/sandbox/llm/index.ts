// Local OpenAI-compatible service, faithful enough that the official `openai` npm client works
// against it unchanged. Shapes follow openai-node and ../shared/protocols.md §2.
//   /v1/...                  OpenAI style, `Authorization: Bearer <key>`
//   /openai/v1/...           Azure OpenAI "v1" style, `api-key: <key>` (or Bearer); adds
//   /openai/deployments/<d>/ Azure content-filter chunks and apim-request-id; classic Azure paths
//                            need ?api-version= and a deployment named like a model (azure.ts)
//   /<tenant>/oauth2/v2.0/…  Entra ID's token endpoint and OpenID metadata; the Azure paths take
//                            its tokens as Bearer (entra.ts)
// Models: the sandbox's own (`sandbox-*`), stand-ins for OpenAI's public ids, and --model-map ids.
// Endpoints: models, chat/completions, responses, embeddings, legacy completions, moderations,
// images/generations, audio/speech, audio/transcriptions and translations (multipart), files;
// fine-tuning jobs, batches, vector stores and uploads (jobRoutes.ts).
import { Slots } from './slots';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { systemClock, type Clock } from '../../core/clock';
import { bearer, header, newId, safeEqual, sendJson, type SandboxResource } from '../http';
import { listen } from '../listen';
import { pathSegments, requestUrl, Router, type PathParams } from '../router';
import type { ListenOptions, RunningService } from '../types';
import { chatCompletions } from './chat';
import { invalid, modelNotFound, openAiError, baseHeaders, type Ctx, type LlmService } from './context';
import { retiredModel } from '../../services/llm/retiredModels';
import { completions } from './completions';
import { embeddings } from './embeddings';
import { deleteFile, fileContent, FileStore, listFiles, retrieveFile, uploadFile } from './files';
import { imageGenerations, ImageStore, serveStoredImage } from './images';
import { moderations } from './moderations';
import { speech } from './speech';
import { audioToText } from './transcriptions';
import { UploadSlots } from './multipart';
import { listDeployments, normalisePath, refuseAzureRequest } from './azure';
import { isSandboxEntraToken, serveEntra } from './entra';
import { ModelCatalogue, type ModelMap, type SandboxModel } from './models';
import { ModelRateLimits } from './rateLimit';
import { responses } from './responses';
import { addJobRoutes } from './jobRoutes';
import { addLegacyRoutes } from './legacy';
import { loopbackDispatch } from './loopback';

export {
  LLM_MODELS,
  ModelCatalogue,
  parseModelMap,
  type ModelMap,
  LIMITED_MODEL,
  FAULTY_MODEL,
  EMBEDDING_MODEL,
  SLOW_MODEL,
  SLOW_TOKEN_RATE,
  faultAfterTokens,
  type SandboxModel,
} from './models';
export {
  sandboxAnswer,
  sandboxAnswerTokens,
  sandboxAnswerLength,
  sandboxFinishReason,
  sandboxEmbedding,
  estimatePromptTokens,
  type SandboxMessage,
} from './answer';
export { MID_STREAM_ERROR } from './stream';
export { SANDBOX_HEADERS, MAX_ANSWER_TOKENS } from './sandboxHeaders';
export { MAX_EMBEDDING_INPUTS } from './embeddings';
export { planToolCalls, structuredAnswer, type ToolSpec, type ToolChoiceSpec, type PlannedToolCall } from './tools';
export { valueForSchema } from './schemaValue';

/** Default streaming speed: visibly live in an editor, yet a typical answer is done in well under a second. */
export const DEFAULT_TOKEN_RATE = 200;
/** Window of the tightly limited model: short, so a 429 countdown is seen and then passes. */
export const DEFAULT_LIMITED_WINDOW_MS = 10_000;

export interface LlmSandboxOptions extends ListenOptions {
  apiKey: string;
  /** Tokens per second for streamed answers (default DEFAULT_TOKEN_RATE; 0 = unthrottled). */
  tokenRate?: number;
  /** Rate window of the tightly limited model (default DEFAULT_LIMITED_WINDOW_MS). */
  limitedWindowMs?: number;
  /** Time for the rate windows and paced streams (tests pass a manual clock); default the system clock. */
  clock?: Clock;
  /** Extra model ids served as catalogue models (`--model-map my-ft=gpt-4o-mini`): alias -> model id. */
  modelMap?: ModelMap;
  /** How long an upload's body may take to arrive (default UPLOAD_BODY_TIMEOUT_MS, 30 s); tests shorten it. */
  uploadBodyTimeoutMs?: number;
}

function modelJson(m: SandboxModel) {
  return { id: m.id, object: 'model', created: m.created, owned_by: m.owned_by };
}

export async function startLlmSandbox(opts: LlmSandboxOptions): Promise<RunningService> {
  const clock = opts.clock ?? systemClock;
  const models = new ModelCatalogue(opts.modelMap);
  const images = new ImageStore();
  const files = new FileStore();
  const uploads = new UploadSlots(opts.uploadBodyTimeoutMs);
  const svc: LlmService = {
    clock,
    models,
    limits: new ModelRateLimits(() => clock.now()),
    embeddingSlots: new Slots(),
    limitedWindowMs: opts.limitedWindowMs ?? DEFAULT_LIMITED_WINDOW_MS,
    defaultRate: opts.tokenRate ?? DEFAULT_TOKEN_RATE,
  };

  const routes = new Router<(ctx: Ctx, params: PathParams) => void | Promise<void>>()
    .add('GET', '/v1/resources', (ctx) => {
      const resources: SandboxResource[] = models
        .list()
        .map((m) => ({ id: m.id, kind: 'model', name: m.id, detail: `${m.kind} model owned by ${m.owned_by}` }));
      sendJson(ctx.res, 200, { resources }, baseHeaders(ctx));
    })
    .add('GET', '/v1/models', (ctx) => sendJson(ctx.res, 200, { object: 'list', data: models.list().map(modelJson) }, baseHeaders(ctx)))
    // Azure only: OpenAI has no deployments.
    .add('GET', '/v1/deployments', (ctx) =>
      ctx.azure ? listDeployments(ctx, models) : openAiError(ctx, 404, invalid('Invalid URL (GET /v1/deployments)', null, 'unknown_url')),
    )
    .add('GET', '/v1/models/{model}', (ctx, { model: id }) => {
      const m = models.find(id);
      if (!m) {
        const retired = retiredModel(id);
        return openAiError(ctx, 404, retired ? modelNotFound(id) : invalid(`The model '${id}' does not exist`, 'model', 'model_not_found'));
      }
      sendJson(ctx.res, 200, modelJson(m), baseHeaders(ctx));
    })
    .add('POST', '/v1/chat/completions', (ctx) => chatCompletions(svc, ctx))
    .add('POST', '/v1/responses', (ctx) => responses(svc, ctx))
    .add('POST', '/v1/embeddings', (ctx) => embeddings(svc, ctx))
    .add('POST', '/v1/completions', (ctx) => completions(svc, ctx))
    .add('POST', '/v1/moderations', (ctx) => moderations(svc, ctx))
    .add('POST', '/v1/images/generations', (ctx) => imageGenerations(svc, ctx, images))
    .add('POST', '/v1/audio/speech', (ctx) => speech(svc, ctx))
    .add('POST', '/v1/audio/transcriptions', (ctx) => audioToText(svc, ctx, uploads, 'transcribe'))
    .add('POST', '/v1/audio/translations', (ctx) => audioToText(svc, ctx, uploads, 'translate'))
    .add('POST', '/v1/files', (ctx) => uploadFile(ctx, files, uploads))
    .add('GET', '/v1/files', (ctx) => listFiles(ctx, files))
    .add('GET', '/v1/files/{id}', (ctx, { id }) => retrieveFile(ctx, files, id))
    .add('GET', '/v1/files/{id}/content', (ctx, { id }) => fileContent(ctx, files, id))
    .add('DELETE', '/v1/files/{id}', (ctx, { id }) => deleteFile(ctx, files, id));
  addLegacyRoutes(routes, svc);
  addJobRoutes(
    routes,
    svc,
    files,
    uploads,
    // Called only while requests are served, so after `running` is set.
    loopbackDispatch(() => running.server, !!opts.tls, opts.apiKey),
  );

  const running = await listen(opts, async (req: IncomingMessage, res: ServerResponse) => {
    const url = requestUrl(req.url);
    const decoded = url && pathSegments(url.pathname);
    const path = normalisePath(decoded ?? []);
    const { segments, azure, deployment } = path;
    const ctx: Ctx = { req, res, requestId: newId('req_'), azure, deployment, started: Date.now(), query: url?.searchParams ?? new URLSearchParams() };
    if (!url || !decoded) return openAiError(ctx, 400, invalid('Invalid URL: the path has malformed percent-encoding.', null, 'invalid_url'));
    // Image URLs are opened without a key, as OpenAI's signed ones are.
    if (req.method === 'GET' && serveStoredImage(ctx, decoded, images)) return;
    if (await serveEntra(req, res, url, `${opts.tls ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`, opts.apiKey, clock.now())) return;
    const key = (azure ? header(req, 'api-key') : undefined) ?? bearer(req);
    // Azure also takes an Entra ID token (from the sandbox's own token endpoint) as Bearer.
    const entraSignedIn = azure && isSandboxEntraToken(bearer(req), opts.apiKey, clock.now());
    if (!entraSignedIn && !safeEqual(key, opts.apiKey)) {
      const shown = key ? `${key.slice(0, 3)}…${key.slice(-2)}` : '';
      const how = azure ? 'an api-key header' : 'an Authorization header (Bearer <key>)';
      return openAiError(
        ctx,
        401,
        invalid(key ? `Incorrect API key provided: ${shown}.` : `You didn't provide an API key. Provide it in ${how}.`, null, key ? 'invalid_api_key' : null),
      );
    }
    if (refuseAzureRequest(ctx, path, models)) return;
    const method = req.method ?? 'GET';
    const route = routes.matchSegments(method, segments);
    if (route.kind !== 'found') return openAiError(ctx, 404, invalid(`Invalid URL (${method} ${url.pathname})`, null, 'unknown_url'));
    return route.handler(ctx, route.params);
  });
  return running;
}
