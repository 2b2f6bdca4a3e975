// POST /v1/chat/completions: text answers, tool calls (`tools` / `tool_choice`) and structured
// outputs (`response_format`), plain or streamed as OpenAI streams them, `n` choices of each.
import { header, newId, sendJson } from '../http';
import { estimatePromptTokens, estimateTokens, sandboxAnswerTokens, sandboxFinishReason, type AnswerOptions } from './answer';
import { admit, baseHeaders, invalid, numberHeader, openAiError, readJson, type Ctx, type LlmService } from './context';
import { chatLogprobs, tokenLogprob } from './logprobs';
import { faultAfterTokens } from './models';
import { chatRequestSchema, choiceCountRefusal, parseRequest, type ChatRequestBody } from './requests';
import { SANDBOX_HEADERS, MAX_ANSWER_TOKENS } from './sandboxHeaders';
import { AZURE_FILTER_RESULTS, MID_STREAM_ERROR, writeStream, type StreamedChoice, type Usage } from './stream';
import { SchemaTooLargeError } from './schemaValue';
import { jsonFragments, planToolCalls, schemaRefusal, structuredAnswer, type ToolChoiceSpec } from './tools';

function toolChoiceOf(body: ChatRequestBody): ToolChoiceSpec {
  const c = body.tool_choice;
  if (c === undefined) return 'auto';
  return typeof c === 'string' ? c : { name: c.function.name };
}

/** Text tokens for this request: the prose answer, or JSON when a response_format asks for it. */
function textTokens(body: ChatRequestBody, modelId: string, opts: AnswerOptions): { tokens: string[]; finishReason: 'stop' | 'length' } {
  const format = body.response_format;
  if (format && format.type !== 'text') {
    const schema = format.type === 'json_schema' ? format.json_schema.schema : undefined;
    const strict = format.type === 'json_schema' && format.json_schema.strict === true;
    const tokens = jsonFragments(structuredAnswer(body.messages, schema, strict));
    if (opts.maxTokens !== undefined && opts.maxTokens < tokens.length) return { tokens: tokens.slice(0, opts.maxTokens), finishReason: 'length' };
    return { tokens, finishReason: 'stop' };
  }
  return { tokens: sandboxAnswerTokens(body.messages, modelId, opts), finishReason: sandboxFinishReason(body.messages, modelId, opts) };
}

/** One of the request's `n` answers: tool calls, or text. */
interface ChatChoice {
  toolCalls: { id: string; name: string; arguments: string }[];
  text: { tokens: string[]; finishReason: 'stop' | 'length' | 'tool_calls' };
}

/** completion_tokens of one choice (usage sums them over all choices, as OpenAI bills each). */
function choiceTokens(c: ChatChoice): number {
  return c.toolCalls.length > 0 ? c.toolCalls.reduce((n, t) => n + 4 + estimateTokens(t.name + t.arguments), 0) : c.text.tokens.length;
}

function choiceMessage(c: ChatChoice): Record<string, unknown> {
  if (c.toolCalls.length === 0) return { role: 'assistant', content: c.text.tokens.join(''), refusal: null, annotations: [] };
  return {
    role: 'assistant',
    content: null,
    refusal: null,
    annotations: [],
    tool_calls: c.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })),
  };
}

export async function chatCompletions(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(chatRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const nRefusal = choiceCountRefusal(body.n);
  if (nRefusal) return openAiError(ctx, 400, nRefusal);
  const modelId = ctx.deployment ?? body.model;

  const rate = numberHeader(ctx.req, SANDBOX_HEADERS.tokenRate);
  const answerTokens = numberHeader(ctx.req, SANDBOX_HEADERS.answerTokens);
  if (rate === 'invalid') return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.tokenRate}: expected tokens per second (0 = unthrottled).`));
  if (answerTokens === 'invalid' || (answerTokens !== undefined && (!Number.isInteger(answerTokens) || answerTokens < 1 || answerTokens > MAX_ANSWER_TOKENS))) {
    return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.answerTokens}: expected a whole number from 1 to ${MAX_ANSWER_TOKENS}.`));
  }
  const fault = header(ctx.req, SANDBOX_HEADERS.fault);
  if (fault !== undefined && fault !== 'error' && fault !== 'disconnect') {
    return openAiError(ctx, 400, invalid(`Invalid ${SANDBOX_HEADERS.fault}: expected "error" or "disconnect".`));
  }
  const tools = (body.tools ?? []).map((t) => t.function);
  const choice = toolChoiceOf(body);
  if (typeof choice === 'object' && !tools.some((t) => t.name === choice.name)) {
    return openAiError(
      ctx,
      400,
      invalid(`Invalid value for 'tool_choice': no function named '${choice.name}' was specified in the 'tools' parameter.`, 'tool_choice', 'invalid_value'),
    );
  }
  if (body.top_logprobs !== undefined && body.top_logprobs !== null && body.logprobs !== true) {
    return openAiError(
      ctx,
      400,
      invalid("Invalid value for 'top_logprobs': 'logprobs' must be set to true when 'top_logprobs' is given.", 'top_logprobs', 'invalid_value'),
    );
  }
  if (body.tool_choice !== undefined && tools.length === 0) {
    return openAiError(ctx, 400, invalid("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice', null));
  }

  const format = body.response_format?.type === 'json_schema' ? body.response_format.json_schema : undefined;
  const refusal = schemaRefusal(tools, (i) => `tools[${i}].function.parameters`, format);
  if (refusal) return openAiError(ctx, 400, invalid(refusal.message, refusal.param));

  const answerOpts = { tokens: answerTokens, maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined };
  let choices: ChatChoice[];
  try {
    // The tool decision is a function of the conversation, so every choice makes the same calls (each with its own id).
    const calls = planToolCalls(body.messages, tools, choice, body.parallel_tool_calls ?? true);
    choices = Array.from({ length: body.n ?? 1 }, (_, index) => {
      const toolCalls = calls.map((c) => ({ id: newId('call_'), ...c }));
      const text = toolCalls.length > 0 ? { tokens: [], finishReason: 'tool_calls' as const } : textTokens(body, modelId, { ...answerOpts, choice: index });
      return { toolCalls, text };
    });
  } catch (e) {
    if (e instanceof SchemaTooLargeError) return openAiError(ctx, 400, invalid(e.message, body.response_format ? 'response_format' : 'tools'));
    throw e;
  }
  const completionTokens = choices.reduce((n, c) => n + choiceTokens(c), 0);
  const promptTokens = estimatePromptTokens(body.messages);
  const admitted = admit(svc, ctx, modelId, 'chat', promptTokens + completionTokens);
  if (!admitted) return;
  const { model } = admitted;
  const usage: Usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
  const id = newId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const headers = { ...baseHeaders(ctx), ...admitted.headers };
  const topLogprobs = body.top_logprobs ?? 0;
  const wantsLogprobs = (c: ChatChoice) => body.logprobs === true && c.toolCalls.length === 0;

  if (body.stream) {
    const streamed = choices.map((c): StreamedChoice => {
      const calls = c.toolCalls.length > 0 ? c.toolCalls.map((t) => ({ id: t.id, name: t.name, fragments: jsonFragments(t.arguments) })) : undefined;
      return {
        tokens: c.text.tokens,
        logprobs: wantsLogprobs(c) ? c.text.tokens.map((t, i) => JSON.stringify({ content: [tokenLogprob(t, i, topLogprobs)], refusal: null })) : undefined,
        toolCalls: calls,
        finishReason: c.text.finishReason,
      };
    });
    // Content frames per choice: a tool call's arguments fragments plus the header of each call after the first.
    const length = Math.max(...streamed.map((c) => (c.toolCalls ? c.toolCalls.reduce((n, t) => n + 1 + t.fragments.length, -1) : c.tokens.length)));
    const cut = faultAfterTokens(length);
    return writeStream(
      ctx.res,
      {
        id,
        created,
        model: model.id,
        choices: streamed,
        usage: body.stream_options?.include_usage ? usage : undefined,
        azure: ctx.azure,
        tokenRate: rate ?? model.tokenRate ?? svc.defaultRate,
        errorAfter: model.failsMidStream || fault === 'error' ? cut : undefined,
        disconnectAfter: fault === 'disconnect' ? cut : undefined,
      },
      headers,
      svc.clock,
    );
  }
  if (model.failsMidStream || fault !== undefined) {
    return openAiError(ctx, 500, MID_STREAM_ERROR, admitted.headers);
  }
  const filter = ctx.azure ? { content_filter_results: AZURE_FILTER_RESULTS } : {};
  sendJson(
    ctx.res,
    200,
    {
      id,
      object: 'chat.completion',
      created,
      model: model.id,
      system_fingerprint: 'fp_sandbox',
      choices: choices.map((c, index) => ({
        index,
        message: choiceMessage(c),
        logprobs: wantsLogprobs(c) ? chatLogprobs(c.text.tokens, topLogprobs) : null,
        finish_reason: c.text.finishReason,
        ...filter,
      })),
      usage,
      service_tier: 'default',
      ...(ctx.azure ? { prompt_filter_results: [{ prompt_index: 0, content_filter_results: AZURE_FILTER_RESULTS }] } : {}),
    },
    headers,
  );
}
