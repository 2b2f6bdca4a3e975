// The realtime "Connect…" presets (features/realtime/presets.ts): the answers a user gives become a
// setting the connections parser takes, with the URLs of the server meant; defaults pass their own
// checks; and a self-hosted preset pointed at a Pusher-compatible server (the sandbox) works end to
// end: signed REST calls and a WebSocket subscription.
import * as assert from 'node:assert/strict';
import { parseConnectionsSetting, type RealtimeConnection } from '../../../src/core/connections';
import { realtimeRestFor } from '../../../src/features/realtime/restClient';
import { PUSHER_CLUSTERS, realtimePresets, type ConnectionPreset } from '../../../src/features/realtime/presets';
import { localAuthorizer } from '../../../src/services/realtime/auth';
import { messageData, RealtimeClient, type RealtimeMessage } from '../../../src/services/realtime/client';
import { APP, Rig, waitFor } from '../realtime/fixtures';
import { workbench } from './workbench';

function preset(label: RegExp): ConnectionPreset {
  const p = realtimePresets().find((x) => label.test(x.label));
  assert.ok(p, `a preset named ${label}`);
  return p;
}

/**
 * What the Connect command does with a preset: each field's answer (the default where `given` has
 * none), checked by the field's own check, then the setting entry read back by the parser.
 */
function connect(p: ConnectionPreset, name: string, given: Record<string, string>): RealtimeConnection {
  const answers: Record<string, string> = {};
  for (const f of p.fields) {
    const v = (given[f.key] ?? f.value ?? '').trim();
    assert.equal(f.validate?.(v), undefined, `${p.label}: ${f.key} = ${JSON.stringify(v)} is accepted`);
    answers[f.key] = v;
  }
  const parsed = parseConnectionsSetting('realtime', [{ name, ...p.build(answers) }]);
  assert.deepEqual(parsed.problems, []);
  const [conn] = parsed.connections;
  assert.ok(conn.service === 'realtime');
  return conn;
}

/** The check of field `key` of `p` on `value`. */
function check(p: ConnectionPreset, key: string, value: string): string | undefined {
  const f = p.fields.find((x) => x.key === key);
  assert.ok(f?.validate, `${p.label} checks ${key}`);
  return f.validate(value);
}

describe('features/realtime/presets: Connect… for realtime', function () {
  this.timeout(20_000);

  it('offers Pusher Channels, soketi and any other Pusher-compatible server, each asking for the app secret (never sent)', () => {
    const all = realtimePresets();
    assert.deepEqual(
      all.map((p) => p.label),
      ['Pusher Channels', 'soketi (self-hosted)', 'Other self-hosted Pusher-compatible server'],
    );
    for (const p of all) {
      assert.match(p.keyPrompt, /App secret.*never sent/);
      for (const f of p.fields)
        if (f.value !== undefined) assert.equal(f.validate?.(f.value), undefined, `${p.label}: the default of ${f.key} passes its check`);
    }
  });

  it('Pusher Channels by cluster: every listed cluster (default mt1) becomes ws-/api-<cluster>.pusher.com over TLS', () => {
    const pusher = preset(/^Pusher Channels$/);
    const cluster = pusher.fields.find((f) => f.key === 'cluster')!;
    assert.deepEqual(
      cluster.choices?.map((c) => c.label),
      PUSHER_CLUSTERS.map((c) => c.id),
    );
    const byDefault = connect(pusher, 'Prod', { appId: '1234', key: 'abcdef' });
    assert.equal(byDefault.restBaseUrl, 'https://api-mt1.pusher.com:443');
    assert.equal(byDefault.wsUrl, 'wss://ws-mt1.pusher.com:443/app/abcdef');
    for (const { id } of PUSHER_CLUSTERS) {
      const c = connect(pusher, `Prod ${id}`, { cluster: id, appId: '1234', key: 'abcdef' });
      assert.deepEqual([c.host, c.restBaseUrl, c.useTLS], [`ws-${id}.pusher.com`, `https://api-${id}.pusher.com:443`, true]);
    }
    assert.equal(check(pusher, 'cluster', 'EU'), 'e.g. mt1 or eu');
    assert.equal(check(pusher, 'cluster', 'us 2'), 'e.g. mt1 or eu');
    assert.equal(check(pusher, 'appId', '  '), 'Required');
    assert.equal(check(pusher, 'key', ''), 'Required');
  });

  it('soketi: accepting every default gives 127.0.0.1:6001 without TLS and the app-id / app-key soketi starts with', () => {
    const c = connect(preset(/^soketi/), 'soketi', {});
    assert.deepEqual([c.appId, c.key, c.host, c.port, c.useTLS], ['app-id', 'app-key', '127.0.0.1', 6001, false]);
    assert.equal(c.restBaseUrl, 'http://127.0.0.1:6001');
    assert.equal(c.wsUrl, 'ws://127.0.0.1:6001/app/app-key');
    const tls = connect(preset(/^soketi/), 'soketi tls', { host: 'soketi.example.com', port: '443', tls: 'YES' });
    assert.equal(tls.restBaseUrl, 'https://soketi.example.com:443');
    assert.equal(tls.wsUrl, 'wss://soketi.example.com:443/app/app-key');
  });

  it('the self-hosted checks refuse what would make a broken connection: no host, a port outside 1–65535, TLS other than yes/no', () => {
    for (const p of [preset(/^soketi/), preset(/^Other/)]) {
      assert.equal(check(p, 'host', ' '), 'Required');
      for (const bad of ['', '0', '65536', '60O1', '-1', '6001.5']) assert.equal(check(p, 'port', bad), 'A port number', `port ${bad}`);
      for (const good of ['1', '80', '65535']) assert.equal(check(p, 'port', good), undefined);
      assert.equal(check(p, 'tls', 'y'), 'yes or no');
      assert.equal(check(p, 'tls', 'No'), undefined);
    }
    assert.equal(preset(/^Other/).fields.find((f) => f.key === 'host')?.value, undefined, 'no host is assumed for another server');
  });

  it('a host typed as a URL or with its port is refused with what to type instead (saved, it made URLs like http://[https://…]:6001 that nothing opens); IP addresses pass', () => {
    for (const p of [preset(/^soketi/), preset(/^Other/)]) {
      for (const url of ['https://soketi.example.com', 'ws://localhost:6001/app', 'HTTP://host'])
        assert.match(check(p, 'host', url) ?? '', /without http:\/\/ or ws:\/\//, url);
      for (const withPort of ['soketi.example.com:6001', 'localhost:', '[::1]:6001'])
        assert.match(check(p, 'host', withPort) ?? '', /port is asked next/, withPort);
      for (const odd of ['soketi.example.com/app', 'my host', 'user@host']) assert.match(check(p, 'host', odd) ?? '', /Only the host name or IP address/, odd);
      for (const host of ['127.0.0.1', 'soketi.example.com', 'localhost', '::1', '[::1]', 'fe80::1']) {
        const c = connect(p, `at ${host}`, { host, port: '6001', appId: APP.appId, key: APP.key });
        assert.equal(new URL(c.restBaseUrl).port, '6001', `${host}: ${c.restBaseUrl}`);
        assert.equal(new URL(c.wsUrl).pathname, `/app/${APP.key}`);
      }
    }
  });

  it('"Other self-hosted" pointed at a Pusher-compatible server (the sandbox): its signed REST calls are accepted and a subscriber gets what they publish', async () => {
    const rig = await Rig.start();
    try {
      const conn = connect(preset(/^Other/), 'My server', { host: '127.0.0.1', port: String(rig.port), tls: 'no', appId: APP.appId, key: APP.key });
      const client = new RealtimeClient({
        key: conn.key,
        host: conn.host,
        port: conn.port,
        useTLS: conn.useTLS,
        service: 'Realtime (My server)',
        authorize: localAuthorizer({ service: 'Realtime (My server)', key: conn.key, secret: () => Promise.resolve(APP.secret), user: { id: 'me' } }),
      });
      rig.onCleanup(() => client.dispose());
      client.connect();
      await client.subscribe('private-orders');
      const got = waitFor<RealtimeMessage>(
        (cb) => client.on('message', cb),
        'the published event',
        (m) => m.event === 'placed',
      );
      const rest = realtimeRestFor(
        workbench(() => APP.secret),
        conn,
      );
      await rest.publish({ channels: ['private-orders'], name: 'placed', data: { id: 7 } });
      assert.deepEqual(messageData(await got), { id: 7 });
      assert.deepEqual(await rest.channels(), { 'private-orders': {} });
    } finally {
      await rig.close();
    }
  });
});
