// The language-model service client (no `vscode` import): see client.ts.
export { LlmClient, modelRateLimitKey } from './client';
export type { CallOptions, StreamOptions, EmbeddingsRequest, EmbeddingsResult, LlmClientOptions } from './client';
export { ChatStreamDecoder } from './chatStream';
export type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  ChatRole,
  ChatStreamEvent,
  StreamTimings,
  ConversationMessage,
  ToolCall,
  ToolCallMessage,
  ToolResultMessage,
  ToolDefinition,
  ToolChoice,
  ResponseFormat,
} from './types';
export {
  ResponsesStreamDecoder,
  type ResponseRequest,
  type ResponseResult,
  type ResponseStreamEvent,
  type ResponseInputItem,
  type ResponseSummary,
} from './responses';
export { costOf, priceOf, PRICES, type ModelPrice, type Cost } from './pricing';
export { openAiErrorParser, errorInfo } from './errors';
export { SseParser, SseError, type SseListener, type SseParserOptions } from './sse';
export * from './schemas';

/** Where an OpenAI-compatible server puts its request id (Azure adds apim-request-id). */
export const LLM_REQUEST_ID_HEADERS = ['x-request-id', 'apim-request-id'] as const;
