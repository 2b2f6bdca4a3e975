import * as assert from 'node:assert/strict';
import {
  RealtimeClient,
  type ReconnectPlan,
  type RealtimeClientOptions,
  type StateChange,
  type SubscriptionEvent,
} from '../../../src/services/realtime/client';
import { FaultSocketServer, greet, greetThenClose, polite, refuse } from './faultSocketServer';
import { APP, frameText, waitFor } from './fixtures';

describe('realtime client: reconnect behaviour by close code (fault server)', function () {
  this.timeout(20_000);
  let server: FaultSocketServer;
  let clients: RealtimeClient[];

  beforeEach(async () => {
    server = await FaultSocketServer.start();
    clients = [];
  });
  afterEach(async () => {
    for (const c of clients) c.dispose();
    await server.close();
  });

  function client(opts: Partial<RealtimeClientOptions> = {}): { c: RealtimeClient; plans: ReconnectPlan[] } {
    const c = new RealtimeClient({
      key: APP.key,
      host: '127.0.0.1',
      port: server.port,
      useTLS: false,
      // Deterministic backoff: random() = 0 puts each wait at the top of its jitter range.
      random: () => 0,
      backoff: { baseDelayMs: 40, maxDelayMs: 160, minDelayMs: 20 },
      quickBackoff: { baseDelayMs: 20, maxDelayMs: 80, minDelayMs: 20 },
      stableAfterMs: 60_000,
      ...opts,
    });
    clients.push(c);
    const plans: ReconnectPlan[] = [];
    c.on('reconnect', (p) => plans.push(p));
    return { c, plans };
  }

  const stateIs = (c: RealtimeClient, wanted: string) =>
    c.state === wanted
      ? Promise.resolve()
      : waitFor<StateChange>(
          (cb) => c.on('state', cb),
          wanted,
          (s) => s.current === wanted,
        ).then(() => undefined);
  const connected = (c: RealtimeClient) => stateIs(c, 'connected');
  const disconnected = (c: RealtimeClient) => stateIs(c, 'disconnected');

  for (const [code, what] of [
    [4001, /app does not exist/],
    [4004, /over its connection quota/],
    [4009, /unauthorized/],
    [4099, /closed with code 4099/],
  ] as const) {
    it(`${code} (4000–4099): stops, stays disconnected and says why`, async () => {
      server.next(refuse(code, 'from the fault server'));
      const { c, plans } = client();
      const errors: string[] = [];
      c.on('error', (e) => errors.push(e.message));
      c.connect();
      await disconnected(c);
      assert.equal(c.lastClose?.code, code);
      assert.equal(c.lastClose?.action, 'stop');
      assert.match(c.lastClose?.explanation ?? '', what);
      assert.match(c.lastClose?.explanation ?? '', /from the fault server/);
      assert.deepEqual(plans, [], 'no reconnect was planned');
      assert.equal(errors.length, 1);
      assert.equal(server.connections, 1);
    });
  }

  it('4000–4099 after a connected session also stops (no retry loop)', async () => {
    server.next(greetThenClose(4003, 'app disabled'));
    const { c, plans } = client();
    c.connect();
    await connected(c);
    await disconnected(c);
    assert.deepEqual(plans, []);
    assert.match(c.lastClose?.explanation ?? '', /app is disabled/);
  });

  it('4100–4199: backs off at least the minimum, doubling per consecutive failure, then connects', async () => {
    server.next(refuse(4100), refuse(4150), refuse(4199)).otherwise(polite);
    const { c, plans } = client();
    c.connect();
    await connected(c);
    assert.deepEqual(
      plans.map((p) => [p.code, p.action, p.delayMs, p.attempt]),
      [
        [4100, 'backoff', 40, 1],
        [4150, 'backoff', 80, 2],
        [4199, 'backoff', 160, 3],
      ],
    );
    assert.equal(server.connections, 4);
  });

  it('backoff has jitter: with random() = 1 each wait is half its step, never under the minimum', async () => {
    server.next(refuse(4100), refuse(4100), refuse(4100)).otherwise(polite);
    const { c, plans } = client({ random: () => 1 });
    c.connect();
    await connected(c);
    assert.deepEqual(
      plans.map((p) => p.delayMs),
      [20, 40, 80],
    );
  });

  it('the backoff is capped at maxMs', async () => {
    server.next(...Array.from({ length: 5 }, () => refuse(4100))).otherwise(polite);
    const { c, plans } = client({ backoff: { baseDelayMs: 20, maxDelayMs: 50, minDelayMs: 10 } });
    c.connect();
    await connected(c);
    assert.deepEqual(
      plans.map((p) => p.delayMs),
      [20, 40, 50, 50, 50],
    );
  });

  it('4200–4299: reconnects soon (short, growing waits, never 0), with a new socket id, and resubscribes', async () => {
    server.next(greetThenClose(4200, 'generic reconnect'), greetThenClose(4202, 'inactive')).otherwise(polite);
    const { c, plans } = client();
    c.connect();
    await server.connection(3);
    await connected(c);
    assert.deepEqual(
      plans.map((p) => [p.code, p.action, p.delayMs]),
      [
        [4200, 'immediate', 20],
        [4202, 'immediate', 40],
      ],
    );
    await c.subscribe('after-reconnect');
    assert.ok(server.received[2].some((f) => f.includes('"pusher:subscribe"')));
  });

  it('a server stuck sending 4200 is backed off after three quick retries', async () => {
    server.next(...Array.from({ length: 5 }, () => refuse(4200))).otherwise(polite);
    const { c, plans } = client();
    c.connect();
    await connected(c);
    assert.deepEqual(
      plans.map((p) => [p.action, p.delayMs]),
      [
        ['immediate', 20],
        ['immediate', 40],
        ['immediate', 80],
        ['immediate', 160],
        ['immediate', 160],
      ],
    );
  });

  it('4301 (client event rate limit) and a dropped connection (1006) back off and reconnect', async () => {
    server
      .next(greetThenClose(4301, 'rate limited'), (ws) => {
        greet(ws);
        setImmediate(() => ws.terminate());
      })
      .otherwise(polite);
    const { c, plans } = client();
    c.connect();
    await server.connection(3);
    await connected(c);
    assert.deepEqual(
      plans.map((p) => [p.code, p.action]),
      [
        [4301, 'backoff'],
        [1006, 'backoff'],
      ],
    );
    assert.ok(plans.every((p) => p.delayMs >= 20));
  });

  it('resubscribes every channel after a reconnect', async () => {
    const subscribed: string[][] = [];
    const recordSubs = (ws: import('ws').WebSocket) => {
      const mine: string[] = [];
      subscribed.push(mine);
      ws.on('message', (d) => {
        const f = JSON.parse(frameText(d)) as { event: string; data: { channel: string } };
        if (f.event === 'pusher:subscribe') mine.push(f.data.channel);
      });
    };
    server
      .next((ws, n) => {
        recordSubs(ws);
        polite(ws, n);
      })
      .otherwise((ws, n) => {
        recordSubs(ws);
        polite(ws, n);
      });
    const { c } = client({ authorize: ({ socketId, channel }) => Promise.resolve({ auth: `${APP.key}:${socketId}-${channel}` }) });
    c.connect();
    await Promise.all([c.subscribe('a'), c.subscribe('private-b'), c.subscribe('c')]);
    c.unsubscribe('c');
    const back = waitFor<SubscriptionEvent>(
      (cb) => c.on('subscription', cb),
      'private-b again',
      (e) => e.kind === 'succeeded' && e.channel === 'private-b',
    );
    // Kill the socket from the server side without a close frame.
    for (const s of (server as unknown as { sockets: Set<import('ws').WebSocket> }).sockets) s.terminate();
    await back;
    assert.deepEqual(subscribed[1].sort(), ['a', 'private-b']);
  });

  it('a ping without a pong within the timeout drops the socket (4201) and reconnects soon', async () => {
    // Greets, then ignores everything (no pong).
    server.next((ws) => greet(ws)).otherwise(polite);
    const { c, plans } = client({ activityTimeoutMs: 20, pongTimeoutMs: 30 });
    c.connect();
    await server.connection(2);
    assert.deepEqual([plans[0].code, plans[0].action, plans[0].delayMs], [4201, 'immediate', 20]);
    assert.ok(
      server.received[0].some((f) => f.includes('"pusher:ping"')),
      'the client pinged first',
    );
  });

  it("uses the server's shorter activity_timeout", async () => {
    server.next((ws) => greet(ws, '5.5', 0.02)).otherwise(polite);
    const { c, plans } = client({ activityTimeoutMs: 60_000, pongTimeoutMs: 20 });
    c.connect();
    await server.connection(2);
    assert.equal(plans[0]?.code, 4201);
  });

  it('a server that never sends connection_established is treated as lost', async () => {
    server.otherwise(() => undefined);
    const { c, plans } = client({ connectTimeoutMs: 50 });
    c.connect();
    await waitFor<ReconnectPlan>(
      (cb) => c.on('reconnect', cb),
      'a plan for the silent server',
      (p) => p.code === 4200,
    );
    const p = plans.find((x) => x.code === 4200);
    assert.match(p?.reason ?? '', /no connection_established/);
    assert.notEqual(c.state, 'connected');
  });
});
