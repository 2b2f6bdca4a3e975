// The vscode-free half of offering LLM connections as VS Code chat models: the models' descriptions
// (ids unique across connections), VS Code's messages turned into the client's conversation, and one
// streamed answer relayed piece by piece. The editor half (src/editor/agents/chatModels.ts) only
// maps these plain shapes to VS Code's classes.
import { chatModelsOf, supportsToolCalls } from '../../catalogue/modelKinds';
import { connectionId, type HttpConnection } from '../../core/connections';
import type { Cancel } from '../../core/cancellation';
import type { LlmApi } from '../../core/connections';
import type { ChatRequest, ConversationMessage, LlmClient, ToolCall, ToolDefinition } from '../../services/llm';
import { estimatePromptTokens } from './costLedger';
import { answerStream } from './llmStream';

/** What a connection does not say about its models: a context most current chat models exceed. */
export const DEFAULT_MAX_INPUT_TOKENS = 128_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;

export interface ChatModelDescription {
  /** `<connectionId>/<model>`: two connections may serve a model of the same name. */
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly detail: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling: boolean };
}

export function chatModelId(conn: Pick<HttpConnection, 'service' | 'name'>, model: string): string {
  return `${connectionId(conn)}/${model}`;
}

/** The model `id` names among `connections`, or undefined when its connection is gone. */
export function findChatModel<C extends Pick<HttpConnection, 'service' | 'name'>>(
  connections: readonly C[],
  id: string,
): { conn: C; model: string } | undefined {
  for (const conn of connections) {
    const prefix = `${connectionId(conn)}/`;
    if (id.startsWith(prefix)) return { conn, model: id.slice(prefix.length) };
  }
  return undefined;
}

/**
 * One model as VS Code lists it. OpenAI-compatible listings report no context size, so the defaults
 * apply; tool calling is claimed only for models known to have it (catalogue/modelKinds.ts).
 */
export function describeChatModel(conn: Pick<HttpConnection, 'service' | 'name'>, model: string): ChatModelDescription {
  return {
    id: chatModelId(conn, model),
    name: `${model} (${conn.name})`,
    family: model,
    version: model,
    detail: conn.name,
    maxInputTokens: DEFAULT_MAX_INPUT_TOKENS,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    capabilities: { toolCalling: supportsToolCalls(model) },
  };
}

/** The chat models of a connection's listing as VS Code lists them: chat models only, in the one order. */
export function describeChatModels(conn: Pick<HttpConnection, 'service' | 'name'>, models: ReadonlyArray<{ id: string }>): ChatModelDescription[] {
  return chatModelsOf(models).map((m) => describeChatModel(conn, m.id));
}

/** A part of a message as VS Code hands it over, reduced to what chat completions can carry. */
export type BridgePart =
  { kind: 'text'; value: string } | { kind: 'toolCall'; callId: string; name: string; input: unknown } | { kind: 'toolResult'; callId: string; text: string };

export interface BridgeMessage {
  role: 'user' | 'assistant' | 'system';
  parts: readonly BridgePart[];
}

/**
 * VS Code's messages as the client's conversation: text parts joined; an assistant turn with tool
 * calls becomes a tool-call message, and each tool result its own `tool` message (as OpenAI wants).
 */
export function toConversation(messages: readonly BridgeMessage[]): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  for (const m of messages) {
    const text = m.parts.flatMap((p) => (p.kind === 'text' ? [p.value] : [])).join('');
    const calls: ToolCall[] = m.parts.flatMap((p) => (p.kind === 'toolCall' ? [{ id: p.callId, name: p.name, arguments: JSON.stringify(p.input ?? {}) }] : []));
    for (const p of m.parts) if (p.kind === 'toolResult') out.push({ role: 'tool', toolCallId: p.callId, content: p.text });
    if (m.role === 'assistant' && calls.length) out.push({ role: 'assistant', content: text || null, toolCalls: calls });
    else if (text || !m.parts.some((p) => p.kind === 'toolResult')) out.push({ role: m.role, content: text });
  }
  return out;
}

/** VS Code's rough count for a text or a message: the estimate the cost checks use (about 4 characters a token). */
export function estimateChatTokens(input: string | BridgeMessage): number {
  const content =
    typeof input === 'string'
      ? input
      : input.parts.map((p) => (p.kind === 'text' ? p.value : p.kind === 'toolResult' ? p.text : JSON.stringify(p.input))).join('');
  return estimatePromptTokens([{ content }]);
}

export interface AnswerSink {
  text(value: string): void;
  toolCall(call: ToolCall): void;
}

/**
 * Streams one answer (`stream: true`, through the connection's API: chat completions or Responses)
 * into `sink` as it arrives. Cancelling aborts the request; a failure is the client's ApiError
 * (status, the service's words, the request id).
 */
export async function streamChatAnswer(
  client: LlmClient,
  api: LlmApi | undefined,
  req: { model: string; messages: readonly ConversationMessage[]; tools?: readonly ToolDefinition[] },
  sink: AnswerSink,
  cancel: Cancel,
): Promise<void> {
  const request: ChatRequest = { model: req.model, messages: req.messages, ...(req.tools?.length ? { tools: req.tools } : {}) };
  for await (const event of answerStream(client, api, request, { cancel })) {
    if (event.type === 'delta' && event.index === 0) sink.text(event.text);
    else if (event.type === 'tool_call') sink.toolCall(event.call);
  }
}
