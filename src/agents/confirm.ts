// Which calls a person should confirm before they run (the editor's prepareInvocation): publishing
// reaches real subscribers, and a language-model call whose estimate passes a threshold spends
// real money. Read-only calls within it are not asked about. Nothing is sent to decide.
import { formatUsd } from '../core/numbers';
import { ToolRefusal, type AgentContext } from './context';
import { planChat } from './llmTool';
import { publishTarget } from './realtimeTools';
import type { LlmChatInput, PublishInput } from './schemas';
import { agentTool, parseInput } from './tools';

/** An LLM call that may cost more than this (its upper-bound estimate) is confirmed first. */
export const CONFIRM_ABOVE_USD = 0.05;
/** Characters of published data shown in the question. */
const SHOWN_DATA_CHARS = 500;

export interface Confirmation {
  title: string;
  /** Markdown-free text: what will happen, to whom, and what it may cost. */
  message: string;
}

/** The question to ask before this call, or undefined when it may run without one. */
export function confirmationFor(ctx: AgentContext, name: string, args: unknown): Confirmation | undefined {
  const t = agentTool(name);
  if (!t) return undefined;
  const input = parseInput(t, args);
  // Input that does not fit is refused by the call itself, before anything is sent.
  if (!input.ok) return undefined;
  try {
    if (name === 'realtime_publish') {
      const p = input.value as PublishInput;
      const conn = publishTarget(ctx, p);
      const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
      const shown = data.length > SHOWN_DATA_CHARS ? `${data.slice(0, SHOWN_DATA_CHARS)}… (${data.length} characters)` : data;
      return {
        title: `Publish to "${p.channel}"?`,
        message: ctx.clients.redactor.text(
          `Publish event "${p.event}" to channel "${p.channel}" on the realtime connection "${conn.name}". Everyone subscribed to the channel receives it.\n\nData: ${shown}`,
        ),
      };
    }
    if (name === 'llm_chat') {
      const plan = planChat(ctx, input.value as LlmChatInput);
      const usd = plan.estimate.usd;
      if (usd === undefined || usd <= CONFIRM_ABOVE_USD) return undefined;
      return {
        title: 'Send a costly language-model request?',
        message: `This call to ${plan.model} on "${plan.connection.name}" may cost up to ${formatUsd(usd)} (~${plan.estimate.promptTokens} tokens in, up to ${plan.estimate.maxOutputTokens} out), more than ${formatUsd(CONFIRM_ABOVE_USD)}.`,
      };
    }
  } catch (e) {
    // A call the rules refuse anyway (no such connection, publishing off) needs no question.
    if (e instanceof ToolRefusal) return undefined;
    throw e;
  }
  return undefined;
}
