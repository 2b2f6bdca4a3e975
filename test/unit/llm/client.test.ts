// Our LlmClient (and the parts of the HTTP core it relies on) against the real sandbox.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions, type RequestLogEntry, type RetryNotice } from '../../../src/core/http';
import { SlidingWindowLimiter } from '../../../src/core/rateLimiter';
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
  startLlmSandbox,
} from '../../../src/sandbox/llm';
import { LlmClient, openAiErrorParser, type ChatMessage, type ChatStreamEvent, type LlmClientOptions, type StreamOptions } from '../../../src/services/llm';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf, cancellationSource } from '../helpers/util';

const KEY = 'sk-sandbox-llm-client-test';
// Long enough that three requests fit in one window on a loaded machine; each 429 test waits it out once.
const WINDOW_MS = 1500;

interface Collected {
  events: ChatStreamEvent[];
  text: string;
  error?: ApiError;
}

/** Runs a stream to its end (or failure), keeping every event and the text that arrived. */
async function collect(stream: AsyncIterable<ChatStreamEvent>, onEvent?: (e: ChatStreamEvent) => void): Promise<Collected> {
  const events: ChatStreamEvent[] = [];
  let text = '';
  try {
    for await (const e of stream) {
      events.push(e);
      if (e.type === 'delta') text += e.text;
      onEvent?.(e);
    }
    return { events, text };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { events, text, error: e };
  }
}

describe('llm/client: LlmClient against the sandbox', function () {
  this.timeout(15_000);

  let sandbox: Sandbox;
  let base: string;
  let log: RequestLogEntry[];
  let notices: RetryNotice[];

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0, limitedWindowMs: WINDOW_MS } });
    base = sandbox.info.llm.baseUrl;
  });
  after(() => sandbox.close());
  beforeEach(() => {
    log = [];
    notices = [];
  });

  function client(http: Partial<HttpClientOptions> = {}, opts: LlmClientOptions = {}): LlmClient {
    return new LlmClient(
      new HttpClient({
        service: 'Sandbox LLM',
        baseUrl: base,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
        log: (e) => log.push(e),
        ...http,
      }),
      opts,
    );
  }

  const ask = (content: string): ChatMessage[] => [{ role: 'user', content }];

  /**
   * The limited model's window is shared sandbox state: each 429 test gets a sandbox of its own, on a
   * clock it shares with the test's client, whose retry waits move it (no real time passes).
   */
  async function withOwnSandbox(test: (baseUrl: string, clock: ManualClock) => Promise<void>): Promise<void> {
    const clock = ManualClock.instant();
    const own = await startLlmSandbox({ host: '127.0.0.1', port: 0, apiKey: KEY, tokenRate: 0, limitedWindowMs: WINDOW_MS, clock });
    try {
      await test(`http://127.0.0.1:${own.port}/v1`, clock);
    } finally {
      await own.close();
    }
  }

  it('lists the models (id, owner, created), sorted by id', async () => {
    const models = await client().listModels();
    const expected = [...LLM_MODELS].sort((a, b) => a.id.localeCompare(b.id));
    assert.deepEqual(
      models.map((m) => [m.id, m.owned_by, m.created]),
      expected.map((m) => [m.id, m.owned_by, m.created]),
    );
  });

  it('completes: text is the deterministic answer, with usage, finish reason and request id', async () => {
    const messages: ChatMessage[] = [{ role: 'system', content: 'Be brief.' }, ...ask('What does the sandbox say?')];
    const r = await client().chat({ model: 'sandbox-chat', messages });
    assert.equal(r.text, sandboxAnswer(messages, 'sandbox-chat'));
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.model, 'sandbox-chat');
    assert.equal(r.usage?.prompt_tokens, estimatePromptTokens(messages));
    assert.equal(r.usage?.completion_tokens, sandboxAnswerTokens(messages, 'sandbox-chat').length);
    assert.match(r.requestId ?? '', /^req_/);
    const cut = await client().chat({ model: 'sandbox-chat', messages, maxTokens: 4 });
    assert.equal(cut.finishReason, 'length');
    assert.equal(cut.text, sandboxAnswer(messages, 'sandbox-chat', { maxTokens: 4 }));
  });

  it('streams: start, deltas that join to the answer, usage, then done with finish reason, ids and timings', async () => {
    const messages = ask('Stream ünïcödé 😀 to me');
    const { events, text, error } = await collect(client().chatStream({ model: 'sandbox-chat', messages }));
    assert.equal(error, undefined);
    assert.equal(text, sandboxAnswer(messages, 'sandbox-chat'));
    const start = events[0];
    const done = events[events.length - 1];
    assert.equal(start.type, 'start');
    assert.equal(done.type, 'done');
    if (start.type !== 'start' || done.type !== 'done') return;
    assert.match(start.requestId ?? '', /^req_/);
    assert.equal(done.requestId, start.requestId);
    assert.equal(done.finishReason, 'stop');
    assert.equal(done.model, 'sandbox-chat');
    assert.match(done.id ?? '', /^chatcmpl-/);
    assert.equal(done.usage?.completion_tokens, sandboxAnswerTokens(messages, 'sandbox-chat').length);
    assert.ok(
      done.timings.firstTokenMs !== undefined && done.timings.headersMs <= done.timings.firstTokenMs && done.timings.firstTokenMs <= done.timings.totalMs,
    );
    assert.equal(events.filter((e) => e.type === 'usage').length, 1);
    assert.equal(events.filter((e) => e.type === 'delta').length, sandboxAnswerTokens(messages, 'sandbox-chat').length);
  });

  it('streams at a throttled rate (many network chunks) with the same result', async () => {
    const messages = ask('slowly');
    const opts: StreamOptions = { headers: { [SANDBOX_HEADERS.tokenRate]: '2000', [SANDBOX_HEADERS.answerTokens]: '120' } };
    const { text, error } = await collect(client().chatStream({ model: 'sandbox-chat-mini', messages }, opts));
    assert.equal(error, undefined);
    assert.equal(text, sandboxAnswer(messages, 'sandbox-chat-mini', { tokens: 120 }));
  });

  it('without include_usage there is no usage event and done has none', async () => {
    const { events } = await collect(client().chatStream({ model: 'sandbox-chat', messages: ask('no usage') }, { includeUsage: false }));
    assert.equal(events.filter((e) => e.type === 'usage').length, 0);
    const done = events[events.length - 1];
    assert.equal(done.type === 'done' && done.usage, undefined);
  });

  it('embeds: one deterministic vector per input, in order; dimensions honoured', async () => {
    const r = await client().embeddings({ model: EMBEDDING_MODEL, input: ['alpha', 'beta', 'gamma'] });
    assert.deepEqual(
      r.vectors,
      ['alpha', 'beta', 'gamma'].map((t) => sandboxEmbedding(t, 256)),
    );
    assert.equal(r.model, EMBEDDING_MODEL);
    assert.match(r.requestId ?? '', /^req_/);
    const small = await client().embeddings({ model: EMBEDDING_MODEL, input: 'one', dimensions: 8 });
    assert.deepEqual(small.vectors, [sandboxEmbedding('one', 8)]);
  });

  it('429: waits for retry-after-ms (onRetry tells how long), then the same request succeeds', () =>
    withOwnSandbox(async (baseUrl, clock) => {
      const llm = client({ baseUrl, clock });
      const req = { model: LIMITED_MODEL, messages: ask('rate me'), maxTokens: 2 };
      await llm.chat(req);
      await llm.chat(req);
      const r = await llm.chat(req, { onRetry: (n) => notices.push(n) });
      assert.equal(r.text, sandboxAnswer(req.messages, LIMITED_MODEL, { maxTokens: 2 }));
      assert.equal(notices.length, 1);
      const n = notices[0];
      assert.equal(n.error.status, 429);
      assert.equal(n.error.code, 'rate_limit_exceeded');
      assert.match(n.error.requestId ?? '', /^req_/);
      assert.ok(n.delayMs > 0 && n.delayMs <= WINDOW_MS, `waited ${n.delayMs} ms`);
      assert.deepEqual(
        log.map((l) => l.status),
        [200, 200, 429, 200],
      );
    }));

  it('429 on a stream: retried before it starts, then streams the whole answer', () =>
    withOwnSandbox(async (baseUrl, clock) => {
      const llm = client({ baseUrl, clock });
      const req = { model: LIMITED_MODEL, messages: ask('stream after limit'), maxTokens: 6 };
      await llm.chat(req);
      await llm.chat(req);
      const { text, error } = await collect(llm.chatStream(req, { onRetry: (n) => notices.push(n) }));
      assert.equal(error, undefined);
      assert.equal(text, sandboxAnswer(req.messages, LIMITED_MODEL, { maxTokens: 6 }));
      assert.deepEqual(
        notices.map((n) => n.error.status),
        [429],
      );
    }));

  it('429 with no retries left: ApiError kind "rate-limited" with status, code, retryAfterMs and request id', () =>
    withOwnSandbox(async (baseUrl, clock) => {
      const llm = client({ baseUrl, clock, retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 60_000 } });
      const req = { model: LIMITED_MODEL, messages: ask('no retry'), maxTokens: 1 };
      await llm.chat(req);
      await llm.chat(req);
      const e = await apiErrorOf(llm.chat(req));
      assert.equal(e.kind, 'rate-limited');
      assert.equal(e.status, 429);
      assert.equal(e.code, 'rate_limit_exceeded');
      assert.ok((e.retryAfterMs ?? 0) > 0);
      assert.match(e.describe(), /429 rate_limit_exceeded: Rate limit reached for sandbox-chat-limited.*\(request id req_/);
    }));

  it('errors carry status, OpenAI code, message and request id: 401, 404, 400', async () => {
    const unauthorised = await apiErrorOf(client({ credentials: () => Promise.resolve('sk-wrong-key-999') }).listModels());
    assert.deepEqual([unauthorised.kind, unauthorised.status, unauthorised.code], ['http', 401, 'invalid_api_key']);
    assert.match(unauthorised.serviceMessage ?? '', /Incorrect API key provided/);
    assert.match(unauthorised.requestId ?? '', /^req_/);

    const unknown = await apiErrorOf(client().chat({ model: 'gpt-unknown', messages: ask('x') }));
    assert.deepEqual([unknown.status, unknown.code], [404, 'model_not_found']);
    assert.match(unknown.describe(), /404 model_not_found: The model `gpt-unknown` does not exist/);

    const bad = await apiErrorOf(client().chat({ model: 'sandbox-chat', messages: ask('x'), temperature: 9 }));
    assert.deepEqual([bad.status, bad.code], [400, 'invalid_value']);
    assert.match(bad.serviceMessage ?? '', /temperature/);

    const streamed = await collect(client().chatStream({ model: 'gpt-unknown', messages: ask('x') }));
    assert.equal(streamed.events.length, 0);
    assert.equal(streamed.error?.status, 404, 'an error before the stream starts is thrown from the iteration');
    assert.equal(log.filter((l) => l.status === 404).length, 2, 'and not retried');
  });

  it('a mid-stream failure keeps the partial text, then is an ApiError of kind "stream", never retried', async () => {
    const messages = ask('break half way');
    const { text, error, events } = await collect(client().chatStream({ model: FAULTY_MODEL, messages }, { onRetry: (n) => notices.push(n) }));
    const tokens = sandboxAnswerTokens(messages, FAULTY_MODEL);
    assert.equal(text, tokens.slice(0, faultAfterTokens(tokens.length)).join(''));
    assert.ok(error);
    assert.equal(error.kind, 'stream');
    assert.match(error.serviceMessage ?? '', /server had an error/);
    assert.match(error.requestId ?? '', /^req_/);
    assert.equal(events[0].type, 'start');
    assert.equal(notices.length, 0);
    assert.equal(log.length, 1, 'one request only');
  });

  it('a dropped connection mid-stream is an ApiError of kind "stream" with the text so far', async () => {
    const messages = ask('drop the line');
    const { text, error } = await collect(client().chatStream({ model: 'sandbox-chat', messages }, { headers: { [SANDBOX_HEADERS.fault]: 'disconnect' } }));
    assert.ok(error);
    assert.equal(error.kind, 'stream');
    const full = sandboxAnswer(messages, 'sandbox-chat');
    assert.ok(full.startsWith(text) && text.length > 0 && text.length < full.length);
    assert.equal(log.length, 1);
  });

  it('cancelling mid-stream (CancellationToken) stops at once with kind "cancelled" and keeps a prefix', async () => {
    const source = cancellationSource();
    const messages = ask('cancel me');
    const stream = client().chatStream(
      { model: 'sandbox-chat', messages },
      { cancel: source.token, headers: { [SANDBOX_HEADERS.tokenRate]: '100', [SANDBOX_HEADERS.answerTokens]: '400' } },
    );
    let deltas = 0;
    const { text, error } = await collect(stream, (e) => {
      if (e.type === 'delta' && ++deltas === 3) source.cancel();
    });
    assert.ok(error);
    assert.equal(error.kind, 'cancelled');
    const full = sandboxAnswer(messages, 'sandbox-chat', { tokens: 400 });
    assert.ok(full.startsWith(text) && text.length < full.length / 2, 'a prefix, far from the whole answer');
    assert.equal(source.listeners(), 0, 'no listener left on the token');
  });

  it('breaking out of the loop ends the request; the client keeps working', async () => {
    const llm = client();
    for await (const e of llm.chatStream({ model: 'sandbox-chat', messages: ask('stop early') }, { headers: { [SANDBOX_HEADERS.tokenRate]: '100' } })) {
      if (e.type === 'delta') break;
    }
    for await (const e of llm.chatStream({ model: 'sandbox-chat', messages: ask('start only') })) {
      if (e.type === 'start') break;
    }
    const r = await llm.chat({ model: 'sandbox-chat', messages: ask('still fine') });
    assert.equal(r.text, sandboxAnswer(ask('still fine'), 'sandbox-chat'));
  });

  it('Azure mode: api-key header on the /openai/v1 base; content-filter chunks do not disturb the text', async () => {
    const azure = client({ baseUrl: `${base.replace(/\/v1$/, '')}/openai/v1`, auth: { placement: 'header', name: 'api-key' } });
    const models = await azure.listModels();
    assert.equal(models.length, LLM_MODELS.length);
    const messages = ask('Azure stream');
    const { text, error, events } = await collect(azure.chatStream({ model: 'sandbox-chat', messages }));
    assert.equal(error, undefined);
    assert.equal(text, sandboxAnswer(messages, 'sandbox-chat'));
    const done = events[events.length - 1];
    assert.equal(done.type === 'done' && done.model, 'sandbox-chat');
    assert.equal(done.type === 'done' && done.id?.startsWith('chatcmpl-'), true, 'the empty id of filter chunks does not win');
    assert.ok(
      log.every((l) => l.url.includes('/openai/v1/')),
      'the base path is kept',
    );
    const emb = await azure.embeddings({ model: EMBEDDING_MODEL, input: 'az' });
    assert.deepEqual(emb.vectors, [sandboxEmbedding('az', 256)]);
    const wrongPlacement = await apiErrorOf(
      client({ baseUrl: `${base.replace(/\/v1$/, '')}/openai/v1`, auth: { placement: 'header', name: 'x-api-key' } }).listModels(),
    );
    assert.equal(wrongPlacement.status, 401);
  });

  it('per-model client-side limit: a second request waits for its model slot (onQueued), other models do not', async () => {
    const limiter = new SlidingWindowLimiter(ManualClock.instant());
    const llm = client({ limiter }, { modelRateLimits: { 'sandbox-chat-mini': 1 }, rateLimitKey: 'llm:Test' });
    const limit = llm.modelRateLimit('sandbox-chat-mini');
    assert.deepEqual(limit, { key: 'llm:Test#sandbox-chat-mini', perMinute: 1 });
    assert.equal(llm.modelRateLimit('sandbox-chat'), undefined);
    const queued: number[] = [];
    await llm.chat({ model: 'sandbox-chat-mini', messages: ask('one') }, { onQueued: (ms) => queued.push(ms) });
    assert.equal(limiter.remaining(limit.key, 1), 0);
    await llm.chat({ model: 'sandbox-chat', messages: ask('other model') }, { onQueued: (ms) => queued.push(ms) });
    assert.equal(queued.length, 0, 'another model is not held back');
    await llm.chat({ model: 'sandbox-chat-mini', messages: ask('two') }, { onQueued: (ms) => queued.push(ms) });
    assert.equal(queued.length, 1);
    assert.ok(queued[0] > 0 && queued[0] <= 60_000);
  });

  it('a server that keeps the response open after [DONE] is cut off after a grace period, not waited on', async () => {
    const server = await FaultServer.start();
    try {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_open' });
        res.write('data: {"choices":[{"index":0,"delta":{"content":"done"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
      });
      const llm = client({ baseUrl: server.url('/v1'), timeoutMs: 30_000 }, { endGraceMs: 50 });
      const { text, error, events } = await collect(llm.chatStream({ model: 'm', messages: ask('x') }));
      assert.equal(error, undefined);
      assert.equal(text, 'done');
      const done = events[events.length - 1];
      assert.equal(done.type === 'done' && done.finishReason, 'stop');
    } finally {
      await server.close();
    }
  });

  it('answers of the wrong shape are invalid-response ApiErrors, not crashes (models list, stream chunk)', async () => {
    const server = await FaultServer.start();
    try {
      server.script({ body: { data: 'not a list' }, headers: { 'x-request-id': 'req_shape' } }, (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_garbage' });
        res.end('data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}\n\ndata: {"choices":"nope"}\n\n');
      });
      const wrong = client({ baseUrl: server.url('/v1') });
      const e = await apiErrorOf(wrong.listModels());
      assert.equal(e.kind, 'invalid-response');
      assert.equal(e.requestId, 'req_shape');
      const { text, error } = await collect(wrong.chatStream({ model: 'm', messages: ask('x') }));
      assert.equal(text, 'ok');
      assert.equal(error?.kind, 'invalid-response');
      assert.equal(error?.requestId, 'req_garbage');
      assert.equal(server.requests[1].headers.accept, 'text/event-stream');
      assert.deepEqual(JSON.parse(server.requests[1].body), { model: 'm', messages: ask('x'), stream: true, stream_options: { include_usage: true } });
    } finally {
      await server.close();
    }
  });
});
