// Paths OpenAI has shut down, answered as OpenAI answers them today, with the sentence a user needs
// added: what replaced the path. OpenAI answers a removed path as any unknown one, 404
// "Unknown request URL: POST /v1/fine-tunes. Please check the URL for typos, …" (code
// `unknown_url`); the sandbox appends the replacement and the date it was shut down.
// `/v1/engines/{id}/completions` is the exception: OpenAI still answered it as /v1/completions with
// the engine as the model (its retired models then answer "has been deprecated"), so it is served.
import type { PathParams, Router } from '../router';
import { completions } from './completions';
import type { Ctx, LlmService } from './context';
import { openAiError } from './context';

interface RemovedPath {
  /** Path patterns (router syntax) under /v1, every method. */
  patterns: readonly string[];
  shutDown: string;
  replacement: string;
}

/** From OpenAI's deprecations page: the endpoint, the day it stopped answering, what to call instead. */
export const REMOVED_PATHS: readonly RemovedPath[] = [
  {
    patterns: ['/v1/fine-tunes', '/v1/fine-tunes/{rest...}'],
    shutDown: '2024-01-04',
    replacement: 'POST /v1/fine_tuning/jobs (list, retrieve, events and cancel under /v1/fine_tuning/jobs/{id})',
  },
  { patterns: ['/v1/edits'], shutDown: '2024-01-04', replacement: 'POST /v1/chat/completions with the instruction as a message' },
  { patterns: ['/v1/engines/{id}/embeddings'], shutDown: '2024-01-04', replacement: 'POST /v1/embeddings with "model" in the body' },
  {
    patterns: ['/v1/engines/{id}/search', '/v1/answers', '/v1/classifications'],
    shutDown: '2022-12-03',
    replacement: 'POST /v1/embeddings with a vector store, or POST /v1/chat/completions',
  },
  {
    patterns: ['/v1/assistants', '/v1/assistants/{rest...}', '/v1/threads', '/v1/threads/{rest...}'],
    shutDown: '2026-08-26',
    replacement: 'POST /v1/responses (conversation state through previous_response_id)',
  },
];

/** OpenAI's 404 for a removed path, plus the replacement (the part after "Sandbox:" is not OpenAI's). */
function answerRemoved(ctx: Ctx, removed: RemovedPath): void {
  const method = ctx.req.method ?? 'GET';
  const path = (ctx.req.url ?? '/').split('?')[0];
  openAiError(ctx, 404, {
    message: `Unknown request URL: ${method} ${path}. Please check the URL for typos, or see the docs at https://platform.openai.com/docs/api-reference/. (Sandbox: this endpoint was shut down on ${removed.shutDown}; use ${removed.replacement}.)`,
    type: 'invalid_request_error',
    param: null,
    code: 'unknown_url',
  });
}

type Handler = (ctx: Ctx, params: PathParams) => void | Promise<void>;

export function addLegacyRoutes(routes: Router<Handler>, svc: LlmService): void {
  // The engine in the path is the model, as an Azure deployment is (readJson fills in "model").
  routes.add('POST', '/v1/engines/{id}/completions', (ctx, { id }) => completions(svc, { ...ctx, deployment: id }));
  for (const removed of REMOVED_PATHS) {
    for (const pattern of removed.patterns) {
      for (const method of ['GET', 'POST', 'DELETE']) routes.add(method, pattern, (ctx) => answerRemoved(ctx, removed));
    }
  }
}
