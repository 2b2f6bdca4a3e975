import * as assert from 'node:assert/strict';
import { signWebhook } from '../../../src/services/realtime/signing';
import { startWebhookReceiver, type ReceivedWebhook, type RejectedWebhook, type WebhookReceiver } from '../../../src/services/realtime/webhookReceiver';
import { APP, Rig, within } from './fixtures';

describe('realtime webhook receiver', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  let got: ReceivedWebhook[];
  let rejected: RejectedWebhook[];
  let notify: (() => void)[];
  let secret: string | undefined;

  beforeEach(async () => {
    got = [];
    rejected = [];
    notify = [];
    secret = APP.secret;
    receiver = await startWebhookReceiver({
      app: () => Promise.resolve(secret ? { key: APP.key, secret } : undefined),
      onWebhook: (w) => {
        got.push(w);
        for (const n of notify.splice(0)) n();
      },
      onRejected: (r) => {
        rejected.push(r);
        for (const n of notify.splice(0)) n();
      },
    });
  });
  afterEach(async () => {
    await receiver.close();
  });

  async function until(pred: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 100 && !pred(); i++) await within(new Promise<void>((r) => notify.push(r)), what);
  }

  function post(body: string, headers: Record<string, string>): Promise<Response> {
    return fetch(receiver.url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  }

  it('accepts the webhooks the sandbox sends (signature checked) and hands over their events', async () => {
    const rig = await Rig.start({ webhooks: { urls: [receiver.url], batchMs: 5, delayedEventMs: 0 } });
    try {
      const c = rig.client({ user: { id: 'hook-user' } });
      c.connect();
      await c.subscribe('presence-hooked');
      await until(() => got.flatMap((w) => w.body.events).some((e) => e.name === 'member_added'), 'member_added webhook');
      const events = got.flatMap((w) => w.body.events);
      assert.deepEqual(events.slice(0, 2), [
        { name: 'channel_occupied', channel: 'presence-hooked' },
        { name: 'member_added', channel: 'presence-hooked', user_id: 'hook-user' },
      ]);
      assert.equal(got[0].path, '/pusher/webhooks');
      assert.deepEqual(rejected, []);
    } finally {
      await rig.close();
    }
  });

  it('rejects forged webhooks with 401 and reports why: wrong signature, wrong key, missing headers', async () => {
    const body = JSON.stringify({ time_ms: 1, events: [{ name: 'channel_occupied', channel: 'c' }] });
    assert.equal((await post(body, { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook('guess', body) })).status, 401);
    assert.equal((await post(body, { 'x-pusher-key': 'other-key', 'x-pusher-signature': signWebhook(APP.secret, body) })).status, 401);
    assert.equal((await post(body, {})).status, 401);
    const tampered = body.replace('"c"', '"d"');
    assert.equal((await post(tampered, { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, body) })).status, 401);
    assert.deepEqual(got, []);
    assert.deepEqual(
      rejected.map((r) => r.reason),
      [
        'forged: X-Pusher-Signature does not match the body',
        'forged: X-Pusher-Key "other-key" is not this app\'s key',
        'forged: X-Pusher-Key or X-Pusher-Signature missing',
        'forged: X-Pusher-Signature does not match the body',
      ],
    );
    assert.equal(rejected[3].bodySnippet, tampered);
  });

  it('a signed body that is not a webhook is refused with 400; with no secret stored nothing is believed', async () => {
    const body = JSON.stringify({ hello: 'world' });
    assert.equal((await post(body, { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, body) })).status, 400);
    assert.match(rejected[0].reason, /not a webhook body/);
    secret = undefined;
    const ok = JSON.stringify({ time_ms: 1, events: [] });
    assert.equal((await post(ok, { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, ok) })).status, 503);
    assert.equal((await fetch(receiver.url)).status, 405);
    assert.deepEqual(got, []);
  });

  it('a signed delivery an hour old (or from the future) is a replay: 403, and the events are not handed over', async () => {
    for (const offset of [-60 * 60_000, 6 * 60_000]) {
      const body = JSON.stringify({ time_ms: Date.now() + offset, events: [{ name: 'channel_occupied', channel: 'old' }] });
      const res = await post(body, { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, body) });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /replay: signed correctly, but its time_ms is \d+ s (old|in the future)/);
    }
    assert.equal(got.length, 0);
  });

  it('the same signed delivery twice: the second is a replay (409), the first was handed over once', async () => {
    const body = JSON.stringify({ time_ms: Date.now(), events: [{ name: 'channel_vacated', channel: 'twice' }] });
    const headers = { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, body) };
    assert.equal((await post(body, headers)).status, 200);
    const again = await post(body, headers);
    assert.equal(again.status, 409);
    assert.match(await again.text(), /already received/);
    assert.equal(got.length, 1);
  });

  it('a correctly signed body that is not valid UTF-8 is verified over its bytes, not judged forged', async () => {
    const bytes = Buffer.concat([
      Buffer.from(`{"time_ms":${Date.now()},"events":[{"name":"client_event","channel":"bin","event":"client-x","data":"`),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from('"}]}'),
    ]);
    const res = await fetch(receiver.url, {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/json', 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, bytes) },
    });
    assert.equal(res.status, 200, await res.text());
    assert.equal(got.length, 1);
  });
});
