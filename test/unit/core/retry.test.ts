import * as assert from 'node:assert/strict';
import { HttpClient, type HttpClientOptions, type RetryNotice, type ServiceErrorInfo } from '../../../src/core/http';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, retryAfterFromHeaders } from '../../../src/core/retry';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf } from '../helpers/util';

/** OpenAI-style error bodies, as the LLM client would read them. */
function openAiError(_status: number, body: unknown): ServiceErrorInfo {
  const e = (body as { error?: { code?: string; message?: string } }).error;
  return { code: e?.code ?? undefined, message: e?.message };
}

const RATE_LIMITED = { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } };

describe('core/retry: waiting and trying again', () => {
  let server: FaultServer;
  let clock: ManualClock;
  let notices: RetryNotice[];
  beforeEach(async () => {
    server = await FaultServer.start();
    clock = ManualClock.instant();
    notices = [];
  });
  afterEach(() => server.close());

  function client(extra: Partial<HttpClientOptions> = {}): HttpClient {
    return new HttpClient({ service: 'OpenAI', baseUrl: server.url('/v1'), auth: { placement: 'none' }, clock, parseError: openAiError, ...extra });
  }
  const get = (c: HttpClient) => c.json({ path: 'models', onRetry: (n) => notices.push(n) });

  it('429 with retry-after-ms: waits exactly that long, tells onRetry, then succeeds', async () => {
    server.script({ status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '9' }, body: RATE_LIMITED }, { body: { ok: true } });
    const res = await get(client());
    assert.deepEqual(res.data, { ok: true });
    assert.equal(server.count, 2);
    assert.deepEqual(clock.sleeps, [250]);
    assert.equal(notices.length, 1);
    assert.equal(notices[0].delayMs, 250);
    assert.equal(notices[0].attempt, 1);
    assert.equal(notices[0].error.status, 429);
  });

  it('429 with retry-after in seconds: waits that many seconds', async () => {
    server.script({ status: 429, headers: { 'retry-after': '2' }, body: RATE_LIMITED }, { body: { ok: true } });
    await get(client());
    assert.equal(server.count, 2);
    assert.deepEqual(clock.sleeps, [2000]);
    assert.deepEqual(
      notices.map((n) => n.delayMs),
      [2000],
    );
  });

  it('429 with retry-after as an HTTP date: waits until that time', async () => {
    const until = new Date(clock.now() + 3000).toUTCString();
    server.script({ status: 429, headers: { 'retry-after': until }, body: RATE_LIMITED }, { body: { ok: true } });
    await get(client());
    assert.equal(server.count, 2);
    assert.deepEqual(clock.sleeps, [3000]);
    assert.deepEqual(
      notices.map((n) => n.delayMs),
      [3000],
    );
  });

  it('429 without a hint: exponential backoff with jitter between 50% and 100% of each step', async () => {
    server.script({ status: 429, body: RATE_LIMITED }, { status: 429, body: RATE_LIMITED }, { status: 429, body: RATE_LIMITED }, { body: { ok: true } });
    const policy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
    await get(client({ retry: policy }));
    assert.equal(server.count, 4);
    assert.equal(clock.sleeps.length, 3);
    clock.sleeps.forEach((ms, i) => {
      const step = 500 * 2 ** i;
      assert.ok(ms >= step / 2 && ms <= step, `wait ${i} = ${ms} outside [${step / 2}, ${step}]`);
    });
    assert.deepEqual(
      notices.map((n) => n.delayMs),
      clock.sleeps,
    );
  });

  it('backoff uses the injected random source (no jitter at 0, half the step at 1)', async () => {
    server.script({ status: 503 }, { status: 503 }, { body: {} });
    await get(client({ random: () => 0 }));
    assert.deepEqual(clock.sleeps, [500, 1000]);
    clock.sleeps.length = 0;
    server.script({ status: 503 }, { status: 503 }, { body: {} });
    await get(client({ random: () => 1 }));
    assert.deepEqual(clock.sleeps, [250, 500]);
  });

  it('bounded: after maxRetries the 429 surfaces as an ApiError with status, code, request id and retryAfterMs', async () => {
    server.script({ status: 429, headers: { 'retry-after-ms': '40', 'x-request-id': 'req_429' }, body: RATE_LIMITED });
    const err = await apiErrorOf(get(client()));
    assert.equal(server.count, 1 + DEFAULT_RETRY.maxRetries);
    assert.deepEqual(clock.sleeps, [40, 40]);
    assert.equal(err.status, 429);
    assert.equal(err.kind, 'rate-limited');
    assert.equal(err.code, 'rate_limit_exceeded');
    assert.equal(err.requestId, 'req_429');
    assert.equal(err.retryAfterMs, 40);
    assert.match(err.describe(), /^OpenAI 429 rate_limit_exceeded: Rate limit reached \(request id req_429\)$/);
  });

  it('a server-requested wait longer than maxRetryAfterMs is not waited out', async () => {
    server.script({ status: 429, headers: { 'retry-after': '3600' }, body: RATE_LIMITED });
    const err = await apiErrorOf(get(client()));
    assert.equal(server.count, 1);
    assert.deepEqual(clock.sleeps, []);
    assert.equal(err.retryAfterMs, 3_600_000);
  });

  for (const status of [400, 401, 403, 404, 422]) {
    it(`no retry on ${status}: the server sees exactly one request`, async () => {
      server.script({ status, body: { error: { message: 'no', type: 'invalid_request_error', code: 'bad' } } });
      const err = await apiErrorOf(get(client()));
      assert.equal(server.count, 1);
      assert.equal(err.kind, 'http');
      assert.equal(err.status, status);
      assert.deepEqual(clock.sleeps, []);
    });
  }

  for (const status of [408, 409, 500, 502, 503, 504]) {
    it(`retries on ${status}`, async () => {
      server.script({ status, body: { error: { message: 'try again' } } }, { body: { ok: true } });
      const res = await get(client());
      assert.equal(res.status, 200);
      assert.equal(server.count, 2);
      assert.equal(notices.length, 1);
      assert.equal(notices[0].error.status, status);
    });
  }

  it('retries after a connection reset', async () => {
    server.script({ reset: true }, { body: { ok: true } });
    const res = await get(client());
    assert.deepEqual(res.data, { ok: true });
    assert.equal(server.count, 2);
    assert.equal(notices[0].error.kind, 'network');
  });

  it('a connection reset with no retries left is a network error', async () => {
    server.script({ reset: true });
    const err = await apiErrorOf(get(client({ retry: { ...DEFAULT_RETRY, maxRetries: 0 } })));
    assert.equal(err.kind, 'network');
    assert.equal(server.count, 1);
  });

  it('a refused connection is a network error after the retries', async () => {
    const port = server.port;
    await server.close();
    const c = new HttpClient({ service: 'T', baseUrl: `http://127.0.0.1:${port}`, auth: { placement: 'none' }, clock });
    const err = await apiErrorOf(c.json({ path: 'x' }));
    assert.equal(err.kind, 'network');
    assert.match(err.message, /ECONNREFUSED/);
    assert.equal(clock.sleeps.length, DEFAULT_RETRY.maxRetries);
    server = await FaultServer.start();
  });

  it('retry: false on the request means one attempt only', async () => {
    server.script({ status: 503 }, { body: {} });
    const err = await apiErrorOf(client().json({ path: 'x', retry: false }));
    assert.equal(err.status, 503);
    assert.equal(server.count, 1);
  });

  it('the retried request carries the same method, body and credentials', async () => {
    server.script({ status: 500 }, { body: { ok: true } });
    const c = client({ auth: { placement: 'bearer' }, credentials: () => Promise.resolve('sk-same') });
    await c.json({ path: 'chat/completions', body: { model: 'm', n: 1 } });
    assert.equal(server.count, 2);
    for (const r of server.requests) {
      assert.equal(r.method, 'POST');
      assert.equal(r.body, '{"model":"m","n":1}');
      assert.equal(r.headers.authorization, 'Bearer sk-same');
    }
  });
});

describe('core/retry: policy functions', () => {
  it('retry-after-ms wins over retry-after; seconds and HTTP dates are understood', () => {
    assert.equal(retryAfterFromHeaders({ 'retry-after-ms': '120', 'retry-after': '5' }), 120);
    assert.equal(retryAfterFromHeaders({ 'retry-after': '5' }), 5000);
    assert.equal(retryAfterFromHeaders({ 'retry-after': '0.5' }), 500);
    const now = Date.UTC(2025, 0, 1);
    assert.equal(retryAfterFromHeaders({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }, now), 7000);
    assert.equal(retryAfterFromHeaders({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, now), 0, 'a date in the past means now');
  });

  it('missing, empty, negative or garbage hints give undefined (backoff applies)', () => {
    assert.equal(retryAfterFromHeaders({}), undefined);
    assert.equal(retryAfterFromHeaders({ 'retry-after': '' }), undefined);
    assert.equal(retryAfterFromHeaders({ 'retry-after': '-3' }), undefined);
    assert.equal(retryAfterFromHeaders({ 'retry-after': 'soon' }), undefined);
    assert.equal(retryAfterFromHeaders({ 'retry-after-ms': 'x', 'retry-after': '1' }), 1000, 'falls back to retry-after');
  });

  it('backoff doubles per attempt and is capped at maxDelayMs', () => {
    const p = { maxRetries: 9, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((a) => backoffDelay(a, p, () => 0)),
      [500, 1000, 2000, 4000, 8000, 8000],
    );
    assert.equal(
      backoffDelay(2, p, () => 1),
      1000,
    );
  });

  it('retryable statuses: 408, 409, 429 and 5xx only', () => {
    assert.deepEqual([400, 401, 403, 404, 408, 409, 422, 429, 500, 503].filter(isRetryableStatus), [408, 409, 429, 500, 503]);
  });
});

describe('core/retry: what is not retried, and what is not timed', () => {
  it('a host name that does not resolve (ENOTFOUND, EAI_AGAIN) is not tried again: it fails at once', async () => {
    const notices: RetryNotice[] = [];
    // .invalid never resolves (RFC 2606): no network is needed.
    const c = new HttpClient({ service: 'Nowhere', baseUrl: 'http://nonexistent.invalid/v1', auth: { placement: 'none' }, clock: ManualClock.instant() });
    const e = await apiErrorOf(c.json({ path: 'models', onRetry: (n) => notices.push(n) }));
    assert.ok(e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN', e.code);
    assert.equal(notices.length, 0, 'no retry');
  });

  it('the time spent resolving the credential (an approval dialog) is reported apart, so callers time only what was sent', async () => {
    const server = await FaultServer.start();
    try {
      server.script({ body: { ok: true } });
      const waited: number[] = [];
      const c = new HttpClient({
        service: 'OpenAI',
        baseUrl: server.url('/v1'),
        auth: { placement: 'bearer' },
        credentials: () => new Promise((resolve) => setTimeout(() => resolve('sk-approved-after-a-dialog'), 300)),
      });
      const res = await c.json({ path: 'models', onCredentials: (ms) => waited.push(ms) });
      assert.equal(waited.length, 1);
      assert.ok(waited[0] >= 250, `${waited[0]} ms reported`);
      assert.ok(res.durationMs < 250, `the request itself took ${res.durationMs} ms`);
    } finally {
      await server.close();
    }
  });
});
