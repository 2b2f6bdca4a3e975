// Local OpenAI-compatible service. Endpoints beyond auth and the resource listing are filled in by
// the language-model issue; the shapes follow openai-node and ../shared/protocols.md §2.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, header, newId, safeEqual, sendJson, type SandboxResource } from '../http';
import { listen } from '../listen';
import type { ListenOptions, RunningService } from '../types';

export interface LlmSandboxOptions extends ListenOptions {
  apiKey: string;
}

export const LLM_MODELS = [
  { id: 'sandbox-chat', owned_by: 'sandbox', created: 1_700_000_000 },
  { id: 'sandbox-chat-mini', owned_by: 'sandbox', created: 1_710_000_000 },
  { id: 'sandbox-embed', owned_by: 'sandbox', created: 1_705_000_000 },
];

function openAiError(res: ServerResponse, status: number, message: string, type: string, code: string | null, requestId: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, { 'x-request-id': requestId, ...headers });
}

export async function startLlmSandbox(opts: LlmSandboxOptions): Promise<RunningService> {
  return listen(opts, (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newId('req_');
    const url = new URL(req.url ?? '/', 'http://sandbox');
    // /v1/... is OpenAI-style (Bearer); /openai/v1/... is Azure-style (api-key header, or Bearer).
    const azure = url.pathname.startsWith('/openai/v1/');
    const path = azure ? url.pathname.slice('/openai'.length) : url.pathname;
    const key = (azure ? header(req, 'api-key') : undefined) ?? bearer(req);
    if (!safeEqual(key, opts.apiKey)) {
      const shown = key ? `${key.slice(0, 3)}…${key.slice(-2)}` : '';
      return openAiError(
        res,
        401,
        key ? `Incorrect API key provided: ${shown}.` : "You didn't provide an API key. Provide it in an Authorization header (Bearer <key>).",
        'invalid_request_error',
        key ? 'invalid_api_key' : null,
        requestId,
      );
    }
    if (req.method === 'GET' && path === '/v1/resources') {
      const resources: SandboxResource[] = LLM_MODELS.map((m) => ({ id: m.id, kind: 'model', name: m.id, detail: `owned by ${m.owned_by}` }));
      return sendJson(res, 200, { object: 'list', data: resources }, { 'x-request-id': requestId });
    }
    return openAiError(res, 404, `Unknown request URL: ${req.method} ${url.pathname}.`, 'invalid_request_error', 'unknown_url', requestId);
  });
}
