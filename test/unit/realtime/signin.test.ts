// User sign-in and events to users, checked against the official peers: pusher-js signs in and
// binds on pusher.user; the pusher server library sends to users and terminates their connections.
import * as assert from 'node:assert/strict';
import Pusher from 'pusher-js';
import type { UserAuthenticationCallback } from 'pusher-js';
import type { RealtimeMessage, StateChange, UserEvent } from '../../../src/services/realtime/client';
import { localUserAuthenticator } from '../../../src/services/realtime/user';
import { apiErrorOf } from '../helpers/util';
import { APP, Rig, waitFor, within } from './fixtures';

describe('realtime user sign-in, sendToUser and terminateUserConnections', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  /** pusher-js with user authentication signed by the server library, as an app's user-auth endpoint would. */
  function pusherJsUser(id: string): Pusher {
    const lib = rig.server();
    const p = new Pusher(APP.key, {
      cluster: 'sandbox',
      wsHost: '127.0.0.1',
      wsPort: rig.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      userAuthentication: {
        customHandler: (params, callback: UserAuthenticationCallback) => callback(null, lib.authenticateUser(params.socketId, { id, user_info: { name: id } })),
        endpoint: '',
        transport: 'ajax',
      },
    });
    rig.onCleanup(() => p.disconnect());
    return p;
  }

  /** Resolves once pusher-js has joined its user's own channel (it subscribes right after signin_success). */
  async function pusherJsUserChannel(p: Pusher): Promise<void> {
    await within(p.user.signinDonePromise as Promise<unknown>, 'pusher-js signin');
    const ch = p.user.serverToUserChannel;
    if (!ch.subscribed) await within(new Promise((r) => ch.bind('pusher:subscription_succeeded', r)), `pusher-js subscribed to ${ch.name}`);
  }

  /** Resolves once the sandbox counts a subscriber on user `id`'s own channel (our client subscribes without waiting for the answer). */
  async function userChannelOccupied(id: string): Promise<void> {
    const path = `/channels/${encodeURIComponent(`#server-to-user-${id}`)}`;
    for (let i = 0; ; i++) {
      const res = await rig.server().get({ path });
      if (((await res.json()) as { occupied?: boolean }).occupied) return;
      if (i === 200) throw new Error(`timed out waiting for a subscriber on #server-to-user-${id}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  function ourUser(id: string, secret = APP.secret) {
    return rig.client({
      authenticateUser: localUserAuthenticator({
        service: 'Realtime (test)',
        key: APP.key,
        secret: () => Promise.resolve(secret),
        user: { id, user_info: { name: id } },
      }),
    });
  }

  it('pusher-js signs in and receives what the pusher library sends to its user (and what our REST client sends)', async () => {
    const p = pusherJsUser('u-7');
    const got: unknown[] = [];
    const two = new Promise<void>((resolve) =>
      p.user.bind('hello', (d: unknown) => {
        got.push(d);
        if (got.length === 2) resolve();
      }),
    );
    p.signin();
    await pusherJsUserChannel(p);
    await rig.server().sendToUser('u-7', 'hello', { from: 'lib' });
    await rig.rest().sendToUser('u-7', 'hello', { from: 'ours' });
    await within(two, 'two events for the user');
    assert.deepEqual(got, [{ from: 'lib' }, { from: 'ours' }]);
  });

  it('our client signs in (pusher:signin signed with the app secret), and gets events sent to its user only', async () => {
    const me = ourUser('ann');
    const other = ourUser('ben');
    me.connect();
    other.connect();
    const signedIn = waitFor<UserEvent>((cb) => me.on('user', cb), 'signed-in event');
    const user = await me.signin();
    assert.deepEqual(user, { id: 'ann', userData: { id: 'ann', user_info: { name: 'ann' } } });
    assert.equal((await signedIn).kind, 'signed-in');
    await other.signin();
    const leaked: RealtimeMessage[] = [];
    other.on('message', (m) => leaked.push(m));
    const got = waitFor<RealtimeMessage>(
      (cb) => me.on('message', cb),
      'user event',
      (m) => m.event === 'note',
    );
    await userChannelOccupied('ann');
    await rig.server().sendToUser('ann', 'note', { text: 'hi ann' });
    const m = await got;
    assert.equal(m.channel, '#server-to-user-ann');
    assert.equal(m.data, '{"text":"hi ann"}');
    // POST /users/<id>/events does the same.
    const viaUsersPath = waitFor<RealtimeMessage>(
      (cb) => me.on('message', cb),
      'users/<id>/events',
      (x) => x.event === 'direct',
    );
    // The library JSON-encodes `body` itself (lib/requests.js); its typings say string, so the object goes through unknown.
    await rig.server().post({ path: '/users/ann/events', body: { name: 'direct', data: '{"n":1}' } as unknown as string });
    assert.equal((await viaUsersPath).data, '{"n":1}');
    assert.deepEqual(leaked, []);
    assert.deepEqual(Object.keys(await rig.rest().channels()), [], "users' own channels are not listed as app channels");
  });

  it("a sign-in with the wrong secret is refused with a clear error; nobody may join another user's channel", async () => {
    const me = ourUser('ann', 'not-the-secret');
    me.connect();
    const err = await apiErrorOf(me.signin());
    assert.equal(err.code, 'signin_failed');
    assert.match(err.message, /Sign-in refused: .*signin/);
    assert.equal(me.state, 'connected');

    const raw = await rig.raw();
    await raw.socketId();
    raw.send({ event: 'pusher:subscribe', data: { channel: '#server-to-user-ann', auth: '' } });
    const refused = await raw.event('pusher:error');
    assert.match(JSON.stringify(refused.data), /sign in as that user first/);
  });

  it('terminateUserConnections closes every socket signed in as that user with 4009 and they stay closed; others go on', async () => {
    const p = pusherJsUser('u-9');
    p.signin();
    await within(p.user.signinDonePromise as Promise<unknown>, 'pusher-js signin');
    const ours = ourUser('u-9');
    ours.connect();
    await ours.signin();
    const bystander = rig.client({ user: { id: 'u-9' } });
    bystander.connect();
    await bystander.subscribe('presence-room');

    const pusherJsClosed = new Promise<void>((resolve) =>
      p.connection.bind('state_change', (s: { current: string }) => s.current === 'disconnected' && resolve()),
    );
    const oursClosed = waitFor<StateChange>(
      (cb) => ours.on('state', cb),
      'our client disconnected',
      (s) => s.current === 'disconnected',
    );
    await rig.server().terminateUserConnections('u-9');
    await within(pusherJsClosed, 'pusher-js disconnected');
    await oursClosed;
    assert.equal(ours.lastClose?.code, 4009);
    // Neither client can come back by itself: pusher-js has no retry timer (it reconnects only from
    // one), and ours stopped (a 40xx close clears every timer).
    assert.equal(p.connection.state, 'disconnected', 'pusher-js does not reconnect after 4009');
    assert.equal((p.connection as unknown as { retryTimer?: unknown }).retryTimer ?? null, null, 'pusher-js has no reconnect scheduled');
    assert.equal(ours.state, 'disconnected');
    assert.equal(ours.lastClose?.action, 'stop');
    assert.equal(bystander.state, 'connected', 'presence membership alone is not a sign-in');

    // Our REST client does the same.
    const again = ourUser('u-10');
    again.connect();
    await again.signin();
    const closed = waitFor<StateChange>(
      (cb) => again.on('state', cb),
      'closed',
      (s) => s.current === 'disconnected',
    );
    await rig.rest().terminateUserConnections('u-10');
    await closed;
    assert.equal(again.lastClose?.code, 4009);
  });
});
