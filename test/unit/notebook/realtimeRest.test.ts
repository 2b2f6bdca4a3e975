// The realtime REST cells (CHANNELS, CHANNEL, USERS, BATCH, SEND_TO_USER, TERMINATE) against the
// sandbox, with pusher-js (signed in through the pusher server library) as the independent peer.
import * as assert from 'node:assert/strict';
import PusherServer from 'pusher';
import Pusher from 'pusher-js';
import type { UserAuthenticationCallback } from 'pusher-js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { analyseCell, type RealtimeRestSpec } from '../../../src/notebook/cells';
import { connectionsHost, createRunner, parseNotebook, sandboxConnections, type CellResult, type NotebookHost } from '../../../src/notebook/api';

const RT = { appId: '515151', key: 'restcellspublickey', secret: 'rest-cells-app-secret-0123456789' };
const FILE = 'rest.awb.md';

function notebook(...cells: string[]): string {
  return cells.map((body, i) => `Cell ${i + 1}.\n\n\`\`\`realtime\n${body}\n\`\`\`\n`).join('\n');
}

function within<T>(p: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)))]).finally(() =>
    clearTimeout(t),
  );
}

describe('notebook realtime REST cells (pusher-js as the peer)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let host: NotebookHost;
  const peers: Pusher[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0, realtime: { ...RT, demo: true } });
    const { connections, key } = sandboxConnections(sandbox.info);
    host = connectionsHost({ connections, key });
  });
  after(async () => {
    for (const p of peers) p.disconnect();
    await sandbox.close();
  });

  function peer(userId?: string): Pusher {
    const lib = new PusherServer({ ...RT, host: '127.0.0.1', port: String(sandbox.info.realtime.port), useTLS: false });
    const p = new Pusher(RT.key, {
      cluster: 'sandbox',
      wsHost: '127.0.0.1',
      wsPort: sandbox.info.realtime.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      userAuthentication: {
        customHandler: (params, callback: UserAuthenticationCallback) => callback(null, lib.authenticateUser(params.socketId, { id: userId ?? 'nobody' })),
        endpoint: '',
        transport: 'ajax',
      },
    });
    peers.push(p);
    return p;
  }

  async function run(...cells: string[]): Promise<CellResult[]> {
    const runner = createRunner(parseNotebook(notebook(...cells), FILE).cells, { host, file: FILE });
    const out: CellResult[] = [];
    try {
      for (let i = 0; i < cells.length; i++) out.push(await runner.runCell(2 * i + 1));
    } finally {
      runner.dispose();
    }
    return out;
  }

  it('parses the commands and says what is wrong with a bad one', () => {
    const spec = (body: string) => analyseCell({ kind: 'code', language: 'realtime', value: body, metadata: {} }, 1);
    assert.deepEqual((spec('CHANNELS presence-').spec as RealtimeRestSpec).args, ['presence-']);
    assert.equal((spec('SEND_TO_USER ann hello').spec as RealtimeRestSpec).body, '{}');
    assert.match(spec('USERS').problems[0].message, /USERS <presence channel>/);
    assert.match(spec('BATCH').problems[0].message, /JSON array/);
    assert.match(spec('TERMINATE ann\n{"x":1}').problems[0].message, /takes no body/);
    assert.match(spec('FROB x').problems[0].message, /CHANNELS \[prefix\]/);
  });

  it('BATCH arrives at pusher-js in order; CHANNELS, CHANNEL and USERS answer with the counts', async () => {
    const p = peer();
    const ch = p.subscribe('cells-news');
    await within(new Promise<void>((r) => ch.bind('pusher:subscription_succeeded', () => r())), 'pusher-js subscribed');
    const got: string[] = [];
    const three = new Promise<void>((r) =>
      ch.bind_global((event: string, data: unknown) => {
        if (event.startsWith('pusher')) return;
        got.push(`${event}:${JSON.stringify(data)}`);
        if (got.length === 3) r();
      }),
    );
    const batch = JSON.stringify([1, 2, 3].map((n) => ({ channel: 'cells-news', name: `e${n}`, data: { n } })));
    const [b, list, presence, one, users, tooMany] = await run(
      `BATCH\n${batch}\n\n?? status == 200`,
      'CHANNELS\n\n?? json.channels.cells-news.subscription_count == 1',
      'CHANNELS presence-\n\n?? json.channels.presence-demo.user_count == 2',
      'CHANNEL cells-news\n\n?? json.occupied == true\n?? json.subscription_count == 1',
      'USERS presence-demo\n\n?? json.users[0].id == ada',
      `BATCH\n${JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ channel: 'cells-news', name: `x${i}`, data: {} })))}`,
    );
    await within(three, 'the batch at pusher-js');
    assert.deepEqual(got, ['e1:{"n":1}', 'e2:{"n":2}', 'e3:{"n":3}']);
    for (const r of [b, list, presence, one, users]) assert.equal(r.ok, true, JSON.stringify(r));
    assert.deepEqual(users.response?.json, { users: [{ id: 'ada' }, { id: 'grace' }] });
    assert.equal(tooMany.ok, false);
    assert.match(JSON.stringify(tooMany.error), /at most 10/);
  });

  it('SEND_TO_USER reaches the signed-in pusher-js user; TERMINATE closes its connection', async () => {
    const p = peer('cell-user');
    const got = new Promise<unknown>((r) => p.user.bind('hello', (d: unknown) => r(d)));
    p.signin();
    await within(p.user.signinDonePromise as Promise<unknown>, 'pusher-js signin');
    // pusher-js joins its user's own channel right after signin_success: the event goes there.
    const own = p.user.serverToUserChannel;
    if (!own.subscribed) await within(new Promise((r) => own.bind('pusher:subscription_succeeded', r)), `pusher-js subscribed to ${own.name}`);
    const [send] = await run('SEND_TO_USER cell-user hello\n{"from":"a cell"}\n\n?? status == 200');
    assert.equal(send.ok, true, JSON.stringify(send));
    assert.deepEqual(await within(got, 'the event for the user'), { from: 'a cell' });
    const closed = new Promise<void>((r) => p.connection.bind('state_change', (s: { current: string }) => s.current !== 'connected' && r()));
    const [term] = await run('TERMINATE cell-user\n\n?? status == 200');
    assert.equal(term.ok, true, JSON.stringify(term));
    await within(closed, 'pusher-js disconnected by TERMINATE');
  });
});
