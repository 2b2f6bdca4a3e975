// "Backoff always applies": whatever a hostile server does (accept then close with any code, send
// pusher:error with a close code, send a broken handshake), the client never reconnects without a
// wait. Each case counts the connections the server sees in a fixed window of real time, with the
// client on its default policies and random() = 1, the shortest waits its jitter allows, so every
// count is an upper bound of what a user gets.
import * as assert from 'node:assert/strict';
import type { WebSocket } from 'ws';
import { RealtimeClient, type ReconnectPlan } from '../../../src/services/realtime/client';
import { errorThen, FaultSocketServer, garbageHandshake, greet, greetThenClose, refuse, type Behaviour } from './faultSocketServer';
import { APP } from './fixtures';

const WINDOW_MS = 1_200;
/** Default quick waits at random() = 1: 100, 200, 400 ms (700 ms in all), then a backoff of ≥ 8 s. */
const MAX_QUICK_CONNECTIONS = 4;
/** Default backoff at random() = 1: ≥ 1 s, then ≥ 2 s. */
const MAX_BACKOFF_CONNECTIONS = 2;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const greetThenDrop: Behaviour = (ws: WebSocket) => {
  greet(ws);
  setImmediate(() => ws.terminate());
};

describe('realtime client: backoff always applies (hostile server, connections per window)', function () {
  this.timeout(20_000);
  let server: FaultSocketServer;
  let client: RealtimeClient;
  let plans: ReconnectPlan[];

  beforeEach(async () => {
    server = await FaultSocketServer.start();
    plans = [];
  });
  afterEach(async () => {
    client.dispose();
    await server.close();
  });

  /** Runs the client against `behaviour` on every connection for the window; returns the connections seen. */
  async function run(behaviour: Behaviour): Promise<number> {
    server.otherwise(behaviour);
    client = new RealtimeClient({ key: APP.key, host: '127.0.0.1', port: server.port, useTLS: false, random: () => 1 });
    client.on('reconnect', (p) => plans.push(p));
    client.on('error', () => undefined);
    client.connect();
    await sleep(WINDOW_MS);
    return server.connections;
  }

  /** No two connections closer together than the wait the client announced (less timer slack). */
  function assertWaitsKept(): void {
    const gaps = server.arrivedAt.slice(1).map((t, i) => t - server.arrivedAt[i]);
    gaps.forEach((gap, i) => assert.ok(gap >= plans[i].delayMs - 15, `connection ${i + 2} came ${gap} ms after the previous one; the plan said ${plans[i].delayMs} ms`));
    assert.ok(plans.every((p) => p.delayMs >= 100), `every wait is at least 100 ms: ${plans.map((p) => p.delayMs).join(', ')}`);
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
        assert.ok(plans.every((p) => p.action === 'backoff' && p.delayMs >= 1_000), `waits: ${plans.map((p) => `${p.code}:${p.delayMs}`).join(', ')}`);
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
        assert.equal(client.state, 'disconnected');
        assert.equal(client.lastClose?.action, 'stop');
      });
    }
  });
});
