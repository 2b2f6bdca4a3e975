// Sandbox-only request headers (ignored by real services), for tests and benchmarks.

export const SANDBOX_HEADERS = {
  /** Tokens per second for this stream; 0 = unthrottled. */
  tokenRate: 'x-sandbox-token-rate',
  /** Answer length in tokens (e.g. 20000 for a benchmark stream). */
  answerTokens: 'x-sandbox-answer-tokens',
  /** "error": error payload mid-stream; "disconnect": drop the connection mid-stream. */
  fault: 'x-sandbox-fault',
} as const;

/** Longest answer the x-sandbox-answer-tokens header may ask for (a benchmark stream is 25,000). */
export const MAX_ANSWER_TOKENS = 100_000;
