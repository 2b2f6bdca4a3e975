// What the cost features need from a request body and an answer written by hand (an API notebook
// cell): the model, the text the prompt is made of and the output limit, before sending; the token
// usage, after. Both the chat completions and the Responses API shapes are read. Anything that is
// not the expected shape gives undefined: a malformed body is the server's to refuse, not ours.
import type { TokenUsage } from './schemas';

/** A request as the budget question estimates it. */
export interface PlannedBody {
  model: string;
  /** The prompt's text, piece by piece (message contents, instructions, input items). */
  messages: Array<{ content: string }>;
  maxTokens?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** The planned request of a chat completions or Responses API body (JSON text). */
export function plannedFromBody(body: string | undefined): PlannedBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  if (!isObj(json) || typeof json.model !== 'string') return undefined;
  const parts: unknown[] = [];
  const items = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
  // A message's content, or the item itself when it is not a message (a string, a tool result).
  const contentOf = (m: unknown): unknown => (isObj(m) && 'content' in m ? m.content : m);
  parts.push(...items(json.messages).map(contentOf));
  if (json.instructions !== undefined) parts.push(json.instructions);
  if (Array.isArray(json.input)) parts.push(...items(json.input).map(contentOf));
  else if (json.input !== undefined) parts.push(json.input);
  const maxTokens = count(json.max_completion_tokens) ?? count(json.max_tokens) ?? count(json.max_output_tokens);
  return { model: json.model, messages: parts.map((p) => ({ content: text(p) })), ...(maxTokens !== undefined ? { maxTokens } : {}) };
}

/**
 * The token usage an answer reports, chat (`prompt_tokens`/`completion_tokens`) or Responses API
 * (`input_tokens`/`output_tokens`) shaped, with the answer's model; undefined without usage.
 */
export function usageFromAnswer(json: unknown): { model?: string; usage: TokenUsage } | undefined {
  if (!isObj(json) || !isObj(json.usage)) return undefined;
  const u = json.usage;
  const prompt = count(u.prompt_tokens) ?? count(u.input_tokens);
  const completion = count(u.completion_tokens) ?? count(u.output_tokens);
  if (prompt === undefined) return undefined;
  const usage: TokenUsage = { prompt_tokens: prompt, completion_tokens: completion ?? 0, total_tokens: count(u.total_tokens) ?? prompt + (completion ?? 0) };
  return { ...(typeof json.model === 'string' ? { model: json.model } : {}), usage };
}
