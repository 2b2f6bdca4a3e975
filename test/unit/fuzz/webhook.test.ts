import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { webhookBodySchema } from '../../../src/services/realtime/protocol';
import { signWebhook, verifyWebhookSignature } from '../../../src/services/realtime/signing';
import { startWebhookReceiver, type ReceivedWebhook, type RejectedWebhook, type WebhookReceiver } from '../../../src/services/realtime/webhookReceiver';
import { check, checkAsync, hostileText } from './fuzzKit';

const APP = { key: 'fuzz-app-key', secret: 'fuzz-app-secret-0123456789' };

const webhookEvent = fc.record(
  {
    name: fc.constantFrom('channel_occupied', 'channel_vacated', 'member_added', 'client_event', ''),
    channel: fc.string(),
    user_id: fc.string(),
    event: fc.string(),
    data: fc.string(),
    socket_id: fc.string(),
    subscription_count: fc.integer(),
  },
  { requiredKeys: ['name', 'channel'] },
);
/** Bodies: genuine webhooks, near misses (wrong types), any JSON, and text that is not JSON at all. */
const body = fc.oneof(
  fc.record({ time_ms: fc.integer(), events: fc.array(webhookEvent, { maxLength: 4 }) }).map((b) => JSON.stringify(b)),
  // Deliveries of now (within the 5 minutes the receiver allows), as Channels sends them.
  fc
    .record({ time_ms: fc.integer({ min: -240_000, max: 240_000 }).map((d) => Date.now() + d), events: fc.array(webhookEvent, { maxLength: 4 }) })
    .map((b) => JSON.stringify(b)),
  fc
    .record(
      { time_ms: fc.oneof(fc.string(), fc.integer()), events: fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 3 })) },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b)),
  fc.json(),
  hostileText,
);
/** How the request is signed: properly, not at all, with another secret, another key, or junk. */
const signing = fc.constantFrom('genuine', 'none', 'wrong-secret', 'wrong-key', 'junk-signature', 'signature-of-other-body', 'uppercase-hex');

function headersFor(how: string, text: string): Record<string, string> {
  const sig = signWebhook(APP.secret, text);
  switch (how) {
    case 'genuine':
      return { 'x-pusher-key': APP.key, 'x-pusher-signature': sig };
    case 'none':
      return {};
    case 'wrong-secret':
      return { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook('another-secret-000000', text) };
    case 'wrong-key':
      return { 'x-pusher-key': 'another-key', 'x-pusher-signature': sig };
    case 'junk-signature':
      return { 'x-pusher-key': APP.key, 'x-pusher-signature': 'zz' + sig.slice(3) };
    case 'signature-of-other-body':
      return { 'x-pusher-key': APP.key, 'x-pusher-signature': signWebhook(APP.secret, text + ' ') };
    default:
      return { 'x-pusher-key': APP.key, 'x-pusher-signature': sig.toUpperCase() };
  }
}

describe('fuzz: webhook bodies (src/services/realtime/webhookReceiver.ts)', function () {
  this.timeout(30_000);
  let receiver: WebhookReceiver;
  const got: ReceivedWebhook[] = [];
  const rejected: RejectedWebhook[] = [];

  before(async () => {
    receiver = await startWebhookReceiver({ app: () => Promise.resolve(APP), onWebhook: (w) => got.push(w), onRejected: (r) => rejected.push(r) });
  });
  after(() => receiver.close());

  it('signature checks never throw, and only the genuine key and signature pass', () => {
    check(
      'webhook verify',
      fc.tuple(hostileText, fc.option(hostileText, { nil: undefined }), fc.option(hostileText, { nil: undefined }), signing),
      800,
      ([text, key, signature, how]) => {
        assert.equal(verifyWebhookSignature(APP, key, signature, text), key === APP.key && signature === signWebhook(APP.secret, text));
        const h = headersFor(how, text);
        assert.equal(verifyWebhookSignature(APP, h['x-pusher-key'], h['x-pusher-signature'], text), how === 'genuine');
      },
    );
  });

  it('the receiver answers every POST: 200 only to a signed, current, first delivery of a webhook body, 401 to any forgery, 400 to a signed non-webhook, 403/409 to a replay; the secret never appears in a rejection', async () => {
    const accepted = new Set<string>();
    await checkAsync('webhook receiver', fc.tuple(body, signing), 150, async ([text, how]) => {
      got.length = 0;
      rejected.length = 0;
      const res = await fetch(receiver.url, {
        method: 'POST',
        body: text,
        headers: { 'content-type': 'application/json', ...headersFor(how, text) },
        signal: AbortSignal.timeout(5_000),
      });
      const reply = await res.text();
      let shaped = false;
      let current = false;
      try {
        const parsed = webhookBodySchema.safeParse(JSON.parse(text));
        shaped = parsed.success;
        current = parsed.success && Math.abs(Date.now() - parsed.data.time_ms) <= 5 * 60_000;
      } catch {
        /* not JSON */
      }
      const expected = how !== 'genuine' ? 401 : !shaped ? 400 : !current ? 403 : accepted.has(text) ? 409 : 200;
      if (expected === 200) accepted.add(text);
      assert.equal(res.status, expected, `${how}: ${reply}`);
      if (expected === 200) {
        assert.equal(got.length, 1);
        assert.equal(rejected.length, 0);
      } else {
        assert.equal(got.length, 0, 'a rejected body is never delivered');
        assert.equal(rejected.length, 1);
        assert.equal(rejected[0].status, expected);
        assert.ok(!JSON.stringify(rejected[0]).includes(APP.secret));
        assert.ok(!reply.includes(APP.secret));
      }
    });
  });
});
