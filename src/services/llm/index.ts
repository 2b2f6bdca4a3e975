// The language-model service client (no `vscode` import): see client.ts.
export { LlmClient, ChatStreamDecoder, modelRateLimitKey } from './client';
export type { ChatMessage, ChatRequest, ChatResult, ChatRole, ChatStreamEvent, CallOptions, StreamOptions, StreamTimings, EmbeddingsRequest, EmbeddingsResult, LlmClientOptions } from './client';
export { openAiErrorParser, errorInfo } from './errors';
export { SseParser, SseError, type SseListener, type SseParserOptions } from './sse';
export * from './schemas';

/** Where an OpenAI-compatible server puts its request id (Azure adds apim-request-id). */
export const LLM_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id'] as const;
