// The messages between the extension and the Compare webview, validated with zod on both sides
// (the webview bundles this file too: no vscode or node imports here).
import * as z from 'zod/mini';

const text = z.string().check(z.maxLength(500));
const modelId = z.string().check(z.minLength(1), z.maxLength(200));
const count = z.number().check(z.gte(0));
/** A prompt as long as a user might paste; the server decides what it accepts. */
const prompt = z.string().check(z.minLength(1), z.maxLength(200_000));

const usageSchema = z.object({ prompt_tokens: count, completion_tokens: z.optional(count), total_tokens: count });

export const columnStatsSchema = z.object({
  model: text,
  usage: z.optional(usageSchema),
  latencyMs: count,
  firstTokenMs: z.optional(count),
  requestId: z.optional(text),
  finishReason: z.optional(text),
  cost: text,
});
export type ColumnStats = z.infer<typeof columnStatsSchema>;

export const columnFailureSchema = z.object({
  status: z.optional(z.number()),
  code: z.optional(text),
  message: z.string().check(z.maxLength(4_000)),
  requestId: z.optional(text),
  description: z.string().check(z.maxLength(4_000)),
  /** Characters of answer that arrived before the failure (kept in the column). */
  keptChars: count,
  latencyMs: count,
  /** True when the answer had begun: the failure came inside a 200 stream. */
  midStream: z.boolean(),
});
export type ColumnFailure = z.infer<typeof columnFailureSchema>;

const column = z.number().check(z.int(), z.gte(0), z.lte(3));

export const columnEventSchema = z.union([
  z.object({ type: z.literal('start'), column, requestId: z.optional(text) }),
  z.object({ type: z.literal('delta'), column, text: z.string().check(z.maxLength(100_000)) }),
  z.object({ type: z.literal('retry'), column, status: z.optional(z.number()), waitMs: count }),
  z.object({ type: z.literal('done'), column, stats: columnStatsSchema }),
  z.object({ type: z.literal('failed'), column, failure: columnFailureSchema }),
  z.object({ type: z.literal('cancelled'), column, latencyMs: count, requestId: z.optional(text) }),
]);
export type ColumnEvent = z.infer<typeof columnEventSchema>;

/** Extension → webview. */
export const hostToCompareSchema = z.union([
  /** The connection's chat models to pick from, and which are ticked. */
  z.object({
    type: z.literal('models'),
    connection: text,
    models: z.array(modelId).check(z.maxLength(2_000)),
    selected: z.array(modelId).check(z.maxLength(4)),
    error: z.optional(z.string().check(z.maxLength(2_000))),
  }),
  /** A run starts: one column per model. */
  z.object({ type: z.literal('run'), runId: count, prompt, models: z.array(modelId).check(z.minLength(2), z.maxLength(4)) }),
  z.object({ type: z.literal('column'), runId: count, event: columnEventSchema }),
  z.object({ type: z.literal('finished'), runId: count }),
  /** Something to tell the user at the top of the panel (a declined budget question, a refused run). */
  z.object({ type: z.literal('notice'), text: z.string().check(z.maxLength(2_000)) }),
]);
export type HostToCompare = z.infer<typeof hostToCompareSchema>;

export const renderedColumnSchema = z.object({
  model: modelId,
  state: z.enum(['waiting', 'streaming', 'done', 'failed', 'cancelled']),
  /** The answer text as the column shows it. */
  text: z.string().check(z.maxLength(200_000)),
  /** The stats or failure line under the column, as shown. */
  footer: z.string().check(z.maxLength(8_000)),
});
export type RenderedColumn = z.infer<typeof renderedColumnSchema>;

/** Webview → extension. */
export const compareToHostSchema = z.union([
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('run'), prompt, models: z.array(modelId).check(z.minLength(2), z.maxLength(4)) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('refreshModels') }),
  /** After a run finished: what each column shows (the in-editor tests and the log read it). */
  z.object({ type: z.literal('rendered'), runId: count, columns: z.array(renderedColumnSchema).check(z.maxLength(4)) }),
  z.object({ type: z.literal('error'), message: text }),
]);
export type CompareToHost = z.infer<typeof compareToHostSchema>;
