// "Backoff always applies": whatever a hostile server does (accept then close with any code, send
// pusher:error with a close code, send a broken handshake), the client never reconnects without a
// wait. Each case counts the connections the server sees in a fixed window of the client's time, with
// the client on its default policies and random() = 1, the shortest waits its jitter allows, so every
// count is an upper bound of what a user gets. The window runs on a manual clock: after each
// connection the test waits for the client's answer to it (a planned reconnect or a stop), then moves
// the clock by exactly the wait the client announced, so a reconnect the client makes without its
// timer shows up as a connection with no time passed.
import * as assert from 'node:assert/strict';
import { connect as netConnect, type NetConnectOpts } from 'node:net';
import type { WebSocket } from 'ws';
import { RealtimeClient, type ReconnectPlan } from '../../../src/services/realtime/client';
import { ManualClock } from '../helpers/clock';
import { errorThen, FaultSocketServer, garbageHandshake, greet, greetThenClose, refuse, type Behaviour } from './faultSocketServer';
import { APP, within } from './fixtures';

const WINDOW_MS = 1_200;
/** Default quick waits at random() = 1: 100, 200, 400 ms (700 ms in all), then a backoff of ≥ 8 s. */
const MAX_QUICK_CONNECTIONS = 4;
/** Default backoff at random() = 1: ≥ 1 s, then ≥ 2 s. */
const MAX_BACKOFF_CONNECTIONS = 2;
/** More connections than this in one window is a reconnect loop: stop counting. */
const RUNAWAY = 50;

const greetThenDrop: Behaviour = (ws: WebSocket) => {
  greet(ws);
  setImmediate(() => ws.terminate());
};

describe('realtime client: backoff always applies (hostile server, connections per window)', function () {
  this.timeout(20_000);
  let server: FaultSocketServer;
  let client: RealtimeClient;
  let clock: ManualClock;
  /** The client's clock at each socket it opened. */
  let opens: number[];
  let plans: ReconnectPlan[];

  beforeEach(async () => {
    server = await FaultSocketServer.start();
    plans = [];
  });
  afterEach(async () => {
    client.dispose();
    await server.close();
  });

  /** Resolves once `cond` holds, checked whenever the client plans, changes state, or the server sees a connection. */
  function until(cond: () => boolean, what: string): Promise<void> {
    if (cond()) return Promise.resolve();
    const subs: { dispose(): void }[] = [];
    const held = new Promise<void>((resolve) => {
      const check = () => cond() && resolve();
      subs.push(client.on('reconnect', check), client.on('state', check));
      void server.connection(server.connections + 1).then(check, () => undefined);
    });
    return within(held, what).finally(() => subs.forEach((d) => d.dispose()));
  }

  /**
   * Runs the client against `behaviour` on every connection for WINDOW_MS of its clock; returns the
   * connections the server saw. Time moves only by the waits the client planned, one at a time, and
   * each new socket must be opened by the planned wait's timer: when the clock reaches it, not before.
   */
  async function run(behaviour: Behaviour): Promise<number> {
    server.otherwise(behaviour);
    clock = new ManualClock(0);
    opens = [];
    // Called as the client opens each socket (synchronously, inside new WebSocket()).
    const createConnection = ((o: NetConnectOpts) => {
      opens.push(clock.now());
      return netConnect(o);
    }) as typeof netConnect;
    client = new RealtimeClient({
      key: APP.key,
      host: '127.0.0.1',
      port: server.port,
      useTLS: false,
      random: () => 1,
      clock,
      socketOptions: { createConnection },
    });
    client.on('reconnect', (p) => plans.push(p));
    client.on('error', () => undefined);
    client.connect();
    for (let n = 1; n <= RUNAWAY; n++) {
      await server.connection(n);
      // The client's answer to connection n: a reconnect planned on its clock, a stop, or (a
      // reconnect loop) another socket with no plan at all.
      await until(() => plans.length >= n || client.state === 'disconnected' || opens.length > n, `the client's answer to connection ${n}`);
      if (opens.length > n) continue;
      if (plans.length < n) break;
      const wait = plans[n - 1].delayMs;
      if (clock.now() + wait > WINDOW_MS) break;
      clock.advance(wait);
      assert.equal(opens.length, n + 1, `the client opens socket ${n + 1} when its planned wait of ${wait} ms is over`);
    }
    // The rest of the window: nothing opens another socket in it.
    const opened = opens.length;
    clock.advanceTo(Math.max(clock.now(), WINDOW_MS));
    assert.equal(opens.length, opened, 'no socket opened later in the window');
    return server.connections;
  }

  /** Every socket after the first was opened after a planned wait, and no sooner than it (on the client's clock). */
  function assertWaitsKept(): void {
    const gaps = opens.slice(1).map((t, i) => t - opens[i]);
    gaps.forEach((gap, i) => {
      assert.ok(plans[i], `socket ${i + 2} was opened without a planned wait`);
      assert.ok(gap >= plans[i].delayMs, `socket ${i + 2} was opened ${gap} ms after the previous one; the plan said ${plans[i].delayMs} ms`);
    });
    assert.ok(
      plans.every((p) => p.delayMs >= 100),
      `every wait is at least 100 ms: ${plans.map((p) => p.delayMs).join(', ')}`,
    );
  }

  describe('4200–4299 and broken handshakes: reconnect soon, never at once, and slow down if it repeats', () => {
    for (const [what, behaviour] of [
      ['accepted, then closed with 4200 (the loop the probes found: ~545 reconnects/s before)', greetThenClose(4200)],
      ['accepted, then closed with 4202', greetThenClose(4202)],
      ['closed with 4200 before the handshake', refuse(4200)],
      ['a connection_established the client cannot accept', garbageHandshake],
      ['pusher:error 4200 on an open socket (the server never closes it)', errorThen(4200, undefined, true)],
      ['a pusher:error without a code, then close 4200', errorThen(null, 4200, true)],
    ] as const) {
      it(what, async () => {
        const n = await run(behaviour);
        assert.ok(n >= 2, `it does reconnect (${n} connections)`);
        assert.ok(n <= MAX_QUICK_CONNECTIONS, `${n} connections in ${WINDOW_MS} ms`);
        assert.ok(plans.every((p) => p.action === 'immediate'));
        const delays = plans.map((p) => p.delayMs);
        assert.deepEqual(delays.slice(0, 3), [100, 200, 400].slice(0, delays.length), 'the quick waits grow');
        assertWaitsKept();
      });
    }
  });

  describe('4100–4199 and every other close: back off at least 1 s', () => {
    for (const [what, behaviour] of [
      ['accepted, then closed with 4100', greetThenClose(4100)],
      ['accepted, then closed normally (1000)', greetThenClose(1000)],
      ['accepted, then dropped without a close frame (1006)', greetThenDrop],
      ['accepted, then closed with 4301', greetThenClose(4301)],
      ['accepted, then closed with 3000', greetThenClose(3000)],
      ['closed with 1011 before the handshake', refuse(1011)],
      ['pusher:error 4100, then close 4200: the error code decides', errorThen(4100, 4200, true)],
      ['pusher:error 4100 during the handshake, then close 1000', errorThen(4100, 1000, false)],
    ] as const) {
      it(what, async () => {
        const n = await run(behaviour);
        assert.ok(n <= MAX_BACKOFF_CONNECTIONS, `${n} connections in ${WINDOW_MS} ms`);
        assert.ok(
          plans.every((p) => p.action === 'backoff' && p.delayMs >= 1_000),
          `waits: ${plans.map((p) => `${p.code}:${p.delayMs}`).join(', ')}`,
        );
        assertWaitsKept();
      });
    }
  });

  describe('4000–4099, on the close or in a pusher:error: stop, no reconnect', () => {
    for (const [what, behaviour] of [
      ['closed with 4001 before the handshake', refuse(4001)],
      ['accepted, then closed with 4009', greetThenClose(4009)],
      ['pusher:error 4001, then close 4200 (the close code must not win)', errorThen(4001, 4200, true)],
      ['pusher:error 4001, then a normal close (1000)', errorThen(4001, 1000, true)],
      ['pusher:error 4001 during the handshake, then a dropped socket (1006)', errorThen(4001, 1006, false)],
      ['pusher:error 4004 on an open socket (the server never closes it)', errorThen(4004, undefined, true)],
    ] as const) {
      it(what, async () => {
        const n = await run(behaviour);
        assert.equal(n, 1, `${n} connections in ${WINDOW_MS} ms`);
        assert.deepEqual(plans, [], 'no reconnect was planned');
        assert.equal(clock.pendingTimers, 0, 'no timer is left that could reconnect later');
        assert.equal(client.state, 'disconnected');
        assert.equal(client.lastClose?.action, 'stop');
      });
    }
  });
});
