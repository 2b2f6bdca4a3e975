// What the script host and its worker thread (worker.ts) say to each other: plain JSON, read with
// zod on both sides since each is the other's boundary.
import * as z from 'zod/mini';
import { once } from '../../core/once';
import { scriptOutputSchema, type ScriptInput } from './model';

const limitsSchema = once(() => z.object({ timeMs: z.number(), memoryBytes: z.number(), logBytes: z.number(), stackBytes: z.number() }));

export const workerRequestSchema = once(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('run'),
      source: z.string(),
      // The input was built by the host itself; it crosses as it is.
      input: z.custom<ScriptInput>((v) => typeof v === 'object' && v !== null),
      limits: limitsSchema(),
      /** The host counts the script's time from now (its engine is loaded): the worker posts only a pause. */
      clockRunning: z.boolean(),
    }),
    /** Load the engine and make the first script's context now, before any script comes (no answer). */
    z.object({ kind: z.literal('warm'), limits: limitsSchema() }),
  ]),
);
export type WorkerRequest = z.infer<ReturnType<typeof workerRequestSchema>>;

const runSchema = once(() =>
  z.object({
    output: z.optional(scriptOutputSchema()),
    logs: z.array(z.string()),
    failure: z.optional(z.object({ limit: z.optional(z.enum(['time', 'memory', 'stack', 'log'])), message: z.string(), line: z.optional(z.number()) })),
    durationMs: z.number(),
  }),
);

export const workerMessageSchema = once(() =>
  z.discriminatedUnion('kind', [
    /** The script's own time runs (true) or is paused while the engine loads a library for it (false). */
    z.object({ kind: z.literal('clock'), running: z.boolean() }),
    z.object({ kind: z.literal('done'), run: runSchema() }),
    /** The engine itself could not run the script (its WebAssembly did not load, say). */
    z.object({ kind: z.literal('error'), message: z.string() }),
  ]),
);
export type WorkerMessage = z.infer<ReturnType<typeof workerMessageSchema>>;
