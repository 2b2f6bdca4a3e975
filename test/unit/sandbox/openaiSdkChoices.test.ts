// `n` choices on the sandbox (chat and legacy completions), through the official `openai` client
// configured only by OPENAI_BASE_URL and OPENAI_API_KEY, as a script written for OpenAI runs.
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer, sandboxAnswerTokens } from '../../../src/sandbox/llm';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-choices-test';
const MODEL = 'gpt-4o-mini';

describe('sandbox: n choices through the official openai client', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  const asUser = (content: string) => [{ role: 'user' as const, content }];
  const messages = asUser('Name three colours of the sea');
  const expected = [0, 1, 2].map((choice) => sandboxAnswerTokens(messages, MODEL, { choice }));

  it('chat with n: 3 answers three distinct, deterministic choices, indexed 0..2; usage counts the tokens of all three', async () => {
    const c = await new OpenAI().chat.completions.create({ model: MODEL, messages, n: 3 });
    assert.deepEqual(
      c.choices.map((x) => [x.index, x.message.content, x.finish_reason]),
      expected.map((tokens, i) => [i, tokens.join(''), 'stop']),
    );
    assert.equal(c.choices[0].message.content, sandboxAnswer(messages, MODEL), 'choice 0 is the answer a request without n gets');
    assert.equal(new Set(c.choices.map((x) => x.message.content)).size, 3, 'the choices differ');
    assert.equal(
      c.usage?.completion_tokens,
      expected.reduce((sum, t) => sum + t.length, 0),
    );
    const again = await new OpenAI().chat.completions.create({ model: MODEL, messages, n: 3 });
    assert.deepEqual(
      again.choices.map((x) => x.message.content),
      c.choices.map((x) => x.message.content),
      'the same request gets the same choices',
    );
  });

  it('a streamed chat with n: 3 carries each choice’s index on its chunks; gathered, they are the plain answer’s choices', async () => {
    const stream = await new OpenAI().chat.completions.create({ model: MODEL, messages, n: 3, stream: true, stream_options: { include_usage: true } });
    const texts = ['', '', ''];
    const finish: (string | null)[] = [null, null, null];
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      for (const choice of chunk.choices) {
        texts[choice.index] += choice.delta.content ?? '';
        finish[choice.index] = choice.finish_reason ?? finish[choice.index];
      }
      usage = chunk.usage ?? usage;
    }
    assert.deepEqual(
      texts,
      expected.map((t) => t.join('')),
    );
    assert.deepEqual(finish, ['stop', 'stop', 'stop']);
    assert.equal(
      usage?.completion_tokens,
      expected.reduce((sum, t) => sum + t.length, 0),
    );
  });

  it('tool calls and response_format answer per choice as they do for one (each call with its own id), streamed too', async () => {
    const client = new OpenAI();
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ];
    const ask = asUser('What is the weather in Oslo?');
    const one = await client.chat.completions.create({ model: MODEL, messages: ask, tools });
    const two = await client.chat.completions.create({ model: MODEL, messages: ask, tools, n: 2 });
    const call = (c: OpenAI.ChatCompletion.Choice) => {
      const first = c.message.tool_calls?.[0];
      assert.ok(first?.type === 'function');
      return first;
    };
    assert.deepEqual(
      two.choices.map((c) => [c.index, c.finish_reason, call(c).function]),
      [0, 1].map((i) => [i, 'tool_calls', call(one.choices[0]).function]),
    );
    assert.notEqual(call(two.choices[0]).id, call(two.choices[1]).id);
    const streamed = await client.chat.completions.create({ model: MODEL, messages: ask, tools, n: 2, stream: true });
    const args = ['', ''];
    for await (const chunk of streamed) for (const c of chunk.choices) args[c.index] += c.delta.tool_calls?.[0]?.function?.arguments ?? '';
    assert.deepEqual(args, [call(one.choices[0]).function.arguments, call(one.choices[0]).function.arguments]);

    const format = { type: 'json_object' as const };
    const json = await client.chat.completions.create({ model: MODEL, messages: ask, response_format: format, n: 2 });
    const single = await client.chat.completions.create({ model: MODEL, messages: ask, response_format: format });
    assert.deepEqual(
      json.choices.map((c) => c.message.content),
      [single.choices[0].message.content, single.choices[0].message.content],
    );
  });

  it('legacy completions with n: 2 and two prompts answer four choices, prompt by prompt (index = prompt * n + choice)', async () => {
    const client = new OpenAI();
    const prompts = ['one', 'two'];
    const wantTokens = prompts.flatMap((p) => [0, 1].map((choice) => sandboxAnswerTokens(asUser(p), 'davinci-002', { maxTokens: 400, choice })));
    const want = wantTokens.map((t) => t.join(''));
    const c = await client.completions.create({ model: 'davinci-002', prompt: prompts, n: 2, max_tokens: 400 });
    assert.deepEqual(
      c.choices.map((x) => [x.index, x.text]),
      want.map((text, i) => [i, text]),
    );
    assert.equal(new Set(want).size, 4, 'the two choices of a prompt differ');
    assert.equal(
      c.usage?.completion_tokens,
      wantTokens.reduce((sum, t) => sum + t.length, 0),
    );
    const stream = await client.completions.create({ model: 'davinci-002', prompt: prompts, n: 2, max_tokens: 400, stream: true });
    const texts = ['', '', '', ''];
    for await (const chunk of stream) for (const x of chunk.choices) texts[x.index] += x.text;
    assert.deepEqual(texts, want);
  });

  it('n of 0 or 129 is refused with OpenAI’s 400 (param n), on chat and on legacy completions', async () => {
    const client = new OpenAI();
    const refused = async (request: () => Promise<unknown>) => {
      const e = await request().catch((x: unknown) => x);
      assert.ok(e instanceof OpenAI.BadRequestError, String(e));
      assert.equal(e.param, 'n');
      assert.equal(e.type, 'invalid_request_error');
      return { code: e.code, message: e.message };
    };
    const low = /Invalid 'n': integer below minimum value\. Expected a value >= 1, but got 0 instead\./;
    const high = /Invalid 'n': integer above maximum value\. Expected a value <= 128, but got 129 instead\./;
    for (const [request, code, message] of [
      [() => client.chat.completions.create({ model: MODEL, messages, n: 0 }), 'integer_below_min_value', low],
      [() => client.chat.completions.create({ model: MODEL, messages, n: 129 }), 'integer_above_max_value', high],
      [() => client.completions.create({ model: 'davinci-002', prompt: 'x', n: 0 }), 'integer_below_min_value', low],
      [() => client.completions.create({ model: 'davinci-002', prompt: 'x', n: 129 }), 'integer_above_max_value', high],
    ] as const) {
      const e = await refused(request);
      assert.equal(e.code, code);
      assert.match(e.message, message);
    }
    const most = await client.chat.completions.create({ model: MODEL, messages, n: 128, max_completion_tokens: 2 });
    assert.equal(most.choices.length, 128);
  });
});
