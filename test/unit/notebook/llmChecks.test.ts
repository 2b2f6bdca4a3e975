// The LLM checks of llm cells against the sandbox: tool calls (chat completions and the Responses
// API, streamed or not), JSON Schema files, usage, cost, time to first token, a judge with its
// reason, and embedding similarity. Each failing message is asserted as the user reads it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { connectionsHost, runNotebook, sandboxConnections, type AssertionResult, type CellResult, type RunOptions } from '../../../src/notebook/api';
import { parseAssertion } from '../../../src/notebook/cells';
import { cosine } from '../../../src/notebook/assertionsModel';
import { sandboxAnswer, sandboxEmbedding } from '../../../src/sandbox/llm';

const LLM_KEY = 'sk-sandbox-llm-checks-0123456789';
const FILE = 'evals.awb.md';

const FIND_PLACE = {
  type: 'function',
  function: {
    name: 'find_place',
    description: 'Find a place by a text query',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

function llmCell(body: Record<string, unknown>, checks: string[], path_ = '/chat/completions'): string {
  return `\`\`\`llm\nPOST ${path_}\n\n${JSON.stringify(body)}\n\n${checks.join('\n')}\n\`\`\`\n`;
}

describe('LLM checks in llm cells, against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let dir: string;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, llm: { tokenRate: 0, modelMap: { 'my-fine-tune': 'gpt-4o-mini' } } });
    dir = mkdtempSync(path.join(tmpdir(), 'awb-llm-checks-'));
    writeFileSync(
      path.join(dir, 'place.schema.json'),
      JSON.stringify({ type: 'object', properties: { city: { type: 'string' }, name: { type: 'string' } }, required: ['city', 'name'] }),
    );
    writeFileSync(
      path.join(dir, 'rated.schema.json'),
      JSON.stringify({ type: 'object', properties: { city: { type: 'string' }, rating: { type: 'number' } }, required: ['city', 'rating'] }),
    );
  });
  after(() => sandbox.close());

  async function run(text: string, extra: Partial<RunOptions> = {}): Promise<CellResult> {
    const { connections, key } = sandboxConnections(sandbox.info);
    const host = connectionsHost({ connections, key });
    const report = await runNotebook(text, { host, file: FILE, baseDir: dir, ...extra });
    assert.deepEqual(report.problems, []);
    return report.results[report.results.length - 1];
  }

  function check(r: CellResult, source: string): AssertionResult {
    const a = r.assertions.find((x) => x.source === source);
    assert.ok(a, `no result for ${source}: ${JSON.stringify(r.assertions)}`);
    return a;
  }

  describe('tool_calls', () => {
    const checks = ['?? tool_calls[0].name == find_place', '?? tool_calls[0].arguments.query contains Lisbon', '?? tool_calls[0].name == get_weather'];
    const ask = { model: 'sandbox-chat', messages: [{ role: 'user', content: 'Find a café in Lisbon' }], tools: [FIND_PLACE] };
    const responsesAsk = { model: 'sandbox-chat', input: 'Find a café in Lisbon', tools: [{ type: 'function', ...FIND_PLACE.function }] };

    for (const [label, body, at] of [
      ['chat completions', ask, '/chat/completions'],
      ['chat completions, streamed', { ...ask, stream: true }, '/chat/completions'],
      ['the Responses API', responsesAsk, '/responses'],
      ['the Responses API, streamed', { ...responsesAsk, stream: true }, '/responses'],
    ] as const) {
      it(`name and arguments (parsed from their JSON string) from ${label}; a wrong name says which tool was called`, async () => {
        const r = await run(llmCell(body, checks, at));
        assert.equal(check(r, checks[0]).passed, true, JSON.stringify(r.assertions));
        assert.equal(check(r, checks[1]).passed, true, JSON.stringify(r.assertions));
        const wrong = check(r, checks[2]);
        assert.deepEqual([wrong.passed, wrong.expected, wrong.actual], [false, '== get_weather', 'find_place']);
        assert.equal(r.ok, false);
      });
    }

    it('a streamed answer with n: 2 is its first choice, as the plain answer is (the other choice’s chunks are not mixed in)', async () => {
      const r = await run(llmCell({ ...ask, n: 2, stream: true }, checks.slice(0, 2)));
      assert.equal(r.ok, true, JSON.stringify(r.assertions));
      const messages = [{ role: 'user', content: 'Tell me about Lisbon' }];
      const text = await run(llmCell({ model: 'sandbox-chat', messages, n: 2, stream: true }, []));
      assert.equal(text.response?.text, sandboxAnswer(messages, 'sandbox-chat'));
    });

    it('an answer without a tool call says the model called none', async () => {
      const r = await run(llmCell({ ...ask, tool_choice: 'none' }, [checks[0]]));
      assert.deepEqual([check(r, checks[0]).passed, check(r, checks[0]).actual], [false, '(missing: the model called no tool)']);
    });
  });

  describe('json matches schema', () => {
    const body = {
      model: 'sandbox-chat',
      messages: [{ role: 'user', content: 'A café in Lisbon, as JSON' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'place',
          strict: true,
          schema: {
            type: 'object',
            properties: { city: { type: 'string' }, name: { type: 'string' } },
            required: ['city', 'name'],
            additionalProperties: false,
          },
        },
      },
    };

    it("the answer's content is parsed and checked with the schema file next to the notebook", async () => {
      const r = await run(llmCell(body, ['?? json matches schema ./place.schema.json']));
      assert.equal(r.ok, true, JSON.stringify(r.assertions));
    });

    it("a failure names the first schema error's path and message; a missing file and a non-JSON answer say so", async () => {
      const r = await run(llmCell(body, ['?? json matches schema ./rated.schema.json', '?? json matches schema ./nowhere.json']));
      const rated = check(r, '?? json matches schema ./rated.schema.json');
      assert.equal(rated.passed, false);
      assert.match(rated.actual, /^\/rating: is required but missing; the value was \{"city":/);
      assert.equal(check(r, '?? json matches schema ./nowhere.json').actual, '(not checked: no schema file ./nowhere.json next to the notebook)');
      const prose = await run(llmCell({ model: 'sandbox-chat', messages: [{ role: 'user', content: 'Hi' }] }, ['?? json matches schema ./place.schema.json']));
      assert.match(prose.assertions[0].actual, /^the answer is not JSON: Sandbox answer from sandbox-chat to “Hi”/);
    });
  });

  describe('usage, cost and ttft', () => {
    const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Suggest a café in Lisbon' }] };

    it('usage and cost (USD from the price table) of a priced model; a failing one shows the figure', async () => {
      const r = await run(llmCell(ask, ['?? usage.total_tokens < 500', '?? cost < 0.01', '?? cost < 0.0000001']));
      assert.equal(check(r, '?? usage.total_tokens < 500').passed, true);
      assert.equal(check(r, '?? cost < 0.01').passed, true);
      const tight = check(r, '?? cost < 0.0000001');
      assert.equal(tight.passed, false);
      // 0.15 USD per 1M prompt tokens, 0.6 per 1M completion tokens.
      const t = r.llm?.tokens;
      assert.ok(t);
      const exact = Number(((t.prompt * 0.15 + t.completion * 0.6) / 1_000_000).toFixed(10));
      assert.equal(r.llm?.costUsd, exact);
      // Shown to three significant digits; compared exactly.
      assert.equal(tight.actual, String(Number(exact.toPrecision(3))));
    });

    it('times are shown in whole milliseconds (or one decimal under 10 ms), never 376.9670890000052', async () => {
      const r = await run(llmCell({ ...ask, stream: true }, ['?? ttft < 0', '?? duration < 0']));
      for (const a of r.assertions) {
        assert.equal(a.passed, false);
        assert.match(a.actual, /^\d+(\.\d)?$/, `${a.source}: ${a.actual}`);
      }
    });

    it('an unknown price fails the check and says so', async () => {
      const r = await run(llmCell({ ...ask, model: 'my-fine-tune' }, ['?? cost < 0.01']));
      assert.equal(r.assertions[0].passed, false);
      assert.equal(r.assertions[0].actual, `(unknown: no price is known for the model "my-fine-tune" (the price table has OpenAI's public models))`);
    });

    it('a stream without include_usage says how to get usage; ttft is measured on streams and missing otherwise', async () => {
      const streamed = await run(llmCell({ ...ask, stream: true }, ['?? ttft < 2000', '?? usage.total_tokens < 500']));
      assert.equal(check(streamed, '?? ttft < 2000').passed, true);
      assert.equal(typeof streamed.response?.ttftMs, 'number');
      assert.match(check(streamed, '?? usage.total_tokens < 500').actual, /stream_options.*include_usage/);
      const withUsage = await run(llmCell({ ...ask, stream: true, stream_options: { include_usage: true } }, ['?? usage.total_tokens < 500']));
      assert.equal(withUsage.ok, true);
      const plain = await run(llmCell(ask, ['?? ttft < 2000']));
      assert.equal(plain.assertions[0].actual, '(missing: the time to first token is measured on streamed answers; add "stream": true to the request)');
    });
  });

  describe('text and body', () => {
    const ask = { model: 'sandbox-chat', messages: [{ role: 'user', content: 'Suggest a café in Lisbon' }] };
    const responsesAsk = { model: 'sandbox-chat', input: 'Suggest a café in Lisbon' };

    for (const [label, body, at] of [
      ['chat completions', ask, '/chat/completions'],
      ['chat completions, streamed', { ...ask, stream: true }, '/chat/completions'],
      ['the Responses API', responsesAsk, '/responses'],
      ['the Responses API, streamed', { ...responsesAsk, stream: true }, '/responses'],
    ] as const) {
      it(`?? text is the answer's text from ${label}, streamed or not`, async () => {
        const r = await run(llmCell(body, ['?? text == "-"'], at));
        assert.ok(r.llm?.answer, 'the answer has text');
        assert.ok(r.assertions[0].actual.startsWith(r.llm.answer.slice(0, 300)), r.assertions[0].actual);
      });
    }

    it('?? body is the body as received: the raw JSON of a plain answer', async () => {
      const r = await run(llmCell(ask, ['?? body contains "choices"', '?? text contains "choices"']));
      assert.deepEqual(
        r.assertions.map((a) => a.passed),
        [true, false],
      );
    });
  });

  describe('judge', () => {
    const ask = { model: 'sandbox-chat', messages: [{ role: 'user', content: 'Suggest one café in Lisbon' }] };

    it('passes with the reason shown; fails with the reason shown; the judge is the cell model unless told', async () => {
      const r = await run(llmCell(ask, ['?? judge: names a café in Lisbon', '?? judge: recommends a restaurant in Tokyo']));
      const good = check(r, '?? judge: names a café in Lisbon');
      assert.equal(good.passed, true, good.actual);
      assert.equal(good.judgeModel, 'sandbox-chat');
      assert.match(good.reason ?? '', /^The answer has \d of the rubric’s 3 words \(.*lisbon.*\)/);
      const bad = check(r, '?? judge: recommends a restaurant in Tokyo');
      assert.equal(bad.passed, false);
      assert.equal(bad.expected, 'judge: recommends a restaurant in Tokyo');
      assert.equal(
        bad.actual,
        'fail: The answer has 0 of the rubric’s 3 words; missing: recommends, restaurant, tokyo. The sandbox passes an answer with at least half of them.',
      );
      assert.equal(bad.reason, bad.actual.slice('fail: '.length));
    });

    it('--judge-model wins over the notebook’s judge variable, which wins over the cell’s model', async () => {
      const vars = '```vars\njudge = sandbox-chat-mini\n```\n\n';
      const byVar = await run(vars + llmCell(ask, ['?? judge: names a café in Lisbon']));
      assert.equal(byVar.assertions[0].judgeModel, 'sandbox-chat-mini');
      const byOption = await run(vars + llmCell(ask, ['?? judge: names a café in Lisbon']), { judgeModel: 'gpt-4o-mini' });
      assert.equal(byOption.assertions[0].judgeModel, 'gpt-4o-mini');
      assert.equal(byOption.assertions[0].passed, true);
      // What judging cost counts in the run's cost: gpt-4o-mini is priced, the sandbox's models are free.
      assert.ok((byOption.assertions[0].costUsd ?? 0) > 0);
      assert.equal(byVar.assertions[0].costUsd, 0);
    });

    it('a judge that cannot be asked fails the check saying why', async () => {
      const r = await run(llmCell(ask, ['?? judge: names a café in Lisbon']), { judgeModel: 'no-such-model' });
      assert.equal(r.assertions[0].passed, false);
      assert.match(r.assertions[0].actual, /^\(not checked: .*no-such-model/);
    });
  });

  describe('similar', () => {
    it('the sandbox embeds by words: the same words are close, unrelated words are not', () => {
      assert.ok(cosine(sandboxEmbedding('a café in Lisbon', 256), sandboxEmbedding('in Lisbon, a café', 256)) > 0.9);
      assert.ok(Math.abs(cosine(sandboxEmbedding('a café in Lisbon', 256), sandboxEmbedding('quarterly tax forms', 256))) < 0.3);
    });

    it('cosine similarity of embeddings of the answer and the expected text, with the score and model shown (the connection’s text-embedding-3-small)', async () => {
      // Five tokens of the sandbox's answer: "Sandbox answer from sandbox-chat to".
      const body = { model: 'sandbox-chat', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 };
      const r = await run(llmCell(body, ['?? similar "answer from the sandbox-chat sandbox to" > 0.8', '?? similar "quarterly tax forms" > 0.8']));
      const close = r.assertions[0];
      assert.equal(close.passed, true, close.actual);
      assert.match(close.actual, /^0\.9\d\d \(text-embedding-3-small\)$/);
      assert.ok((close.costUsd ?? 0) > 0, 'the embeddings are priced');
      const far = r.assertions[1];
      assert.equal(far.passed, false);
      assert.equal(far.expected, 'similar "quarterly tax forms" > 0.8');
      assert.match(far.actual, /^-?0\.[0-3]\d\d \(text-embedding-3-small\)$/);
    });
  });

  it('the example evaluation notebook (examples/prompt-evals.awb.md) passes every check against the sandbox, its 2020-12 schema file included', async () => {
    const examples = path.resolve(__dirname, '../../../../examples');
    const text = readFileSync(path.join(examples, 'prompt-evals.awb.md'), 'utf8');
    const { connections, key } = sandboxConnections(sandbox.info);
    const report = await runNotebook(text, { host: connectionsHost({ connections, key }), file: 'prompt-evals.awb.md', baseDir: examples });
    assert.deepEqual(report.problems, []);
    for (const r of report.results)
      assert.equal(r.ok, true, `line ${r.line}: ${JSON.stringify({ error: r.error, failed: r.assertions.filter((a) => !a.passed) })}`);
    const checks = report.results.flatMap((r) => r.assertions.map((a) => a.source.split(/\s/)[1]));
    for (const kind of ['judge:', 'similar', 'usage.total_tokens', 'cost', 'tool_calls[0].name', 'ttft', 'json']) assert.ok(checks.includes(kind), kind);
  });

  describe('parsing', () => {
    it('reads each new form, and says what is wrong with a malformed one', () => {
      assert.deepEqual(parseAssertion('?? tool_calls[0].arguments.query contains Lisbon', 1), {
        source: '?? tool_calls[0].arguments.query contains Lisbon',
        line: 1,
        subject: { kind: 'toolCalls', path: [0, 'arguments', 'query'] },
        operator: 'contains',
        value: 'Lisbon',
      });
      assert.deepEqual((parseAssertion('?? json matches schema ./a.json', 1) as { operator: string; value: string }).operator, 'matches schema');
      assert.deepEqual((parseAssertion('?? judge: be kind', 1) as { value: string }).value, 'be kind');
      assert.deepEqual((parseAssertion('?? similar "a \\"b\\"" >= 0.5', 1) as { subject: unknown }).subject, { kind: 'similar', expected: 'a "b"' });
      assert.equal(parseAssertion('?? judge:', 1), 'judge: needs a rubric, what a good answer does: judge: recommends one café in Lisbon and says why');
      assert.equal(parseAssertion('?? similar "x" == 1', 1), 'similar compares a score from -1 to 1: use >, >=, < or <= (e.g. > 0.8)');
      assert.equal(parseAssertion('?? similar > 0.8', 1), 'similar takes the expected text in quotes, then a comparison: similar "a café in Lisbon" > 0.8');
    });
  });
});
