// Batch publish and channel information, checked with the official server library as the peer:
// what it sends, the sandbox accepts and answers in the shape it expects, and our client receives.
import * as assert from 'node:assert/strict';
import type { RealtimeMessage } from '../../../src/services/realtime/client';
import { Rig, waitFor } from './fixtures';

describe('realtime batch publish and channel information (pusher library as the peer)', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('triggerBatch of 10 events arrives in order; 11 are refused with 400 and none delivered', async () => {
    const c = rig.client();
    c.connect();
    await Promise.all([c.subscribe('ticks'), c.subscribe('private-ticks')]);
    const seen: string[] = [];
    c.on('message', (m) => seen.push(`${m.channel ?? ''}/${m.event}/${String(m.data)}`));
    const last = waitFor<RealtimeMessage>(
      (cb) => c.on('message', cb),
      'last of the batch',
      (m) => m.event === 'e9',
    );
    const batch = Array.from({ length: 10 }, (_, i) => ({ channel: i % 2 ? 'private-ticks' : 'ticks', name: `e${i}`, data: { i } }));
    await rig.server().triggerBatch(batch.map((b) => ({ ...b })));
    await last;
    assert.deepEqual(
      seen,
      batch.map((b) => `${b.channel}/${b.name}/{"i":${b.data.i}}`),
    );

    seen.length = 0;
    const tooMany = Array.from({ length: 11 }, (_, i) => ({ channel: 'ticks', name: `x${i}`, data: 'x' }));
    await assert.rejects(rig.server().triggerBatch(tooMany), (e: { status?: number }) => e.status === 400);
    const marker = waitFor<RealtimeMessage>(
      (cb) => c.on('message', cb),
      'marker',
      (m) => m.event === 'marker',
    );
    await rig.rest().publish({ channels: ['ticks'], name: 'marker', data: 'm' });
    await marker;
    assert.deepEqual(seen, ['ticks/marker/m']);
  });

  it('answers /channels, /channels/<name> and /channels/<name>/users as the library reads them', async () => {
    const a = rig.client({ user: { id: 'ann' } });
    const b = rig.client({ user: { id: 'ben' } });
    a.connect();
    b.connect();
    await Promise.all([a.subscribe('presence-team'), b.subscribe('presence-team'), a.subscribe('news'), b.subscribe('news')]);
    const lib = rig.server();
    const json = async (path: string, params?: Record<string, string>) => (await lib.get({ path, params })).json() as Promise<unknown>;
    assert.deepEqual(await json('/channels'), { channels: { news: {}, 'presence-team': {} } });
    assert.deepEqual(await json('/channels', { filter_by_prefix: 'presence-', info: 'user_count' }), { channels: { 'presence-team': { user_count: 2 } } });
    assert.deepEqual(await json('/channels/news', { info: 'subscription_count' }), { occupied: true, subscription_count: 2 });
    assert.deepEqual(await json('/channels/presence-team', { info: 'user_count,subscription_count' }), {
      occupied: true,
      user_count: 2,
      subscription_count: 2,
    });
    assert.deepEqual(await json('/channels/presence-team/users'), { users: [{ id: 'ann' }, { id: 'ben' }] });
    assert.deepEqual(await json('/channels/empty'), { occupied: false });
  });
});
