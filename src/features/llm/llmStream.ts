// One streamed answer from either API a connection may use: chat completions or the Responses API.
// Both are reduced to the same events, so Ask and the playground read one shape. No vscode import.
import type { LlmApi } from '../../core/connections';
import type { ChatRequest, ConversationMessage, LlmClient, ResponseFormat, StreamOptions, TokenUsage, ToolCall } from '../../services/llm';
import type { ResponseInputItem } from '../../services/llm';
import type { StreamTimings } from '../../services/llm';

export type AnswerEvent =
  | { type: 'start'; requestId?: string; status: number }
  | { type: 'delta'; text: string; index: number }
  | { type: 'tool_call'; call: ToolCall }
  | {
      type: 'done';
      finishReason?: string;
      model?: string;
      requestId?: string;
      usage?: TokenUsage;
      toolCalls?: ToolCall[];
      timings: StreamTimings;
    };

/** The request as chat completions take it; the Responses API form is derived from it. */
export type AnswerRequest = ChatRequest;

/**
 * Streams `req` through `api` (chat completions unless the connection or caller chose the
 * Responses API). System messages become the Responses API's `instructions`.
 */
export async function* answerStream(
  client: LlmClient,
  api: LlmApi | undefined,
  req: AnswerRequest,
  opts: StreamOptions = {},
): AsyncGenerator<AnswerEvent, void, undefined> {
  if (api !== 'responses') {
    for await (const e of client.chatStream(req, opts)) {
      if (e.type === 'start' || e.type === 'delta') yield e;
      else if (e.type === 'tool_call') yield { type: 'tool_call', call: e.call };
      else if (e.type === 'done')
        yield {
          type: 'done',
          finishReason: e.finishReason,
          model: e.model,
          requestId: e.requestId,
          usage: e.usage,
          toolCalls: e.toolCalls,
          timings: e.timings,
        };
    }
    return;
  }
  const { instructions, input } = responsesInput(req.messages);
  const stream = client.respondStream(
    {
      model: req.model,
      input,
      ...(instructions ? { instructions } : {}),
      ...(req.maxTokens !== undefined ? { maxOutputTokens: req.maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.topP !== undefined ? { topP: req.topP } : {}),
      ...(req.tools?.length ? { tools: req.tools } : {}),
      ...(req.toolChoice !== undefined ? { toolChoice: req.toolChoice } : {}),
      ...(req.responseFormat ? { responseFormat: req.responseFormat satisfies ResponseFormat } : {}),
    },
    opts,
  );
  for await (const e of stream) {
    if (e.type === 'start') yield e;
    else if (e.type === 'delta') yield { type: 'delta', text: e.text, index: 0 };
    else if (e.type === 'tool_call') yield { type: 'tool_call', call: e.call };
    else if (e.type === 'done') {
      const finishReason = e.toolCalls?.length ? 'tool_calls' : e.status === 'incomplete' ? 'length' : 'stop';
      yield { type: 'done', finishReason, model: e.model, requestId: e.requestId, usage: e.usage, toolCalls: e.toolCalls, timings: e.timings };
    }
  }
}

/** Chat messages as Responses API input items (tool calls and their results included). */
export function responsesInput(messages: readonly ConversationMessage[]): { instructions?: string; input: ResponseInputItem[] } {
  const system: string[] = [];
  const input: ResponseInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'tool') input.push({ type: 'function_call_output', callId: m.toolCallId, output: m.content });
    else if ('toolCalls' in m) {
      if (m.content) input.push({ role: 'assistant', content: m.content });
      for (const c of m.toolCalls) input.push({ type: 'function_call', callId: c.id, name: c.name, arguments: c.arguments });
    } else if (m.role === 'system' || m.role === 'developer') system.push(m.content);
    else input.push({ role: m.role, content: m.content });
  }
  return { ...(system.length ? { instructions: system.join('\n\n') } : {}), input };
}
