// What the client accepts from an OpenAI-compatible server. Schemas are lenient where compatible
// servers differ (Ollama, vLLM, LM Studio and Azure omit or add fields) and strict where the
// extension relies on a field. Each schema is built on first use (once): the notebook engine loads
// this file for its error parsing, and building them all cost a CLI run ~10 ms of its start (issue 39).
import * as z from 'zod/mini';
import { once } from '../../core/once';

export const usageSchema = once(() =>
  z.object({
    prompt_tokens: z.number(),
    completion_tokens: z.optional(z.number()),
    total_tokens: z.number(),
  }),
);
export type TokenUsage = z.infer<ReturnType<typeof usageSchema>>;

export const modelSchema = once(() =>
  z.object({
    id: z.string(),
    object: z.optional(z.string()),
    created: z.optional(z.nullable(z.number())),
    owned_by: z.optional(z.nullable(z.string())),
  }),
);
export const modelListSchema = once(() => z.object({ data: z.array(modelSchema()) }));
export type ModelInfo = z.infer<ReturnType<typeof modelSchema>>;

export const openAiErrorBodySchema = once(() =>
  z.object({
    error: z.union([
      z.string(),
      z.object({
        message: z.optional(z.nullable(z.string())),
        type: z.optional(z.nullable(z.string())),
        param: z.optional(z.nullable(z.string())),
        code: z.optional(z.nullable(z.union([z.string(), z.number()]))),
      }),
    ]),
  }),
);
export type OpenAiErrorBody = z.infer<ReturnType<typeof openAiErrorBodySchema>>;

export const chatCompletionSchema = once(() =>
  z.object({
    id: z.optional(z.string()),
    model: z.optional(z.string()),
    choices: z.array(
      z.object({
        index: z.optional(z.number()),
        message: z.object({
          role: z.optional(z.string()),
          content: z.optional(z.nullable(z.string())),
          refusal: z.optional(z.nullable(z.string())),
          tool_calls: z.optional(
            z.nullable(z.array(z.object({ id: z.string(), type: z.optional(z.string()), function: z.object({ name: z.string(), arguments: z.string() }) }))),
          ),
        }),
        finish_reason: z.optional(z.nullable(z.string())),
      }),
    ),
    usage: z.optional(z.nullable(usageSchema())),
  }),
);
export type ChatCompletion = z.infer<ReturnType<typeof chatCompletionSchema>>;

/** One piece of a streamed tool call: the first names it, later ones add argument text. */
export const toolCallDeltaSchema = once(() =>
  z.object({
    index: z.number(),
    id: z.optional(z.nullable(z.string())),
    type: z.optional(z.nullable(z.string())),
    function: z.optional(z.nullable(z.object({ name: z.optional(z.nullable(z.string())), arguments: z.optional(z.nullable(z.string())) }))),
  }),
);

/** One `chat.completion.chunk`. Azure's content-filter chunks (empty id and choices) fit it too. */
export const chatChunkSchema = once(() =>
  z.object({
    id: z.optional(z.string()),
    model: z.optional(z.string()),
    choices: z.optional(
      z.nullable(
        z.array(
          z.object({
            index: z.optional(z.number()),
            delta: z.optional(
              z.nullable(
                z.object({
                  content: z.optional(z.nullable(z.string())),
                  refusal: z.optional(z.nullable(z.string())),
                  tool_calls: z.optional(z.nullable(z.array(toolCallDeltaSchema()))),
                }),
              ),
            ),
            finish_reason: z.optional(z.nullable(z.string())),
          }),
        ),
      ),
    ),
    usage: z.optional(z.nullable(usageSchema())),
  }),
);
export type ChatChunk = z.infer<ReturnType<typeof chatChunkSchema>>;

export const embeddingsSchema = once(() =>
  z.object({
    data: z.array(z.object({ index: z.number(), embedding: z.union([z.array(z.number()), z.string()]) })),
    model: z.optional(z.string()),
    usage: z.optional(z.nullable(usageSchema())),
  }),
);
