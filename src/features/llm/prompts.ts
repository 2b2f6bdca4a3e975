// What the LLM commands send and how their answer documents read. No `vscode` import: the unit
// suite and the in-editor tests build the exact same messages and text from here.
import { isApiError, requestIdSuffix, errorText } from '../../core/errors';
import type { ChatMessage, TokenUsage } from '../../services/llm';
import { formatMs as ms } from '../../core/numbers';

export const SELECTION_SYSTEM_PROMPT = 'You are a careful senior engineer. Answer about the code the user selected, in Markdown, briefly.';
export const EXPLAIN_QUESTION = 'Explain what this code does, step by step, and point out anything surprising.';

/** Separates the answer from the note that ends the document (stats, cancellation or error). */
export const ANSWER_END = '\n\n---\n';

export interface SelectionContext {
  code: string;
  languageId: string;
  /** Shown to the model and in the document, e.g. "src/app.ts:12-20". */
  where: string;
}

/** A fence longer than any backtick run in the code, so the selection cannot close it early. */
function fence(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function askMessages(prompt: string): ChatMessage[] {
  return [{ role: 'user', content: prompt }];
}

export function selectionMessages(question: string, sel: SelectionContext): ChatMessage[] {
  const f = fence(sel.code);
  return [
    { role: 'system', content: SELECTION_SYSTEM_PROMPT },
    { role: 'user', content: `${question}\n\nFrom ${sel.where}:\n\n${f}${sel.languageId}\n${sel.code}\n${f}` },
  ];
}

/** Heading text is one line, short enough for the Outline: the prompt's first words. */
const HEADING_PROMPT_CHARS = 60;

/**
 * The top of an answer: a heading the Outline lists it by (the prompt's first words, then the model
 * and connection), then the whole prompt, quoted (so the prompt is never lost).
 */
export function answerHeader(model: string, connection: string, prompt: string, about?: string): string {
  const quoted = prompt
    .split(/\r?\n/)
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
  const oneLine = prompt.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > HEADING_PROMPT_CHARS ? `${oneLine.slice(0, HEADING_PROMPT_CHARS - 1).trimEnd()}…` : oneLine;
  return `## ${short} · ${model} · ${connection}\n\n${quoted}\n${about ? `>\n> *About ${about}*\n` : ''}\n`;
}

export interface AnswerStats {
  model: string;
  usage?: TokenUsage;
  latencyMs: number;
  firstTokenMs?: number;
  requestId?: string;
  /** "$0.0012", or why the cost is unknown (costText in costLedger.ts). */
  cost?: string;
}

/** One line with what support and cost tracking need; used at the end of the answer and in the log. */
export function statsLine(s: AnswerStats): string {
  const tokens = s.usage
    ? `${s.usage.prompt_tokens} tokens in / ${s.usage.completion_tokens ?? s.usage.total_tokens - s.usage.prompt_tokens} out`
    : 'token usage not reported';
  const first = s.firstTokenMs !== undefined ? ` (first token ${ms(s.firstTokenMs)})` : '';
  return `${s.model} · ${tokens}${s.cost ? ` · ${s.cost}` : ''} · ${ms(s.latencyMs)}${first} · request id ${s.requestId ?? 'unknown'}`;
}

export function doneNote(s: AnswerStats): string {
  return `${ANSWER_END}*${statsLine(s).replace(/request id (\S+)$/, 'request id `$1`')}*\n`;
}

/**
 * `estimate`: what the cancelled request may have cost, from the prompt and the text that arrived
 * (the server bills what it generated), e.g. { usage, cost: "$0.0001" }.
 */
export function cancelledNote(latencyMs: number, requestId?: string, estimate?: { usage: TokenUsage; cost?: string }): string {
  const cost = estimate
    ? ` About ${estimate.usage.prompt_tokens} tokens in / ${estimate.usage.completion_tokens ?? 0} out${estimate.cost ? ` · ≈${estimate.cost}` : ''} (estimated: cancelled before the server reported usage).`
    : '';
  return `${ANSWER_END}*Cancelled after ${ms(latencyMs)}: the answer above is what had arrived.${cost}${requestId ? ` Request id \`${requestId}\`.` : ''}*\n`;
}

export function errorNote(description: string, partial: boolean): string {
  return `${ANSWER_END}**Error:** ${description}${partial ? '\n\n*The answer above is incomplete: it is what arrived before the stream stopped, kept as it was.*' : ''}\n`;
}

/**
 * A failure in words. One that came inside a stream that had begun (HTTP 200, then an error event
 * or a cut connection) says that, instead of "Service 200 server_error", and that what arrived is kept.
 */
export function failureText(e: unknown, keptChars: number): string {
  if (!isApiError(e)) return errorText(e);
  const kept = keptChars > 0 ? ` The ${keptChars} characters that arrived are kept.` : '';
  if (e.kind === 'stream') {
    const said = e.serviceMessage ? `: "${e.serviceMessage}"${e.code ? ` (${e.code})` : ''}` : e.code ? ` (${e.code})` : ` (${e.message})`;
    return `${e.service} stopped the answer part-way: it reported an error inside the stream${said}.${kept}${requestIdSuffix(e.requestId)}`;
  }
  if (keptChars > 0 && (e.kind === 'network' || e.kind === 'timeout' || e.kind === 'invalid-response')) {
    const why =
      e.kind === 'timeout'
        ? 'the answer took too long (timeout)'
        : e.kind === 'network'
          ? `the connection broke off (${e.message})`
          : `it sent something unreadable (${e.message})`;
    return `${e.service} stopped the answer part-way: ${why}.${kept}${requestIdSuffix(e.requestId)}`;
  }
  return e.describe();
}

/** The status bar text: the active model and the requests left this minute under the client-side limit. */
export function statusText(model: string | undefined, left: number, limit: number): string {
  return `$(hubot) ${model ?? 'no model'} · ${left}/${limit}`;
}

export function statusTooltip(connection: string, model: string | undefined, left: number, limit: number, modelLimited: boolean, spendToday?: string): string {
  return [
    `${connection}: ${model ? `model ${model}` : 'no model chosen yet'}.`,
    `${left} of ${limit} requests left this minute under the client-side limit${modelLimited ? ' for this model' : ''}.`,
    ...(spendToday ? [spendToday] : []),
    'Click to Ask…',
  ].join('\n');
}
