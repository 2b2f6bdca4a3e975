// The price table and costOf: what the extension shows as the cost of a call.
import * as assert from 'node:assert/strict';
import { costOf, priceOf, PRICES } from '../../../src/services/llm';

describe('llm/pricing', () => {
  it('prices a call by input and output tokens per million', () => {
    const cost = costOf('gpt-4o-mini', { prompt_tokens: 2_000_000, completion_tokens: 500_000, total_tokens: 2_500_000 });
    assert.ok(cost);
    assert.equal(cost.inputUsd, 2 * PRICES['gpt-4o-mini'].input);
    assert.equal(cost.outputUsd, 0.5 * PRICES['gpt-4o-mini'].output);
    assert.equal(cost.totalUsd, cost.inputUsd + cost.outputUsd);
    assert.equal(cost.pricedAs, 'gpt-4o-mini');
    // 1,000 in + 1,000 out on gpt-4.1 ($2 / $8 per 1M) is a cent.
    assert.equal(costOf('gpt-4.1', { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000 })?.totalUsd, 0.01);
  });

  it('prices dated snapshots as their model, and never a longer name as a shorter one', () => {
    assert.equal(priceOf('gpt-4o-2024-08-06')?.pricedAs, 'gpt-4o');
    assert.equal(priceOf('gpt-4o-mini-2024-07-18')?.pricedAs, 'gpt-4o-mini');
    assert.equal(priceOf('GPT-4.1-mini')?.pricedAs, 'gpt-4.1-mini');
    assert.equal(priceOf('gpt-4o-audio-preview'), undefined, 'a different model is not priced as gpt-4o');
    assert.equal(priceOf('my-azure-deployment'), undefined);
  });

  it('sandbox models cost nothing; unknown models have no cost rather than a guessed one', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 90, total_tokens: 100 };
    assert.deepEqual(costOf('sandbox-chat', usage), { inputUsd: 0, outputUsd: 0, totalUsd: 0, pricedAs: 'sandbox-chat' });
    assert.equal(costOf('sandbox-chat-slow', usage)?.totalUsd, 0);
    assert.equal(costOf('llama3.1:8b', usage), undefined);
    // An explicit entry prices even a sandbox model (to try the daily budget locally).
    assert.equal(costOf('sandbox-chat', usage, { ...PRICES, 'sandbox-chat': { input: 1_000_000, output: 1_000_000 } })?.totalUsd, 100);
  });

  it('derives output tokens from the total when a server omits completion_tokens (embeddings)', () => {
    assert.equal(costOf('text-embedding-3-small', { prompt_tokens: 1_000_000, total_tokens: 1_000_000 })?.totalUsd, 0.02);
    assert.equal(costOf('gpt-4o', { prompt_tokens: 0, total_tokens: 1_000_000 })?.outputUsd, 10);
  });

  it('every table entry is a non-negative price with output not cheaper than input (chat models)', () => {
    for (const [name, p] of Object.entries(PRICES)) {
      assert.ok(p.input >= 0 && p.output >= 0, name);
      if (!name.startsWith('text-embedding')) assert.ok(p.output >= p.input, name);
    }
  });
});
