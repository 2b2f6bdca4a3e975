// HttpClient against hostile servers: every promise settles, a stream that is no stream is named
// as such, an unanswered stream is not sent twice, and an echoed key never leaves the client.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import type { ApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions, type RequestLogEntry, type RetryNotice } from '../../../src/core/http';
import { DEFAULT_RETRY } from '../../../src/core/retry';
import { openAiErrorParser } from '../../../src/services/llm';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf, drain, visibleText } from '../helpers/util';

const KEY = 'sk-live-Echoed0Key0123456789';
const MiB = 1024 * 1024;
const PROXY_LOGIN = '<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy</title></head><body><form>…</form></body></html>';

/** Writes 64 KB chunks for as long as the client reads; records when the client hangs up. */
function endlessBody(closed: { at?: number }, headers: Record<string, string> = {}) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => (closed.at = Date.now()));
    pump();
  };
}

describe('core/http: hostile servers', function () {
  this.timeout(5000);

  let server: FaultServer;
  let log: RequestLogEntry[];
  beforeEach(async () => {
    server = await FaultServer.start();
    log = [];
  });
  afterEach(() => server.close());

  function client(extra: Partial<HttpClientOptions> = {}): HttpClient {
    return new HttpClient({
      service: 'Svc',
      baseUrl: server.url('/v1'),
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(KEY),
      clock: ManualClock.instant(),
      log: (e) => log.push(e),
      ...extra,
    });
  }

  describe('every request settles', () => {
    it('an endless body fails as "response too large" and the connection is cut', async () => {
      const closed: { at?: number } = {};
      server.script(endlessBody(closed, { 'x-request-id': 'req_big' }));
      const err = await apiErrorOf(client({ maxResponseBytes: MiB, timeoutMs: 60_000 }).json({ path: 'x' }));
      assert.equal(err.kind, 'invalid-response');
      assert.match(err.message, /response too large \(over 1 MB\)/);
      assert.equal(err.status, 200);
      assert.equal(err.requestId, 'req_big');
      assert.equal(server.count, 1, 'not retried');
      await waitFor(() => closed.at !== undefined);
    });

    it('a Content-Length over the cap fails before the body is read', async () => {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * MiB) });
        res.write('{"a":');
      });
      const err = await apiErrorOf(client({ maxResponseBytes: 10 * MiB, timeoutMs: 60_000 }).json({ path: 'x' }));
      assert.equal(err.kind, 'invalid-response');
      assert.match(err.describe(), /response too large \(over 10 MB\)/);
    });

    it('an endless error body before a stream also fails as too large', async () => {
      const closed: { at?: number } = {};
      server.script((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html' });
        const pump = () => {
          while (!res.destroyed && res.write(Buffer.alloc(64 * 1024, 0x41)));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => (closed.at = Date.now()));
        pump();
      });
      const err = await apiErrorOf(client({ maxResponseBytes: MiB, timeoutMs: 60_000 }).stream({ path: 'chat', body: {} }));
      assert.equal(err.kind, 'invalid-response');
      assert.equal(err.status, 500);
      await waitFor(() => closed.at !== undefined);
    });

    it('a stream that only ever sends keep-alive comments ends at the deadline with kind "timeout"', async () => {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"first":true}\n\n');
        const t = setInterval(() => res.write(': keep-alive\n\n'), 20);
        res.on('close', () => clearInterval(t));
      });
      // The idle timeout (100 ms) never fires: a comment arrives every 20 ms.
      const res = await client({ timeoutMs: 100, streamDeadlineMs: 400 }).stream({ path: 'chat', body: {} });
      const { text, error } = await drain(res.body);
      assert.ok(text.startsWith('data: {"first":true}\n\n: keep-alive'), 'what arrived is kept');
      assert.equal((error as ApiError | undefined)?.kind, 'timeout', String(error));
      assert.match((error as ApiError).message, /did not finish within its deadline of 400 ms/);
    });

    it('a log observer that throws changes nothing: the answer still arrives, sent once', async () => {
      server.script({ status: 200, body: { ok: true } });
      const c = client({
        log: () => {
          throw new Error('log sink broke');
        },
      });
      assert.deepEqual((await c.json({ path: 'x' })).data, { ok: true });
      const res = await c.stream({ path: 'x', method: 'GET' });
      assert.equal(res.status, 200);
      await drain(res.body);
      assert.equal(server.count, 2);
    });

    it('an onRetry observer that throws does not replace the outcome', async () => {
      server.script({ status: 503 }, { status: 200, body: { ok: true } });
      const res = await client().json({
        path: 'x',
        onRetry: () => {
          throw new Error('UI gone');
        },
      });
      assert.deepEqual(res.data, { ok: true });
    });
  });

  describe('a 200 that is not an event stream', () => {
    it('an HTML page is "invalid-response" with a snippet, not a broken stream, and not retried', async () => {
      server.script({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'req_html' }, body: PROXY_LOGIN });
      const err = await apiErrorOf(
        client().stream({ path: 'chat', body: {}, headers: { accept: 'text/event-stream' }, expectContentType: 'text/event-stream' }),
      );
      assert.equal(err.kind, 'invalid-response');
      assert.equal(err.status, 200);
      assert.equal(err.requestId, 'req_html');
      assert.match(err.describe(), /text\/html instead of text\/event-stream: <!DOCTYPE html><html><head><title>Sign in - Corporate Proxy/);
      assert.equal(server.count, 1);
    });

    it('a real event stream, with parameters on its Content-Type, passes', async () => {
      server.script({ status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: 'data: x\n\n' });
      const res = await client().stream({ path: 'chat', body: {}, expectContentType: 'text/event-stream' });
      assert.equal((await drain(res.body)).text, 'data: x\n\n');
    });
  });

  describe('retrying a streamed POST', () => {
    let notices: RetryNotice[];
    beforeEach(() => (notices = []));

    it('no answer within the timeout: reported, never sent again', async () => {
      server.script({ hang: true });
      const err = await apiErrorOf(client({ timeoutMs: 100 }).stream({ path: 'chat', body: { stream: true }, onRetry: (n) => notices.push(n) }));
      assert.equal(err.kind, 'timeout');
      assert.equal(server.count, 1);
      assert.equal(notices.length, 0);
    });

    it('a connection reset after sending: reported, never sent again', async () => {
      server.script({ reset: true });
      const err = await apiErrorOf(client().stream({ path: 'chat', body: { stream: true } }));
      assert.equal(err.kind, 'network');
      assert.equal(server.count, 1);
    });

    it('a 503 and a 429 are still retried', async () => {
      server.script(
        { status: 503 },
        { status: 429, headers: { 'retry-after-ms': '1' } },
        { status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: ok\n\n' },
      );
      const res = await client().stream({ path: 'chat', body: {}, onRetry: (n) => notices.push(n) });
      assert.equal((await drain(res.body)).text, 'data: ok\n\n');
      assert.deepEqual(
        notices.map((n) => n.error.status),
        [503, 429],
      );
    });

    it('a refused connection (nothing was sent) is retried', async () => {
      const port = await closedPort();
      const c = new HttpClient({
        service: 'Svc',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        auth: { placement: 'none' },
        clock: ManualClock.instant(),
        retry: { ...DEFAULT_RETRY, maxRetries: 2 },
      });
      const err = await apiErrorOf(c.stream({ path: 'chat', body: {}, onRetry: (n) => notices.push(n) }));
      assert.equal(err.kind, 'network');
      assert.equal(err.code, 'ECONNREFUSED');
      assert.equal(notices.length, 2);
    });

    it('a JSON request that timed out is still retried (unchanged)', async () => {
      server.script({ hang: true });
      await apiErrorOf(client({ timeoutMs: 100, retry: { ...DEFAULT_RETRY, maxRetries: 1 } }).json({ path: 'x' }));
      assert.equal(server.count, 2);
    });
  });

  describe('an echoed key never leaves the client', () => {
    it('in an error body, its code, the request id header and the returned headers', async () => {
      server.script({
        status: 401,
        headers: { 'x-request-id': `req-${KEY}`, 'x-echo': KEY },
        body: { error: { message: `Incorrect API key provided: ${KEY}`, code: KEY, type: 'invalid_request_error' } },
      });
      const err = await apiErrorOf(client({ parseError: openAiErrorParser }).json({ path: 'x' }));
      assert.equal(err.status, 401);
      assert.ok(!visibleText(err).includes(KEY), visibleText(err));
      assert.match(err.describe(), /Incorrect API key provided: \*\*\*/);
      assert.equal(err.requestId, 'req-***');
      assert.ok(!JSON.stringify(log).includes(KEY));
      assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`, 'the key itself was sent');
    });

    it('in the request id and headers of a successful answer and of a stream', async () => {
      const echo = { 'x-request-id': KEY, 'x-echo': `you sent ${KEY}` };
      server.script({ status: 200, headers: echo, body: {} }, { status: 200, headers: { ...echo, 'content-type': 'text/event-stream' }, body: 'data: {}\n\n' });
      const c = client();
      const res = await c.json({ path: 'x' });
      const stream = await c.stream({ path: 'y', body: {} });
      await drain(stream.body);
      for (const r of [res, stream]) {
        assert.equal(r.requestId, '***');
        assert.equal(r.headers['x-echo'], 'you sent ***');
        assert.ok(!JSON.stringify(r.headers).includes(KEY));
      }
      assert.ok(!JSON.stringify(log).includes(KEY));
    });

    it('in the error of a stream that breaks', async () => {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': KEY });
        res.write('data: 1\n\n');
        setTimeout(() => res.socket?.destroy(), 30);
      });
      const res = await client().stream({ path: 'y', body: {} });
      const { error } = await drain(res.body);
      assert.equal((error as ApiError).kind, 'stream');
      assert.ok(!visibleText(error as ApiError).includes(KEY));
    });
  });
});

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A port nobody listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
