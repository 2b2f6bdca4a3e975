// What is known of a model id: what the connection says of it, and its price per million tokens
// from the price table (src/services/llm/pricing.ts).
import { priceOf } from '../services/llm/pricing';
import { DEPRECATIONS_URL, retiredModel, retiredModelAdvice } from '../services/llm/retiredModels';
import type { ModelOffer } from './offers';

export interface ModelFacts {
  id: string;
  offered?: ModelOffer;
  /** USD per 1M tokens, and the table entry that priced it. */
  price?: { input: number; output: number; pricedAs: string };
}

export function modelFacts(id: string, offers: readonly ModelOffer[] | undefined): ModelFacts {
  const found = priceOf(id);
  return {
    id,
    offered: offers?.find((m) => m.id === id),
    ...(found ? { price: { input: found.price.input, output: found.price.output, pricedAs: found.pricedAs } } : {}),
  };
}

const usd = (n: number): string => `$${n.toLocaleString('en-US', { maximumFractionDigits: 3 })}`;

/** Lines for a hover or a completion's detail. */
export function describeModel(facts: ModelFacts, offers: readonly ModelOffer[] | undefined): string[] {
  const lines: string[] = [];
  const retired = retiredModel(facts.id);
  if (retired) lines.push(`${retiredModelAdvice(retired)} (${DEPRECATIONS_URL})`);
  if (offers) lines.push(facts.offered ? 'offered by the connection' : 'not offered by the connection');
  if (facts.offered?.contextWindow) lines.push(`context window ${facts.offered.contextWindow.toLocaleString('en-US')} tokens`);
  if (facts.offered?.ownedBy) lines.push(`owned by ${facts.offered.ownedBy}`);
  if (facts.price) {
    const as = facts.price.pricedAs === facts.id ? '' : ` (priced as ${facts.price.pricedAs})`;
    lines.push(`${usd(facts.price.input)} input, ${usd(facts.price.output)} output per million tokens${as}`);
  }
  return lines;
}
