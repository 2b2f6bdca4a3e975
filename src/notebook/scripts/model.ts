// What a script sees and what it gives back, the same for Postman's `pm` and IntelliJ's
// `client`/`response`/`request`: plain JSON both ways, nothing of the host crosses. The request is
// the one the script may see: credentials are never in it (see scriptView.ts).
import * as z from 'zod/mini';
import { once } from '../../core/once';

export interface ScriptHeader {
  key: string;
  value: string;
}

export interface ScriptRequest {
  method: string;
  url: string;
  headers: ScriptHeader[];
  body?: string;
}

export interface ScriptResponse {
  code: number;
  headers: ScriptHeader[];
  /** The body as text (capped as the cell's result is). */
  body: string;
  responseTime: number;
  size: number;
}

export type ScriptPhase = 'pre' | 'post';

export interface ScriptInput {
  phase: ScriptPhase;
  /** The cell's name (pm.info.requestName), or its line when it has none. */
  requestName: string;
  /** Every variable the cell sees, by name. */
  variables: Record<string, string>;
  request: ScriptRequest;
  response?: ScriptResponse;
}

const header = once(() => z.object({ key: z.string(), value: z.string() }));

/** What the engine hands back (read with zod: it comes out of the script's world). */
export const scriptOutputSchema = once(() =>
  z.object({
    tests: z.array(z.object({ name: z.string(), passed: z.boolean(), message: z.optional(z.string()), line: z.optional(z.number()) })),
    /** Variables set (a string) or unset (null) by the script, by name. */
    variables: z.record(z.string(), z.union([z.string(), z.null()])),
    /** What the script could not do, at its line (pm.sendRequest, a require outside the list). */
    notes: z.array(z.object({ line: z.optional(z.number()), message: z.string() })),
    /** A pre-request script's request after its edits. */
    request: z.optional(z.object({ method: z.string(), url: z.string(), headers: z.array(header()), body: z.optional(z.string()) })),
  }),
);

export type ScriptOutput = z.infer<ReturnType<typeof scriptOutputSchema>>;
export type ScriptTest = ScriptOutput['tests'][number];
