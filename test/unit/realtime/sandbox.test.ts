import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type Pusher from 'pusher-js';
import type { Channel, Members, PresenceChannel } from 'pusher-js';
import { signChannel, signRestRequest } from '../../../src/services/realtime/signing';
import { DEMO_CHANNELS } from '../../../src/sandbox/realtime';
import { APP, Rig, within, type RawSocket } from './fixtures';

function connected(p: Pusher): Promise<void> {
  return within(
    new Promise<void>((resolve) => {
      if (p.connection.state === 'connected') return resolve();
      p.connection.bind('connected', () => resolve());
    }),
    'pusher-js connected',
  );
}

function subscribed<T extends Channel>(ch: T): Promise<unknown> {
  return within(
    new Promise((resolve, reject) => {
      ch.bind('pusher:subscription_succeeded', (d: unknown) => resolve(d));
      ch.bind('pusher:subscription_error', (e: unknown) => reject(new Error(`subscription error: ${JSON.stringify(e)}`)));
    }),
    `subscription to ${ch.name}`,
  );
}

function nextEvent(ch: Channel, event: string): Promise<{ data: unknown; meta: unknown }> {
  return within(new Promise((resolve) => ch.bind(event, (data: unknown, meta: unknown) => resolve({ data, meta }))), `${event} on ${ch.name}`);
}

async function text(res: { text(): Promise<string> }): Promise<string> {
  return res.text();
}

/** The status and plain-text body of a request the official library sends (it throws on 4xx). */
async function failure(p: Promise<unknown>): Promise<{ status: number; body: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { status?: number; body?: string };
    if (typeof err.status === 'number') return { status: err.status, body: err.body ?? '' };
    throw e;
  }
  assert.fail('expected the request to fail');
}

describe('realtime sandbox with the official pusher-js and pusher clients', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('pusher-js subscribes to a public channel and receives an event triggered by the pusher library', async () => {
    const client = rig.pusherJs();
    const ch = client.subscribe('orders');
    await subscribed(ch);
    const got = nextEvent(ch, 'order-placed');
    await rig.server().trigger('orders', 'order-placed', { id: 7, items: ['tea'] });
    assert.deepEqual((await got).data, { id: 7, items: ['tea'] });
  });

  it('pusher-js subscribes to a private channel with auth from the pusher library and receives events', async () => {
    const ch = rig.pusherJs().subscribe('private-inbox');
    await subscribed(ch);
    const got = nextEvent(ch, 'mail');
    await rig.server().trigger(['private-inbox', 'elsewhere'], 'mail', 'plain text payload');
    assert.equal((await got).data, 'plain text payload');
  });

  it('accepts auth signed by our code for pusher-js, and rejects a wrong signature with pusher:error naming the channel', async () => {
    const ours = rig.pusherJs(undefined, (params, cb) => cb(null, signChannel(APP, params.socketId, params.channelName)));
    await subscribed(ours.subscribe('private-ours'));

    const forged = rig.pusherJs(undefined, (params, cb) => cb(null, signChannel({ key: APP.key, secret: 'wrong' }, params.socketId, params.channelName)));
    const ch = forged.subscribe('private-secret');
    const err = await within(new Promise<{ message?: string; code?: unknown }>((resolve) => ch.bind('pusher:error', resolve)), 'pusher:error');
    assert.match(err.message ?? '', /^Invalid signature: Expected HMAC SHA256 hex digest of \d+\.\d+:private-secret/);
    assert.equal(err.code, null, 'hosted Channels sends code null for auth failures');
    assert.equal(ch.subscribed, false);
  });

  it('presence: members listed on subscribe, member_added and member_removed as people come and go', async () => {
    const ada = rig.pusherJs({ id: 'ada', info: { name: 'Ada' } });
    const chA = ada.subscribe('presence-room') as PresenceChannel;
    const membersA = (await subscribed(chA)) as Members;
    assert.equal(membersA.count, 1);
    assert.equal((membersA.me as { id?: string } | undefined)?.id, 'ada');

    const added = nextEvent(chA, 'pusher:member_added');
    const grace = rig.pusherJs({ id: 'grace', info: { name: 'Grace' } });
    const chG = grace.subscribe('presence-room') as PresenceChannel;
    const membersG = (await subscribed(chG)) as Members;
    assert.equal(membersG.count, 2);
    assert.deepEqual(membersG.get('ada'), { id: 'ada', info: { name: 'Ada' } });
    assert.deepEqual((await added).data, { id: 'grace', info: { name: 'Grace' } });

    // The REST API sees the same people.
    const users = (await (await rig.server().get({ path: '/channels/presence-room/users' })).json()) as unknown;
    assert.deepEqual(users, { users: [{ id: 'ada' }, { id: 'grace' }] });

    const removed = nextEvent(chA, 'pusher:member_removed');
    grace.disconnect();
    assert.deepEqual((await removed).data, { id: 'grace', info: { name: 'Grace' } });
  });

  it('a user with two sockets is one member: no member_added for the second socket', async () => {
    const watcher = rig.pusherJs({ id: 'w' });
    const chW = watcher.subscribe('presence-dup') as PresenceChannel;
    await subscribed(chW);
    const added: unknown[] = [];
    chW.bind('pusher:member_added', (m: unknown) => added.push(m));
    await subscribed(rig.pusherJs({ id: 'same' }).subscribe('presence-dup'));
    await subscribed(rig.pusherJs({ id: 'same' }).subscribe('presence-dup'));
    // A server event sent after both joins arrives after any member_added they caused.
    const marker = nextEvent(chW, 'marker');
    await rig.server().trigger('presence-dup', 'marker', {});
    await marker;
    assert.equal(added.length, 1);
    assert.equal(chW.members.count, 2);
  });

  it('client events reach other subscribers with user_id on presence channels, and are not echoed to the sender', async () => {
    const a = rig.pusherJs({ id: 'alice' });
    const b = rig.pusherJs({ id: 'bob' });
    const chA = a.subscribe('presence-chat') as PresenceChannel;
    const chB = b.subscribe('presence-chat') as PresenceChannel;
    await Promise.all([subscribed(chA), subscribed(chB)]);
    const echoed: unknown[] = [];
    chA.bind('client-typing', (d: unknown) => echoed.push(d));
    const atB = nextEvent(chB, 'client-typing');
    assert.ok(chA.trigger('client-typing', { typing: true }));
    const got = await atB;
    assert.deepEqual(got.data, { typing: true });
    assert.deepEqual(got.meta, { user_id: 'alice' });
    const marker = nextEvent(chA, 'marker');
    await rig.server().trigger('presence-chat', 'marker', {});
    await marker;
    assert.deepEqual(echoed, [], 'the sender does not receive its own client event');
  });

  it('client events are refused on public channels, for unsubscribed channels, and closed with 4301 over 10/s', async () => {
    const raw = await rig.raw();
    const socketId = await raw.socketId();
    raw.send({ event: 'pusher:subscribe', data: { channel: 'news' } });
    await raw.event('pusher_internal:subscription_succeeded', 'news');
    raw.send({ event: 'client-x', channel: 'news', data: {} });
    const e1 = await raw.next((f) => f.event === 'pusher:error' && f.channel === 'news', 'error for public client event');
    assert.match(JSON.stringify(e1.data), /only allowed on private- and presence- channels/);
    raw.send({ event: 'client-x', channel: 'private-nope', data: {} });
    const e2 = await raw.next((f) => f.event === 'pusher:error' && f.channel === 'private-nope', 'error for unsubscribed channel');
    assert.match(JSON.stringify(e2.data), /not subscribed/);

    raw.send({ event: 'pusher:subscribe', data: { channel: 'private-fast', ...signChannel(APP, socketId, 'private-fast') } });
    await raw.event('pusher_internal:subscription_succeeded', 'private-fast');
    for (let i = 0; i < 11; i++) raw.send({ event: 'client-burst', channel: 'private-fast', data: { i } });
    const closed = await raw.whenClosed();
    assert.equal(closed.code, 4301);
  });

  it('closes with the protocol codes: unknown app key 4001, path 4005, version format 4006, unsupported version 4007, none 4008', async () => {
    const cases: [string, number][] = [
      [`/app/not-the-key?protocol=7`, 4001],
      [`/socket?protocol=7`, 4005],
      [`/app/${APP.key}?protocol=seven`, 4006],
      [`/app/${APP.key}?protocol=3`, 4007],
      [`/app/${APP.key}?protocol=8`, 4007],
      [`/app/${APP.key}`, 4008],
    ];
    for (const [path, code] of cases) {
      const raw: RawSocket = await rig.raw(path);
      assert.equal((await raw.whenClosed()).code, code, path);
      assert.equal(raw.frames.length, 0, 'protocol 7 reports with the close code only');
    }
  });

  it('connection_established carries a socket id and the activity timeout; pusher:ping is answered with pusher:pong', async () => {
    const raw = await rig.raw();
    const f = await raw.event('pusher:connection_established');
    const data = JSON.parse(f.data as string) as { socket_id: string; activity_timeout: number };
    assert.match(data.socket_id, /^\d+\.\d+$/);
    assert.equal(data.activity_timeout, 120);
    raw.send({ event: 'pusher:ping', data: {} });
    await raw.event('pusher:pong');
  });

  it('pings an idle client and closes it with 4201 when no pong comes', async () => {
    const idle = await Rig.start({ serverPingAfterMs: 40, pongTimeoutMs: 40 });
    try {
      const raw = await idle.raw();
      await raw.event('pusher:ping');
      assert.equal((await raw.whenClosed()).code, 4201);
    } finally {
      await idle.close();
    }
  });

  it('publishes pusher_internal:subscription_count, which pusher-js surfaces', async () => {
    const ch = rig.pusherJs().subscribe('counted');
    const count = within(new Promise<{ subscription_count: number }>((resolve) => ch.bind('pusher:subscription_count', resolve)), 'subscription_count');
    await subscribed(ch);
    assert.equal((await count).subscription_count, 1);
  });

  describe('REST API', () => {
    it('refuses data over 10 KB with 413, more than 100 channels and batches over 10 with 400, as plain text', async () => {
      const server = rig.server();
      const big = await failure(server.trigger('c', 'e', 'x'.repeat(10 * 1024 + 1)));
      assert.equal(big.status, 413);
      assert.match(big.body, /10240 bytes/);
      await server.trigger('c', 'e', 'x'.repeat(10 * 1024));

      const channels = Array.from({ length: 101 }, (_, i) => `c${i}`);
      // post() bypasses trigger()'s own 100-channel check. Its typings say `body: string`, but
      // lib/requests.js JSON-encodes whatever it gets, so the object goes in as is.
      const many = await failure(server.post({ path: '/events', body: { name: 'e', data: '{}', channels } as unknown as string }));
      assert.equal(many.status, 400);
      assert.match(many.body, /at most 100/);

      const batch = Array.from({ length: 11 }, (_, i) => ({ channel: `c${i}`, name: 'e', data: {} }));
      const tooBig = await failure(server.triggerBatch(batch));
      assert.equal(tooBig.status, 400);
      assert.match(tooBig.body, /at most 10 events/);
    });

    it('delivers batch events; lists channels by prefix with user counts; answers channel info', async () => {
      const a = rig.pusherJs({ id: 'u1' });
      const b = rig.pusherJs({ id: 'u2' });
      const pub = a.subscribe('ticker');
      await Promise.all([
        subscribed(pub),
        subscribed(a.subscribe('presence-lobby')),
        subscribed(b.subscribe('presence-lobby')),
        subscribed(b.subscribe('private-x')),
      ]);
      const got = nextEvent(pub, 'tick');
      await rig.server().triggerBatch([
        { channel: 'ticker', name: 'tick', data: { n: 1 } },
        { channel: 'nobody-here', name: 'tick', data: { n: 2 } },
      ]);
      assert.deepEqual((await got).data, { n: 1 });

      const server = rig.server();
      const all = (await (await server.get({ path: '/channels' })).json()) as { channels: Record<string, unknown> };
      assert.deepEqual(Object.keys(all.channels).sort(), ['presence-lobby', 'private-x', 'ticker']);
      const presence = (await (await server.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })).json()) as unknown;
      assert.deepEqual(presence, { channels: { 'presence-lobby': { user_count: 2 } } });
      const bad = await failure(server.get({ path: '/channels', params: { info: 'user_count' } }));
      assert.equal(bad.status, 400);

      const info = (await (await server.get({ path: '/channels/presence-lobby', params: { info: 'user_count,subscription_count' } })).json()) as unknown;
      assert.deepEqual(info, { occupied: true, user_count: 2, subscription_count: 2 });
      assert.deepEqual(await (await server.get({ path: '/channels/empty' })).json(), { occupied: false });
      assert.equal((await failure(server.get({ path: '/channels/ticker/users' }))).status, 400);
    });

    it('rejects a wrong secret and a timestamp more than 600 s off with 401 and a plain-text reason', async () => {
      const wrong = await failure(rig.server('not-the-secret').trigger('c', 'e', {}));
      assert.equal(wrong.status, 401);
      assert.match(wrong.body, /^Invalid signature/);

      const body = JSON.stringify({ name: 'e', data: '{}', channel: 'c' });
      const stale = signRestRequest(APP, { method: 'POST', path: `/apps/${APP.appId}/events`, body, timestamp: Math.floor(Date.now() / 1000) - 700 });
      const res = await fetch(`http://127.0.0.1:${rig.port}/apps/${APP.appId}/events?${new URLSearchParams(stale)}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.match(await text(res), /^Timestamp expired/);
    });

    it('GET /v1/resources lists occupied channels as resources (the app secret as a bearer token, like the other services)', async () => {
      await subscribed(rig.pusherJs().subscribe('res-chan'));
      const ok = await fetch(`http://127.0.0.1:${rig.port}/v1/resources`, { headers: { authorization: `Bearer ${APP.secret}` } });
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { resources: [{ id: 'res-chan', kind: 'channel', name: 'res-chan', detail: '1 subscriptions' }] });
      assert.equal((await fetch(`http://127.0.0.1:${rig.port}/v1/resources`)).status, 401);
    });
  });

  describe('webhooks', () => {
    let receiver: Server;
    let received: { headers: IncomingMessage['headers']; body: string }[];
    let answers: number[];
    let url: string;
    let arrivals: (() => void)[];

    beforeEach(async () => {
      received = [];
      answers = [];
      arrivals = [];
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
          res.writeHead(answers.shift() ?? 200).end();
          for (const a of arrivals.splice(0)) a();
        });
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
      const addr = receiver.address();
      url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hooks`;
    });
    afterEach(async () => {
      await new Promise<void>((r) => receiver.close(() => r()));
    });

    const events = () =>
      received.flatMap((r) => (JSON.parse(r.body) as { events: { name: string; channel: string; user_id?: string; event?: string }[] }).events);

    async function until(pred: () => boolean, what: string): Promise<void> {
      for (let i = 0; i < 200 && !pred(); i++) await within(new Promise<void>((r) => arrivals.push(r)), what);
      assert.ok(pred(), what);
    }

    it('POSTs occupied, member and client events signed so the pusher library accepts them, then member_removed and vacated', async () => {
      await rig.close();
      rig = await Rig.start({ webhooks: { urls: [url], batchMs: 5, delayedEventMs: 0 } });
      const a = rig.pusherJs({ id: 'alice' });
      const b = rig.pusherJs({ id: 'bob' });
      const chA = a.subscribe('presence-hooks') as PresenceChannel;
      await subscribed(chA);
      await subscribed(b.subscribe('presence-hooks'));
      chA.trigger('client-wave', { hi: 1 });
      await until(() => events().some((e) => e.name === 'client_event'), 'client_event webhook');
      b.disconnect();
      await until(() => events().some((e) => e.name === 'member_removed'), 'member_removed webhook');
      a.disconnect();
      await until(() => events().some((e) => e.name === 'channel_vacated'), 'channel_vacated webhook');

      const lib = rig.server();
      for (const r of received) {
        assert.equal(r.headers['x-pusher-key'], APP.key);
        assert.ok(lib.webhook({ headers: r.headers, rawBody: r.body }).isValid(), 'signature verifies with the official library');
      }
      const names = events().map((e) => `${e.name}${e.user_id ? `:${e.user_id}` : ''}`);
      assert.deepEqual(names.slice(0, 3), ['channel_occupied', 'member_added:alice', 'member_added:bob']);
      const ce = events().find((e) => e.name === 'client_event');
      assert.deepEqual({ event: ce?.event, user_id: ce?.user_id, channel: ce?.channel }, { event: 'client-wave', user_id: 'alice', channel: 'presence-hooks' });
      assert.ok(names.includes('member_removed:bob') && names.includes('member_removed:alice'));
      assert.equal(names[names.length - 1], 'channel_vacated');
    });

    it('retries a webhook the receiver refused, with the same signed body', async () => {
      await rig.close();
      rig = await Rig.start({ webhooks: { urls: [url], batchMs: 5, retryBaseMs: 10 } });
      answers.push(500, 503);
      await subscribed(rig.pusherJs().subscribe('retry-me'));
      await until(() => received.length >= 3, 'third delivery attempt');
      assert.equal(new Set(received.map((r) => r.body)).size, 1);
      assert.equal(new Set(received.map((r) => r.headers['x-pusher-signature'])).size, 1);
    });
  });

  it('the demo publisher sends ticker events and keeps two people on presence-demo', async () => {
    const demo = await Rig.start({ demo: { intervalMs: 20 } });
    try {
      const p = demo.pusherJs({ id: 'visitor' });
      await connected(p);
      const ticker = p.subscribe(DEMO_CHANNELS.ticker);
      const price = nextEvent(ticker, 'price');
      const members = (await subscribed(p.subscribe(DEMO_CHANNELS.presence))) as Members;
      assert.deepEqual(Object.keys(members.members as Record<string, unknown>).sort(), ['ada', 'grace', 'visitor']);
      const tick = (await price).data as { symbol: string; price: number };
      assert.equal(tick.symbol, 'ACME');
      assert.equal(typeof tick.price, 'number');
    } finally {
      await demo.close();
    }
  });
});
