import type { Connection, HttpConnection } from '../../core/connections';
import type { OutgoingRequest } from '../../core/http';
import { LLM_REQUEST_ID_HEADERS, LlmClient, modelRateLimitKey, openAiErrorParser } from '../../services/llm';
import type { WorkbenchClients } from '../httpClients';

export function asLlmConnection(c: Connection | undefined): HttpConnection | undefined {
  return c && c.service === 'llm' ? c : undefined;
}

/**
 * An LlmClient for a connection, on the shared HTTP factory (quota, approved credentials, log).
 * `onRequest` sees each request before its key is added (for Copy as cURL).
 */
export function llmClient(s: WorkbenchClients, conn: HttpConnection, onRequest?: (req: OutgoingRequest) => void): LlmClient {
  const http = s.http.create(conn, { parseError: openAiErrorParser, requestIdHeaders: LLM_REQUEST_ID_HEADERS, onRequest });
  return new LlmClient(http, { modelRateLimits: conn.modelRateLimits, rateLimitKey: s.http.rateLimitKey(conn) });
}

export interface RequestsLeft {
  left: number;
  limit: number;
  /** True when the model's own limit is the tighter one. */
  modelLimited: boolean;
}

/** Requests that may still start this minute under the client-side limits (connection and model). */
export function requestsLeft(s: WorkbenchClients, conn: HttpConnection, model: string | undefined): RequestsLeft {
  const connLeft = s.http.limiter.remaining(s.http.rateLimitKey(conn), conn.rateLimitPerMinute);
  const perModel = model ? conn.modelRateLimits[model] : undefined;
  if (model && perModel) {
    const modelLeft = s.http.limiter.remaining(modelRateLimitKey(s.http.rateLimitKey(conn), model), perModel);
    if (modelLeft < connLeft || perModel < conn.rateLimitPerMinute)
      return { left: Math.min(modelLeft, connLeft), limit: Math.min(perModel, conn.rateLimitPerMinute), modelLimited: true };
  }
  return { left: connLeft, limit: conn.rateLimitPerMinute, modelLimited: false };
}
