// End-to-end encrypted channels against the official peers: the pusher server library encrypts,
// our client decrypts; our REST client encrypts, pusher-js decrypts; the sandbox only relays.
import * as assert from 'node:assert/strict';
import { messageData, type RealtimeMessage } from '../../../src/services/realtime/client';
import type { ApiError } from '../../../src/core/errors';
import { apiErrorOf } from '../helpers/util';
import { Rig, waitFor, within } from './fixtures';

const CHANNEL = 'private-encrypted-vault';

describe('realtime encrypted channels (private-encrypted-*)', function () {
  this.timeout(20_000);
  let rig: Rig;
  beforeEach(async () => {
    rig = await Rig.start();
  });
  afterEach(async () => {
    await rig.close();
  });

  it('decrypts what the pusher library publishes with its encryption master key, and marks the message decrypted', async () => {
    const c = rig.client();
    c.connect();
    await c.subscribe(CHANNEL);
    const got = waitFor<RealtimeMessage>(
      (cb) => c.on('message', cb),
      'decrypted event',
      (m) => m.event === 'secret',
    );
    await rig.server().trigger(CHANNEL, 'secret', { pin: 1234, note: 'ünïcode' });
    const m = await got;
    assert.equal(m.decrypted, true);
    assert.equal(m.channel, CHANNEL);
    assert.deepEqual(messageData(m), { pin: 1234, note: 'ünïcode' });
  });

  it('the sandbox relays only ciphertext: a raw subscriber sees {nonce, ciphertext}, never the payload', async () => {
    const raw = await rig.raw();
    const socketId = await raw.socketId();
    const { auth } = rig.server().authorizeChannel(socketId, CHANNEL);
    raw.send({ event: 'pusher:subscribe', data: { channel: CHANNEL, auth } });
    await raw.event('pusher_internal:subscription_succeeded', CHANNEL);
    await rig.server().trigger(CHANNEL, 'secret', { pin: 1234 });
    const f = await raw.event('secret', CHANNEL);
    const data = JSON.parse(f.data as string) as Record<string, unknown>;
    assert.deepEqual(Object.keys(data).sort(), ['ciphertext', 'nonce']);
    assert.doesNotMatch(f.data as string, /1234/);
  });

  it('our REST client encrypts as the official library does: pusher-js decrypts it', async () => {
    const p = rig.pusherJs();
    const ch = p.subscribe(CHANNEL);
    const got = new Promise<unknown>((resolve) => ch.bind('secret', resolve));
    await within(new Promise<void>((resolve) => ch.bind('pusher:subscription_succeeded', () => resolve())), 'pusher-js subscribed');
    await rig.rest().publish({ channels: [CHANNEL], name: 'secret', data: { from: 'rest', n: [1, 2] } });
    assert.deepEqual(await within(got, 'pusher-js decrypted event'), { from: 'rest', n: [1, 2] });
    // …and a batch entry for an encrypted channel is encrypted too.
    const again = new Promise<unknown>((resolve) => ch.bind('batched', resolve));
    await rig.rest().publishBatch([{ channel: CHANNEL, name: 'batched', data: 'plain string' }]);
    assert.equal(await within(again, 'pusher-js decrypted batch event'), 'plain string');
  });

  it('with the wrong master key: a clear "could not decrypt" error, the subscription and other channels go on', async () => {
    const c = rig.client({ masterKey: Buffer.alloc(32, 7).toString('base64') });
    c.connect();
    await c.subscribe(CHANNEL);
    await c.subscribe('plain');
    const failed = waitFor<ApiError>(
      (cb) => c.on('error', cb),
      'decrypt error',
      (e) => e.code === 'decrypt_failed',
    );
    const plain = waitFor<RealtimeMessage>(
      (cb) => c.on('message', cb),
      'plain event',
      (m) => m.event === 'after',
    );
    const leaked: RealtimeMessage[] = [];
    c.on('message', (m) => {
      if (m.channel === CHANNEL) leaked.push(m);
    });
    await rig.server().trigger(CHANNEL, 'secret', { pin: 1234 });
    await rig.server().trigger('plain', 'after', {});
    assert.match((await failed).message, /Could not decrypt secret on private-encrypted-vault: .*different key/);
    await plain;
    assert.deepEqual(leaked, [], 'nothing undecryptable is passed on as a message');
    assert.equal(c.subscription(CHANNEL)?.state, 'subscribed');
    assert.equal(c.state, 'connected');
  });

  it('refuses before sending: no master key stored, several channels in one encrypted publish', async () => {
    const c = rig.client({ masterKey: null });
    c.connect();
    const err = await apiErrorOf(c.subscribe(CHANNEL));
    assert.equal(err.code, 'no_encryption_key');
    const multi = await apiErrorOf(rig.rest().publish({ channels: [CHANNEL, 'other'], name: 'x', data: 1 }));
    assert.match(multi.message, /must go to that channel alone/);
  });
});
