// A streamed LLM answer, read as it arrives: chat-completion chunks or the Responses API's named
// events. The text grows as deltas arrive (and is shown live); tool calls are assembled (chat: by
// index, argument fragments in arrival order, as openai-node does; Responses: each function_call
// item when done); the time to the first token is measured. The record's `json` is the assembled
// answer, which llmAnswer.ts reads like a non-streamed one. Lenient: a chunk that is not JSON is
// skipped, as the engine keeps whatever arrived.
import { SseParser } from '../services/llm/sse';
import type { ResponseRecord } from './types';

interface ChatToolPiece {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface StreamEvent {
  /** Responses API events carry their type. */
  type?: string;
  choices?: Array<{ index?: number; delta?: { content?: string | null; tool_calls?: ChatToolPiece[] | null }; finish_reason?: string | null }>;
  model?: string;
  /** The last chat chunk's, when the request asked for `stream_options: {"include_usage": true}`. */
  usage?: unknown;
  delta?: string;
  item?: { type?: string; call_id?: string; name?: string; arguments?: string };
  response?: { model?: string; usage?: unknown; status?: string };
}

interface ToolCallRecord {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface StreamInput {
  maxBodyBytes: number;
  /** performance.now() when the request was sent: the time to first token counts from it. */
  started: number;
  onText(delta: string, text: string): void;
}

export async function readLlmStream(body: AsyncIterable<Uint8Array>, response: ResponseRecord, input: StreamInput): Promise<void> {
  const parser = new SseParser({ maxEventChars: input.maxBodyBytes });
  let content = '';
  let events = 0;
  let finishReason: string | undefined;
  let model: string | undefined;
  let usage: unknown;
  const toolCalls: ToolCallRecord[] = [];
  const firstToken = () => (response.ttftMs ??= performance.now() - input.started);
  const addText = (delta: string) => {
    firstToken();
    if (content.length < input.maxBodyBytes) content += delta;
    else response.truncated = true;
    input.onText(delta, content);
  };
  const onEvent = (data: string) => {
    events++;
    if (data.trim() === '[DONE]') return;
    let e: StreamEvent;
    try {
      e = JSON.parse(data) as StreamEvent;
    } catch {
      return;
    }
    if (e === null || typeof e !== 'object') return;
    if (typeof e.type === 'string') {
      // The Responses API.
      if (e.type === 'response.output_text.delta' && typeof e.delta === 'string' && e.delta) addText(e.delta);
      else if (e.type === 'response.function_call_arguments.delta') firstToken();
      else if (e.type === 'response.output_item.done' && e.item?.type === 'function_call') {
        firstToken();
        toolCalls.push({ id: e.item.call_id ?? '', type: 'function', function: { name: e.item.name ?? '', arguments: e.item.arguments ?? '' } });
      } else if ((e.type === 'response.completed' || e.type === 'response.incomplete') && e.response) {
        model ??= e.response.model;
        if (e.response.usage !== null && typeof e.response.usage === 'object') usage = e.response.usage;
        finishReason = e.response.status;
      } else if (e.type === 'response.created' && e.response) model ??= e.response.model;
      return;
    }
    model ??= e.model;
    if (e.usage !== null && typeof e.usage === 'object') usage = e.usage;
    // With `n` > 1 the chunks of each choice are interleaved: the cell's answer is the first choice, as a plain answer's choices[0] is.
    const choice = e.choices?.find((c) => (c.index ?? 0) === 0);
    finishReason = choice?.finish_reason ?? finishReason;
    for (const piece of choice?.delta?.tool_calls ?? []) {
      firstToken();
      const call = (toolCalls[piece.index ?? 0] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.function.name = piece.function.name;
      call.function.arguments += piece.function?.arguments ?? '';
    }
    const delta = choice?.delta?.content;
    if (typeof delta === 'string' && delta) addText(delta);
  };
  try {
    for await (const chunk of body) {
      response.size += chunk.byteLength;
      parser.push(chunk, onEvent);
    }
  } finally {
    response.text = content;
    const calls = toolCalls.filter((c) => c !== undefined);
    // `usage` in the shape the answer had, so assertions (json.usage.total_tokens) and the viewer's tokens and cost read it alike.
    response.json = {
      content,
      finishReason: finishReason ?? null,
      model: model ?? null,
      events,
      ...(usage !== undefined && { usage }),
      ...(calls.length > 0 && { tool_calls: calls }),
    };
  }
}
