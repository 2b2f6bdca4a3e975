// The playground's conversation: turns as the user sees them, what is sent for them, and one exchange
// with the model — streaming the answer, running the tool calls it asks for and sending their
// results back until it answers in text (or a round limit is reached). Failures are turns of their
// own; nothing that arrived is dropped. No vscode import (tested in plain mocha).
import type { LlmApi } from '../../core/connections';
import type { RetryNotice } from '../../core/http';
import type { ChatRequest, ConversationMessage, LlmClient, ResponseFormat, TokenUsage, ToolCall } from '../../services/llm';
import { costOf } from '../../services/llm';
import type { PlaygroundSettings, Turn } from '../../services/llm/playgroundMessages';
import { estimateStoppedUsage } from './costLedger';
import { answerStream } from './llmStream';
import { checkSchema, validateJsonText } from './playgroundSchema';
import type { ToolBox } from './playgroundTools';
import { errorText } from '../../core/errors';

type AssistantTurn = Extract<Turn, { kind: 'assistant' }>;
type ToolTurn = Extract<Turn, { kind: 'tool' }>;

/** Tool rounds one Send may take before the playground stops asking the model. */
export const MAX_TOOL_ROUNDS = 6;

/** The chat messages the turns stand for: error turns and empty answers are not sent. */
export function messagesOf(system: string, turns: readonly Turn[]): ConversationMessage[] {
  const out: ConversationMessage[] = system.trim() ? [{ role: 'system', content: system }] : [];
  for (const t of turns) {
    if (t.kind === 'user') out.push({ role: 'user', content: t.text });
    else if (t.kind === 'assistant') {
      if (t.toolCalls?.length) out.push({ role: 'assistant', content: t.text || null, toolCalls: t.toolCalls });
      else if (t.text) out.push({ role: 'assistant', content: t.text });
    } else if (t.kind === 'tool') out.push({ role: 'tool', toolCallId: t.callId, content: t.result ?? JSON.stringify({ error: 'The tool did not finish.' }) });
  }
  return out;
}

/** The turns up to (not including) user turn `index`, then that turn with its new text. */
export function editTurn(turns: readonly Turn[], index: number, text: string): Turn[] {
  const t = turns[index];
  if (t?.kind !== 'user') throw new Error(`Turn ${index + 1} is not one of your messages, so it cannot be edited and resent.`);
  return [...turns.slice(0, index), { kind: 'user', text }];
}

/** The request the settings and turns make (model parameters, format, tools). */
export async function requestOf(settings: PlaygroundSettings, turns: readonly Turn[], tools?: ToolBox): Promise<ChatRequest> {
  return {
    model: settings.model,
    messages: messagesOf(settings.system, turns),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(settings.stop.length ? { stop: settings.stop } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
    ...(tools && tools.definitions.length ? { tools: tools.definitions } : {}),
    ...(await formatOf(settings)),
  };
}

async function formatOf(settings: PlaygroundSettings): Promise<{ responseFormat?: ResponseFormat }> {
  if (settings.responseFormat === 'text') return {};
  if (settings.responseFormat === 'json_object') return { responseFormat: { type: 'json_object' } };
  const check = await checkSchema(settings.schemaText);
  if (!check.ok) throw new Error(check.message);
  const title = typeof check.schema.title === 'string' ? check.schema.title.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) : '';
  return { responseFormat: { type: 'json_schema', name: title || 'answer', schema: check.schema, strict: true } };
}

export interface ExchangeOptions {
  client: LlmClient;
  api: LlmApi;
  settings: PlaygroundSettings;
  /** The conversation, ending with the user turn to answer; turns are appended to it in place. */
  turns: Turn[];
  tools?: ToolBox;
  signal: AbortSignal;
  /** Something changed in `turns` (a delta, a new turn): redraw. */
  onChange: () => void;
  describeError: (e: unknown) => string;
  /** Prices per model (defaults to the built-in table). */
  price?: (model: string, usage: TokenUsage) => number | undefined;
  /** Asked before each request of the exchange (the daily budget); false: not sent, the turns are kept. */
  maySend?: (req: ChatRequest) => Promise<boolean>;
  /** A request finished with token usage (today's cost total). */
  onUsage?: (model: string, usage: TokenUsage) => void;
  maxRounds?: number;
  /** Extra request headers (the sandbox's test controls). */
  headers?: Record<string, string>;
}

export type ExchangeOutcome = 'answered' | 'stopped' | 'failed' | 'round-limit';

/**
 * Sends the conversation and appends the answer: text as it streams, tool calls (run, shown and
 * sent back) until the model answers in text. Resolves when it has; never throws.
 */
export async function runExchange(o: ExchangeOptions): Promise<ExchangeOutcome> {
  const maxRounds = o.maxRounds ?? MAX_TOOL_ROUNDS;
  const price = o.price ?? ((model: string, usage: TokenUsage) => costOf(model, usage)?.totalUsd);
  for (let round = 0; ; round++) {
    let req: ChatRequest;
    try {
      req = await requestOf(o.settings, o.turns, o.tools);
    } catch (e) {
      o.turns.push({ kind: 'error', text: errorText(e) });
      o.onChange();
      return 'failed';
    }
    if (o.maySend && !(await o.maySend(req))) {
      o.turns.push({ kind: 'error', text: 'Not sent: it may pass your daily language-model budget (apiWorkbench.llm.dailyBudget).' });
      o.onChange();
      return 'failed';
    }
    const answer: AssistantTurn = { kind: 'assistant', text: '', streaming: true };
    o.turns.push(answer);
    o.onChange();
    const started = performance.now();
    let requestId: string | undefined;
    let calls: ToolCall[] = [];
    try {
      const onRetry = (n: RetryNotice) => {
        const why = n.error.status === 429 ? 'Rate limited (HTTP 429)' : n.error.status ? `HTTP ${n.error.status}` : n.error.kind;
        answer.note = `${why}: retrying in ${Math.ceil(n.delayMs / 1000)} s…`;
        o.onChange();
      };
      for await (const e of answerStream(o.client, o.api, req, { cancel: o.signal, onRetry, ...(o.headers ? { headers: o.headers } : {}) })) {
        if (e.type === 'start') {
          requestId = e.requestId;
          answer.note = undefined;
        } else if (e.type === 'delta' && e.index === 0) {
          answer.text += e.text;
          o.onChange();
        } else if (e.type === 'done') {
          calls = e.toolCalls ?? [];
          const model = e.model ?? req.model;
          if (e.usage) o.onUsage?.(model, e.usage);
          answer.stats = {
            api: o.api,
            model,
            tokensIn: e.usage?.prompt_tokens,
            tokensOut: e.usage?.completion_tokens,
            latencyMs: Math.round(e.timings.totalMs),
            ...(e.timings.firstTokenMs !== undefined ? { firstTokenMs: Math.round(e.timings.firstTokenMs) } : {}),
            ...(e.usage && price(model, e.usage) !== undefined ? { costUsd: price(model, e.usage) } : {}),
            ...(e.requestId ? { requestId: e.requestId } : {}),
            ...(e.finishReason ? { finishReason: e.finishReason } : {}),
          };
        }
      }
    } catch (e) {
      answer.streaming = false;
      answer.note = undefined;
      if (o.signal.aborted) {
        answer.stopped = true;
        answer.stats = { api: o.api, model: req.model, latencyMs: Math.round(performance.now() - started), ...(requestId ? { requestId } : {}) };
        const usage = estimateStoppedUsage(req.messages, answer.text, requestId !== undefined);
        if (usage) {
          const cost = price(req.model, usage);
          answer.stats = {
            ...answer.stats,
            tokensIn: usage.prompt_tokens,
            tokensOut: usage.completion_tokens,
            estimated: true,
            ...(cost !== undefined ? { costUsd: cost } : {}),
          };
          o.onUsage?.(req.model, usage);
        }
        o.onChange();
        return 'stopped';
      }
      if (!answer.text) o.turns.splice(o.turns.indexOf(answer), 1);
      o.turns.push({ kind: 'error', text: o.describeError(e) });
      o.onChange();
      return 'failed';
    }
    answer.streaming = false;
    if (calls.length === 0) {
      await validateAnswer(o.settings, answer);
      o.onChange();
      return 'answered';
    }
    answer.toolCalls = calls;
    o.onChange();
    for (const call of calls) {
      const turn: ToolTurn = { kind: 'tool', callId: call.id, name: call.name, arguments: call.arguments, status: 'running' };
      o.turns.push(turn);
      o.onChange();
      const outcome = o.tools
        ? await o.tools.run(call)
        : { status: 'failed' as const, result: JSON.stringify({ error: `The model called "${call.name}" but no tools are switched on.` }) };
      turn.status = outcome.status;
      turn.result = outcome.result;
      if (outcome.ranOn) turn.ranOn = outcome.ranOn;
      o.onChange();
      if (o.signal.aborted) return 'stopped';
    }
    if (round + 1 >= maxRounds) {
      o.turns.push({ kind: 'error', text: `Stopped after ${maxRounds} rounds of tool calls without a text answer. Send again to let the model continue.` });
      o.onChange();
      return 'round-limit';
    }
  }
}

/** With a json_schema format, the answer is checked against the schema field by field. */
async function validateAnswer(settings: PlaygroundSettings, answer: AssistantTurn): Promise<void> {
  if (settings.responseFormat !== 'json_schema' || !answer.text) return;
  const check = await checkSchema(settings.schemaText);
  if (!check.ok) return;
  const problems = validateJsonText(check, answer.text);
  answer.validation = { ok: problems.length === 0, problems };
}
