// The Responses API (`POST /responses`): request body, zod schemas of what comes back, and the
// decoder of its named-event stream (`event: response.output_text.delta` …, ending with
// `response.completed`). Usage is mapped to the chat names so cost and display code serve both.
import * as z from 'zod/mini';
import { once } from '../../core/once';
import { parseJson, validate } from '../../core/validate';
import { errorInfo } from './errors';
import { openAiErrorBodySchema, type TokenUsage } from './schemas';
import { SseStreamDecoder } from './sseDecoder';
import type { ResponseFormat, StreamTimings, ToolCall, ToolChoice, ToolDefinition } from './types';

export type ResponseInputItem =
  | { role: 'system' | 'developer' | 'user' | 'assistant'; content: string }
  | { type: 'function_call'; callId: string; name: string; arguments: string }
  | { type: 'function_call_output'; callId: string; output: string };

export interface ResponseRequest {
  model: string;
  input: string | readonly ResponseInputItem[];
  instructions?: string;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  tools?: readonly ToolDefinition[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
}

export interface ResponseSummary {
  id?: string;
  status?: string;
  model?: string;
  /** All output_text of message items joined, as the SDK's `output_text` is. */
  text: string;
  usage?: TokenUsage;
  /** Function calls the model asked for; `id` is the call_id to answer with function_call_output. */
  toolCalls?: ToolCall[];
}

export interface ResponseResult extends ResponseSummary {
  requestId?: string;
  durationMs: number;
}

export type ResponseStreamEvent =
  | { type: 'start'; requestId?: string; status: number }
  | { type: 'delta'; text: string; outputIndex: number }
  | { type: 'tool_call'; index: number; call: ToolCall }
  | ({ type: 'done'; requestId?: string; timings: StreamTimings } & ResponseSummary);

/** One item of a Responses API answer's `output`: a message (its text parts) or a function call. */
export const outputItemSchema = once(() =>
  z.object({
    type: z.string(),
    content: z.optional(z.nullable(z.array(z.object({ type: z.string(), text: z.optional(z.string()) })))),
    call_id: z.optional(z.string()),
    name: z.optional(z.string()),
    arguments: z.optional(z.string()),
  }),
);

export const responseObjectSchema = once(() =>
  z.object({
    id: z.optional(z.string()),
    status: z.optional(z.nullable(z.string())),
    model: z.optional(z.string()),
    output: z.array(outputItemSchema()),
    usage: z.optional(z.nullable(z.object({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() }))),
  }),
);

const streamEventSchema = once(() =>
  z.object({
    type: z.string(),
    delta: z.optional(z.string()),
    output_index: z.optional(z.number()),
    item: z.optional(outputItemSchema()),
    response: z.optional(responseObjectSchema()),
    message: z.optional(z.nullable(z.string())),
    code: z.optional(z.nullable(z.string())),
  }),
);

export function responseRequestBody(req: ResponseRequest): Record<string, unknown> {
  const input =
    typeof req.input === 'string'
      ? req.input
      : req.input.map((item) => {
          if (!('type' in item)) return { role: item.role, content: item.content };
          return item.type === 'function_call'
            ? { type: 'function_call', call_id: item.callId, name: item.name, arguments: item.arguments }
            : { type: 'function_call_output', call_id: item.callId, output: item.output };
        });
  const format = req.responseFormat;
  const choice = req.toolChoice;
  return {
    model: req.model,
    input,
    ...(req.instructions !== undefined ? { instructions: req.instructions } : {}),
    ...(req.maxOutputTokens !== undefined ? { max_output_tokens: req.maxOutputTokens } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.topP !== undefined ? { top_p: req.topP } : {}),
    // Responses API tools and formats are flat, not nested under `function` / `json_schema`.
    ...(req.tools?.length ? { tools: req.tools.map((t) => ({ type: 'function', ...t })) } : {}),
    ...(choice !== undefined ? { tool_choice: typeof choice === 'string' ? choice : { type: 'function', name: choice.name } } : {}),
    ...(format ? { text: { format } } : {}),
  };
}

/** The caller's view of a response object. */
export function responseResult(r: z.infer<ReturnType<typeof responseObjectSchema>>): ResponseSummary {
  const text = r.output
    .filter((o) => o.type === 'message')
    .flatMap((o) => o.content ?? [])
    .filter((c) => c.type === 'output_text')
    .map((c) => c.text ?? '')
    .join('');
  const toolCalls = r.output.filter((o) => o.type === 'function_call').map((o) => ({ id: o.call_id ?? '', name: o.name ?? '', arguments: o.arguments ?? '' }));
  const u = r.usage;
  return {
    id: r.id,
    status: r.status ?? undefined,
    model: r.model,
    text,
    ...(u ? { usage: { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens, total_tokens: u.total_tokens } } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
  };
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

/** Turns the bytes of a Responses API stream into events; every failure is an ApiError. */
export class ResponsesStreamDecoder extends SseStreamDecoder<ResponseStreamEvent> {
  private final: ResponseSummary | undefined;
  private text = '';
  private calls = 0;

  /** `response.completed` (or `.incomplete`) has arrived. */
  get finished(): boolean {
    return this.final !== undefined;
  }

  end(): ResponseSummary {
    this.throwIfFailed();
    const { truncated } = this.sse.end();
    if (!this.final)
      throw this.error('stream', `${this.service} stream ended before the response was complete${truncated ? ' (in the middle of an event)' : ''}`);
    return this.final;
  }

  protected event(data: string, event: string | undefined): void {
    if (this.failure || this.final) return;
    const parsed = parseJson(data);
    if (!parsed.ok) {
      this.failure = this.error('invalid-response', `${this.service} sent an event that is not JSON: ${data.slice(0, 120)}`);
      return;
    }
    const v = validate(streamEventSchema(), parsed.value);
    const type = v.ok ? v.value.type : event;
    if (type === 'error' || event === 'error' || type === 'response.failed') {
      const body = validate(openAiErrorBodySchema(), parsed.value);
      const info = body.ok
        ? errorInfo(body.value.error)
        : { message: v.ok ? (v.value.message ?? undefined) : undefined, code: v.ok ? (v.value.code ?? undefined) : undefined };
      this.failure = this.error('stream', `${this.service} reported an error mid-stream: ${info.message ?? 'unknown error'}`, info.code, info.message);
      return;
    }
    if (!v.ok) {
      this.failure = this.error('invalid-response', `${this.service} sent an unexpected stream event: ${v.problem}`);
      return;
    }
    const e = v.value;
    if (e.type === 'response.output_text.delta' && e.delta) {
      this.text += e.delta;
      this.out.push({ type: 'delta', text: e.delta, outputIndex: e.output_index ?? 0 });
    } else if (e.type === 'response.output_item.done' && e.item?.type === 'function_call') {
      this.out.push({ type: 'tool_call', index: this.calls++, call: { id: e.item.call_id ?? '', name: e.item.name ?? '', arguments: e.item.arguments ?? '' } });
    } else if (FINAL_EVENTS.has(e.type) && e.response) {
      this.final = responseResult(e.response);
    }
  }
}
