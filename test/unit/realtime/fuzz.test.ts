import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { RealtimeClient, type RealtimeMessage } from '../../../src/services/realtime/client';
import { seededRandom } from '../helpers/util';
import { FaultSocketServer, polite } from './faultSocketServer';
import { APP, Rig, waitFor, within } from './fixtures';

const FRAMES = 3_000;
const SEED = 0x5eed;

const EVENTS = [
  'pusher:connection_established',
  'pusher:error',
  'pusher:ping',
  'pusher:pong',
  'pusher:subscription_error',
  'pusher:signin_success',
  'pusher:subscribe',
  'pusher_internal:subscription_succeeded',
  'pusher_internal:subscription_count',
  'pusher_internal:member_added',
  'pusher_internal:member_removed',
  'client-x',
  'app-event',
];

/** Random values of every JSON type (and a few that JSON cannot hold), nested a little. */
function junk(r: () => number, depth = 0): unknown {
  const k = Math.floor(r() * (depth > 3 ? 7 : 10));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [0, -1, 1e308, -0, 42.5, Number.MAX_SAFE_INTEGER + 2][Math.floor(r() * 6)];
    case 3:
      return ['', 'presence-fz', 'feed', '{"presence":', '{}', '[]', 'null', '"x"', '\u0000\uffff', 'é😀'][Math.floor(r() * 10)];
    case 4:
      return JSON.stringify(junk(r, depth + 1));
    case 5:
      return undefined;
    case 6:
      return 'x'.repeat(Math.floor(r() * 300));
    case 7:
      return Array.from({ length: Math.floor(r() * 4) }, () => junk(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      const keys = [
        'presence',
        'ids',
        'hash',
        'count',
        'user_id',
        'user_info',
        'socket_id',
        'activity_timeout',
        'message',
        'code',
        'subscription_count',
        'error',
        '__proto__',
        'constructor',
      ];
      for (let i = Math.floor(r() * 4); i > 0; i--) o[keys[Math.floor(r() * keys.length)]] = junk(r, depth + 1);
      return o;
    }
  }
}

function fuzzFrame(r: () => number): string | Buffer {
  const valid = () =>
    JSON.stringify({ event: EVENTS[Math.floor(r() * EVENTS.length)], channel: ['feed', 'presence-fz', undefined][Math.floor(r() * 3)], data: junk(r) });
  switch (Math.floor(r() * 8)) {
    case 0:
      return randomBytes(Math.floor(r() * 64)); // binary frame
    case 1:
      return randomBytes(Math.floor(r() * 64)).toString('latin1'); // text garbage
    case 2: {
      const v = valid();
      return v.slice(0, Math.floor(r() * v.length)); // truncated
    }
    case 3:
      return JSON.stringify(junk(r)) ?? 'undefined'; // not an object, or an object without a proper event
    case 4:
      return JSON.stringify({ event: junk(r), channel: junk(r), data: junk(r), user_id: junk(r) }); // wrong-typed envelope
    case 5:
      return '['.repeat(20_000) + ']'.repeat(20_000); // deep nesting
    default:
      return valid(); // well-formed envelope, junk payload
  }
}

describe('realtime frame fuzz', function () {
  this.timeout(60_000);
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  before(() => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  });
  after(() => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
  });

  it(`the client survives ${FRAMES} random, truncated and wrong-typed frames without throwing, and keeps working`, async () => {
    const server = await FaultSocketServer.start();
    const r = seededRandom(SEED);
    let sock: WebSocket | undefined;
    server.next((ws, n) => {
      polite(ws, n);
      sock = ws;
    });
    const client = new RealtimeClient({
      key: APP.key,
      host: '127.0.0.1',
      port: server.port,
      useTLS: false,
      authorize: ({ socketId, channel }) => Promise.resolve({ auth: `${APP.key}:${socketId}${channel}`, channel_data: '{"user_id":"me"}' }),
    });
    try {
      const errors: string[] = [];
      client.on('error', (e) => errors.push(e.message));
      const messages: RealtimeMessage[] = [];
      client.on('message', (m) => messages.push(m));
      client.connect();
      await Promise.all([client.subscribe('feed'), client.subscribe('presence-fz')]);
      const ws = sock;
      assert.ok(ws);
      for (let i = 0; i < FRAMES; i++) {
        const f = fuzzFrame(r);
        ws.send(f, { binary: typeof f !== 'string' });
      }
      // Generous: 3000 frames take ~1 s here, several on a loaded machine (a wait, not a speed assertion).
      const done = waitFor<RealtimeMessage>(
        (cb) => client.on('message', cb),
        'the event after the fuzz',
        (m) => m.event === 'done',
        12_000,
      );
      ws.send(JSON.stringify({ event: 'done', channel: 'feed', data: '{"ok":true}' }));
      await done;

      assert.deepEqual(uncaught, [], 'nothing escaped the client');
      assert.equal(client.state, 'connected', 'no frame made the client drop a healthy connection');
      assert.equal(server.connections, 1);
      assert.ok(errors.length > FRAMES / 4, `bad frames were reported as errors (${errors.length})`);
      assert.ok(
        messages.every((m) => typeof m.event === 'string' && (m.channel === undefined || typeof m.channel === 'string')),
        'only well-typed envelopes were delivered',
      );
      // Subscriptions and member lists are still readable.
      for (const s of client.subscriptions()) assert.ok(['pending', 'subscribed', 'failed'].includes(s.state));
    } finally {
      client.dispose();
      await server.close();
    }
  });

  it('the sandbox broker survives the same fuzz from a client and keeps serving others', async () => {
    const rig = await Rig.start();
    try {
      const r = seededRandom(SEED + 1);
      const raw = await rig.raw();
      await raw.event('pusher:connection_established');
      for (let i = 0; i < FRAMES; i++) {
        const f = fuzzFrame(r);
        raw.ws.send(f, { binary: typeof f !== 'string' });
      }
      raw.send({ event: 'pusher:ping', data: {} });
      await within(
        raw.next((f) => f.event === 'pusher:pong', 'pong after the fuzz'),
        'pong after the fuzz',
      );
      const c = rig.client();
      c.connect();
      await c.subscribe('after-fuzz');
      assert.deepEqual(uncaught, []);
    } finally {
      await rig.close();
    }
  });
});
