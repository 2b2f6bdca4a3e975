import * as assert from 'node:assert/strict';
import { Agent } from 'undici';
import { HttpClient, type HttpClientOptions } from '../../../src/core/http';
import { SlidingWindowLimiter } from '../../../src/core/rateLimiter';
import { DEFAULT_RETRY } from '../../../src/core/retry';
import { ManualClock, settle } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf, cancellationSource } from '../helpers/util';

const NO_RETRY = { ...DEFAULT_RETRY, maxRetries: 0 };

describe('core/http: timeouts and cancellation', function () {
  // Everything here must end promptly; a hang fails at this bound instead of the suite's.
  this.timeout(5000);

  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  function client(extra: Partial<HttpClientOptions> = {}): HttpClient {
    return new HttpClient({ service: 'Svc', baseUrl: server.url(), auth: { placement: 'none' }, clock: ManualClock.instant(), ...extra });
  }

  describe('timeout', () => {
    it('a server that never answers gives kind "timeout", not a hang', async () => {
      server.script({ hang: true });
      // 1 s: on a loaded machine 150 ms could pass before the request reached the server at all.
      const err = await apiErrorOf(client({ timeoutMs: 1000, retry: NO_RETRY }).json({ path: 'x' }));
      assert.equal(err.kind, 'timeout');
      assert.ok(server.count <= 1, 'sent again although retries were off');
      assert.match(err.describe(), /^Svc did not answer within/);
    });

    it('a per-request timeout overrides the client one', async () => {
      server.script({ hang: true });
      const err = await apiErrorOf(client({ timeoutMs: 60_000, retry: NO_RETRY }).json({ path: 'x', timeoutMs: 100 }));
      assert.equal(err.kind, 'timeout');
    });

    it('a timed-out request is retried within maxRetries, then reported as a timeout', async () => {
      server.script({ hang: true });
      const err = await apiErrorOf(client({ timeoutMs: 500, retry: { ...DEFAULT_RETRY, maxRetries: 1 } }).json({ path: 'x' }));
      assert.equal(err.kind, 'timeout');
      assert.equal(server.count, 2);
    });

    it('a body that starts but never finishes also times out', async () => {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      });
      const err = await apiErrorOf(client({ timeoutMs: 150, retry: NO_RETRY }).json({ path: 'x' }));
      assert.equal(err.kind, 'timeout');
      assert.equal(err.status, 200);
    });
  });

  describe('cancellation with an AbortController', () => {
    it('aborting while the server holds the request gives kind "cancelled" and no retry', async () => {
      server.script({ hang: true });
      const ac = new AbortController();
      const p = client({ timeoutMs: 60_000 }).json({ path: 'x', cancel: ac.signal });
      await server.arrived(1);
      ac.abort();
      const err = await apiErrorOf(p);
      assert.equal(err.kind, 'cancelled');
      assert.equal(server.count, 1);
    });

    it('an already-aborted signal sends nothing', async () => {
      const ac = new AbortController();
      ac.abort();
      const err = await apiErrorOf(client().json({ path: 'x', cancel: ac.signal }));
      assert.equal(err.kind, 'cancelled');
      assert.equal(server.count, 0);
    });

    it('aborting while the body is being read gives kind "cancelled"', async () => {
      server.script((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
      });
      const ac = new AbortController();
      const p = client({ timeoutMs: 60_000 }).json({ path: 'x', cancel: ac.signal });
      await server.arrived(1);
      setTimeout(() => ac.abort(), 20);
      const err = await apiErrorOf(p);
      assert.equal(err.kind, 'cancelled');
    });
  });

  describe('cancellation with a CancellationToken-shaped object', () => {
    it('cancelling while the server holds the request gives kind "cancelled"; the listener is disposed', async () => {
      server.script({ hang: true });
      const cts = cancellationSource();
      const p = client({ timeoutMs: 60_000 }).json({ path: 'x', cancel: cts.token });
      await server.arrived(1);
      assert.equal(cts.listeners(), 1);
      cts.cancel();
      const err = await apiErrorOf(p);
      assert.equal(err.kind, 'cancelled');
      assert.equal(server.count, 1);
      assert.equal(cts.listeners(), 0);
    });

    it('an already-cancelled token sends nothing', async () => {
      const cts = cancellationSource();
      cts.cancel();
      const err = await apiErrorOf(client().json({ path: 'x', cancel: cts.token }));
      assert.equal(err.kind, 'cancelled');
      assert.equal(server.count, 0);
    });

    it('a successful request leaves no listener on the token', async () => {
      const cts = cancellationSource();
      await client().json({ path: 'x', cancel: cts.token });
      assert.equal(cts.listeners(), 0);
    });
  });

  describe('cancellation while waiting', () => {
    for (const via of ['AbortController', 'CancellationToken'] as const) {
      it(`${via}: cancelling during the wait before a retry ends the wait at once`, async () => {
        server.script({ status: 503, headers: { 'retry-after': '30' } });
        const clock = new ManualClock(0); // sleeps only end when the test advances time, which it never does
        const ac = new AbortController();
        const cts = cancellationSource();
        const cancel = via === 'AbortController' ? ac.signal : cts.token;
        const delays: number[] = [];
        const p = client({ clock }).json({
          path: 'x',
          cancel,
          onRetry: (n) => {
            delays.push(n.delayMs);
            setImmediate(() => (via === 'AbortController' ? ac.abort() : cts.cancel()));
          },
        });
        const err = await apiErrorOf(p);
        assert.equal(err.kind, 'cancelled');
        assert.deepEqual(delays, [30_000]);
        assert.equal(server.count, 1, 'no second attempt after cancelling');
        assert.equal(clock.pending, 0);
        assert.equal(cts.listeners(), 0);
      });

      it(`${via}: cancelling while the rate limiter holds the request back`, async () => {
        const clock = new ManualClock(0);
        const limiter = new SlidingWindowLimiter(clock);
        const c = client({ clock, limiter, rateLimit: { key: 'conn', perMinute: 1 } });
        await c.json({ path: 'first' });
        const ac = new AbortController();
        const cts = cancellationSource();
        const queued: number[] = [];
        const p = c.json({
          path: 'second',
          cancel: via === 'AbortController' ? ac.signal : cts.token,
          onQueued: (ms) => {
            queued.push(ms);
            setImmediate(() => (via === 'AbortController' ? ac.abort() : cts.cancel()));
          },
        });
        const err = await apiErrorOf(p);
        assert.equal(err.kind, 'cancelled');
        assert.deepEqual(queued, [60_000]);
        assert.equal(server.count, 1, 'the held-back request never went out');
        // The slot it did not take is still free for the next caller once the window moves on.
        clock.advance(60_000);
        await c.json({ path: 'third' });
        assert.equal(server.count, 2);
      });
    }

    it('cancelling a request still waiting for a free connection ends it at once and it is never sent', async () => {
      server.script({ hang: true });
      const dispatcher = new Agent({ connections: 1 });
      try {
        const c = client({ dispatcher, timeoutMs: 60_000, retry: NO_RETRY });
        const holding = c.json({ path: 'holding' }).catch(() => undefined);
        await server.arrived(1);
        const ac = new AbortController();
        const waiting = c.json({ path: 'waiting', cancel: ac.signal });
        await settle();
        ac.abort();
        assert.equal((await apiErrorOf(waiting)).kind, 'cancelled');
        await dispatcher.destroy(); // frees the one connection: a request still queued would go out now
        await holding;
        assert.deepEqual(
          server.requests.map((r) => r.url),
          ['/holding'],
        );
      } finally {
        if (!dispatcher.destroyed) await dispatcher.destroy();
      }
    });

    it('cancelling a request queued behind another waiter ends it at once, not when the waiter ahead gets its slot', async () => {
      const clock = new ManualClock(0);
      const limiter = new SlidingWindowLimiter(clock);
      const c = client({ clock, limiter, rateLimit: { key: 'conn', perMinute: 1 } });
      await c.json({ path: 'first' });
      const ahead = c.json({ path: 'ahead' }); // waits 60 s for the slot
      const ac = new AbortController();
      let settled = false;
      const behind = apiErrorOf(c.json({ path: 'behind', cancel: ac.signal }).finally(() => (settled = true)));
      await settle();
      ac.abort();
      await settle();
      assert.ok(settled, 'the cancelled request must not wait for the one ahead of it');
      assert.equal((await behind).kind, 'cancelled');
      clock.advance(60_000);
      await ahead;
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ['/first', '/ahead'],
      );
    });
  });
});
