import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions, type RetryNotice } from '../../../src/core/http';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf, cancellationSource, drain } from '../helpers/util';

const SSE_HEAD = { 'content-type': 'text/event-stream', 'x-request-id': 'req_stream' };

/** Sends the head and `events`, then either ends, breaks the connection, or goes quiet. */
function sse(events: string[], then: 'end' | 'destroy' | 'quiet') {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, SSE_HEAD);
    for (const e of events) res.write(`data: ${e}\n\n`);
    if (then === 'end') res.end();
    // Give the client time to receive the bytes before the connection breaks.
    else if (then === 'destroy') setTimeout(() => res.socket?.destroy(), 30);
  };
}

describe('core/http: stream()', function () {
  this.timeout(5000);

  let server: FaultServer;
  let notices: RetryNotice[];
  beforeEach(async () => {
    server = await FaultServer.start();
    notices = [];
  });
  afterEach(() => server.close());

  function client(extra: Partial<HttpClientOptions> = {}): HttpClient {
    return new HttpClient({
      service: 'LLM',
      baseUrl: server.url('/v1'),
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve('sk-s'),
      clock: ManualClock.instant(),
      ...extra,
    });
  }

  it('delivers the bytes as they arrive, with status, headers and request id', async () => {
    server.script(sse(['{"a":1}', '{"a":2}', '[DONE]'], 'end'));
    const res = await client().stream({ path: 'chat/completions', body: { stream: true } });
    assert.equal(res.status, 200);
    assert.equal(res.requestId, 'req_stream');
    assert.equal(res.headers['content-type'], 'text/event-stream');
    assert.equal(typeof res.headersMs, 'number');
    const { text, error } = await drain(res.body);
    assert.equal(error, undefined);
    assert.equal(text, 'data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n');
    assert.equal(server.requests[0].method, 'POST');
    assert.equal(server.requests[0].headers.authorization, 'Bearer sk-s');
  });

  it('a 503 before the body starts is retried', async () => {
    server.script({ status: 503, headers: { 'retry-after-ms': '5' } }, sse(['ok'], 'end'));
    const res = await client().stream({ path: 'chat/completions', body: {}, onRetry: (n) => notices.push(n) });
    assert.equal((await drain(res.body)).text, 'data: ok\n\n');
    assert.equal(server.count, 2);
    assert.deepEqual(
      notices.map((n) => [n.error.status, n.delayMs]),
      [[503, 5]],
    );
  });

  it('once bytes have flowed, a broken connection is an ApiError of kind "stream" and is not retried', async () => {
    server.script(sse(['{"a":1}', '{"a":2}'], 'destroy'), sse(['never'], 'end'));
    const res = await client().stream({ path: 'chat/completions', body: {}, onRetry: (n) => notices.push(n) });
    const { text, error } = await drain(res.body);
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${String(error)}`);
    assert.equal(error.kind, 'stream');
    assert.equal(error.status, 200);
    assert.equal(error.requestId, 'req_stream');
    assert.equal(text, 'data: {"a":1}\n\ndata: {"a":2}\n\n', 'what arrived before the break is kept');
    assert.equal(server.count, 1);
    assert.equal(notices.length, 0);
  });

  it('a stream that goes quiet longer than the timeout ends with kind "timeout"', async () => {
    server.script(sse(['first'], 'quiet'));
    const res = await client({ timeoutMs: 150 }).stream({ path: 'chat/completions', body: {} });
    const { text, error } = await drain(res.body);
    assert.equal(text, 'data: first\n\n');
    assert.ok(error instanceof ApiError);
    assert.equal(error.kind, 'timeout');
  });

  it('an HTTP error before the stream is a normal ApiError (401: no retry)', async () => {
    server.script({ status: 401, headers: { 'x-request-id': 'req_s401' }, body: { error: { message: 'bad key' } } });
    const err = await apiErrorOf(client().stream({ path: 'chat/completions', body: {} }));
    assert.equal(err.status, 401);
    assert.equal(err.requestId, 'req_s401');
    assert.equal(server.count, 1);
  });

  it('cancelling with an AbortController mid-stream ends iteration with kind "cancelled"', async () => {
    server.script(sse(['first'], 'quiet'));
    const ac = new AbortController();
    const res = await client({ timeoutMs: 60_000 }).stream({ path: 'chat/completions', body: {}, cancel: ac.signal });
    const it = res.body[Symbol.asyncIterator]();
    const first = await it.next();
    assert.equal(Buffer.from(first.value as Uint8Array).toString(), 'data: first\n\n');
    ac.abort();
    const err = await apiErrorOf(it.next());
    assert.equal(err.kind, 'cancelled');
  });

  it('cancelling with a CancellationToken mid-stream ends iteration with kind "cancelled" and disposes the listener', async () => {
    server.script(sse(['first'], 'quiet'));
    const cts = cancellationSource();
    const res = await client({ timeoutMs: 60_000 }).stream({ path: 'chat/completions', body: {}, cancel: cts.token });
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    cts.cancel();
    assert.equal((await apiErrorOf(it.next())).kind, 'cancelled');
    assert.equal(cts.listeners(), 0);
  });

  it('cancelling while waiting to retry a stream ends promptly', async () => {
    server.script({ status: 503, headers: { 'retry-after': '30' } });
    const cts = cancellationSource();
    const p = client({ clock: new ManualClock(0) }).stream({
      path: 'chat/completions',
      body: {},
      cancel: cts.token,
      onRetry: () => setImmediate(() => cts.cancel()),
    });
    assert.equal((await apiErrorOf(p)).kind, 'cancelled');
    assert.equal(server.count, 1);
    assert.equal(cts.listeners(), 0);
  });

  it('a consumer that stops early releases the connection and the cancellation listener', async () => {
    server.script(sse(['one', 'two'], 'quiet'));
    const cts = cancellationSource();
    const res = await client({ timeoutMs: 60_000 }).stream({ path: 'chat/completions', body: {}, cancel: cts.token });
    for await (const chunk of res.body) {
      assert.ok(chunk.length > 0);
      break;
    }
    assert.equal(cts.listeners(), 0);
  });
});
