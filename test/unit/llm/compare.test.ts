// Compare's fan-out against the real sandbox: several models stream at once, each column gets its
// own answer, stats and cost; a failing column (unknown model, a stream that breaks off) does not
// stop the others.
import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/core/http';
import { compareModelsProblem, compareSelection, runCompare, type ColumnEvent } from '../../../src/features/llm/compareRun';
import { failureText } from '../../../src/features/llm/prompts';
import { FAULTY_MODEL, LLM_MODELS, faultAfterTokens, sandboxAnswer, sandboxAnswerTokens, startLlmSandbox } from '../../../src/sandbox/llm';
import type { RunningService } from '../../../src/sandbox/types';
import { LlmClient, openAiErrorParser, PRICES, type ChatMessage } from '../../../src/services/llm';

const KEY = 'sk-sandbox-compare-test';

describe('llm/compare: one prompt, several models, side by side', function () {
  it('preselects the default model and one of its family, never the sandbox models that fail or throttle on purpose', () => {
    const byName = [...LLM_MODELS].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(compareSelection(byName, ['sandbox-chat', undefined]), ['sandbox-chat', 'sandbox-chat-mini']);
    assert.ok(!compareSelection(byName, [undefined, undefined]).includes(FAULTY_MODEL));
    assert.deepEqual(compareSelection(byName, ['sandbox-chat', 'sandbox-chat-limited']), ['sandbox-chat', 'sandbox-chat-limited'], 'what the user chose stays');
  });

  this.timeout(20_000);
  let sandbox: RunningService;
  let client: LlmClient;

  before(async () => {
    sandbox = await startLlmSandbox({ host: '127.0.0.1', port: 0, apiKey: KEY, tokenRate: 200 });
    const http = new HttpClient({
      service: 'Sandbox',
      baseUrl: `http://127.0.0.1:${sandbox.port}/v1`,
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(KEY),
      parseError: openAiErrorParser,
    });
    client = new LlmClient(http);
  });
  after(() => sandbox.close());

  const messages: ChatMessage[] = [{ role: 'user', content: 'Compare yourselves in one sentence.' }];

  it('two models stream together into their own columns, each with tokens, latency, first token and cost', async () => {
    const events: ColumnEvent[] = [];
    const results = await runCompare(client, { models: ['sandbox-chat', 'sandbox-chat-mini'], messages }, PRICES, (e) => events.push(e));
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['done', 'done'],
    );
    for (const [column, model] of ['sandbox-chat', 'sandbox-chat-mini'].entries()) {
      const r = results[column];
      assert.equal(r.text, sandboxAnswer(messages, model), `${model}: the sandbox's answer`);
      const streamed = events
        .filter((e) => e.column === column && e.type === 'delta')
        .map((e) => (e.type === 'delta' ? e.text : ''))
        .join('');
      assert.equal(streamed, r.text, 'the deltas sent to the column add up to the answer');
      assert.ok(r.stats?.usage && r.stats.usage.completion_tokens === sandboxAnswerTokens(messages, model).length);
      assert.ok(r.stats.firstTokenMs !== undefined && r.stats.firstTokenMs <= r.stats.latencyMs);
      assert.equal(r.stats.cost, '$0.00', 'sandbox models are free');
      assert.match(r.stats.requestId ?? '', /\S/);
    }
    // Together, not one after the other: the second column's first delta arrives before the first column is done.
    const firstDone = events.findIndex((e) => e.type === 'done');
    const deltasBefore = new Set(
      events
        .slice(0, firstDone)
        .filter((e) => e.type === 'delta')
        .map((e) => e.column),
    );
    assert.deepEqual([...deltasBefore].sort(), [0, 1], 'both columns streamed before either finished');
  });

  it('an unknown model fails in its own column with status, service text and request id; the other completes', async () => {
    const events: ColumnEvent[] = [];
    const results = await runCompare(client, { models: ['no-such-model', 'sandbox-chat'], messages }, PRICES, (e) => events.push(e));
    assert.equal(results[0].outcome, 'failed');
    const f = results[0].failure;
    assert.ok(f);
    assert.equal(f.status, 404);
    assert.equal(f.code, 'model_not_found');
    assert.match(f.message, /no-such-model/);
    assert.match(f.requestId ?? '', /\S/);
    assert.equal(f.midStream, false);
    assert.equal(results[1].outcome, 'done');
    assert.equal(results[1].text, sandboxAnswer(messages, 'sandbox-chat'));
    assert.ok(events.some((e) => e.type === 'failed' && e.column === 0));
  });

  it('a stream that breaks off keeps what arrived, says why in words, and the other column completes', async () => {
    const results = await runCompare(client, { models: [FAULTY_MODEL, 'sandbox-chat-mini'], messages }, PRICES, () => undefined);
    const tokens = sandboxAnswerTokens(messages, FAULTY_MODEL);
    assert.equal(results[0].outcome, 'failed');
    assert.equal(results[0].text, tokens.slice(0, faultAfterTokens(tokens.length)).join(''));
    assert.equal(results[0].failure?.midStream, true);
    assert.equal(results[0].failure?.keptChars, results[0].text.length);
    assert.equal(results[1].outcome, 'done');
  });

  it('Stop ends every column and keeps what each had', async () => {
    const abort = new AbortController();
    let deltas = 0;
    const slow = await startLlmSandbox({ host: '127.0.0.1', port: 0, apiKey: KEY, tokenRate: 20 });
    try {
      const http = new HttpClient({
        service: 'Slow',
        baseUrl: `http://127.0.0.1:${slow.port}/v1`,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
      });
      const results = await runCompare(new LlmClient(http), { models: ['sandbox-chat', 'sandbox-chat-mini'], messages, signal: abort.signal }, PRICES, (e) => {
        if (e.type === 'delta' && ++deltas === 4) abort.abort();
      });
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['cancelled', 'cancelled'],
      );
      assert.ok(results.some((r) => r.text.length > 0));
      for (const [i, r] of results.entries())
        assert.ok(sandboxAnswer(messages, ['sandbox-chat', 'sandbox-chat-mini'][i]).startsWith(r.text), 'a prefix of the answer');
    } finally {
      await slow.close();
    }
  });

  it('the model choice must be 2 to 4 distinct models', async () => {
    assert.match(compareModelsProblem(['a']) ?? '', /Pick 2 to 4 models/);
    assert.match(compareModelsProblem(['a', 'b', 'c', 'd', 'e']) ?? '', /5 picked/);
    assert.match(compareModelsProblem(['a', 'a']) ?? '', /only once/);
    assert.equal(compareModelsProblem(['a', 'b']), undefined);
    await assert.rejects(
      runCompare(client, { models: ['sandbox-chat'], messages }, PRICES, () => undefined),
      /Pick 2 to 4/,
    );
  });

  it('a mid-stream failure in words: what failed, that the text is kept, no bare "200 server_error"', async () => {
    const stream = client.chatStream({ model: FAULTY_MODEL, messages });
    let kept = 0;
    try {
      for await (const e of stream) if (e.type === 'delta') kept += e.text.length;
      assert.fail('the faulty model should fail');
    } catch (e) {
      const text = failureText(e, kept);
      assert.match(text, /^Sandbox stopped the answer part-way: it reported an error inside the stream: "/);
      assert.match(text, new RegExp(`The ${kept} characters that arrived are kept\\.`));
      assert.match(text, /\(request id \S+\)$/);
      assert.doesNotMatch(text, /\b200\b/);
    }
  });
});
