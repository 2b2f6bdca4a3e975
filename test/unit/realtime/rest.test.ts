import * as assert from 'node:assert/strict';
import { HttpClient } from '../../../src/core/http';
import { RealtimeRest } from '../../../src/services/realtime/rest';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf } from '../helpers/util';
import { APP, Rig, waitFor } from './fixtures';
import type { RealtimeMessage } from '../../../src/services/realtime/client';

describe('realtime REST client against the sandbox', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('publishes to several channels (pusher-js receives it) and reports subscription counts on request', async () => {
    const p = rig.pusherJs();
    const ch = p.subscribe('alpha');
    const got = new Promise<unknown>((resolve) => ch.bind('hello', resolve));
    await new Promise<void>((resolve) => ch.bind('pusher:subscription_succeeded', () => resolve()));
    const info = await rig.rest().publish({ channels: ['alpha', 'beta'], name: 'hello', data: { from: 'rest' }, info: ['subscription_count'] });
    assert.deepEqual(await got, { from: 'rest' });
    assert.deepEqual(info, { alpha: { subscription_count: 1 }, beta: { subscription_count: 0 } });
  });

  it('leaves out the publishing socket when socketId is given', async () => {
    const me = rig.client();
    me.connect();
    await me.subscribe('room');
    const seen: string[] = [];
    me.on('message', (m) => seen.push(m.event));
    const marker = waitFor<RealtimeMessage>(
      (cb) => me.on('message', cb),
      'marker',
      (m) => m.event === 'marker',
    );
    await rig.rest().publish({ channels: ['room'], name: 'mine', data: 'x', socketId: me.socketId });
    await rig.rest().publish({ channels: ['room'], name: 'marker', data: 'x' });
    await marker;
    assert.deepEqual(seen, ['marker']);
  });

  it('publishes a batch, lists channels by prefix with user counts, reads channel info and presence users', async () => {
    const a = rig.client({ user: { id: 'ann' } });
    const b = rig.client({ user: { id: 'ben' } });
    a.connect();
    b.connect();
    await Promise.all([a.subscribe('presence-lobby'), b.subscribe('presence-lobby'), a.subscribe('news')]);
    const news = waitFor<RealtimeMessage>(
      (cb) => a.on('message', cb),
      'batch event',
      (m) => m.event === 'flash',
    );
    const rest = rig.rest();
    await rest.publishBatch([
      { channel: 'news', name: 'flash', data: { n: 1 } },
      { channel: 'presence-lobby', name: 'flash', data: 'two' },
    ]);
    assert.equal((await news).channel, 'news');

    assert.deepEqual(Object.keys(await rest.channels()).sort(), ['news', 'presence-lobby']);
    assert.deepEqual(await rest.channels({ prefix: 'presence-', info: ['user_count'] }), { 'presence-lobby': { user_count: 2 } });
    assert.deepEqual(await rest.channel('presence-lobby', ['user_count', 'subscription_count']), { occupied: true, user_count: 2, subscription_count: 2 });
    assert.deepEqual(
      await rest.channel('news', ['user_count', 'subscription_count']),
      { occupied: true, subscription_count: 1 },
      'user_count is only asked for presence channels',
    );
    assert.deepEqual(await rest.channel('quiet'), { occupied: false });
    assert.deepEqual((await rest.users('presence-lobby')).sort(), ['ann', 'ben']);
  });

  it('refuses what the service would refuse before sending: 10 KB data, 100 channels, 10-event batches, bad names', async () => {
    const rest = rig.rest();
    assert.match((await apiErrorOf(rest.publish({ channels: ['c'], name: 'e', data: 'x'.repeat(10 * 1024 + 1) }))).message, /10240 bytes/);
    assert.match(
      (await apiErrorOf(rest.publish({ channels: Array.from({ length: 101 }, (_, i) => `c${i}`), name: 'e', data: 1 }))).message,
      /at most 100 channels/,
    );
    assert.match((await apiErrorOf(rest.publishBatch(Array.from({ length: 11 }, () => ({ channel: 'c', name: 'e', data: 1 }))))).message, /at most 10 events/);
    assert.match((await apiErrorOf(rest.publish({ channels: ['no spaces'], name: 'e', data: 1 }))).message, /Invalid channel/);
    assert.match((await apiErrorOf(rest.channels({ info: ['user_count'] }))).message, /presence/);
    assert.match((await apiErrorOf(rest.users('public'))).message, /presence/);
  });

  it("surfaces the service's plain-text error for a wrong secret (401), without retrying the publish", async () => {
    const err = await apiErrorOf(rig.rest('wrong-secret').publish({ channels: ['c'], name: 'e', data: 1 }));
    assert.equal(err.kind, 'http');
    assert.equal(err.status, 401);
    assert.match(err.serviceMessage ?? '', /^Invalid signature: Expected HMAC SHA256 hex digest of POST\\n\/apps\/4242\/events/);
    assert.match(err.describe(), /401/);
  });

  it('without a stored secret, says so and sends nothing', async () => {
    const err = await apiErrorOf(rig.rest(null).channels());
    assert.equal(err.kind, 'auth');
    assert.equal(err.code, 'no_secret');
  });

  it('sends exactly the query the official library would: same parameters and signature for the same instant', async () => {
    const fs = await FaultServer.start();
    try {
      fs.script({ status: 200, body: {} });
      const http = new HttpClient({ service: 'rt', baseUrl: fs.url(), auth: { placement: 'none' } });
      const now = 1_700_000_000_000;
      const rest = new RealtimeRest({ http, appId: APP.appId, key: APP.key, secret: () => Promise.resolve(APP.secret), now: () => now });
      await rest.publish({ channels: ['c'], name: 'e', data: { a: 1 } });
      const sent = fs.requests[0];
      const url = new URL(sent.url, fs.url());
      const real = Date.now;
      Date.now = () => now;
      let theirs: string;
      try {
        theirs = rig.server().createSignedQueryString({ method: 'POST', path: `/apps/${APP.appId}/events`, body: sent.body });
      } finally {
        Date.now = real;
      }
      assert.deepEqual(Object.fromEntries(url.searchParams), Object.fromEntries(new URLSearchParams(theirs)));
      assert.equal(sent.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(sent.body), { name: 'e', data: '{"a":1}', channels: ['c'] });
    } finally {
      await fs.close();
    }
  });
});
