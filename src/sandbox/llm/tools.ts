// What the sandbox "decides" when a request offers tools or asks for structured output. Like the
// text answers, every decision is a pure function of the request, so tests can predict it:
//   tool_choice none              → a text answer
//   a named function              → a call to it
//   required                      → a call (to each tool named in the prompt, else the best match)
//   auto (the default with tools) → a call while the conversation ends with the user; once it ends
//                                    with a tool result, a text answer quoting that result
import { messageText, type SandboxMessage } from './answer';
import { sandboxVerdict } from './judge';
import { strictSchemaProblem, valueForSchema } from './schemaValue';

export interface ToolSpec {
  name: string;
  description?: string | null;
  parameters?: Readonly<Record<string, unknown>> | null;
  strict?: boolean | null;
}

export type ToolChoiceSpec = 'none' | 'auto' | 'required' | { name: string };

export interface PlannedToolCall {
  name: string;
  /** JSON text, as OpenAI sends it. */
  arguments: string;
}

/** Characters of JSON per streamed fragment, about what OpenAI sends per tool-call delta. */
const FRAGMENT_CHARS = 4;

function lastUserText(messages: readonly SandboxMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return last ? messageText(last) : '';
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2);
}

/** The tool whose name and description share most words with the prompt (the first on a tie). */
function bestTool(tools: readonly ToolSpec[], prompt: string): ToolSpec {
  const asked = new Set(words(prompt));
  let best = tools[0];
  let bestScore = -1;
  for (const t of tools) {
    const own = words(`${t.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ')} ${t.description ?? ''}`);
    const score = own.filter((w) => asked.has(w)).length;
    if (score > bestScore) [best, bestScore] = [t, score];
  }
  return best;
}

/** The calls the sandbox makes for this turn; empty when it answers in text instead. */
export function planToolCalls(messages: readonly SandboxMessage[], tools: readonly ToolSpec[], choice: ToolChoiceSpec, parallel: boolean): PlannedToolCall[] {
  if (tools.length === 0 || choice === 'none') return [];
  const last = messages[messages.length - 1];
  if (choice === 'auto' && last?.role === 'tool') return [];
  const prompt = lastUserText(messages);
  let chosen: ToolSpec[];
  if (typeof choice === 'object') {
    chosen = tools.filter((t) => t.name === choice.name).slice(0, 1);
  } else {
    // Tools the prompt names outright are all called at once (parallel calls), in the order given.
    const named = tools.filter((t) => prompt.includes(t.name));
    chosen = parallel && named.length > 1 ? named : [named[0] ?? bestTool(tools, prompt)];
  }
  return chosen.map((t) => ({
    name: t.name,
    arguments: JSON.stringify(valueForSchema(t.parameters ?? { type: 'object', properties: {} }, prompt, { allProperties: t.strict === true })),
  }));
}

/** The JSON a structured-output request answers with (`json_schema`, or `json_object` without a schema); a judge's verdict by judge.ts's rule. */
export function structuredAnswer(messages: readonly SandboxMessage[], schema: Readonly<Record<string, unknown>> | undefined, strict: boolean): string {
  const verdict = sandboxVerdict(messages, schema);
  if (verdict !== undefined) return verdict;
  const prompt = lastUserText(messages);
  const value = schema ? valueForSchema(schema, prompt, { allProperties: strict }) : { answer: prompt };
  return JSON.stringify(value);
}

/** JSON text in the small pieces a stream carries (never splitting a surrogate pair). */
export function jsonFragments(text: string): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += FRAGMENT_CHARS) out.push(chars.slice(i, i + FRAGMENT_CHARS).join(''));
  return out;
}

/**
 * The 400 OpenAI gives for a strict schema that strict mode cannot enforce (wording as OpenAI's;
 * the code OpenAI sends with it is not known here, so it is null). `toolParam` names a tool's
 * schema: `tools[i].function.parameters` in chat, `tools[i].parameters` in the Responses API.
 */
export function schemaRefusal(
  tools: readonly ToolSpec[],
  toolParam: (index: number) => string,
  format: { name: string; schema?: Readonly<Record<string, unknown>>; strict?: boolean | null } | undefined,
): { message: string; param: string } | undefined {
  for (const [i, t] of tools.entries()) {
    const problem = t.strict === true ? strictSchemaProblem(t.parameters ?? {}) : undefined;
    if (problem) return { message: `Invalid schema for function '${t.name}': ${problem}`, param: toolParam(i) };
  }
  const problem = format?.strict === true ? strictSchemaProblem(format.schema ?? {}) : undefined;
  return problem && format ? { message: `Invalid schema for response_format '${format.name}': ${problem}`, param: 'response_format' } : undefined;
}
