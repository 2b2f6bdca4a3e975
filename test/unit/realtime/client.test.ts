import * as assert from 'node:assert/strict';
import type { PresenceChannel } from 'pusher-js';
import type { RealtimeClient, RealtimeClientEvents, RealtimeMessage, StateChange } from '../../../src/services/realtime/client';
import { createServer } from 'node:http';
import { HttpClient } from '../../../src/core/http';
import { endpointAuthorizer } from '../../../src/services/realtime/auth';
import { messageData } from '../../../src/services/realtime/client';
import { apiErrorOf } from '../helpers/util';
import { Rig, waitFor, within } from './fixtures';

function message(c: RealtimeClient, event: string, channel?: string): Promise<RealtimeMessage> {
  return waitFor<RealtimeMessage>(
    (cb) => c.on('message', cb),
    `${event} on ${channel ?? 'any channel'}`,
    (m) => m.event === event && (channel === undefined || m.channel === channel),
  );
}

function next<K extends keyof RealtimeClientEvents>(
  c: RealtimeClient,
  event: K,
  what: string,
  pred: (v: RealtimeClientEvents[K]) => boolean = () => true,
): Promise<RealtimeClientEvents[K]> {
  return waitFor<RealtimeClientEvents[K]>((cb) => c.on(event, cb), what, pred);
}

function state(c: RealtimeClient, wanted: string): Promise<StateChange> {
  if (c.state === wanted) return Promise.resolve({ previous: c.state, current: c.state });
  return waitFor<StateChange>(
    (cb) => c.on('state', cb),
    `state ${wanted}`,
    (s) => s.current === wanted,
  );
}

describe('realtime client against the sandbox', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('connects (connecting → connected) and reports its socket id', async () => {
    const c = rig.client();
    const states: string[] = [];
    c.on('state', (s) => states.push(s.current));
    c.connect();
    const s = await state(c, 'connected');
    assert.deepEqual(states, ['connecting', 'connected']);
    assert.match(s.socketId ?? '', /^\d+\.\d+$/);
    assert.equal(c.socketId, s.socketId);
    assert.equal(rig.sandbox.connectionCount(), 1);
  });

  it('subscribes to public, private and presence channels and receives events from the pusher library and our REST client', async () => {
    const c = rig.client({ user: { id: 'me', info: { name: 'Me' } } });
    c.connect();
    const [pub, priv, pres] = await Promise.all([c.subscribe('news'), c.subscribe('private-mine'), c.subscribe('presence-team')]);
    assert.equal(pub.state, 'subscribed');
    assert.equal(priv.state, 'subscribed');
    assert.deepEqual(pres.members, [{ id: 'me', info: { name: 'Me' } }]);
    assert.equal(pres.myId, 'me');

    const fromLib = message(c, 'headline', 'news');
    await rig.server().trigger('news', 'headline', { title: 'Hello' });
    const m = await fromLib;
    assert.equal(m.data, '{"title":"Hello"}', 'data stays as it came off the wire');
    assert.deepEqual(messageData(m), { title: 'Hello' });

    const fromOurs = message(c, 'secret', 'private-mine');
    await rig.rest().publish({ channels: ['private-mine', 'presence-team'], name: 'secret', data: { n: 1 } });
    assert.deepEqual(messageData(await fromOurs), { n: 1 });
  });

  it('keeps the presence member list current as pusher-js users join and leave', async () => {
    const c = rig.client({ user: { id: 'me' } });
    c.connect();
    await c.subscribe('presence-room');
    const added = next(c, 'members', 'member added', (e) => e.kind === 'added');
    const other = rig.pusherJs({ id: 'guest', info: { name: 'Guest' } });
    const ch = other.subscribe('presence-room') as PresenceChannel;
    assert.deepEqual(await added, { kind: 'added', channel: 'presence-room', member: { id: 'guest', info: { name: 'Guest' } } });
    assert.deepEqual(
      c
        .subscription('presence-room')
        ?.members?.map((m) => m.id)
        .sort(),
      ['guest', 'me'],
    );
    // pusher-js sees us too.
    await within(new Promise<void>((r) => ch.bind('pusher:subscription_succeeded', () => r())), 'pusher-js subscribed');
    assert.deepEqual(ch.members.get('me'), { id: 'me', info: null });

    const removed = next(c, 'members', 'member removed', (e) => e.kind === 'removed');
    other.disconnect();
    assert.equal(((await removed) as { member: { id: string } }).member.id, 'guest');
    assert.deepEqual(
      c.subscription('presence-room')?.members?.map((m) => m.id),
      ['me'],
    );
  });

  it('a wrong app secret fails the private subscription with an error that names the channel', async () => {
    const c = rig.client({ secret: 'not-the-secret' });
    c.connect();
    const err = await apiErrorOf(c.subscribe('private-locked'));
    assert.equal(err.kind, 'auth');
    assert.match(err.message, /private-locked/);
    assert.match(err.message, /Invalid signature/);
    assert.equal(c.subscription('private-locked')?.state, 'failed');
    assert.equal(c.state, 'connected', 'a refused subscription leaves the connection up');
  });

  it("gets private/presence auth from the app's auth endpoint (form POST, as pusher-js does) and reports its refusals", async () => {
    const lib = rig.server();
    const forms: Record<string, string>[] = [];
    const endpoint = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        forms.push({ ...form, contentType: req.headers['content-type'] ?? '' });
        if (form.channel_name === 'private-forbidden') return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Not yours');
        const member = form.channel_name.startsWith('presence-') ? { user_id: 'ep-user', user_info: { name: 'From Endpoint' } } : undefined;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(lib.authorizeChannel(form.socket_id, form.channel_name, member)));
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', () => r()));
    rig.onCleanup(() => new Promise<void>((r) => endpoint.close(() => r())));
    const addr = endpoint.address();
    const http = new HttpClient({
      service: 'auth endpoint',
      baseUrl: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/pusher/auth`,
      auth: { placement: 'none' },
    });
    const c = rig.client({ authorize: endpointAuthorizer(http) });
    c.connect();
    assert.equal((await c.subscribe('private-ep')).state, 'subscribed');
    const pres = await c.subscribe('presence-ep');
    assert.equal(pres.myId, 'ep-user');
    assert.deepEqual(pres.members, [{ id: 'ep-user', info: { name: 'From Endpoint' } }]);
    assert.deepEqual(forms[0], { socket_id: c.socketId, channel_name: 'private-ep', contentType: 'application/x-www-form-urlencoded' });
    const refused = await apiErrorOf(c.subscribe('private-forbidden'));
    assert.equal(refused.status, 403);
    assert.match(refused.describe(), /403.*Not yours/);
  });

  it('refuses invalid channel names and private channels without an authorizer before sending anything', async () => {
    const c = rig.client({ authorize: undefined });
    c.connect();
    assert.equal((await apiErrorOf(c.subscribe('bad name!'))).code, 'invalid_channel');
    assert.equal((await apiErrorOf(c.subscribe('private-x'))).kind, 'auth');
  });

  it('sends client events that pusher-js receives, not echoed back, and refuses them on public channels and over 10/s', async () => {
    const c = rig.client({ user: { id: 'me' } });
    c.connect();
    await c.subscribe('presence-chat');
    const peer = rig.pusherJs({ id: 'peer' });
    const ch = peer.subscribe('presence-chat') as PresenceChannel;
    await within(new Promise<void>((r) => ch.bind('pusher:subscription_succeeded', () => r())), 'peer subscribed');
    const got = within(
      new Promise<{ data: unknown; meta: unknown }>((r) => ch.bind('client-hello', (data: unknown, meta: unknown) => r({ data, meta }))),
      'client-hello at peer',
    );
    const echoes: RealtimeMessage[] = [];
    c.on('message', (m) => m.event === 'client-hello' && echoes.push(m));
    c.trigger('presence-chat', 'client-hello', { text: 'hi' });
    assert.deepEqual(await got, { data: { text: 'hi' }, meta: { user_id: 'me' } });
    const marker = message(c, 'marker');
    await rig.server().trigger('presence-chat', 'marker', {});
    await marker;
    assert.equal(echoes.length, 0);

    await c.subscribe('public-room');
    assert.throws(() => c.trigger('public-room', 'client-x', {}), /only allowed on private- and presence- channels/);
    assert.throws(() => c.trigger('presence-chat', 'not-client', {}), /must start with "client-"/);
    for (let i = 1; i < 10; i++) c.trigger('presence-chat', 'client-n', { i });
    assert.throws(
      () => c.trigger('presence-chat', 'client-n', { i: 11 }),
      (e: unknown) => (e as { kind?: string }).kind === 'rate-limited',
    );
    assert.equal(c.state, 'connected', 'the local limit kept the server from closing us with 4301');
  });

  it('reconnects after the server closes with 4200 and subscribes everything again on the new socket', async () => {
    const c = rig.client({ user: { id: 'me' } });
    c.connect();
    await Promise.all([c.subscribe('orders'), c.subscribe('private-a'), c.subscribe('presence-b')]);
    const firstId = c.socketId;
    const plan = next(c, 'reconnect', 'reconnect plan');
    const resubscribed = next(c, 'subscription', 'presence resubscribed', (e) => e.kind === 'succeeded' && e.channel === 'presence-b');
    rig.sandbox.closeAllConnections(4200, 'reconnect please');
    const p = await plan;
    assert.deepEqual({ code: p.code, action: p.action }, { code: 4200, action: 'immediate' });
    // "Reconnect immediately" waits a little all the same (the default quick backoff: 100–200 ms at first).
    assert.ok(p.delayMs >= 100 && p.delayMs <= 200, `first quick wait ${p.delayMs} ms`);
    await resubscribed;
    await state(c, 'connected');
    assert.notEqual(c.socketId, firstId);
    for (const ch of ['orders', 'private-a'])
      if (c.subscription(ch)?.state !== 'subscribed') await next(c, 'subscription', `${ch} resubscribed`, (e) => e.channel === ch && e.kind === 'succeeded');
    const after = message(c, 'after', 'orders');
    await rig.server().trigger('orders', 'after', {});
    await after;
    assert.equal(c.subscription('presence-b')?.members?.length, 1);
  });

  it('pings after the activity timeout and stays connected when the pong comes', async () => {
    const c = rig.client({ activityTimeoutMs: 30, pongTimeoutMs: 2_000 });
    let reconnects = 0;
    c.on('reconnect', () => reconnects++);
    c.connect();
    await state(c, 'connected');
    // The sandbox answers pusher:ping with pusher:pong; our client passes pongs on to no one, so
    // watch the wire: three ping/pong rounds must pass without a reconnect.
    const sock = (c as unknown as { connection: { socket: { on(e: string, f: (d: Buffer) => void): void } } }).connection.socket;
    let pongs = 0;
    await within(
      new Promise<void>((resolve) =>
        sock.on('message', (d) => {
          if (d.toString().includes('pusher:pong') && ++pongs === 3) resolve();
        }),
      ),
      'three pongs',
    );
    assert.equal(reconnects, 0);
    assert.equal(c.state, 'connected');
  });

  it('goes unavailable when nothing listens, and tries again with backoff', async () => {
    await rig.sandbox.close();
    const c = rig.client({ unavailableTimeoutMs: 30, backoff: { baseDelayMs: 40, maxDelayMs: 80, minDelayMs: 20 } });
    const plans: number[] = [];
    c.on('reconnect', (p) => plans.push(p.delayMs));
    c.connect();
    const s = await state(c, 'unavailable');
    assert.match(s.reason ?? '', /ECONNREFUSED|connection lost|1006/);
    await next(c, 'reconnect', 'second plan', () => plans.length >= 2);
    assert.ok(
      plans.every((d) => d >= 20),
      `every wait is a backoff: ${plans.join(', ')}`,
    );
    c.disconnect();
    assert.equal(c.state, 'disconnected');
  });

  it('disconnect() closes the socket and does not reconnect; connect() again resubscribes', async () => {
    const c = rig.client();
    c.connect();
    await c.subscribe('kept');
    c.disconnect();
    assert.equal(c.state, 'disconnected');
    assert.equal(c.subscription('kept')?.state, 'pending');
    assert.equal((await apiErrorOf(c.subscribe('later'))).code, 'not_connected');
    c.connect();
    await next(c, 'subscription', 'kept resubscribed', (e) => e.channel === 'kept' && e.kind === 'succeeded');
    if (c.subscription('later')?.state !== 'subscribed')
      await next(c, 'subscription', 'later subscribed', (e) => e.channel === 'later' && e.kind === 'succeeded');
  });

  it('unsubscribe stops delivery and leaves presence', async () => {
    const c = rig.client({ user: { id: 'leaver' } });
    c.connect();
    await c.subscribe('presence-exit');
    c.unsubscribe('presence-exit');
    assert.equal(c.subscription('presence-exit'), undefined);
    const users = await waitFor<string[]>(
      (cb) => {
        const t = setInterval(() => void rig.rest().users('presence-exit').then(cb), 10);
        return { dispose: () => clearInterval(t) };
      },
      'presence emptied',
      (u) => u.length === 0,
    );
    assert.deepEqual(users, []);
  });
});
