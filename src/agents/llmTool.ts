// llm_chat: one (non-streamed) answer from a language-model connection, with its token usage and
// what it cost at the price table's rates; its worst-case cost is reserved from the budget before
// sending (refused when that would pass it) and settled to what it cost after.
import type { HttpConnection } from '../core/connections';
import { formatUsd } from '../core/numbers';
import { nothingBilled } from './budget';
import { llmClient } from '../features/llm/clients';
import { estimateCost, type CostEstimate } from '../features/llm/costLedger';
import { costOf, type ChatMessage } from '../services/llm';
import { pickConnection, ToolRefusal, type AgentContext } from './context';
import { clip, type ToolOutput } from './result';
import type { LlmChatInput } from './schemas';

/** The chat a call asks for, and what it may cost at most. */
export interface PlannedChat {
  connection: HttpConnection;
  model: string;
  messages: ChatMessage[];
  estimate: CostEstimate;
}

/** Resolves the call's connection and model and estimates its cost, sending nothing (prepareInvocation uses it too). */
export function planChat(ctx: AgentContext, input: LlmChatInput): PlannedChat {
  const connection = pickConnection(ctx, 'llm', input.connection);
  if (connection.service !== 'llm') throw new ToolRefusal(`"${connection.name}" is not a language-model connection`);
  const model = input.model ?? ctx.defaultModel?.(connection);
  if (!model) throw new ToolRefusal(`say which model to use: call list_resources with service "llm" to see the models of "${connection.name}"`);
  const messages: ChatMessage[] = input.messages ?? [{ role: 'user', content: input.prompt ?? '' }];
  return { connection, model, messages, estimate: estimateCost(model, messages, input.maxTokens, ctx.prices) };
}

export async function llmChat(ctx: AgentContext, input: LlmChatInput, signal?: AbortSignal): Promise<ToolOutput> {
  const plan = planChat(ctx, input);
  // Reserved before sending, so calls running at once cannot together pass the budget.
  const reserved = ctx.budget?.reserve(plan.estimate);
  if (reserved?.refusal !== undefined) throw new ToolRefusal(reserved.refusal);
  // Under a budget the answer is held to the output tokens reserved for it.
  const maxTokens = input.maxTokens ?? (ctx.budget ? plan.estimate.maxOutputTokens : undefined);
  const client = llmClient(ctx.clients, plan.connection);
  let answer;
  try {
    answer = await client.chat({ model: plan.model, messages: plan.messages, maxTokens }, { cancel: signal });
  } catch (e) {
    reserved?.reservation.settle(nothingBilled(e) ? 0 : undefined);
    throw e;
  }
  const cost = answer.usage ? costOf(answer.model ?? plan.model, answer.usage, ctx.prices) : undefined;
  reserved?.reservation.settle(cost?.totalUsd);
  if (answer.usage) ctx.spent?.(answer.model ?? plan.model, answer.usage);
  const shown = clip(answer.text, ctx.maxResultChars);
  const usage = answer.usage ? `${answer.usage.prompt_tokens} tokens in, ${answer.usage.completion_tokens ?? 0} out` : 'no usage reported';
  const costLine = cost ? formatUsd(cost.totalUsd) : 'unknown (no price for this model)';
  const budgetLine = ctx.budget ? `; budget: ${formatUsd(ctx.budget.spentUsd)} of ${formatUsd(ctx.budget.limitUsd)} spent` : '';
  return {
    text: `${shown.text}\n\n(${answer.model ?? plan.model} on "${plan.connection.name}": ${usage}; cost ${costLine}${budgetLine})`,
    structured: {
      answer: shown.text,
      truncated: shown.truncated,
      model: answer.model ?? plan.model,
      connection: plan.connection.name,
      finishReason: answer.finishReason ?? null,
      usage: answer.usage ? { inputTokens: answer.usage.prompt_tokens, outputTokens: answer.usage.completion_tokens ?? 0 } : null,
      costUsd: cost?.totalUsd ?? null,
      ...(ctx.budget ? { budget: { spentUsd: ctx.budget.spentUsd, limitUsd: ctx.budget.limitUsd } } : {}),
    },
  };
}
