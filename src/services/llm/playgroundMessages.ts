// What the LLM playground webview and the extension say to each other. The host validates every
// message from the webview with these schemas (a webview is untrusted input) and checks its own
// before sending; the webview uses the types only (its bundle stays free of zod).
import * as z from 'zod/mini';
import { BUILTIN_TOOL_NAMES } from './playgroundToolNames';

export { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './playgroundToolNames';

const finite = z.number().check(z.refine((n) => Number.isFinite(n), 'must be a number'));

/** A named code cell of a notebook (`.awb.md`): a user-defined tool's reply can come from running it. */
export const toolCellSchema = z.object({
  /** The notebook's path: absolute, or relative to a workspace folder. */
  notebook: z.string().check(z.minLength(1)),
  /** The cell's `name=` attribute. */
  name: z.string().check(z.minLength(1)),
});
export type ToolCell = z.infer<typeof toolCellSchema>;

/** A tool the user defines in the playground: its parameters schema (JSON text) and a fixed reply or a notebook cell to run. */
export const customToolSchema = z.object({
  name: z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, _ and - only (at most 64)')),
  description: z.string(),
  /** JSON Schema of the arguments, as typed (parsed when sent). */
  parameters: z.string(),
  /** What the tool answers, whatever the arguments (when it has no cell). */
  reply: z.string(),
  /** Run this cell for each call (the arguments are its `{{args.…}}` variables); its result is the reply. */
  cell: z.optional(toolCellSchema),
});
export type CustomTool = z.infer<typeof customToolSchema>;

export const playgroundSettingsSchema = z.object({
  model: z.string(),
  api: z.enum(['chat', 'responses']),
  system: z.string(),
  temperature: z.optional(finite.check(z.gte(0), z.lte(2))),
  topP: z.optional(finite.check(z.gte(0), z.lte(1))),
  maxTokens: z.optional(z.int().check(z.positive())),
  stop: z.array(z.string()).check(z.maxLength(4)),
  seed: z.optional(z.int()),
  responseFormat: z.enum(['text', 'json_object', 'json_schema']),
  /** The JSON Schema of a json_schema answer, as typed or loaded from a file. */
  schemaText: z.string(),
  tools: z.array(z.enum(BUILTIN_TOOL_NAMES)),
  customTools: z.array(customToolSchema),
});
export type PlaygroundSettings = z.infer<typeof playgroundSettingsSchema>;

export const turnStatsSchema = z.object({
  api: z.enum(['chat', 'responses']),
  model: z.string(),
  tokensIn: z.optional(z.number()),
  tokensOut: z.optional(z.number()),
  latencyMs: z.number(),
  firstTokenMs: z.optional(z.number()),
  /** USD; absent when the model's price is not known. */
  costUsd: z.optional(z.number()),
  /** Tokens and cost are estimates: the answer was stopped before the server reported its usage. */
  estimated: z.optional(z.boolean()),
  requestId: z.optional(z.string()),
  finishReason: z.optional(z.string()),
});
export type TurnStats = z.infer<typeof turnStatsSchema>;

export const schemaProblemSchema = z.object({ path: z.string(), message: z.string() });
export type SchemaProblem = z.infer<typeof schemaProblemSchema>;

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

export const turnSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), text: z.string() }),
  z.object({
    kind: z.literal('assistant'),
    text: z.string(),
    streaming: z.optional(z.boolean()),
    /** Stopped by the user: the text is what had arrived. */
    stopped: z.optional(z.boolean()),
    toolCalls: z.optional(z.array(toolCallSchema)),
    stats: z.optional(turnStatsSchema),
    /** A passing note, e.g. a rate-limit countdown. */
    note: z.optional(z.string()),
    /** The answer checked against the json_schema response format. */
    validation: z.optional(z.object({ ok: z.boolean(), problems: z.array(schemaProblemSchema) })),
  }),
  z.object({
    kind: z.literal('tool'),
    callId: z.string(),
    name: z.string(),
    arguments: z.string(),
    status: z.enum(['running', 'done', 'failed', 'declined']),
    /** What was sent back to the model (a result, or the error it was told about). */
    result: z.optional(z.string()),
    /** Which connection ran it, e.g. "Maps · Local Sandbox". */
    ranOn: z.optional(z.string()),
  }),
  z.object({ kind: z.literal('error'), text: z.string() }),
]);
export type Turn = z.infer<typeof turnSchema>;

export const hostToPlaygroundSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    connection: z.string(),
    models: z.array(z.string()),
    settings: playgroundSettingsSchema,
    turns: z.array(turnSchema),
    busy: z.boolean(),
  }),
  z.object({ type: z.literal('turns'), turns: z.array(turnSchema), busy: z.boolean() }),
  z.object({ type: z.literal('schemaText'), text: z.string() }),
  z.object({ type: z.literal('notice'), text: z.string(), level: z.enum(['info', 'error']) }),
]);
export type HostToPlayground = z.infer<typeof hostToPlaygroundSchema>;

export const playgroundToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string(), settings: playgroundSettingsSchema }),
  /** Edit the user turn at `index` to `text` and send it again; the turns after it are dropped. */
  z.object({ type: z.literal('resend'), index: z.int().check(z.gte(0)), text: z.string(), settings: playgroundSettingsSchema }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('clear'), settings: playgroundSettingsSchema }),
  z.object({ type: z.literal('settings'), settings: playgroundSettingsSchema }),
  z.object({ type: z.literal('saveAsCell'), settings: playgroundSettingsSchema }),
  /** Copy as Code… of the conversation (the language is picked in the editor). */
  z.object({ type: z.literal('copyAsCode'), settings: playgroundSettingsSchema }),
  z.object({ type: z.literal('loadSchemaFile') }),
  /** The webview drew `turns` turns (tests wait for it before a screenshot). */
  z.object({ type: z.literal('rendered'), turns: z.int() }),
]);
export type PlaygroundToHost = z.infer<typeof playgroundToHostSchema>;

export function defaultSettings(model: string, api: 'chat' | 'responses' = 'chat'): PlaygroundSettings {
  return { model, api, system: '', stop: [], responseFormat: 'text', schemaText: '', tools: [], customTools: [] };
}
