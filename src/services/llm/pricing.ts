// What a call costs: a default price table for well-known models and costOf(model, usage).
// Prices are USD per 1,000,000 tokens, OpenAI's standard (not batch, not priority) tier.
// Source: the OpenAI pricing page (platform.openai.com/docs/pricing) as reproduced by
// deploybase.ai/articles/openai-pricing (March 2026) and tokenmath.io (checked June 2026); the
// official page itself could not be fetched from here, so treat the figures as defaults a user
// may need to update. Cached-input discounts are not modelled: costOf is then an upper bound.
// Azure OpenAI deployments have names of the user's choosing, so they match only when named
// after the model.
import type { TokenUsage } from './schemas';

export interface ModelPrice {
  /** USD per 1M input (prompt) tokens. */
  input: number;
  /** USD per 1M output (completion) tokens. */
  output: number;
}

export interface Cost {
  inputUsd: number;
  outputUsd: number;
  totalUsd: number;
  /** The table entry that priced it (a dated snapshot is priced as its model). */
  pricedAs: string;
}

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5.1': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-5-pro': { input: 15, output: 120 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  o1: { input: 15, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  // Embeddings bill input only.
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
};

/** Sandbox models are local and free. */
const FREE: ModelPrice = { input: 0, output: 0 };

/**
 * The price of `model`: an exact entry, else the longest entry it starts with followed by `-`
 * (`gpt-4o-2024-08-06` → `gpt-4o`, never `gpt-4o-mini` → `gpt-4o`), else undefined.
 */
export function priceOf(model: string, table: Readonly<Record<string, ModelPrice>> = PRICES): { price: ModelPrice; pricedAs: string } | undefined {
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^openai\//, '');
  // An explicit entry wins, even for a sandbox model (to try the daily budget locally).
  if (Object.hasOwn(table, id)) return { price: table[id], pricedAs: id };
  if (id.startsWith('sandbox-')) return { price: FREE, pricedAs: model };
  let best: string | undefined;
  for (const name of Object.keys(table)) {
    // A dated snapshot (`-2024-08-06`) or a version suffix (`-0613`) is the same model.
    if (id.startsWith(`${name}-`) && /^\d/.test(id.slice(name.length + 1)) && (!best || name.length > best.length)) best = name;
  }
  return best ? { price: table[best], pricedAs: best } : undefined;
}

/** What `usage` of `model` cost, or undefined when the model's price is not known. */
export function costOf(model: string, usage: TokenUsage, table: Readonly<Record<string, ModelPrice>> = PRICES): Cost | undefined {
  const found = priceOf(model, table);
  if (!found) return undefined;
  const input = usage.prompt_tokens;
  const output = usage.completion_tokens ?? Math.max(0, usage.total_tokens - usage.prompt_tokens);
  const inputUsd = (input * found.price.input) / 1_000_000;
  const outputUsd = (output * found.price.output) / 1_000_000;
  return { inputUsd, outputUsd, totalUsd: inputUsd + outputUsd, pricedAs: found.pricedAs };
}
