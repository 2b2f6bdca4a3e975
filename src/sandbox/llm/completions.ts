// POST /v1/completions: OpenAI's legacy text completions (gpt-3.5-turbo-instruct, davinci-002,
// babbage-002). The answer to a prompt is the chat answer to it as one user message, cut at
// `max_tokens` (16 when not given, as OpenAI's default is); `n` choices per prompt of an array
// (prompt-major: prompt p's choice c has index p * n + c, as OpenAI numbers them);
// `echo` puts the prompt first, `logprobs: n` adds the legacy logprobs object. A stream is the
// same choices as `text_completion` chunks, written at once (the paced chat streams cover pacing).
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { estimateTokens, sandboxAnswerTokens, sandboxFinishReason, type SandboxMessage } from './answer';
import { admit, baseHeaders, openAiError, readJson, type Ctx, type LlmService } from './context';
import { completionLogprobs } from './logprobs';
import { choiceCount, choiceCountRefusal, parseRequest } from './requests';

/** OpenAI's default `max_tokens` for legacy completions. */
const DEFAULT_MAX_TOKENS = 16;
/** Prompts per request: each is a choice the sandbox computes. */
const MAX_PROMPTS = 128;

const completionsRequestSchema = z.object({
  model: z.string(),
  prompt: z.union([z.string(), z.array(z.string()).check(z.minLength(1), z.maxLength(MAX_PROMPTS)), z.array(z.int()), z.array(z.array(z.int()))]),
  max_tokens: z.optional(z.nullable(z.int().check(z.gte(0)))),
  logprobs: z.optional(z.nullable(z.int().check(z.gte(0), z.lte(5)))),
  echo: z.optional(z.nullable(z.boolean())),
  stream: z.optional(z.nullable(z.boolean())),
  stream_options: z.optional(z.nullable(z.object({ include_usage: z.optional(z.boolean()) }))),
  n: choiceCount,
  temperature: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(2)))),
  suffix: z.optional(z.nullable(z.string())),
});

interface Choice {
  text: string;
  index: number;
  logprobs: ReturnType<typeof completionLogprobs> | null;
  finish_reason: 'stop' | 'length';
}

/** Token-id prompts are read as their decimal text, which keeps them deterministic too. */
function promptTexts(prompt: z.infer<typeof completionsRequestSchema>['prompt']): string[] {
  if (typeof prompt === 'string') return [prompt];
  if (prompt.every((p) => typeof p === 'number')) return [prompt.join(',')];
  return prompt.map((p) => (typeof p === 'string' ? p : p.join(',')));
}

export async function completions(svc: LlmService, ctx: Ctx): Promise<void> {
  const json = await readJson(ctx);
  if (!json.ok) return;
  const parsed = parseRequest(completionsRequestSchema, json.value);
  if (!parsed.ok) return openAiError(ctx, 400, parsed.error);
  const body = parsed.value;
  const nRefusal = choiceCountRefusal(body.n);
  if (nRefusal) return openAiError(ctx, 400, nRefusal);
  const modelId = ctx.deployment ?? body.model;
  const prompts = promptTexts(body.prompt);
  const maxTokens = body.max_tokens ?? DEFAULT_MAX_TOKENS;
  const n = body.n ?? 1;
  const answers = prompts.flatMap((prompt) => {
    const messages: SandboxMessage[] = [{ role: 'user', content: prompt }];
    return Array.from({ length: n }, (_, choice) => {
      const opts = { maxTokens, choice };
      return { prompt, tokens: sandboxAnswerTokens(messages, modelId, opts), finish: sandboxFinishReason(messages, modelId, opts) };
    });
  });
  const promptTokens = prompts.reduce((sum, p) => sum + estimateTokens(p), 0);
  const completionTokens = answers.reduce((sum, a) => sum + a.tokens.length, 0);
  const admitted = admit(svc, ctx, modelId, 'completion', promptTokens + completionTokens);
  if (!admitted) return;
  const choices: Choice[] = answers.map((a, index) => {
    const echoed = body.echo ? a.prompt : '';
    return {
      text: echoed + a.tokens.join(''),
      index,
      logprobs: body.logprobs === undefined || body.logprobs === null ? null : completionLogprobs(a.tokens, body.logprobs, echoed.length),
      finish_reason: a.finish,
    };
  });
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const head = {
    id: newId('cmpl-'),
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: admitted.model.id,
    system_fingerprint: 'fp_sandbox',
  };
  const headers = { ...baseHeaders(ctx), ...admitted.headers };
  if (!body.stream) return sendJson(ctx.res, 200, { ...head, choices, usage }, headers);

  const frames: string[] = [];
  const frame = (data: unknown) => frames.push(`data: ${JSON.stringify(data)}\n\n`);
  choices.forEach((c, index) => {
    const tokens = answers[index].tokens;
    const echoed = body.echo ? answers[index].prompt : '';
    const pieces = echoed ? [echoed, ...tokens] : tokens;
    pieces.forEach((piece, i) => {
      const tokenAt = echoed ? i - 1 : i;
      const logprobs = c.logprobs && tokenAt >= 0 ? completionLogprobs([tokens[tokenAt]], body.logprobs ?? 0, c.logprobs.text_offset[tokenAt], tokenAt) : null;
      frame({ ...head, choices: [{ text: piece, index, logprobs, finish_reason: null }] });
    });
    frame({ ...head, choices: [{ text: '', index, logprobs: null, finish_reason: c.finish_reason }] });
  });
  if (body.stream_options?.include_usage) frame({ ...head, choices: [], usage });
  ctx.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
  ctx.res.end(frames.join('') + 'data: [DONE]\n\n');
}
