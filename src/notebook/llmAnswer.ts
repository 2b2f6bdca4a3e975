// One view of what a language model answered, whichever way it came: a chat completion, a Responses
// API object, or a stream of either (assembled by httpCell.ts into { content, tool_calls, usage, … }).
// The LLM checks (`?? tool_calls[0].name`, `usage.total_tokens`, `cost`, `judge:`, `similar`) read
// this view, so each works the same for both APIs, streamed or not.
import * as z from 'zod/mini';
import { once } from '../core/once';
import { validate } from '../core/validate';
import { costOf } from '../services/llm/pricing';
import { outputItemSchema } from '../services/llm/responses';
import type { LlmSummary, ResponseRecord } from './types';

export interface LlmToolCall {
  id: string;
  name: string;
  /** Parsed from the JSON string the model sent; the string itself when it is not JSON. */
  arguments: unknown;
}

export interface LlmAnswer {
  /** The answer text (chat: message content; Responses: every output_text joined). */
  content: string;
  toolCalls: LlmToolCall[];
  /** Chat names; the Responses API's input/output tokens are given under both names. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number; input_tokens: number; output_tokens: number };
  model?: string;
}

/**
 * The answers' shapes, built when the first answer is read: this module is loaded by every notebook
 * run and editor bundle that runs cells, and schemas built at load made `api-workbench run` load zod
 * before it had parsed its notebook (issue 39).
 */
const schemas = once(() => {
  const toolCall = z.object({
    id: z.optional(z.nullable(z.string())),
    function: z.object({ name: z.string(), arguments: z.optional(z.nullable(z.string())) }),
  });
  const usage = z.object({
    prompt_tokens: z.optional(z.number()),
    completion_tokens: z.optional(z.number()),
    input_tokens: z.optional(z.number()),
    output_tokens: z.optional(z.number()),
    total_tokens: z.optional(z.number()),
  });
  return {
    usage,
    /** A chat completion, and the record httpCell.ts keeps of a streamed answer (either API). */
    chat: z.object({
      model: z.optional(z.nullable(z.string())),
      usage: z.optional(z.nullable(usage)),
      choices: z.optional(
        z.array(
          z.object({
            message: z.optional(z.object({ content: z.optional(z.nullable(z.string())), tool_calls: z.optional(z.nullable(z.array(toolCall))) })),
          }),
        ),
      ),
      content: z.optional(z.nullable(z.string())),
      tool_calls: z.optional(z.nullable(z.array(toolCall))),
    }),
    response: z.object({
      object: z.literal('response'),
      model: z.optional(z.nullable(z.string())),
      usage: z.optional(z.nullable(usage)),
      output: z.array(outputItemSchema()),
    }),
  };
});
type Usage = z.infer<ReturnType<typeof schemas>['usage']>;

function parsedArguments(text: string | null | undefined): unknown {
  if (text === null || text === undefined) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function usageOf(u: Usage | null | undefined): LlmAnswer['usage'] {
  if (!u) return undefined;
  const prompt = u.prompt_tokens ?? u.input_tokens;
  const completion = u.completion_tokens ?? u.output_tokens;
  const total = u.total_tokens ?? (prompt !== undefined && completion !== undefined ? prompt + completion : undefined);
  if (prompt === undefined || total === undefined) return undefined;
  const out = completion ?? Math.max(0, total - prompt);
  return { prompt_tokens: prompt, completion_tokens: out, total_tokens: total, input_tokens: prompt, output_tokens: out };
}

/** What the model answered, or undefined when the response is not a model's answer (an error, /models). */
export function llmAnswerOf(response: ResponseRecord | undefined): LlmAnswer | undefined {
  const json = response?.json;
  if (json === null || typeof json !== 'object') return undefined;
  const r = validate(schemas().response, json);
  if (r.ok) {
    const out = r.value.output;
    return {
      content: out
        .filter((o) => o.type === 'message')
        .flatMap((o) => o.content ?? [])
        .filter((c) => c.type === 'output_text')
        .map((c) => c.text ?? '')
        .join(''),
      toolCalls: out
        .filter((o) => o.type === 'function_call')
        .map((o) => ({ id: o.call_id ?? '', name: o.name ?? '', arguments: parsedArguments(o.arguments) })),
      usage: usageOf(r.value.usage),
      model: r.value.model ?? undefined,
    };
  }
  const c = validate(schemas().chat, json);
  if (!c.ok) return undefined;
  const message = c.value.choices?.[0]?.message;
  const content = message ? message.content : c.value.content;
  const calls = message ? message.tool_calls : c.value.tool_calls;
  if (content === undefined && !calls && !c.value.choices) return undefined;
  return {
    content: content ?? '',
    toolCalls: (calls ?? []).map((t) => ({ id: t.id ?? '', name: t.function.name, arguments: parsedArguments(t.function.arguments) })),
    usage: usageOf(c.value.usage),
    model: c.value.model ?? undefined,
  };
}

/** The model a request asked for (its body's `model`), for pricing when the answer does not say. */
export function requestedModel(body: string | undefined): string | undefined {
  if (!body?.includes('"model"')) return undefined;
  try {
    const v = JSON.parse(body) as { model?: unknown };
    return typeof v.model === 'string' ? v.model : undefined;
  } catch {
    return undefined;
  }
}

/** The cost in USD of an answer, or why it cannot be known. */
export function answerCost(answer: LlmAnswer | undefined): { usd: number } | { unknown: string } {
  if (!answer?.usage)
    return { unknown: 'the answer has no usage (a stream reports it only when the request asks for "stream_options": {"include_usage": true})' };
  const model = answer.model;
  if (!model) return { unknown: 'the answer does not name its model, so its price is not known' };
  const cost = costOf(model, answer.usage);
  // Rounded to 10 decimals (a ten-thousandth of a micro-dollar): 0.0000384, not 0.000038400000000000005.
  return cost
    ? { usd: Number(cost.totalUsd.toFixed(10)) }
    : { unknown: `no price is known for the model "${model}" (the price table has OpenAI's public models)` };
}

/** What reports show of an llm cell: the model, tokens, cost, time to first token and the answer. */
export function llmSummaryOf(response: ResponseRecord | undefined, requestBody: string | undefined): LlmSummary | undefined {
  const answer = llmAnswerOf(response);
  if (!answer) return undefined;
  const model = answer.model ?? requestedModel(requestBody);
  const cost = answerCost({ ...answer, model });
  return {
    ...(model !== undefined && { model }),
    answer: answer.content,
    ...(answer.toolCalls.length > 0 && { toolCalls: answer.toolCalls.map((t) => ({ name: t.name, arguments: JSON.stringify(t.arguments) })) }),
    ...(answer.usage && { tokens: { prompt: answer.usage.prompt_tokens, completion: answer.usage.completion_tokens, total: answer.usage.total_tokens } }),
    ...('usd' in cost && { costUsd: cost.usd }),
    ...(response?.ttftMs !== undefined && { ttftMs: response.ttftMs }),
  };
}
