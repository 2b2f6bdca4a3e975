// POST /v1/responses: OpenAI's newer Responses API. The answer is the same as chat completions give
// for the same conversation (instructions become a system message, function_call_output items tool
// messages). Streams are named SSE events, `event: <type>` plus `data: {"type": <type>, …}`, in the
// order OpenAI sends them, ending with `response.completed` (no `[DONE]`).
import type { ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '../../core/clock';
import { newId, sendJson } from '../http';
import { estimatePromptTokens, estimateTokens, sandboxAnswerTokens, sandboxFinishReason, type SandboxMessage } from './answer';
import { admit, baseHeaders, invalid, numberHeader, openAiError, readJson, type Ctx, type LlmService } from './context';
import { parseRequest, responsesRequestSchema, type ResponseInputItem, type ResponsesRequestBody } from './requests';
import { SANDBOX_HEADERS } from './sandboxHeaders';
import { SchemaTooLargeError } from './schemaValue';
import { jsonFragments, planToolCalls, schemaRefusal, structuredAnswer, type ToolChoiceSpec, type ToolSpec } from './tools';

const MIN_TICK_MS = 15;

function itemText(content: ResponseInputItem['content']): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('');
}

/** The conversation as chat messages, so both APIs answer a conversation alike. */
export function responsesMessages(body: ResponsesRequestBody): SandboxMessage[] {
  const out: SandboxMessage[] = body.instructions ? [{ role: 'system', content: body.instructions }] : [];
  if (typeof body.input === 'string') return [...out, { role: 'user', content: body.input }];
  for (const item of body.input) {
    if (item.type === 'function_call_output') out.push({ role: 'tool', content: item.output ?? '' });
    else if (item.type === 'function_call') out.push({ role: 'assistant', content: '' });
    else if (item.role) out.push({ role: item.role, content: itemText(item.content) });
  }
  return out;
}

type OutputItem =
  | {
      id: string;
      type: 'message';
      status: string;
      role: 'assistant';
      content: { type: 'output_text'; text: string; annotations: never[]; logprobs: never[] }[];
    }
  | { id: string; type: 'function_call'; status: string; call_id: string; name: string; arguments: string };

interface Planned {
  /** Per output item, the pieces its text or arguments stream in. */
  pieces: string[][];
  items: OutputItem[];
  incomplete: boolean;
  outputTokens: number;
}

function functionTools(body: ResponsesRequestBody): ToolSpec[] {
  return (body.tools ?? [])
    .filter((t) => t.type === 'function' && t.name)
    .map((t) => ({ name: t.name ?? '', description: t.description, parameters: t.parameters, strict: t.strict }));
}

function plan(body: ResponsesRequestBody, messages: SandboxMessage[], modelId: string): Planned {
  const tools = functionTools(body);
  const c = body.tool_choice;
  const choice: ToolChoiceSpec = c === undefined ? 'auto' : typeof c === 'string' ? c : { name: c.name };
  const calls = planToolCalls(messages, tools, choice, true);
  if (calls.length > 0) {
    const items: OutputItem[] = calls.map((call) => ({
      id: newId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: newId('call_'),
      name: call.name,
      arguments: call.arguments,
    }));
    return {
      items,
      pieces: calls.map((call) => jsonFragments(call.arguments)),
      incomplete: false,
      outputTokens: calls.reduce((n, call) => n + 4 + estimateTokens(call.arguments), 0),
    };
  }
  const maxTokens = body.max_output_tokens ?? undefined;
  const format = body.text?.format;
  let tokens: string[];
  let incomplete: boolean;
  if (format && format.type !== 'text') {
    const all = jsonFragments(
      structuredAnswer(messages, format.type === 'json_schema' ? format.schema : undefined, format.type === 'json_schema' && format.strict === true),
    );
    tokens = maxTokens === undefined ? all : all.slice(0, maxTokens);
    incomplete = tokens.length < all.length;
  } else {
    tokens = sandboxAnswerTokens(messages, modelId, { maxTokens });
    incomplete = sandboxFinishReason(messages, modelId, { maxTokens }) === 'length';
  }
  const text = tokens.join('');
  const item: OutputItem = {
    id: newId('msg_'),
    type: 'message',
    status: incomplete ? 'incomplete' : 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
  return { items: [item], pieces: [tokens], incomplete, outputTokens: tokens.length };
}

export async function responses(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(responsesRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const modelId = ctx.deployment ?? body.model;
  const rate = numberHeader(ctx.req, SANDBOX_HEADERS.tokenRate);
  if (rate === 'invalid') return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.tokenRate}: expected tokens per second (0 = unthrottled).`));
  const format = body.text?.format?.type === 'json_schema' ? body.text.format : undefined;
  const refusal = schemaRefusal(functionTools(body), (i) => `tools[${i}].parameters`, format);
  if (refusal)
    return openAiError(
      ctx,
      400,
      invalid(refusal.message.replace("response_format '", "text.format '"), refusal.param === 'response_format' ? 'text.format.schema' : refusal.param),
    );
  const messages = responsesMessages(body);
  let planned: Planned;
  try {
    planned = plan(body, messages, modelId);
  } catch (e) {
    if (e instanceof SchemaTooLargeError) return openAiError(ctx, 400, invalid(e.message, format ? 'text.format.schema' : 'tools'));
    throw e;
  }
  const inputTokens = estimatePromptTokens(messages);
  const admitted = admit(svc, ctx, modelId, 'chat', inputTokens + planned.outputTokens);
  if (!admitted) return;
  const headers = { ...baseHeaders(ctx), ...admitted.headers };
  const response = {
    id: newId('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: planned.incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: planned.incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: admitted.model.id,
    output: planned.items,
    parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: planned.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + planned.outputTokens,
    },
    metadata: {},
    store: body.store ?? true,
  };
  if (!body.stream) return sendJson(ctx.res, 200, response, headers);
  writeEvents(ctx.res, streamEvents(response, planned), rate ?? admitted.model.tokenRate ?? svc.defaultRate, headers, svc.clock);
}

type ResponseObject = { status: string; usage: unknown; output: OutputItem[] } & Record<string, unknown>;

/** The events of a streamed response: `paced` are the deltas (sent at the token rate), the rest at once. */
function streamEvents(response: ResponseObject, planned: Planned): { head: string[]; paced: string[]; tail: string[] } {
  let seq = 0;
  const ev = (type: string, fields: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
  const pending = { ...response, status: 'in_progress', incomplete_details: null, output: [], usage: null };
  const head = [ev('response.created', { response: pending }), ev('response.in_progress', { response: pending })];
  const paced: string[] = [];
  planned.items.forEach((item, outputIndex) => {
    const pieces = planned.pieces[outputIndex];
    const target = outputIndex === 0 ? head : paced;
    if (item.type === 'message') {
      const text = item.content[0].text;
      target.push(ev('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } }));
      target.push(
        ev('response.content_part.added', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const delta of pieces)
        paced.push(ev('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] }));
      paced.push(ev('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text, logprobs: [] }));
      paced.push(
        ev('response.content_part.done', {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          part: { type: 'output_text', text, annotations: [] },
        }),
      );
    } else {
      target.push(ev('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } }));
      for (const delta of pieces) paced.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta }));
      paced.push(ev('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: item.arguments }));
    }
    paced.push(ev('response.output_item.done', { output_index: outputIndex, item }));
  });
  const tail = [ev(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response })];
  return { head, paced, tail };
}

/** Writes the head at once and the paced events at `rate` per second (0 = all at once). */
function writeEvents(
  res: ServerResponse,
  events: { head: string[]; paced: string[]; tail: string[] },
  rate: number,
  headers: Record<string, string>,
  clock: Clock,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  const { head, paced, tail } = events;
  if (rate <= 0) {
    res.end(head.join('') + paced.join('') + tail.join(''));
    return;
  }
  res.write(head.join(''));
  const started = clock.now();
  let sent = 0;
  let timer: TimerHandle | undefined;
  res.on('close', () => clock.clearTimer(timer));
  const tick = () => {
    if (res.destroyed) return;
    const due = Math.min(paced.length, Math.floor(((clock.now() - started) / 1000) * rate) + 1);
    const out = paced.slice(sent, due).join('');
    sent = due;
    if (sent >= paced.length) return void res.end(out + tail.join(''));
    if (out) res.write(out);
    timer = clock.setTimer(tick, Math.max(MIN_TICK_MS, 1000 / rate), { awaited: true });
  };
  tick();
}
