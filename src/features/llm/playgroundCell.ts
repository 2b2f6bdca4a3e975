// A playground conversation as an `llm` notebook cell (`POST /chat/completions` or `POST /responses`
// with the messages and parameters), and back. The cell carries no key: the notebook's connection
// supplies it. No vscode import (tested in plain mocha).
import type { ConversationMessage } from '../../services/llm';
import { chatRequestBody } from '../../services/llm/types';
import { responseRequestBody } from '../../services/llm/responses';
import {
  BUILTIN_TOOL_NAMES,
  defaultSettings,
  type BuiltinToolName,
  type CustomTool,
  type PlaygroundSettings,
  type Turn,
} from '../../services/llm/playgroundMessages';
import { responsesInput } from './llmStream';
import { requestOf } from './playgroundConversation';
import { BUILTIN_TOOLS } from './playgroundTools';
import { errorText } from '../../core/errors';

/**
 * The cell's text: request line, content type, the JSON body, and a status check. `stream`: the
 * request exactly as the playground sends it (streamed), which Copy as Code writes; a saved cell
 * asks for the whole answer at once, as notebook cells usually do.
 */
export async function conversationToCell(settings: PlaygroundSettings, turns: readonly Turn[], opts: { stream?: boolean } = {}): Promise<string> {
  const req = await requestOf(settings, turns);
  const tools = [
    ...settings.tools.map((n) => BUILTIN_TOOLS[n]).map(({ label: _l, publishes: _p, ...def }) => def),
    ...settings.customTools.map(customDefinition),
  ];
  const withTools = { ...req, ...(tools.length ? { tools } : {}) };
  let line: string;
  let body: Record<string, unknown>;
  if (settings.api === 'responses') {
    const { instructions, input } = responsesInput(req.messages);
    line = 'POST /responses';
    body = responseRequestBody({
      model: req.model,
      input,
      ...(instructions ? { instructions } : {}),
      maxOutputTokens: req.maxTokens,
      temperature: req.temperature,
      topP: req.topP,
      tools: withTools.tools,
      responseFormat: req.responseFormat,
    });
  } else {
    line = 'POST /chat/completions';
    body = chatRequestBody(withTools);
  }
  return [
    ...settings.customTools.map(toolComment),
    line,
    'Content-Type: application/json',
    '',
    JSON.stringify(dropUndefined({ ...body, ...(opts.stream ? { stream: true } : {}) }), null, 2),
    '',
    '?? status == 200',
  ].join('\n');
}

// What a user-defined tool answers is the playground's business, not the API's: it rides in a
// comment line before the request (the engine skips comments), one JSON line per tool.
const TOOL_COMMENT = /^\s*#\s*playground tool ([a-zA-Z0-9_-]{1,64}):\s*(\{.*\})\s*$/;

function toolComment(t: CustomTool): string {
  return `# playground tool ${t.name}: ${JSON.stringify({ reply: t.reply, ...(t.cell ? { cell: t.cell } : {}) })}`;
}

/** The replies and cells of user-defined tools, from the comment lines before the request line. */
function toolAnswers(lines: readonly string[]): Map<string, Pick<CustomTool, 'reply' | 'cell'>> {
  const out = new Map<string, Pick<CustomTool, 'reply' | 'cell'>>();
  for (const l of lines) {
    const m = TOOL_COMMENT.exec(l);
    if (!m) continue;
    try {
      const v = JSON.parse(m[2]) as Obj;
      const cell =
        isObj(v.cell) && typeof v.cell.notebook === 'string' && typeof v.cell.name === 'string' && v.cell.notebook && v.cell.name
          ? { notebook: v.cell.notebook, name: v.cell.name }
          : undefined;
      out.set(m[1], { reply: typeof v.reply === 'string' ? v.reply : DEFAULT_REPLY, ...(cell ? { cell } : {}) });
    } catch {
      // A hand-edited comment that is not JSON: the tool keeps the default reply.
    }
  }
  return out;
}

const DEFAULT_REPLY = '{"ok": true}';

function customDefinition(t: CustomTool): { name: string; description?: string; parameters?: Record<string, unknown> } {
  let parameters: Record<string, unknown> | undefined;
  try {
    parameters = JSON.parse(t.parameters || '{}') as Record<string, unknown>;
  } catch {
    parameters = undefined;
  }
  return { name: t.name, ...(t.description ? { description: t.description } : {}), ...(parameters ? { parameters } : {}) };
}

function dropUndefined(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
}

export class NotAConversationCell extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotAConversationCell';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string =>
  typeof v === 'string' ? v : Array.isArray(v) ? v.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('') : '';
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads an llm cell back into playground settings and turns. */
export function cellToConversation(cell: string, fallbackModel = ''): { settings: PlaygroundSettings; turns: Turn[] } {
  const lines = cell.replace(/\r\n?/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.trim() && !l.trim().startsWith('#'));
  const m = /^\s*POST\s+(\S+)/i.exec(lines[first] ?? '');
  const api = m && /\/responses(\?|$)/.test(m[1]) ? 'responses' : m && /\/chat\/completions(\?|$)/.test(m[1]) ? 'chat' : undefined;
  if (!api) throw new NotAConversationCell('Only a cell that sends POST /chat/completions or POST /responses can open in the playground.');
  const blank = lines.findIndex((l, i) => i > first && !l.trim());
  const bodyLines = blank < 0 ? [] : lines.slice(blank + 1);
  const end = bodyLines.findIndex((l) => l.trimStart().startsWith('??'));
  const bodyText = (end < 0 ? bodyLines : bodyLines.slice(0, end)).join('\n').trim();
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (e) {
    throw new NotAConversationCell(
      `The cell's body is not plain JSON (${errorText(e)}); {{variables}} must be replaced by values before it can open in the playground.`,
    );
  }
  if (!isObj(body)) throw new NotAConversationCell("The cell's body is not a JSON object.");
  const settings = defaultSettings(typeof body.model === 'string' ? body.model : fallbackModel, api);
  const numbers = {
    temperature: num(body.temperature),
    topP: num(body.top_p),
    maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens) ?? num(body.max_output_tokens),
    seed: num(body.seed),
  };
  for (const [k, v] of Object.entries(numbers)) if (v !== undefined) settings[k as keyof typeof numbers] = v;
  settings.stop = Array.isArray(body.stop)
    ? body.stop.filter((s): s is string => typeof s === 'string').slice(0, 4)
    : typeof body.stop === 'string'
      ? [body.stop]
      : [];
  readFormat(
    settings,
    isObj(body.response_format)
      ? body.response_format
      : isObj(body.text) && isObj(body.text.format)
        ? { ...body.text.format, json_schema: body.text.format }
        : undefined,
  );
  readTools(settings, Array.isArray(body.tools) ? body.tools : [], toolAnswers(lines.slice(0, first)));
  const messages = api === 'chat' ? chatMessages(body.messages) : responsesMessages(body);
  const turns: Turn[] = [];
  const system: string[] = [];
  for (const msg of messages) {
    if (msg.role === 'system' || msg.role === 'developer') system.push(msg.content);
    else if (msg.role === 'user') turns.push({ kind: 'user', text: msg.content });
    else if (msg.role === 'assistant')
      turns.push({ kind: 'assistant', text: msg.content ?? '', ...('toolCalls' in msg ? { toolCalls: [...msg.toolCalls] } : {}) });
    else if (msg.role === 'tool') {
      const call = turns.flatMap((t) => (t.kind === 'assistant' ? (t.toolCalls ?? []) : [])).find((c) => c.id === msg.toolCallId);
      turns.push({ kind: 'tool', callId: msg.toolCallId, name: call?.name ?? 'tool', arguments: call?.arguments ?? '', status: 'done', result: msg.content });
    }
  }
  settings.system = system.join('\n\n');
  return { settings, turns };
}

function readFormat(settings: PlaygroundSettings, f: Obj | undefined): void {
  if (!f || typeof f.type !== 'string') return;
  if (f.type === 'json_object') settings.responseFormat = 'json_object';
  if (f.type === 'json_schema' && isObj(f.json_schema) && isObj(f.json_schema.schema)) {
    settings.responseFormat = 'json_schema';
    settings.schemaText = JSON.stringify(f.json_schema.schema, null, 2);
  }
}

function readTools(settings: PlaygroundSettings, tools: unknown[], answers: ReadonlyMap<string, Pick<CustomTool, 'reply' | 'cell'>>): void {
  for (const t of tools) {
    if (!isObj(t)) continue;
    const fn = isObj(t.function) ? t.function : t;
    const name = typeof fn.name === 'string' ? fn.name : '';
    if (!name) continue;
    if ((BUILTIN_TOOL_NAMES as readonly string[]).includes(name)) settings.tools.push(name as BuiltinToolName);
    else
      settings.customTools.push({
        name,
        description: typeof fn.description === 'string' ? fn.description : '',
        parameters: JSON.stringify(fn.parameters ?? { type: 'object', properties: {} }, null, 2),
        ...(answers.get(name) ?? { reply: DEFAULT_REPLY }),
      });
  }
}

function chatMessages(raw: unknown): ConversationMessage[] {
  if (!Array.isArray(raw)) throw new NotAConversationCell('The cell has no "messages" array.');
  const out: ConversationMessage[] = [];
  for (const m of raw) {
    if (!isObj(m)) continue;
    if (m.role === 'tool') out.push({ role: 'tool', toolCallId: typeof m.tool_call_id === 'string' ? m.tool_call_id : '', content: text(m.content) });
    else if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      const toolCalls = m.tool_calls.filter(isObj).map((c) => {
        const fn = isObj(c.function) ? c.function : {};
        return {
          id: typeof c.id === 'string' ? c.id : '',
          name: typeof fn.name === 'string' ? fn.name : '',
          arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
        };
      });
      out.push({ role: 'assistant', content: text(m.content) || null, toolCalls });
    } else if (m.role === 'system' || m.role === 'developer' || m.role === 'user' || m.role === 'assistant')
      out.push({ role: m.role, content: text(m.content) });
  }
  return out;
}

function responsesMessages(body: Obj): ConversationMessage[] {
  const out: ConversationMessage[] = typeof body.instructions === 'string' ? [{ role: 'system', content: body.instructions }] : [];
  if (typeof body.input === 'string') return [...out, { role: 'user', content: body.input }];
  if (!Array.isArray(body.input)) throw new NotAConversationCell('The cell has no "input".');
  for (const item of body.input) {
    if (!isObj(item)) continue;
    if (item.type === 'function_call') {
      const call = {
        id: typeof item.call_id === 'string' ? item.call_id : '',
        name: typeof item.name === 'string' ? item.name : '',
        arguments: typeof item.arguments === 'string' ? item.arguments : '',
      };
      const last = out[out.length - 1];
      if (last && 'toolCalls' in last) out[out.length - 1] = { ...last, toolCalls: [...last.toolCalls, call] };
      else out.push({ role: 'assistant', content: null, toolCalls: [call] });
    } else if (item.type === 'function_call_output')
      out.push({ role: 'tool', toolCallId: typeof item.call_id === 'string' ? item.call_id : '', content: text(item.output) });
    else if (item.role === 'system' || item.role === 'developer' || item.role === 'user' || item.role === 'assistant')
      out.push({ role: item.role, content: text(item.content) });
  }
  return out;
}
