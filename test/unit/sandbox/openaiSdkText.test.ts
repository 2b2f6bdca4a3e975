// Legacy completions, logprobs and moderations on the sandbox, through the official `openai`
// client configured only by OPENAI_BASE_URL and OPENAI_API_KEY, as a script written for OpenAI runs.
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer, sandboxAnswerTokens } from '../../../src/sandbox/llm';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-text-test';

describe('sandbox: legacy completions, logprobs and moderations through the official openai client', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  const asUser = (content: string) => [{ role: 'user' as const, content }];

  it('legacy completions: the answer to the prompt, cut at max_tokens (16 by default), one choice per prompt', async () => {
    const client = new OpenAI();
    const c = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' });
    assert.equal(c.object, 'text_completion');
    assert.equal(c.model, 'gpt-3.5-turbo-instruct');
    assert.equal(c.choices[0].text, sandboxAnswer(asUser('Say this is a test'), 'gpt-3.5-turbo-instruct', { maxTokens: 16 }));
    assert.equal(c.choices[0].finish_reason, 'length');
    assert.equal(c.usage?.completion_tokens, 16);
    const two = await client.completions.create({ model: 'davinci-002', prompt: ['one', 'two'], max_tokens: 400 });
    assert.deepEqual(
      two.choices.map((x) => [x.index, x.text, x.finish_reason]),
      ['one', 'two'].map((p, i) => [i, sandboxAnswer(asUser(p), 'davinci-002'), 'stop']),
    );
  });

  it('legacy completions: echo, logprobs: n (tokens, token_logprobs, top_logprobs, text_offset), and a stream of the same text', async () => {
    const client = new OpenAI();
    const prompt = 'Once upon a time';
    const c = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt, max_tokens: 8, logprobs: 3, echo: true });
    const tokens = sandboxAnswerTokens(asUser(prompt), 'gpt-3.5-turbo-instruct', { maxTokens: 8 });
    const lp = c.choices[0].logprobs;
    assert.equal(c.choices[0].text, prompt + tokens.join(''));
    assert.deepEqual(lp?.tokens, tokens);
    assert.equal(lp?.text_offset?.[0], prompt.length, 'offsets count the echoed prompt');
    assert.equal(lp?.token_logprobs?.length, 8);
    for (const [i, top] of (lp?.top_logprobs ?? []).entries()) {
      const entries = Object.entries(top);
      assert.equal(entries.length, 3);
      assert.equal(entries[0][0], tokens[i], 'the chosen token is the likeliest');
      assert.ok(entries.every(([, v]) => v <= 0));
    }
    const stream = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt, max_tokens: 8, logprobs: 2, stream: true });
    let text = '';
    let finish: string | null = null;
    const streamedLogprobs: number[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      streamedLogprobs.push(...(chunk.choices[0]?.logprobs?.token_logprobs ?? []));
    }
    assert.equal(text, tokens.join(''));
    assert.equal(finish, 'length');
    assert.deepEqual(streamedLogprobs, lp?.token_logprobs, 'streamed logprobs are those of the whole answer');
  });

  it('a chat model on /completions is refused as OpenAI refuses it', async () => {
    const e = await new OpenAI().completions.create({ model: 'gpt-4o', prompt: 'x' }).catch((x: unknown) => x);
    assert.ok(e instanceof OpenAI.NotFoundError, String(e));
    assert.match(e.message, /This is a chat model and not supported in the v1\/completions endpoint/);
  });

  it('chat logprobs: true with top_logprobs: n, plain and streamed; top_logprobs without logprobs is a 400', async () => {
    const client = new OpenAI();
    const messages = asUser('Rate this');
    const c = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true, top_logprobs: 2 });
    const content = c.choices[0].logprobs?.content ?? [];
    assert.equal(content.map((t) => t.token).join(''), c.choices[0].message.content);
    for (const t of content) {
      assert.deepEqual(t.bytes, [...Buffer.from(t.token, 'utf8')]);
      assert.equal(t.top_logprobs.length, 2);
      assert.equal(t.top_logprobs[0].token, t.token);
      assert.ok(t.top_logprobs[1].logprob < t.logprob);
    }
    const plain = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    assert.equal(plain.choices[0].logprobs, null, 'no logprobs unless asked');
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, logprobs: true, top_logprobs: 2, stream: true });
    const streamed = [];
    for await (const chunk of stream) streamed.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    assert.deepEqual(streamed, content);
    const bad = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, top_logprobs: 2 }).catch((x: unknown) => x);
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.equal(bad.param, 'top_logprobs');
  });

  it('moderations: OpenAI’s result shape; trigger words flag their category, other text passes', async () => {
    const client = new OpenAI();
    const m = await client.moderations.create({ model: 'omni-moderation-latest', input: ['I will kill the process', 'What a lovely day'] });
    assert.match(m.id, /^modr-/);
    assert.equal(m.model, 'omni-moderation-latest');
    assert.equal(m.results.length, 2);
    const [violent, calm] = m.results;
    assert.equal(violent.flagged, true);
    assert.equal(violent.categories.violence, true);
    assert.ok(violent.category_scores.violence > 0.9);
    assert.equal(calm.flagged, false);
    assert.ok(Object.values(calm.category_scores).every((s) => s < 0.01));
    assert.deepEqual(Object.keys(calm.categories).sort(), Object.keys(calm.category_scores).sort());
    assert.equal(calm.categories['self-harm/intent'], false);
    const byDefault = await client.moderations.create({ input: 'hello' });
    assert.equal(byDefault.model, 'omni-moderation-latest', 'the model is optional');
    const multi = await client.moderations.create({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'an attack' },
        { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
      ],
    });
    assert.equal(multi.results.length, 1);
    assert.deepEqual(multi.results[0].category_applied_input_types.violence, ['text', 'image']);
    const legacy = await client.moderations.create({ model: 'text-moderation-latest', input: 'hello' });
    assert.equal(legacy.results[0].categories.illicit, null);
  });
});
