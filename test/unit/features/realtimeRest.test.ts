// realtimeRestFor (features/realtime/restClient.ts): the signed Channels REST client every realtime
// command uses, made on the shared factory. Against the real sandbox: its signatures are accepted,
// subscribers get what it publishes, a wrong secret shows the service's own 401, the secret never
// travels nor shows, and its calls land in the log, the History and the connection's quota.
import * as assert from 'node:assert/strict';
import { realtimeConnectionFromSetting, type RealtimeConnection } from '../../../src/core/connections';
import { realtimeRestFor } from '../../../src/features/realtime/restClient';
import { runInCommand } from '../../../src/history/scope';
import { messageData, type RealtimeMessage } from '../../../src/services/realtime/client';
import { apiErrorOf, visibleText } from '../helpers/util';
import { APP, MASTER_KEY, Rig, waitFor } from '../realtime/fixtures';
import { recorded, workbench } from './workbench';

const PUBLISH = 'apiWorkbench.realtime.publish';

describe('features/realtime/restClient: realtimeRestFor against the sandbox', function () {
  this.timeout(20_000);
  let rig: Rig;
  let conn: RealtimeConnection;
  beforeEach(async () => {
    rig = await Rig.start();
    const made = realtimeConnectionFromSetting({
      name: 'Rig',
      appId: APP.appId,
      key: APP.key,
      host: '127.0.0.1',
      port: rig.port,
      useTLS: false,
      rateLimitPerMinute: 20,
    });
    assert.ok(typeof made !== 'string', made as string);
    conn = made;
  });
  afterEach(() => rig.close());

  /** A subscriber (our WebSocket client, signed locally) on `channel`, and the first event named `event` it gets. */
  async function subscriber(channel: string, event: string): Promise<{ message: Promise<RealtimeMessage> }> {
    const c = rig.client();
    c.connect();
    await c.subscribe(channel);
    return {
      message: waitFor<RealtimeMessage>(
        (cb) => c.on('message', cb),
        `${event} on ${channel}`,
        (m) => m.event === event,
      ),
    };
  }

  it('signed requests are accepted: a subscriber gets the published event and the channel shows its subscriber; the History holds the command, signature masked', async () => {
    const w = workbench(() => APP.secret);
    const rest = realtimeRestFor(w, conn);
    const got = await subscriber('news', 'flash');
    const info = await runInCommand(PUBLISH, () =>
      rest.publish({ channels: ['news', 'quiet'], name: 'flash', data: { n: 1, text: 'héllo' }, info: ['subscription_count'] }),
    );
    const m = await got.message;
    assert.deepEqual(messageData(m), { n: 1, text: 'héllo' });
    assert.deepEqual(info, { news: { subscription_count: 1 }, quiet: { subscription_count: 0 } });
    // A view's listing (no command): signed and accepted too, logged, but not in the History.
    assert.deepEqual(await rest.channels({ info: ['subscription_count'] }), { news: { subscription_count: 1 } });
    assert.deepEqual(await rest.channel('news', ['subscription_count']), { occupied: true, subscription_count: 1 });

    assert.deepEqual(w.guard.asked, Array(3).fill(`realtime:Rig → ${conn.restBaseUrl}`), 'the secret is read for each request, for the REST origin');
    assert.deepEqual(
      w.log.entries.map((e) => [e.service, e.method, e.status]),
      [
        ['Realtime (Rig)', 'POST', 200],
        ['Realtime (Rig)', 'GET', 200],
        ['Realtime (Rig)', 'GET', 200],
      ],
    );
    for (const e of w.log.entries) assert.match(e.url, /[?&]auth_signature=\*\*\*(&|$)/, `the signature is masked in ${e.url}`);
    assert.equal(w.history.entries.length, 1);
    const [entry] = w.history.entries;
    assert.deepEqual([entry.command, entry.service, entry.connection, entry.method, entry.status], [PUBLISH, 'realtime', 'Rig', 'POST', 200]);
    assert.match(entry.url, new RegExp(`^${conn.restBaseUrl}/apps/${APP.appId}/events\\?`));
    assert.match(entry.url, /auth_signature=\*\*\*/);
    assert.deepEqual(JSON.parse(entry.request.body ?? '{}'), {
      name: 'flash',
      data: '{"n":1,"text":"héllo"}',
      channels: ['news', 'quiet'],
      info: 'subscription_count',
    });
    assert.ok(!recorded(w).includes(APP.secret), 'the secret only signs: it is in no URL, header, body or log line');
    assert.equal(w.http.limiter.remaining(w.http.rateLimitKey(conn), conn.rateLimitPerMinute), 17, "three requests off the connection's quota");
  });

  it("a wrong secret: the service's 401 message (which request it expected signed), the publish not retried, the secret in no log", async () => {
    const wrong = 'not-the-rig-secret-000';
    const w = workbench(() => wrong);
    const err = await apiErrorOf(runInCommand(PUBLISH, () => realtimeRestFor(w, conn).publish({ channels: ['news'], name: 'flash', data: 1 })));
    assert.equal(err.status, 401);
    assert.equal(err.service, 'Realtime (Rig)');
    assert.match(err.serviceMessage ?? '', new RegExp(`^Invalid signature: Expected HMAC SHA256 hex digest of POST\\\\n/apps/${APP.appId}/events`));
    assert.match(err.describe(), /401/);
    assert.equal(w.log.entries.length, 1, 'a publish is never sent twice');
    assert.equal(w.history.entries[0].status, 401);
    assert.match(w.history.entries[0].response?.body ?? '', /Invalid signature/);
    assert.ok(!visibleText(err).includes(wrong) && !recorded(w).includes(wrong));
  });

  it('no stored secret: nothing is sent and the user is told the REST API needs it', async () => {
    const w = workbench(() => undefined);
    const err = await apiErrorOf(realtimeRestFor(w, conn).channels());
    assert.equal(err.code, 'no_key');
    assert.deepEqual(w.log.entries, []);
  });

  it('the encryption master key it is given encrypts events for private-encrypted channels (the subscriber decrypts them); without one, nothing is sent', async () => {
    const channel = 'private-encrypted-vault';
    const w = workbench(() => APP.secret);
    const without = await apiErrorOf(realtimeRestFor(w, conn).publish({ channels: [channel], name: 'secret', data: { pin: 1 } }));
    assert.match(without.message, /needs the encryption master key/);
    assert.deepEqual(w.log.entries, []);

    const got = await subscriber(channel, 'secret');
    await runInCommand(PUBLISH, () =>
      realtimeRestFor(w, conn, () => Promise.resolve(MASTER_KEY)).publish({ channels: [channel], name: 'secret', data: { pin: 1234 } }),
    );
    const m = await got.message;
    assert.equal(m.decrypted, true);
    assert.deepEqual(messageData(m), { pin: 1234 });
    const sent = JSON.parse(w.history.entries[0].request.body ?? '{}') as { data: string };
    assert.deepEqual(Object.keys(JSON.parse(sent.data) as object).sort(), ['ciphertext', 'nonce'], 'the History holds only ciphertext');
    assert.ok(!recorded(w).includes('1234') && !recorded(w).includes(MASTER_KEY));
  });
});
