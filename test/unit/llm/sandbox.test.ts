// The sandbox as the official `openai` npm client sees it: if the SDK works unchanged, the sandbox
// is faithful enough to stand in for OpenAI / Azure OpenAI in every other test.
import * as assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI } from 'openai';
import { undici } from '../../../src/core/lazy';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import {
  EMBEDDING_MODEL,
  estimatePromptTokens,
  FAULTY_MODEL,
  faultAfterTokens,
  LIMITED_MODEL,
  LLM_MODELS,
  sandboxAnswer,
  sandboxAnswerTokens,
  sandboxEmbedding,
  SANDBOX_HEADERS,
} from '../../../src/sandbox/llm';

const KEY = 'sk-sandbox-openai-sdk-test';
const WINDOW_MS = 400;

describe('llm sandbox: the official openai client works against it unchanged', function () {
  this.timeout(15_000);

  let sandbox: Sandbox;
  let base: string;
  /** Status and x-request-id of every response the SDK received. */
  let seen: { status: number; requestId: string | null; url: string }[];

  const recordingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    seen.push({
      status: res.status,
      requestId: res.headers.get('x-request-id'),
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    });
    return res;
  };

  function sdk(opts: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}): OpenAI {
    return new OpenAI({ baseURL: base, apiKey: KEY, fetch: recordingFetch, maxRetries: 2, ...opts });
  }

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0, limitedWindowMs: WINDOW_MS } });
    base = sandbox.info.llm.baseUrl;
  });
  after(() => sandbox.close());
  beforeEach(() => {
    seen = [];
  });
  afterEach(function () {
    // Every response carries x-request-id, errors included.
    for (const r of seen) assert.match(r.requestId ?? '', /^req_[0-9a-f]{24}$/, `${r.status} ${r.url} has no x-request-id`);
  });

  it('lists the models with id, owner and created', async () => {
    const page = await sdk().models.list();
    assert.deepEqual(
      page.data.map((m) => [m.id, m.object, m.owned_by, m.created]),
      LLM_MODELS.map((m) => [m.id, 'model', m.owned_by, m.created]),
    );
    const one = await sdk().models.retrieve('sandbox-chat');
    assert.equal(one.id, 'sandbox-chat');
  });

  it('completes with the deterministic answer, usage and a request id', async () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'What is a sandbox?' },
    ];
    const c = await sdk().chat.completions.create({ model: 'sandbox-chat', messages });
    assert.equal(c.object, 'chat.completion');
    assert.equal(c.choices[0].message.content, sandboxAnswer(messages, 'sandbox-chat'));
    assert.equal(c.choices[0].finish_reason, 'stop');
    const completion = sandboxAnswerTokens(messages, 'sandbox-chat').length;
    assert.deepEqual(
      [c.usage?.prompt_tokens, c.usage?.completion_tokens, c.usage?.total_tokens],
      [estimatePromptTokens(messages), completion, estimatePromptTokens(messages) + completion],
    );
    assert.match(c._request_id ?? '', /^req_/);
  });

  it('answers in short sentences about the prompt, with non-ASCII text, at any requested length', async () => {
    const ask = async (content: string, tokens?: number) => {
      const headers = tokens === undefined ? {} : { [SANDBOX_HEADERS.answerTokens]: String(tokens) };
      const c = await sdk().chat.completions.create({ model: 'sandbox-chat', messages: [{ role: 'user', content }] }, { headers });
      return { text: c.choices[0].message.content ?? '', tokens: c.usage?.completion_tokens };
    };
    const sky = await ask('Why is the sky blue?');
    assert.match(sky.text, /^Sandbox answer from sandbox-chat to “Why is the sky blue\?”: /);
    const body = sky.text.slice(sky.text.indexOf('”: ') + 3);
    const sentences = body.split(/(?<=\.) /);
    assert.ok(sentences.length >= 4, body);
    for (const s of sentences) {
      assert.match(s, /^[A-Z][^.]*\.$/, `a sentence: ${s}`);
      assert.ok(s.split(' ').length <= 12, `short: ${s}`);
    }
    assert.match(body, /\b(sky|blue)\b/i, 'names what was asked about');
    assert.match(body, /[^ -~]/, 'multi-byte UTF-8 in the sandbox’s own words');
    assert.equal((await ask('Why is the sky blue?')).text, sky.text, 'deterministic');
    for (const tokens of [13, 14, 19, 20, 64, 301]) {
      const sized = await ask('Explain HTTP caching headers', tokens);
      assert.equal(sized.tokens, tokens);
      assert.equal(sized.text.split(' ').length, tokens, sized.text);
      assert.match(sized.text, /\.$/, `ends a sentence: ${sized.text}`);
      if (tokens >= 20) assert.match(sized.text.slice(sized.text.indexOf('”: ')), /HTTP|caching|headers/i);
    }
  });

  it('max_completion_tokens cuts the answer (finish_reason "length"); content parts are read as text', async () => {
    const messages = [
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'Parts ' },
          { type: 'text' as const, text: 'work' },
        ],
      },
    ];
    const c = await sdk().chat.completions.create({ model: 'sandbox-chat-mini', messages, max_completion_tokens: 5 });
    assert.equal(c.choices[0].finish_reason, 'length');
    assert.equal(c.choices[0].message.content, sandboxAnswer([{ role: 'user', content: 'Parts work' }], 'sandbox-chat-mini', { maxTokens: 5 }));
    assert.ok(sandboxAnswer([{ role: 'user', content: 'Parts work' }], 'sandbox-chat-mini').startsWith(c.choices[0].message.content ?? '?'));
  });

  it('streams the same answer in chunks, then a usage chunk with empty choices, then [DONE]', async () => {
    const messages = [{ role: 'user' as const, content: 'Stream ünïcödé 😀 please' }];
    const { data: stream, request_id } = await sdk()
      .chat.completions.create({ model: 'sandbox-chat', messages, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    assert.match(request_id ?? '', /^req_/);
    let text = '';
    let chunks = 0;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      chunks++;
      if (chunk.choices.length === 0) {
        assert.ok(chunk.usage, 'the chunk with empty choices carries the usage');
        usage = chunk.usage;
        continue;
      }
      text += chunk.choices[0].delta.content ?? '';
      finish = chunk.choices[0].finish_reason ?? finish;
    }
    const tokens = sandboxAnswerTokens(messages, 'sandbox-chat');
    assert.equal(text, tokens.join(''));
    assert.equal(chunks, tokens.length + 3, 'role chunk + one per token + finish chunk + usage chunk');
    assert.equal(finish, 'stop');
    assert.equal(usage?.completion_tokens, tokens.length);
  });

  it('embeds: base64 (the SDK default) and float give the same deterministic unit vectors', async () => {
    const input = ['first text', 'second text'];
    const b64 = await sdk().embeddings.create({ model: EMBEDDING_MODEL, input });
    const float = await sdk().embeddings.create({ model: EMBEDDING_MODEL, input, encoding_format: 'float', dimensions: 32 });
    assert.deepEqual(
      b64.data.map((d) => d.embedding),
      input.map((t) => sandboxEmbedding(t, 256)),
    );
    assert.deepEqual(
      float.data.map((d) => d.embedding),
      input.map((t) => sandboxEmbedding(t, 32)),
    );
    const norm = Math.hypot(...b64.data[0].embedding);
    assert.ok(Math.abs(norm - 1) < 1e-5);
    assert.equal(b64.usage.prompt_tokens, 6);
  });

  it('errors are OpenAI-shaped: 401 wrong key, 404 unknown model, 400 bad request', async () => {
    const wrong = await sdk({ apiKey: 'sk-wrong-key-123' })
      .models.list()
      .then(
        () => assert.fail('expected 401'),
        (e: unknown) => e,
      );
    assert.ok(wrong instanceof OpenAI.AuthenticationError);
    assert.equal(wrong.code, 'invalid_api_key');
    assert.match(wrong.message, /Incorrect API key provided: sk-…23/);
    assert.match(wrong.requestID ?? '', /^req_/);

    const missing = await sdk()
      .chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError);
    assert.equal(missing.code, 'model_not_found');

    const bad = await sdk()
      .chat.completions.create({ model: 'sandbox-chat', messages: [{ role: 'user', content: 'x' }], temperature: 7 })
      .catch((e: unknown) => e);
    assert.ok(bad instanceof OpenAI.BadRequestError);
    assert.equal(bad.param, 'temperature');
    assert.equal(bad.type, 'invalid_request_error');

    const empty = await sdk()
      .chat.completions.create({ model: 'sandbox-chat', messages: [] })
      .catch((e: unknown) => e);
    assert.ok(empty instanceof OpenAI.BadRequestError);
    assert.equal(empty.code, 'empty_array');

    const wrongKind = await sdk()
      .embeddings.create({ model: 'sandbox-chat', input: 'x' })
      .catch((e: unknown) => e);
    assert.ok(wrongKind instanceof OpenAI.BadRequestError);

    const raw = await undici().request(`${base}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    assert.equal(raw.statusCode, 400);
    const body = (await raw.body.json()) as { error: { type: string; message: string } };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(String(raw.headers['x-request-id']), /^req_/);
  });

  it('the limited model answers 429 with retry-after, retry-after-ms and x-ratelimit-*; the SDK waits and succeeds', async () => {
    const ask = (client: OpenAI) => client.chat.completions.create({ model: LIMITED_MODEL, messages: [{ role: 'user', content: 'limit me' }], max_tokens: 3 });
    const noRetry = sdk({ maxRetries: 0 });
    await ask(noRetry);
    await ask(noRetry);
    const limited = await ask(noRetry).catch((e: unknown) => e);
    assert.ok(limited instanceof OpenAI.RateLimitError);
    assert.equal(limited.code, 'rate_limit_exceeded');
    const h = limited.headers;
    const retryAfterMs = Number(h?.get('retry-after-ms'));
    assert.ok(retryAfterMs > 0 && retryAfterMs <= WINDOW_MS, `retry-after-ms ${retryAfterMs}`);
    assert.equal(h?.get('retry-after'), String(Math.ceil(retryAfterMs / 1000)));
    assert.equal(h?.get('x-ratelimit-limit-requests'), '2');
    assert.equal(h?.get('x-ratelimit-remaining-requests'), '0');
    assert.match(h?.get('x-ratelimit-reset-requests') ?? '', /^\d+(\.\d+)?m?s$/);
    assert.ok(h?.get('x-ratelimit-remaining-tokens'));

    seen = [];
    const ok = await ask(sdk());
    assert.equal(ok.choices[0].finish_reason, 'length');
    assert.deepEqual(
      seen.map((s) => s.status),
      [429, 200],
      'the SDK was refused once, waited retry-after-ms, then got through',
    );
  });

  it('the faulty model stops mid-stream with an error payload the SDK raises, after the first half of the answer', async () => {
    const messages = [{ role: 'user' as const, content: 'fail for me' }];
    const stream = await sdk().chat.completions.create({ model: FAULTY_MODEL, messages, stream: true });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof OpenAI.APIError, `got ${String(error)}`);
    assert.match(error.message, /server had an error/);
    const tokens = sandboxAnswerTokens(messages, FAULTY_MODEL);
    assert.equal(text, tokens.slice(0, faultAfterTokens(tokens.length)).join(''));
  });

  it('Azure style: AzureOpenAI with api-key reaches /openai/deployments/…, and the v1 path takes api-key too', async () => {
    const azure = new AzureOpenAI({ baseURL: `${base.replace(/\/v1$/, '')}/openai`, apiKey: KEY, apiVersion: '2024-10-21', fetch: recordingFetch });
    const messages = [{ role: 'user' as const, content: 'Azure?' }];
    const c = await azure.chat.completions.create({ model: 'sandbox-chat', messages });
    assert.equal(c.choices[0].message.content, sandboxAnswer(messages, 'sandbox-chat'));
    assert.match(seen[0].url, /\/openai\/deployments\/sandbox-chat\/chat\/completions\?api-version=/);

    // Streams carry Azure's content-filter chunks (empty id and choices); the SDK copes.
    const stream = await azure.chat.completions.create({ model: 'sandbox-chat', messages, stream: true });
    let text = '';
    let filterChunks = 0;
    for await (const chunk of stream) {
      if (chunk.id === '') filterChunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    assert.equal(text, sandboxAnswer(messages, 'sandbox-chat'));
    assert.equal(filterChunks, 2, 'prompt filter results first, a content filter annotation at the end');

    const v1 = await undici().request(`${base.replace(/\/v1$/, '')}/openai/v1/models`, { headers: { 'api-key': KEY } });
    assert.equal(v1.statusCode, 200);
    assert.match(String(v1.headers['apim-request-id']), /^req_/);
    await v1.body.dump();
    const wrong = await undici().request(`${base.replace(/\/v1$/, '')}/openai/v1/models`, { headers: { 'api-key': 'nope-nope' } });
    assert.equal(wrong.statusCode, 401);
    await wrong.body.dump();
  });

  it('GET /v1/resources lists the models as resources', async () => {
    const res = await undici().request(`${base}/resources`, { headers: { authorization: `Bearer ${KEY}` } });
    const body = (await res.body.json()) as { resources: { id: string; kind: string }[] };
    assert.deepEqual(
      body.resources.map((r) => [r.id, r.kind]),
      LLM_MODELS.map((m) => [m.id, 'model']),
    );
  });

  it('sandbox-only headers: answer length and token rate are per request; invalid values are a 400', async () => {
    const messages = [{ role: 'user' as const, content: 'long one' }];
    const c = await sdk().chat.completions.create({ model: 'sandbox-chat', messages }, { headers: { [SANDBOX_HEADERS.answerTokens]: '500' } });
    assert.equal(c.usage?.completion_tokens, 500);
    assert.equal(c.choices[0].message.content, sandboxAnswer(messages, 'sandbox-chat', { tokens: 500 }));
    const bad = await sdk()
      .chat.completions.create({ model: 'sandbox-chat', messages }, { headers: { [SANDBOX_HEADERS.tokenRate]: 'fast' } })
      .catch((e: unknown) => e);
    assert.ok(bad instanceof OpenAI.BadRequestError);
  });
});
