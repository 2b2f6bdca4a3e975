// The price table setting, the estimate before a request, the budget decision and the per-day ledger:
// what the user sees as the cost of a request, today's total and the budget question.
import * as assert from 'node:assert/strict';
import {
  ASSUMED_MAX_OUTPUT_TOKENS,
  budgetDecision,
  costText,
  CostLedger,
  dayOf,
  estimateCost,
  formatUsd,
  LEDGER_KEY,
  parseBudget,
  parsePriceSetting,
  PRICES_SETTING,
  todayText,
} from '../../../src/features/llm/costLedger';
import { PRICES } from '../../../src/services/llm';
import { plannedFromBody, usageFromAnswer } from '../../../src/services/llm/bodyCosts';

class MapStore {
  readonly map = new Map<string, unknown>();
  get(key: string): unknown {
    return this.map.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.map.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

describe('llm/costLedger: prices, estimate, budget, daily total', () => {
  it('the price setting overrides and extends the defaults', () => {
    const { table, problems } = parsePriceSetting({ 'gpt-4o': { input: 1, output: 2 }, 'My-Deployment': { input: 3, output: 4 } });
    assert.deepEqual(problems, []);
    assert.deepEqual(table['gpt-4o'], { input: 1, output: 2 });
    assert.deepEqual(table['my-deployment'], { input: 3, output: 4 }, 'names are matched case-insensitively');
    assert.deepEqual(table['gpt-4.1'], PRICES['gpt-4.1'], 'untouched defaults stay');
    assert.equal(costText('my-deployment', { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 }, table), '$7.00');
  });

  it('a malformed entry is named with the setting and skipped; the default price and the other entries are kept', () => {
    const { table, problems } = parsePriceSetting({
      'gpt-4o': { input: 'cheap', output: 10 },
      'gpt-x': { input: -1, output: 1 },
      mine: { input: 1, output: 1 },
    });
    assert.equal(problems.length, 2);
    assert.match(problems[0], new RegExp(`^Setting ${PRICES_SETTING.replace(/\./g, '\\.')}, entry "gpt-4o": .*input.*the default price is kept`));
    assert.match(problems[1], /entry "gpt-x": .*the entry is ignored/);
    assert.deepEqual(table['gpt-4o'], PRICES['gpt-4o']);
    assert.equal(table['gpt-x'], undefined);
    assert.deepEqual(table.mine, { input: 1, output: 1 });
  });

  it('a setting that is not an object keeps every default and says what shape is expected', () => {
    for (const raw of [[1, 2], 'gpt-4o=2', 3]) {
      const { table, problems } = parsePriceSetting(raw);
      assert.equal(problems.length, 1);
      assert.match(problems[0], /apiWorkbench\.llm\.prices must be an object/);
      assert.deepEqual(table, { ...PRICES });
    }
    assert.deepEqual(parsePriceSetting(undefined).problems, []);
  });

  it('the budget setting: a positive number, 0 or unset for none, anything else reported', () => {
    assert.deepEqual(parseBudget(0.5), { budget: 0.5 });
    assert.deepEqual(parseBudget(0), {});
    assert.deepEqual(parseBudget(undefined), {});
    assert.match(parseBudget(-2).problem ?? '', /apiWorkbench\.llm\.dailyBudget must be a positive number/);
    assert.match(parseBudget('5').problem ?? '', /dailyBudget/);
  });

  it('estimates prompt size × input price + max tokens × output price', () => {
    const messages = [{ content: 'x'.repeat(4000) }];
    const e = estimateCost('gpt-4.1', messages, 2000, PRICES);
    assert.equal(e.promptTokens, 1004);
    assert.equal(e.maxOutputTokens, 2000);
    assert.ok(e.usd !== undefined && Math.abs(e.usd - (1004 * 2 + 2000 * 8) / 1e6) < 1e-12);
    assert.equal(estimateCost('gpt-4.1', messages, undefined, PRICES).maxOutputTokens, ASSUMED_MAX_OUTPUT_TOKENS, 'no max tokens: an assumed answer length');
    assert.equal(estimateCost('llama3', messages, 10, PRICES).usd, undefined, 'unpriced models have no estimate');
    assert.equal(estimateCost('sandbox-chat', messages, 10, PRICES).usd, 0);
  });

  it('the budget asks only when spent + estimate would pass it, and says the numbers', () => {
    const est = (usd: number | undefined, model = 'gpt-4o') => ({ model, promptTokens: 10, maxOutputTokens: 100, usd });
    assert.deepEqual(budgetDecision(undefined, 100, [est(5)]), { kind: 'ok' }, 'no budget, no question');
    assert.deepEqual(budgetDecision(1, 0.5, [est(0.5)]), { kind: 'ok' }, 'exactly at the budget is fine');
    const d = budgetDecision(1, 0.9, [est(0.06), est(0.06, 'gpt-4.1'), est(undefined, 'llama3')]);
    assert.equal(d.kind, 'ask');
    if (d.kind !== 'ask') return;
    assert.ok(Math.abs(d.estimate - 0.12) < 1e-12);
    assert.deepEqual(d.unpriced, ['llama3']);
    assert.match(d.message, /^These 3 requests may cost up to \$0\.12 /);
    assert.match(d.message, /Today's language-model spend is \$0\.90 of your daily budget of \$1\.00 \(apiWorkbench\.llm\.dailyBudget\)/);
    assert.match(d.message, /No price is known for llama3/);
  });

  it('formats fractions of a cent visibly', () => {
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(12.345), '$12.35');
    assert.equal(formatUsd(0.0123), '$0.0123');
    assert.equal(formatUsd(0.01), '$0.01');
    assert.equal(formatUsd(0.133), '$0.133');
    assert.equal(formatUsd(0.1), '$0.10');
    assert.equal(formatUsd(0.000042), '$0.000042');
    assert.match(
      costText('llama3', { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, PRICES),
      /cost unknown \(no price for llama3 in apiWorkbench\.llm\.prices\)/,
    );
  });

  it('the ledger adds each request to its local day, persists it, and keeps concurrent records', async () => {
    const store = new MapStore();
    let now = new Date(2026, 10, 23, 23, 59);
    const ledger = new CostLedger(store, () => now);
    let changes = 0;
    ledger.onDidChange(() => changes++);
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 100_000, total_tokens: 1_100_000 };
    // Compare records its columns at the same moment: no total may be lost.
    const costs = await Promise.all([
      ledger.record('gpt-4o-mini', usage, PRICES),
      ledger.record('gpt-4o-mini', usage, PRICES),
      ledger.record('llama3', usage, PRICES),
    ]);
    assert.ok(costs[0] && Math.abs(costs[0].totalUsd - 0.21) < 1e-12);
    assert.equal(costs[2], undefined);
    assert.equal(changes, 3);
    const today = ledger.today();
    assert.ok(Math.abs(today.usd - 0.42) < 1e-12);
    assert.equal(today.requests, 3);
    assert.equal(today.unpriced, 1);
    // A new ledger on the same store (a restarted editor) reads the same total.
    assert.equal(new CostLedger(store, () => now).today().requests, 3);
    now = new Date(2026, 10, 24, 0, 1);
    assert.deepEqual(ledger.today(), { usd: 0, requests: 0 }, 'a new day starts at zero');
    await ledger.record('gpt-4o-mini', usage, PRICES);
    assert.deepEqual(Object.keys(store.map.get(LEDGER_KEY) as object).sort(), [dayOf(new Date(2026, 10, 23)), '2026-11-24']);
  });

  it("today's line for the status bar tooltip: spend, requests, unpriced ones, the budget", () => {
    assert.equal(todayText({ usd: 0.0123, requests: 3, unpriced: 1 }, 2), 'Today: $0.0123 over 3 requests (1 without a known price) of a $2.00 daily budget.');
    assert.equal(todayText({ usd: 0, requests: 1 }, undefined), 'Today: $0.00 over 1 request.');
  });

  it('a corrupt stored ledger reads as zero instead of failing requests', () => {
    const store = new MapStore();
    store.map.set(LEDGER_KEY, { '2026-11-23': { usd: 'lots' } });
    assert.deepEqual(new CostLedger(store, () => new Date(2026, 10, 23)).today(), { usd: 0, requests: 0 });
  });

  it("a hand-written body (a notebook cell) is estimated like Ask, in both API shapes; its answer's usage is read back", () => {
    assert.deepEqual(
      plannedFromBody(
        '{"model": "gpt-4o", "max_tokens": 50, "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}',
      ),
      {
        model: 'gpt-4o',
        messages: [{ content: 'Be brief.' }, { content: '[{"type":"text","text":"Hi"}]' }],
        maxTokens: 50,
      },
    );
    assert.deepEqual(plannedFromBody('{"model": "gpt-4o", "instructions": "Be brief.", "input": "Hi", "max_output_tokens": 20}'), {
      model: 'gpt-4o',
      messages: [{ content: 'Be brief.' }, { content: 'Hi' }],
      maxTokens: 20,
    });
    assert.deepEqual(plannedFromBody('{"model": "gpt-4o", "input": [{"role": "user", "content": "Hi"}]}'), { model: 'gpt-4o', messages: [{ content: 'Hi' }] });
    for (const bad of [undefined, '', 'not json', '[]', '{"messages": []}', '{"model": 4}']) assert.equal(plannedFromBody(bad), undefined, String(bad));

    assert.deepEqual(usageFromAnswer({ model: 'gpt-4o', usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }), {
      model: 'gpt-4o',
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    assert.deepEqual(usageFromAnswer({ model: 'gpt-4o', usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 } }), {
      model: 'gpt-4o',
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
    assert.deepEqual(usageFromAnswer({ usage: { prompt_tokens: 4 } }), { usage: { prompt_tokens: 4, completion_tokens: 0, total_tokens: 4 } });
    for (const none of [undefined, null, 'text', {}, { usage: {} }, { usage: { prompt_tokens: -1 } }])
      assert.equal(usageFromAnswer(none), undefined, JSON.stringify(none));
  });
});
