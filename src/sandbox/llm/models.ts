// The sandbox's model catalogue. Besides ordinary models it has one with a tight rate limit (to
// exercise 429 handling) and one that breaks off mid-stream (to exercise partial answers), and
// stand-ins for OpenAI's public ids (openaiModels.ts). A model map (`--model-map my-ft=gpt-4o-mini`)
// adds ids of the user's own (fine-tunes, local models) that behave like a catalogue model.
import type { SandboxModel } from './modelTypes';
import { OPENAI_STAND_INS } from './openaiModels';

export type { SandboxModel } from './modelTypes';

export const LIMITED_MODEL = 'sandbox-chat-limited';
export const FAULTY_MODEL = 'sandbox-chat-faulty';
export const EMBEDDING_MODEL = 'sandbox-embed';
export const SLOW_MODEL = 'sandbox-chat-slow';
/** Words per second of the slow model: reading pace, so Stop can be tried by hand. */
export const SLOW_TOKEN_RATE = 12;
export const MAX_EMBEDDING_DIMENSIONS = 1536;

const SANDBOX_MODELS: readonly SandboxModel[] = [
  { id: 'sandbox-chat', owned_by: 'sandbox', created: 1_700_000_000, kind: 'chat', requestsPerWindow: 10_000 },
  { id: 'sandbox-chat-mini', owned_by: 'sandbox', created: 1_710_000_000, kind: 'chat', requestsPerWindow: 10_000 },
  { id: LIMITED_MODEL, owned_by: 'sandbox-labs', created: 1_715_000_000, kind: 'chat', requestsPerWindow: 2, tightLimit: true },
  { id: FAULTY_MODEL, owned_by: 'sandbox-labs', created: 1_720_000_000, kind: 'chat', requestsPerWindow: 10_000, failsMidStream: true },
  { id: SLOW_MODEL, owned_by: 'sandbox', created: 1_725_000_000, kind: 'chat', requestsPerWindow: 10_000, tokenRate: SLOW_TOKEN_RATE },
  {
    id: EMBEDDING_MODEL,
    owned_by: 'sandbox',
    created: 1_705_000_000,
    kind: 'embedding',
    requestsPerWindow: 10_000,
    dimensions: 256,
    maxDimensions: MAX_EMBEDDING_DIMENSIONS,
  },
];

/** Every model a sandbox serves without a model map: its own first, then the OpenAI stand-ins. */
export const LLM_MODELS: readonly SandboxModel[] = [...SANDBOX_MODELS, ...OPENAI_STAND_INS];

/** `owned_by` of fine-tuned models: OpenAI names the organisation that trained them. */
export const FINE_TUNE_OWNER = 'org-sandbox';

/** `alias -> catalogue id`, from `--model-map alias=id` (repeatable). */
export type ModelMap = Readonly<Record<string, string>>;

/** Reads `alias=model` entries (the text after the first `=` is the model); throws naming a malformed one. */
export function parseModelMap(entries: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const alias = entry.slice(0, at).trim();
    const target = entry.slice(at + 1).trim();
    if (at < 0 || alias === '' || target === '') throw new Error(`--model-map takes alias=model, e.g. my-fine-tune=gpt-4o-mini, not "${entry}"`);
    map[alias] = target;
  }
  return map;
}

/**
 * The models one sandbox serves: LLM_MODELS plus the mapped ids. A mapped id behaves like its
 * target but answers (and is rate-limited) under its own name; mapping an existing id replaces it.
 */
export class ModelCatalogue {
  private readonly byId = new Map<string, SandboxModel>();

  /** Throws when a target is not a catalogue model (the message names the entry and what to use). */
  constructor(map: ModelMap = {}) {
    for (const m of LLM_MODELS) this.byId.set(m.id, m);
    for (const [alias, target] of Object.entries(map)) {
      const model = LLM_MODELS.find((m) => m.id === target);
      if (!model) {
        throw new Error(`--model-map ${alias}=${target}: "${target}" is not a sandbox model; map to one GET /v1/models lists, e.g. ${alias}=gpt-4o-mini`);
      }
      this.byId.set(alias, { ...model, id: alias, owned_by: `sandbox model map (served as ${target})` });
    }
  }

  /** A model a fine-tuning job made: it answers as its base model does, under its own id, until deleted. */
  addFineTuned(id: string, base: SandboxModel, created: number): void {
    this.byId.set(id, { ...base, id, owned_by: FINE_TUNE_OWNER, created });
  }

  /** Deletes a fine-tuned model; false when `id` is no fine-tune of this sandbox (catalogue models stay). */
  deleteFineTuned(id: string): boolean {
    if (this.byId.get(id)?.owned_by !== FINE_TUNE_OWNER) return false;
    return this.byId.delete(id);
  }

  find(id: string): SandboxModel | undefined {
    return this.byId.get(id);
  }

  list(): SandboxModel[] {
    return [...this.byId.values()];
  }
}

/** How many content tokens the faulty model sends before it fails. */
export function faultAfterTokens(answerTokens: number): number {
  return Math.floor(answerTokens / 2);
}
