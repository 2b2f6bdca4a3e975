// What callers of LlmClient pass and get back. Field names are the extension's (camelCase); the
// client maps them to OpenAI's wire names.
import type { TokenUsage } from './schemas';

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** A function call the model asked for; `arguments` is the JSON text exactly as the server sent it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The assistant turn that asked for tools, to send back with their results. */
export interface ToolCallMessage {
  role: 'assistant';
  content: string | null;
  toolCalls: readonly ToolCall[];
}

/** The result of one tool call, answering the call with that id. */
export interface ToolResultMessage {
  role: 'tool';
  toolCallId: string;
  content: string;
}

export type ConversationMessage = ChatMessage | ToolCallMessage | ToolResultMessage;

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: Readonly<Record<string, unknown>>;
  /** Ask the server to keep arguments to the schema exactly (OpenAI structured outputs). */
  strict?: boolean;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** Structured output: plain text, any JSON object, or JSON conforming to a schema. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Readonly<Record<string, unknown>>; description?: string; strict?: boolean };

export interface ChatRequest {
  model: string;
  messages: readonly ConversationMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Up to 4 sequences where the answer stops. */
  stop?: readonly string[];
  /** Best-effort determinism (OpenAI: same seed and parameters, mostly the same answer). */
  seed?: number;
  tools?: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  /** false: at most one tool call per turn. */
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
}

export interface StreamTimings {
  /** From the call to the response head (includes client-side queueing and retries). */
  headersMs: number;
  /** From the call to the first content delta, if any arrived. */
  firstTokenMs?: number;
  totalMs: number;
}

export type ChatStreamEvent =
  | { type: 'start'; requestId?: string; status: number }
  | { type: 'delta'; text: string; index: number }
  | { type: 'refusal'; text: string; index: number }
  /** A piece of a tool call as it arrives (name and id on its first piece), for live display. */
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; arguments: string }
  /** A tool call, complete: its argument fragments joined in order. */
  | { type: 'tool_call'; index: number; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  | {
      type: 'done';
      finishReason?: string;
      id?: string;
      model?: string;
      requestId?: string;
      usage?: TokenUsage;
      /** Every tool call of the answer, in index order (absent when there were none). */
      toolCalls?: ToolCall[];
      timings: StreamTimings;
    };

export interface ChatResult {
  text: string;
  finishReason?: string;
  id?: string;
  model?: string;
  usage?: TokenUsage;
  /** The tool calls the model asked for (absent when it answered in text). */
  toolCalls?: ToolCall[];
  requestId?: string;
  durationMs: number;
}

/** Wire form of a chat request body. */
export function chatRequestBody(req: ChatRequest): Record<string, unknown> {
  const messages = req.messages.map((m) => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    if ('toolCalls' in m) {
      return {
        role: 'assistant',
        content: m.content,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    }
    return m;
  });
  const format = req.responseFormat;
  return {
    model: req.model,
    messages,
    ...(req.maxTokens !== undefined ? { max_completion_tokens: req.maxTokens } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.topP !== undefined ? { top_p: req.topP } : {}),
    ...(req.stop?.length ? { stop: req.stop } : {}),
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    ...(req.tools?.length ? { tools: req.tools.map((t) => ({ type: 'function', function: t })) } : {}),
    ...(req.toolChoice !== undefined
      ? { tool_choice: typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } } }
      : {}),
    ...(req.parallelToolCalls !== undefined ? { parallel_tool_calls: req.parallelToolCalls } : {}),
    ...(format
      ? {
          response_format:
            format.type === 'json_schema'
              ? { type: 'json_schema', json_schema: { name: format.name, description: format.description, schema: format.schema, strict: format.strict } }
              : format,
        }
      : {}),
  };
}
