// Cache channels against pusher-js: the last server event is replayed to new subscribers, a miss
// is told with pusher:cache_miss (and a cache_miss webhook the pusher library accepts).
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Channel } from 'pusher-js';
import type { RealtimeMessage, SubscriptionEvent } from '../../../src/services/realtime/client';
import { Rig, waitFor, within } from './fixtures';

interface Hook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Resolves on the first event `name` bound on `ch` (cache replays can come right after subscription_succeeded). */
function next(ch: Channel, name: string): Promise<unknown> {
  return within(new Promise<unknown>((resolve) => ch.bind(name, resolve)), `${name} on ${ch.name}`);
}

describe('realtime cache channels', function () {
  this.timeout(20_000);
  let rig: Rig;
  let receiver: Server;
  let hooks: Hook[];
  let hookArrived: () => void;

  beforeEach(async () => {
    hooks = [];
    hookArrived = () => undefined;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.writeHead(200).end();
        hookArrived();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const addr = receiver.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    rig = await Rig.start({ webhooks: { urls: [`http://127.0.0.1:${port}/hooks`], batchMs: 5, delayedEventMs: 0 } });
  });
  afterEach(async () => {
    await rig.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  function hookEvents(): { name: string; channel: string }[] {
    const lib = rig.server();
    return hooks.flatMap((h) => {
      const wh = lib.webhook({ headers: h.headers, rawBody: h.body });
      assert.ok(wh.isValid(), 'the pusher library accepts the webhook signature');
      return wh.getEvents();
    });
  }

  const cacheMissHooks = () => hookEvents().filter((e) => e.name === 'cache_miss');

  /** Resolves once `pred` holds for the webhooks received, checked as each one arrives. */
  async function hooksUntil(what: string, pred: () => boolean): Promise<void> {
    for (let i = 0; i < 50 && !pred(); i++) await within(new Promise<void>((r) => (hookArrived = r)), what);
    assert.ok(pred(), `no ${what} in ${hooks.length} webhook(s)`);
  }

  it('a first subscriber gets pusher:cache_miss (pusher-js) and the app one cache_miss webhook, not one per subscriber', async () => {
    const a = rig.pusherJs().subscribe('cache-prices');
    await next(a, 'pusher:cache_miss');
    const b = rig.pusherJs().subscribe('cache-prices');
    await next(b, 'pusher:cache_miss');
    await hooksUntil('cache_miss webhook', () => cacheMissHooks().length > 0);
    // A marker: a channel occupied after the second subscriber. Webhooks go out in order, so once its
    // channel_occupied is in, a cache_miss for the second subscriber would be too.
    rig.pusherJs().subscribe('marker-channel');
    await hooksUntil('channel_occupied webhook of the marker', () => hookEvents().some((e) => e.name === 'channel_occupied' && e.channel === 'marker-channel'));
    assert.deepEqual(cacheMissHooks(), [{ name: 'cache_miss', channel: 'cache-prices' }]);
  });

  it('replays the last server event to each new subscriber (pusher-js), the newest one only, on public and private cache channels', async () => {
    const lib = rig.server();
    await lib.trigger('cache-prices', 'price', { v: 1 });
    await lib.trigger('cache-prices', 'price', { v: 2 });
    await lib.trigger('private-cache-orders', 'order', { id: 'o-9' });
    const p = rig.pusherJs();
    const prices = p.subscribe('cache-prices');
    const seen: unknown[] = [];
    prices.bind('price', (d: unknown) => seen.push(d));
    const pricesSubscribed = next(prices, 'pusher:subscription_succeeded');
    const orders = p.subscribe('private-cache-orders');
    assert.deepEqual(await next(orders, 'order'), { id: 'o-9' });
    await pricesSubscribed;
    // A marker event after the subscription: one channel's events arrive in order, so every replay
    // came before it.
    const marker = next(prices, 'marker');
    await lib.trigger('cache-prices', 'marker', {});
    await marker;
    assert.deepEqual(seen, [{ v: 2 }], 'only the newest event, once');
    // Ordinary channels keep nothing.
    await lib.trigger('prices', 'price', { v: 3 });
    const plain = p.subscribe('prices');
    const plainSeen: unknown[] = [];
    plain.bind('price', (d: unknown) => plainSeen.push(d));
    plain.bind('pusher:cache_miss', () => plainSeen.push('cache_miss'));
    await next(plain, 'pusher:subscription_succeeded');
    const plainMarker = next(plain, 'marker');
    await lib.trigger('prices', 'marker', {});
    await plainMarker;
    assert.deepEqual(plainSeen, [], 'no replay and no cache_miss before the marker');
  });

  it('our client reports a miss as a cache-miss subscription event, and receives a replay like any event', async () => {
    const c = rig.client({ user: { id: 'u1' } });
    c.connect();
    const miss = waitFor<SubscriptionEvent>(
      (cb) => c.on('subscription', cb),
      'cache-miss',
      (e) => e.kind === 'cache-miss',
    );
    await c.subscribe('presence-cache-room');
    assert.deepEqual(await miss, { kind: 'cache-miss', channel: 'presence-cache-room' });
    await rig.rest().publish({ channels: ['presence-cache-room'], name: 'state', data: { open: true } });
    const d = rig.client({ user: { id: 'u2' } });
    d.connect();
    const replay = waitFor<RealtimeMessage>(
      (cb) => d.on('message', cb),
      'replayed state',
      (m) => m.event === 'state',
    );
    await d.subscribe('presence-cache-room');
    assert.equal((await replay).data, '{"open":true}');
  });
});
