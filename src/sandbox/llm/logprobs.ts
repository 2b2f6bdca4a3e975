// Deterministic log probabilities for the sandbox's answer tokens, in the two shapes OpenAI sends:
// chat (`logprobs: true, top_logprobs: n` -> `choices[].logprobs.content[]` of {token, logprob,
// bytes, top_logprobs[]}) and legacy completions (`logprobs: n` -> {tokens, token_logprobs,
// top_logprobs[{token: logprob}], text_offset}). The chosen token is always the likeliest, as it is
// for a model sampling at temperature 0; alternatives come from a fixed list of common tokens.
import { fnv1a } from './answer';

export interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface TokenLogprob extends TopLogprob {
  top_logprobs: TopLogprob[];
}

const ALTERNATIVES = [
  ' the',
  ' a',
  ' and',
  ' to',
  ' of',
  ' in',
  ' is',
  ' that',
  ' it',
  ' for',
  ' on',
  ' with',
  ' as',
  ' this',
  ' be',
  ' by',
  ' at',
  ' or',
  ' an',
  ' from',
  ' so',
];

function bytesOf(token: string): number[] {
  return [...Buffer.from(token, 'utf8')];
}

/** A logprob from -6 to 0 with four decimals, a pure function of the text it is for. */
function logprobOf(seed: string, below = 0): number {
  return Math.round((below - ((fnv1a(seed) % 60_000) + 1) / 10_000) * 10_000) / 10_000;
}

/** The chosen token's entry with `top` alternatives (the token itself first), as chat reports it. */
export function tokenLogprob(token: string, position: number, top: number): TokenLogprob {
  const logprob = Math.max(-0.9, logprobOf(`${position}:${token}`) / 6);
  const alternatives = ALTERNATIVES.filter((t) => t !== token);
  const start = fnv1a(token) % alternatives.length;
  const topLogprobs: TopLogprob[] = [];
  let floor = logprob;
  for (let i = 0; i < top; i++) {
    if (i === 0) {
      topLogprobs.push({ token, logprob, bytes: bytesOf(token) });
      continue;
    }
    const alt = alternatives[(start + i - 1) % alternatives.length];
    floor = logprobOf(`${position}:${token}:${alt}`, floor);
    topLogprobs.push({ token: alt, logprob: floor, bytes: bytesOf(alt) });
  }
  return { token, logprob, bytes: bytesOf(token), top_logprobs: topLogprobs };
}

/** `choices[].logprobs` of a chat completion for these answer tokens. */
export function chatLogprobs(tokens: readonly string[], top: number): { content: TokenLogprob[]; refusal: null } {
  return { content: tokens.map((t, i) => tokenLogprob(t, i, top)), refusal: null };
}

/**
 * `choices[].logprobs` of a legacy completion; `offset` is where the first token starts in the
 * returned text (after an echoed prompt), `firstPosition` its place in the answer (a stream's chunk).
 */
export function completionLogprobs(
  tokens: readonly string[],
  top: number,
  offset = 0,
  firstPosition = 0,
): { tokens: string[]; token_logprobs: number[]; top_logprobs: Record<string, number>[]; text_offset: number[] } {
  const entries = tokens.map((t, i) => tokenLogprob(t, firstPosition + i, top));
  const textOffset: number[] = [];
  let at = offset;
  for (const t of tokens) {
    textOffset.push(at);
    at += t.length;
  }
  return {
    tokens: [...tokens],
    token_logprobs: entries.map((e) => e.logprob),
    top_logprobs: entries.map((e) => Object.fromEntries(e.top_logprobs.map((a) => [a.token, a.logprob]))),
    text_offset: textOffset,
  };
}
