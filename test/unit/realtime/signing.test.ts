import * as assert from 'node:assert/strict';
import PusherServer from 'pusher';
import {
  md5Hex,
  presenceChannelData,
  signChannel,
  signRestRequest,
  signUser,
  signWebhook,
  verifyChannelAuth,
  verifyRestRequest,
} from '../../../src/services/realtime/signing';

// Vectors from ../shared/protocols.md §1 (pusher docs: auth-signatures, rest-api).
const DOC = { appId: '3', key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' };

function lib(app = DOC): PusherServer {
  return new PusherServer({ appId: app.appId, key: app.key, secret: app.secret, host: '127.0.0.1', port: '80', useTLS: false });
}

/** Runs `fn` with Date.now pinned, so the server library signs with a known timestamp. */
function atTime<T>(ms: number, fn: () => T): T {
  const real = Date.now;
  Date.now = () => ms;
  try {
    return fn();
  } finally {
    Date.now = real;
  }
}

describe('realtime signing', () => {
  it('reproduces the REST signature vector of the protocol notes', () => {
    const body = '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}';
    assert.equal(md5Hex(body), 'ec365a775a4cd0599faeb73354201b6f');
    const q = signRestRequest(DOC, { method: 'POST', path: '/apps/3/events', body, timestamp: 1353088179 });
    assert.equal(q.body_md5, 'ec365a775a4cd0599faeb73354201b6f');
    assert.equal(q.auth_signature, 'da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c');
  });

  it('signs a REST request exactly as the official pusher library does', () => {
    const cases: { method: string; path: string; params: Record<string, string>; body?: string }[] = [
      { method: 'POST', path: '/apps/3/events', body: JSON.stringify({ name: 'e', data: '{"x":1}', channels: ['a', 'b'] }), params: {} },
      { method: 'GET', path: '/apps/3/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } },
      { method: 'GET', path: '/apps/3/channels/presence-room/users', params: {} },
    ];
    for (const c of cases) {
      const theirs = atTime(1_700_000_123_456, () => lib().createSignedQueryString({ method: c.method, path: c.path, params: c.params, body: c.body }));
      const ours = signRestRequest(DOC, { method: c.method, path: c.path, params: c.params, body: c.body, timestamp: 1_700_000_123 });
      assert.deepEqual(ours, Object.fromEntries(new URLSearchParams(theirs)), `${c.method} ${c.path}`);
    }
  });

  it('verifies what the library signs, and rejects a wrong secret, a changed body and a stale timestamp', () => {
    const body = JSON.stringify({ name: 'e', data: 'x', channel: 'c' });
    const now = 1_700_000_000;
    const query = atTime(now * 1000, () => lib().createSignedQueryString({ method: 'POST', path: '/apps/3/events', body }));
    const url = new URL(`http://h/apps/3/events?${query}`);
    assert.deepEqual(verifyRestRequest(DOC, 'POST', url, body, now), { ok: true });
    assert.deepEqual(verifyRestRequest(DOC, 'POST', url, body, now + 600), { ok: true }, '600 s of skew is allowed');

    const wrongSecret = verifyRestRequest({ ...DOC, secret: 'other' }, 'POST', url, body, now);
    assert.ok(!wrongSecret.ok && wrongSecret.status === 401 && wrongSecret.message.startsWith('Invalid signature'));
    const changed = verifyRestRequest(DOC, 'POST', url, body.replace('x', 'y'), now);
    assert.ok(!changed.ok && changed.message.startsWith('Invalid body_md5'));
    const late = verifyRestRequest(DOC, 'POST', url, body, now + 601);
    assert.ok(!late.ok && late.message.startsWith('Timestamp expired'));
    const early = verifyRestRequest(DOC, 'POST', url, body, now - 601);
    assert.ok(!early.ok && early.status === 401);
    const wrongMethod = verifyRestRequest(DOC, 'GET', url, body, now);
    assert.ok(!wrongMethod.ok);
  });

  it('refuses to let a caller override the signing parameters', () => {
    assert.throws(() => signRestRequest(DOC, { method: 'GET', path: '/x', params: { auth_timestamp: '1' }, timestamp: 1 }), /auth_timestamp/);
  });

  it('reproduces the private-channel and sign-in auth vectors', () => {
    assert.equal(signChannel(DOC, '1234.1234', 'private-foobar').auth, '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4');
    assert.equal(signUser(DOC, '1234.1234', '{"id":"12345"}').auth, '278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba');
  });

  it('produces the same private, presence and user auth as the official library', () => {
    const p = lib();
    assert.deepEqual(signChannel(DOC, '1234.1234', 'private-orders'), p.authorizeChannel('1234.1234', 'private-orders'));
    const member = { user_id: '42', user_info: { name: 'Ada', roles: ['admin'] } };
    const ours = signChannel(DOC, '1234.1234', 'presence-room', presenceChannelData(member.user_id, member.user_info));
    assert.deepEqual(ours, p.authorizeChannel('1234.1234', 'presence-room', member));
    assert.deepEqual(signChannel(DOC, '7.8', 'presence-x', presenceChannelData('solo')), p.authorizeChannel('7.8', 'presence-x', { user_id: 'solo' }));
    assert.deepEqual(signUser(DOC, '1234.1234', JSON.stringify({ id: 'u1' })), p.authenticateUser('1234.1234', { id: 'u1' }));
    assert.ok(verifyChannelAuth(DOC, '1234.1234', 'presence-room', ours.auth, ours.channel_data));
    assert.ok(!verifyChannelAuth(DOC, '1234.1235', 'presence-room', ours.auth, ours.channel_data), 'bound to the socket id');
  });

  it('signs webhooks so the official library accepts them', () => {
    const body = JSON.stringify({ time_ms: 1, events: [{ name: 'channel_occupied', channel: 'c' }] });
    const hook = lib().webhook({
      headers: { 'x-pusher-key': DOC.key, 'x-pusher-signature': signWebhook(DOC.secret, body), 'content-type': 'application/json' },
      rawBody: body,
    });
    assert.ok(hook.isValid());
    const forged = lib().webhook({
      headers: { 'x-pusher-key': DOC.key, 'x-pusher-signature': signWebhook('nope', body), 'content-type': 'application/json' },
      rawBody: body,
    });
    assert.ok(!forged.isValid());
  });
});
