// The sandbox's model catalogue. Besides ordinary models it has one with a tight rate limit (to
// exercise 429 handling) and one that breaks off mid-stream (to exercise partial answers).

export interface SandboxModel {
  id: string;
  owned_by: string;
  created: number;
  kind: 'chat' | 'embedding';
  /** Requests allowed per rate window (see LlmSandboxOptions.rateWindowMs for the tight one). */
  requestsPerWindow: number;
  /** True for the model whose window is the short, configurable one. */
  tightLimit?: boolean;
  /** Streams stop with an error payload after half the answer; plain completions answer 500. */
  failsMidStream?: boolean;
  /** Embedding size when the request gives no `dimensions`. */
  dimensions?: number;
  /** Streams at this many tokens per second whatever the server's default (x-sandbox-token-rate still wins). */
  tokenRate?: number;
}

export const LIMITED_MODEL = 'sandbox-chat-limited';
export const FAULTY_MODEL = 'sandbox-chat-faulty';
export const EMBEDDING_MODEL = 'sandbox-embed';
export const SLOW_MODEL = 'sandbox-chat-slow';
/** Words per second of the slow model: reading pace, so Stop can be tried by hand. */
export const SLOW_TOKEN_RATE = 12;
export const MAX_EMBEDDING_DIMENSIONS = 1536;

export const LLM_MODELS: readonly SandboxModel[] = [
  { id: 'sandbox-chat', owned_by: 'sandbox', created: 1_700_000_000, kind: 'chat', requestsPerWindow: 10_000 },
  { id: 'sandbox-chat-mini', owned_by: 'sandbox', created: 1_710_000_000, kind: 'chat', requestsPerWindow: 10_000 },
  { id: LIMITED_MODEL, owned_by: 'sandbox-labs', created: 1_715_000_000, kind: 'chat', requestsPerWindow: 2, tightLimit: true },
  { id: FAULTY_MODEL, owned_by: 'sandbox-labs', created: 1_720_000_000, kind: 'chat', requestsPerWindow: 10_000, failsMidStream: true },
  { id: SLOW_MODEL, owned_by: 'sandbox', created: 1_725_000_000, kind: 'chat', requestsPerWindow: 10_000, tokenRate: SLOW_TOKEN_RATE },
  { id: EMBEDDING_MODEL, owned_by: 'sandbox', created: 1_705_000_000, kind: 'embedding', requestsPerWindow: 10_000, dimensions: 256 },
];

export function findModel(id: string): SandboxModel | undefined {
  return LLM_MODELS.find((m) => m.id === id);
}

/** How many content tokens the faulty model sends before it fails. */
export function faultAfterTokens(answerTokens: number): number {
  return Math.floor(answerTokens / 2);
}
