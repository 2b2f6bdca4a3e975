import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/core/http';
import { SlidingWindowLimiter } from '../../../src/core/rateLimiter';
import { ManualClock, settle } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { seededRandom } from '../helpers/util';

const MINUTE = 60_000;

interface Arrival {
  seq: number;
  at: number;
  key: string;
}
interface Grant extends Arrival {
  grantedAt: number;
}

/**
 * Drives a limiter with a manual clock: each arrival calls acquire() at its time; time then jumps
 * to the next arrival or the next wake-up of a waiting acquire. Bounded in steps, so a limiter that
 * never lets a waiter through fails instead of hanging.
 */
async function simulate(arrivals: Arrival[], limit: number): Promise<Grant[]> {
  const clock = new ManualClock(0);
  const limiter = new SlidingWindowLimiter(clock);
  const pending = [...arrivals].sort((a, b) => a.at - b.at || a.seq - b.seq);
  const grants: Grant[] = [];
  let next = 0;
  for (let step = 0; grants.length < arrivals.length; step++) {
    assert.ok(step < arrivals.length * 4 + 10, `simulation stuck after ${grants.length}/${arrivals.length} grants`);
    while (next < pending.length && pending[next].at <= clock.now()) {
      const a = pending[next++];
      void limiter.acquire(a.key, limit).then(() => grants.push({ ...a, grantedAt: clock.now() }));
    }
    await settle();
    const t = Math.min(clock.nextWake() ?? Infinity, pending[next]?.at ?? Infinity);
    if (t === Infinity) {
      assert.equal(grants.length, arrivals.length, 'nothing left to wake, yet some acquires were never granted');
      break;
    }
    clock.advanceTo(t);
  }
  return grants;
}

function randomArrivals(seed: number, n: number, spanMs: number, keys: string[]): Arrival[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, (_, seq) => {
    // Round some times to whole seconds, so bursts of simultaneous arrivals happen too.
    const raw = rnd() * spanMs;
    const at = rnd() < 0.3 ? Math.floor(raw / 1000) * 1000 : Math.floor(raw);
    return { seq, at, key: keys[Math.floor(rnd() * keys.length)] };
  });
}

describe('core/rateLimiter: SlidingWindowLimiter', () => {
  describe('property: never more than the limit in any 60 s window', () => {
    const cases = [
      { seed: 1, n: 150, span: 5 * MINUTE, limit: 7, keys: ['a'] },
      { seed: 2, n: 200, span: 3 * MINUTE, limit: 3, keys: ['a', 'b', 'c'] },
      { seed: 3, n: 120, span: 20 * MINUTE, limit: 10, keys: ['a', 'b'] },
      { seed: 4, n: 100, span: 30_000, limit: 1, keys: ['a'] },
      { seed: 5, n: 250, span: 10 * MINUTE, limit: 25, keys: ['conn'] },
    ];
    for (const c of cases) {
      it(`seed ${c.seed}: ${c.n} acquires over ${c.span / 1000} s, limit ${c.limit}/min, keys ${c.keys.join(',')}`, async () => {
        const arrivals = randomArrivals(c.seed, c.n, c.span, c.keys);
        const grants = await simulate(arrivals, c.limit);
        assert.equal(grants.length, c.n);
        for (const key of c.keys) {
          const times = grants
            .filter((g) => g.key === key)
            .map((g) => g.grantedAt)
            .sort((a, b) => a - b);
          // Every window [x, x + 60 s) is checked by starting it at each grant (the windows with the most).
          for (let i = 0; i < times.length; i++) {
            let inWindow = 0;
            for (let j = i; j < times.length && times[j] < times[i] + MINUTE; j++) inWindow++;
            assert.ok(inWindow <= c.limit, `key ${key}: ${inWindow} grants in [${times[i]}, ${times[i] + MINUTE})`);
          }
        }
      });

      it(`seed ${c.seed}: FIFO per key, never early, and no later than the window requires`, async () => {
        const arrivals = randomArrivals(c.seed, c.n, c.span, c.keys);
        const grants = await simulate(arrivals, c.limit);
        for (const key of c.keys) {
          const mine = arrivals.filter((a) => a.key === key).sort((a, b) => a.at - b.at || a.seq - b.seq);
          const granted = grants.filter((g) => g.key === key);
          assert.deepEqual(
            granted.map((g) => g.seq),
            mine.map((a) => a.seq),
            `key ${key}: served out of order`,
          );
          // The earliest each request could go: after its arrival, after the one ahead of it, and
          // 60 s after the grant `limit` places earlier.
          const expected: number[] = [];
          mine.forEach((a, i) => expected.push(Math.max(a.at, expected[i - 1] ?? 0, i >= c.limit ? expected[i - c.limit] + MINUTE : 0)));
          assert.deepEqual(
            granted.map((g) => g.grantedAt),
            expected,
            `key ${key}: grant times`,
          );
        }
      });
    }
  });

  describe('property: several quotas per request (per model + connection)', () => {
    for (const seed of [11, 12, 13]) {
      it(`seed ${seed}: every quota holds in every window, and every request is served`, async () => {
        const rnd = seededRandom(seed);
        const clock = new ManualClock(0);
        const limiter = new SlidingWindowLimiter(clock);
        const limits: Record<string, number> = { conn: 6, 'model-a': 2, 'model-b': 3, 'model-c': 1 };
        const models = ['model-a', 'model-b', 'model-c'];
        const arrivals = Array.from({ length: 120 }, (_, seq) => ({
          seq,
          at: Math.floor(rnd() * 4 * MINUTE),
          model: models[Math.floor(rnd() * models.length)],
        })).sort((a, b) => a.at - b.at || a.seq - b.seq);
        const sent: { model: string; at: number }[] = [];
        let next = 0;
        for (let step = 0; sent.length < arrivals.length; step++) {
          assert.ok(step < arrivals.length * 6 + 10, `stuck after ${sent.length}/${arrivals.length}`);
          while (next < arrivals.length && arrivals[next].at <= clock.now()) {
            const a = arrivals[next++];
            const quotas = [
              { key: a.model, limit: limits[a.model] },
              { key: 'conn', limit: limits.conn },
            ];
            void limiter.acquireAll(quotas).then(() => sent.push({ model: a.model, at: clock.now() }));
          }
          await settle();
          const t = Math.min(clock.nextWake() ?? Infinity, arrivals[next]?.at ?? Infinity);
          if (t === Infinity) break;
          clock.advanceTo(t);
        }
        assert.equal(sent.length, arrivals.length, 'every request was eventually let through');
        for (const key of Object.keys(limits)) {
          const times = sent.filter((x) => key === 'conn' || x.model === key).map((x) => x.at);
          for (const t of times) {
            const n = times.filter((u) => u >= t && u < t + MINUTE).length;
            assert.ok(n <= limits[key], `${key}: ${n} sends in [${t}, ${t + MINUTE}) over limit ${limits[key]}`);
          }
        }
      });
    }

    it('the same key listed twice is one quota checked against both limits (no self-deadlock)', async () => {
      const clock = new ManualClock(0);
      const l = new SlidingWindowLimiter(clock);
      const both = [
        { key: 'k', limit: 3 },
        { key: 'k', limit: 1 },
      ];
      await l.acquireAll(both);
      let second = false;
      const p = l.acquireAll(both).then(() => (second = true));
      await settle();
      assert.equal(second, false);
      assert.equal(l.remaining('k', 3), 2, 'one slot taken, not two');
      clock.advanceTo(MINUTE);
      await p;
    });
  });

  it('remaining() and waitTime() follow the window', async () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(clock);
    assert.equal(l.remaining('k', 3), 3);
    assert.equal(l.waitTime('k', 3), 0);
    await l.acquire('k', 3);
    clock.advanceTo(10_000);
    await l.acquire('k', 3);
    clock.advanceTo(20_000);
    await l.acquire('k', 3);
    assert.equal(l.remaining('k', 3), 0);
    clock.advanceTo(30_000);
    assert.equal(l.waitTime('k', 3), 30_000, 'the oldest grant (t=0) leaves the window at 60 s');
    assert.equal(l.remaining('k', 5), 2, 'the same grants counted against a larger limit');
    clock.advanceTo(MINUTE - 1);
    assert.equal(l.remaining('k', 3), 0);
    assert.equal(l.waitTime('k', 3), 1);
    clock.advanceTo(MINUTE);
    assert.equal(l.remaining('k', 3), 1);
    assert.equal(l.waitTime('k', 3), 0);
    clock.advanceTo(MINUTE + 20_000);
    assert.equal(l.remaining('k', 3), 3);
  });

  it('keys are independent quotas', async () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(clock);
    await l.acquire('model-a', 1);
    let bGranted = false;
    await l.acquire('model-b', 1).then(() => (bGranted = true));
    assert.ok(bGranted);
    assert.equal(l.remaining('model-a', 1), 0);
    assert.equal(l.remaining('model-b', 1), 0);
    assert.equal(l.remaining('other', 1), 1);
  });

  it('simultaneous callers are served first come, first served, and told how long they wait', async () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(clock);
    const order: number[] = [];
    const waits: number[][] = [[], [], [], [], []];
    const all = [0, 1, 2, 3, 4].map((i) => l.acquire('k', 2, undefined, (ms) => waits[i].push(ms)).then(() => order.push(i)));
    await settle();
    assert.deepEqual(order, [0, 1]);
    clock.advanceTo(MINUTE);
    await settle();
    assert.deepEqual(order, [0, 1, 2, 3]);
    clock.advanceTo(2 * MINUTE);
    await Promise.all(all);
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    // Those that had to sleep for a slot were told how long (callers queued behind them wait
    // silently while the one ahead sleeps).
    assert.deepEqual(waits[0], []);
    assert.deepEqual(waits[1], []);
    assert.deepEqual(waits[2], [MINUTE]);
  });

  it('a waiter cancelled while sleeping rejects with the reason; the next one gets the slot', async () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(clock);
    await l.acquire('k', 1);
    const ac = new AbortController();
    const cancelled = l.acquire('k', 1, ac.signal);
    const next = l.acquire('k', 1);
    await settle();
    ac.abort(new Error('user cancelled'));
    await assert.rejects(cancelled, /user cancelled/);
    clock.advanceTo(MINUTE);
    await next;
    assert.equal(l.remaining('k', 1), 0);
  });

  it('a waiter cancelled while queued behind another rejects at once and takes no slot', async () => {
    const clock = new ManualClock(0);
    const l = new SlidingWindowLimiter(clock);
    await l.acquire('k', 1);
    const ahead = l.acquire('k', 1);
    const ac = new AbortController();
    let outcome = 'pending';
    l.acquire('k', 1, ac.signal).then(
      () => (outcome = 'granted'),
      () => (outcome = 'rejected'),
    );
    const after = l.acquire('k', 1);
    await settle();
    ac.abort();
    await settle();
    assert.equal(outcome, 'rejected');
    clock.advanceTo(MINUTE);
    await ahead;
    clock.advanceTo(2 * MINUTE);
    await after;
    assert.equal(outcome, 'rejected');
  });

  it('an already-aborted signal rejects without taking a slot', async () => {
    const l = new SlidingWindowLimiter(new ManualClock(0));
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(l.acquire('k', 1, ac.signal));
    assert.equal(l.remaining('k', 1), 1);
  });
});

describe('core/http + rateLimiter: client-side quotas', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  it('the connection quota holds requests back (onQueued told the wait) and lets them go as the window moves', async () => {
    const clock = new ManualClock(0);
    const limiter = new SlidingWindowLimiter(clock);
    const c = new HttpClient({ service: 'S', baseUrl: server.url(), auth: { placement: 'none' }, clock, limiter, rateLimit: { key: 'conn', perMinute: 2 } });
    await c.json({ path: 'a' });
    clock.advanceTo(15_000);
    await c.json({ path: 'b' });
    const queued: number[] = [];
    const third = c.json({ path: 'c', onQueued: (ms) => queued.push(ms) });
    await settle();
    assert.equal(server.count, 2);
    assert.deepEqual(queued, [45_000]);
    clock.advanceTo(MINUTE);
    await third;
    assert.equal(server.count, 3);
  });

  it('per-request limits (e.g. per model) add to the connection quota', async () => {
    const clock = new ManualClock(0);
    const limiter = new SlidingWindowLimiter(clock);
    const c = new HttpClient({ service: 'S', baseUrl: server.url(), auth: { placement: 'none' }, clock, limiter, rateLimit: { key: 'conn', perMinute: 10 } });
    const modelA = [{ key: 'model-a', perMinute: 1 }];
    await c.json({ path: 'a1', rateLimits: modelA });
    const a2 = c.json({ path: 'a2', rateLimits: modelA });
    await c.json({ path: 'b1', rateLimits: [{ key: 'model-b', perMinute: 1 }] });
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/a1', '/b1'],
    );
    assert.equal(limiter.remaining('conn', 10), 8);
    clock.advanceTo(MINUTE);
    await a2;
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/a1', '/b1', '/a2'],
    );
  });

  it('the connection quota holds even when a request first waited for its model quota', async () => {
    // Slots must be taken at the moment the request goes out: a request that took its connection
    // slot at t=0 but was sent at t=60 s would let the connection exceed its quota after t=60 s.
    const clock = new ManualClock(0);
    const limiter = new SlidingWindowLimiter(clock);
    const sentAt: number[] = [];
    server.script((_req, res) => {
      sentAt.push(clock.now());
      res.end('{}');
    });
    const c = new HttpClient({ service: 'S', baseUrl: server.url(), auth: { placement: 'none' }, clock, limiter, rateLimit: { key: 'conn', perMinute: 2 } });
    const model = (m: string) => [{ key: `model-${m}`, perMinute: 1 }];
    await c.json({ path: 'a1', rateLimits: model('a') });
    const a2 = c.json({ path: 'a2', rateLimits: model('a') });
    await settle();
    clock.advanceTo(MINUTE);
    await a2;
    const later = [c.json({ path: 'b1', rateLimits: model('b') }), c.json({ path: 'c1', rateLimits: model('c') })];
    for (let i = 0; i < 10 && sentAt.length < 4; i++) {
      await settle();
      const wake = clock.nextWake();
      if (wake !== undefined) clock.advanceTo(wake);
    }
    await Promise.all(later);
    assert.equal(sentAt.length, 4);
    for (const t of sentAt) {
      const inWindow = sentAt.filter((u) => u >= t && u < t + MINUTE).length;
      assert.ok(inWindow <= 2, `connection quota 2/min exceeded: sends at ${sentAt.join(', ')}`);
    }
  });
});
