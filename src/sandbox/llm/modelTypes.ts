// What the sandbox knows of a model (models.ts holds the catalogue, openaiModels.ts the OpenAI stand-ins).

export interface SandboxModel {
  id: string;
  owned_by: string;
  created: number;
  /** Which endpoint serves it: chat (and responses), legacy completions, embeddings, images, speech, transcriptions, moderations. */
  kind: 'chat' | 'completion' | 'embedding' | 'image' | 'speech' | 'transcription' | 'moderation';
  /** Requests allowed per rate window (see LlmSandboxOptions.rateWindowMs for the tight one). */
  requestsPerWindow: number;
  /** True for the model whose window is the short, configurable one. */
  tightLimit?: boolean;
  /** Streams stop with an error payload after half the answer; plain completions answer 500. */
  failsMidStream?: boolean;
  /** Embedding size when the request gives no `dimensions`. */
  dimensions?: number;
  /** Largest `dimensions` a request may ask for; absent: the model has one size and refuses `dimensions`. */
  maxDimensions?: number;
  /** Streams at this many tokens per second whatever the server's default (x-sandbox-token-rate still wins). */
  tokenRate?: number;
}
