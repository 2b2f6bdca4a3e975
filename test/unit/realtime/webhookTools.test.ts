// Test webhooks, replays and verdicts, checked with the official server library's own webhook
// verification (pusher.webhook(...).isValid()) as the independent peer, against real local servers.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import PusherServer from 'pusher';
import { signWebhook } from '../../../src/services/realtime/signing';
import {
  deliverWebhook,
  judgeWebhook,
  refreshedBody,
  signedWebhookHeaders,
  STALE_AFTER_MS,
  TEST_WEBHOOK_KINDS,
  testWebhookBody,
  type TestWebhookKind,
} from '../../../src/services/realtime/webhookTools';
import { APP } from './fixtures';

const app = { key: APP.key, secret: APP.secret };

function lib(secret = APP.secret): PusherServer {
  return new PusherServer({ appId: APP.appId, key: APP.key, secret, host: '127.0.0.1', useTLS: false });
}

/** A developer's webhook handler: verifies with the official library and answers what it saw. */
async function startHandler(): Promise<{ url: string; seen: { valid: boolean; events: unknown[] }[]; server: Server }> {
  const seen: { valid: boolean; events: unknown[] }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hook = lib().webhook({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      const valid = hook.isValid();
      seen.push({ valid, events: valid ? hook.getEvents() : [] });
      res.writeHead(valid ? 200 : 401, { 'content-type': 'text/plain' });
      res.end(valid ? `ok ${hook.getEvents().length} event(s)` : 'invalid signature');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pusher/webhooks`, seen, server };
}

describe('realtime webhook tools (pusher library verifies)', function () {
  this.timeout(20_000);

  it('a test webhook of every kind is valid for the library, with the fields Channels sends', () => {
    const expected: Record<TestWebhookKind, string[]> = {
      channel_occupied: ['channel', 'name'],
      channel_vacated: ['channel', 'name'],
      member_added: ['channel', 'name', 'user_id'],
      member_removed: ['channel', 'name', 'user_id'],
      client_event: ['channel', 'data', 'event', 'name', 'socket_id'],
      cache_miss: ['channel', 'name'],
      subscription_count: ['channel', 'name', 'subscription_count'],
    };
    for (const kind of TEST_WEBHOOK_KINDS) {
      const raw = testWebhookBody(kind);
      const hook = lib().webhook({ headers: signedWebhookHeaders(app, raw), rawBody: raw });
      assert.equal(hook.isValid(), true, kind);
      const events = hook.getEvents() as unknown as Record<string, unknown>[];
      assert.equal(events.length, 1);
      assert.equal(events[0].name, kind);
      assert.deepEqual(Object.keys(events[0]).sort(), expected[kind], kind);
      // Another app's secret does not accept it.
      assert.equal(
        lib('another-secret')
          .webhook({ headers: signedWebhookHeaders(app, raw), rawBody: raw })
          .isValid(),
        false,
      );
    }
  });

  it('judges valid, forged (wrong secret, wrong key, missing headers, altered body), stale and unverified', () => {
    const now = Date.now();
    const raw = testWebhookBody('channel_occupied', {}, now);
    const h = signedWebhookHeaders(app, raw);
    assert.equal(judgeWebhook(app, h, raw, now + 1_000).verdict, 'valid');
    assert.equal(judgeWebhook(app, { ...h, 'x-pusher-signature': signWebhook('wrong', raw) }, raw, now).verdict, 'forged');
    assert.match(judgeWebhook(app, { ...h, 'x-pusher-key': 'other' }, raw, now).reason, /not this app's key/);
    assert.equal(judgeWebhook(app, { 'content-type': 'application/json' }, raw, now).verdict, 'forged');
    const altered = raw.replace('test-channel', 'other-channel');
    const forged = judgeWebhook(app, h, altered, now);
    assert.equal(forged.verdict, 'forged');
    // The body is still shown, never trusted.
    assert.equal(forged.body?.events[0].channel, 'other-channel');
    const stale = judgeWebhook(app, h, raw, now + STALE_AFTER_MS + 1_000);
    assert.equal(stale.verdict, 'stale');
    assert.match(stale.reason, /time_ms/);
    assert.equal(judgeWebhook(undefined, h, raw, now).verdict, 'unverified');
  });

  it("replays to the developer's endpoint re-signed with a fresh time: the library accepts it and its answer comes back", async () => {
    const handler = await startHandler();
    try {
      const old = testWebhookBody('member_added', { channel: 'presence-room', userId: 'ann' }, Date.now() - 60 * 60_000);
      const replay = refreshedBody(old);
      assert.notEqual(replay, old);
      assert.deepEqual((JSON.parse(replay) as { events: unknown }).events, (JSON.parse(old) as { events: unknown }).events);
      assert.equal(judgeWebhook(app, signedWebhookHeaders(app, replay), replay, Date.now()).verdict, 'valid');
      const r = await deliverWebhook(handler.url, app, replay);
      assert.equal(r.answered, true);
      assert.equal(r.status, 200);
      assert.equal(r.answer, 'ok 1 event(s)');
      assert.deepEqual(handler.seen, [{ valid: true, events: [{ name: 'member_added', channel: 'presence-room', user_id: 'ann' }] }]);
      // Signed with the wrong secret, the handler's own verification refuses it, and that answer is shown.
      const bad = await deliverWebhook(handler.url, { key: APP.key, secret: 'not-the-secret' }, replay);
      assert.equal(bad.status, 401);
      assert.equal(bad.answer, 'invalid signature');
    } finally {
      handler.server.close();
    }
  });

  it('a target that is down is a plain result, not a throw', async () => {
    const handler = await startHandler();
    const url = handler.url;
    await new Promise<void>((r) => handler.server.close(() => r()));
    const r = await deliverWebhook(url, app, testWebhookBody('cache_miss'));
    assert.equal(r.answered, false);
    assert.match(r.problem ?? '', /connection refused.*is your app running/);
    assert.equal(r.status, undefined);
  });
});
