// Realtime beyond publish/subscribe, in the real editor against the sandbox: the webhook panel
// (valid, forged and stale webhooks; replay and test webhooks to the developer's endpoint, which
// checks the signature itself; a target that is down), encrypted channels with the master key in
// SecretStorage, user sign-in / sendToUser / terminate, batch publish and channel information.
import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChannelReport } from '../../../src/editor/realtime/channelInfo';
import { WebhookPanel } from '../../../src/editor/realtime/webhookView';
import type { ReceiverInfo, WebhookController } from '../../../src/editor/realtime/webhooks';
import { Redactor } from '../../../src/core/redact';
import { WebhookInbox } from '../../../src/features/realtime/webhookInbox';
import type { ExtensionApi } from '../../../src/extension';
import type { SignedInUser } from '../../../src/services/realtime/client';
import type { DeliveryResult } from '../../../src/services/realtime/webhookTools';
import { recordSecret, takeScreenshot } from '../harness/suiteApi';
import { findConnectionNode, loadedChildren, SANDBOX, stubWindow, treeLabel, trustedSandbox, waitFor, within } from './kit';

const MASTER_KEY = Buffer.from('deeper-test-master-key-32-bytes!').toString('base64');
const OTHER_MASTER_KEY = Buffer.from('another-master-key-of-32-bytes!!').toString('base64');

describe('realtime deeper: webhooks, encryption, users, batch, channel info', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let secret: string;
  let appKey: string;
  let endpoint: { server: Server; url: string; seen: { valid: boolean; body: string }[] };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'awb-realtime-deeper-'));

  before(async function () {
    const sandbox = await trustedSandbox(this);
    api = sandbox.api;
    const info = sandbox.info;
    secret = info.realtime.secret;
    appKey = info.realtime.key;
    recordSecret(MASTER_KEY);
    recordSecret(OTHER_MASTER_KEY);
    // The developer's own webhook handler: it checks X-Pusher-Signature with the app secret itself.
    const seen: { valid: boolean; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const valid = req.headers['x-pusher-key'] === appKey && req.headers['x-pusher-signature'] === createHmac('sha256', secret).update(body).digest('hex');
        seen.push({ valid, body });
        res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(valid ? { handled: (JSON.parse(body) as { events: { name: string }[] }).events.map((e) => e.name) } : { error: 'bad signature' }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pusher/webhooks`, seen };
  });

  after(async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.stopWebhookReceiver');
    endpoint?.server.close();
  });

  let saves = 0;
  async function logText(): Promise<string> {
    const file = path.join(dir, `log-${++saves}.log`);
    const info = stubWindow('showInformationMessage', () => undefined);
    try {
      await vscode.commands.executeCommand('apiWorkbench.realtime.saveLog', file);
    } finally {
      info.restore();
    }
    return readFileSync(file, 'utf8');
  }

  function logContains(what: string | RegExp): Promise<string> {
    return waitFor(`the realtime log to show ${what}`, async () => {
      const text = await logText();
      return (typeof what === 'string' ? text.includes(what) : what.test(text)) ? text : undefined;
    });
  }

  type Shown = { received: number; sent: number; html?: string };

  it('the webhooks panel follows the receiver: stopped, it no longer shows the old address; restarted, the new one (screenshot)', async () => {
    // The panel with a receiver it is told about, as the controller tells it.
    const changed = new vscode.EventEmitter<ReceiverInfo | undefined>();
    let info: ReceiverInfo | undefined = { url: 'http://127.0.0.1:45001/pusher/webhooks', connection: SANDBOX, registered: true };
    const controller = {
      inbox: new WebhookInbox(),
      get info() {
        return info;
      },
      onDidChangeReceiver: changed.event,
    } as unknown as WebhookController;
    const panel = new WebhookPanel(controller, new Redactor(), () => undefined);
    try {
      panel.show();
      assert.match(panel.html ?? '', /Receiving on <code>http:\/\/127\.0\.0\.1:45001/);
      info = undefined;
      changed.fire(undefined);
      assert.doesNotMatch(panel.html ?? '', /127\.0\.0\.1:45001/, 'the stopped receiver is not shown');
      info = { url: 'http://127.0.0.1:45002/pusher/webhooks', connection: SANDBOX, registered: true };
      changed.fire(info);
      assert.match(panel.html ?? '', /Receiving on <code>http:\/\/127\.0\.0\.1:45002/, 'the restarted receiver is shown');
      await takeScreenshot('realtime-webhooks-restarted', 800);
    } finally {
      panel.dispose();
      changed.dispose();
    }
  });

  it('lists webhooks with their verdicts; replays one and sends test webhooks to my endpoint; a down target is shown plainly @smoke', async function () {
    // Once in CI (VS Code 1.139) one of these commands never settled and the test hung for its whole
    // timeout; it has not happened again in 5 runs. Each command is bounded and named, so a recurrence
    // says which one, and the test is tried once more rather than failing the run on it.
    this.timeout(60_000);
    this.retries(1);
    const command = <T>(id: string, ...args: unknown[]): Promise<T> => within(Promise.resolve(vscode.commands.executeCommand<T>(id, ...args)), id, 20_000);
    const info = await command<ReceiverInfo>('apiWorkbench.realtime.startWebhookReceiver');
    assert.ok(info?.registered);
    const post = (body: string, signature: string) =>
      fetch(info.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-pusher-key': appKey, 'x-pusher-signature': signature } });
    const forgedBody = JSON.stringify({ time_ms: Date.now(), events: [{ name: 'channel_occupied', channel: 'forged-channel' }] });
    assert.equal((await post(forgedBody, '0'.repeat(64))).status, 401);
    const staleBody = JSON.stringify({ time_ms: Date.now() - 60 * 60_000, events: [{ name: 'channel_vacated', channel: 'stale-channel' }] });
    await post(staleBody, createHmac('sha256', secret).update(staleBody).digest('hex'));
    await command('apiWorkbench.realtime.connect');
    await command('apiWorkbench.realtime.subscribe', 'deeper-hooked');
    const page = await waitFor('three webhooks in the panel', async () => {
      const shown = await command<Shown>('apiWorkbench.realtime.showWebhooks');
      return shown.received >= 3 && shown.html?.includes('deeper-hooked') ? shown.html : undefined;
    });
    assert.match(page, /badge forged">forged<\/span> channel_occupied/);
    assert.match(page, /badge stale">stale<\/span> channel_vacated/);
    assert.match(page, /badge valid">valid<\/span> channel_occupied/);
    assert.ok(!page.includes(createHmac('sha256', secret).update(staleBody).digest('hex')), 'the whole signature is not shown');

    assert.equal(await command('apiWorkbench.realtime.setWebhookTarget', endpoint.url), endpoint.url);
    const replay = await command<DeliveryResult>('apiWorkbench.realtime.replayWebhook');
    assert.equal(replay?.status, 200, JSON.stringify(replay));
    assert.ok(endpoint.seen.at(-1)?.valid, 'the replay was signed with the app secret');
    assert.match(replay.answer ?? '', /"handled":\["/);

    for (const kind of ['channel_occupied', 'channel_vacated', 'member_added', 'member_removed', 'client_event', 'cache_miss', 'subscription_count']) {
      const sent = await command<DeliveryResult>('apiWorkbench.realtime.sendTestWebhook', { kind });
      assert.equal(sent?.status, 200, `${kind}: ${JSON.stringify(sent)}`);
      assert.ok(endpoint.seen.at(-1)?.valid && endpoint.seen.at(-1)?.body.includes(`"name":"${kind}"`), kind);
    }
    // A port nothing listens on: opened, then closed.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const warnings = stubWindow('showWarningMessage', () => undefined);
    let down: DeliveryResult | undefined;
    try {
      down = await command<DeliveryResult>('apiWorkbench.realtime.sendTestWebhook', {
        kind: 'cache_miss',
        url: `http://127.0.0.1:${closedPort}/pusher/webhooks`,
      });
    } finally {
      warnings.restore();
    }
    assert.equal(down?.answered, false);
    assert.match(String(warnings.calls[0]?.[0]), /not delivered: nothing is listening at 127\.0\.0\.1:\d+ \(connection refused\): is your app running\?/);

    // Leave the replay result on screen: the genuine webhook opened, its replay answered 200.
    await command('apiWorkbench.realtime.clearWebhooks');
    await post(forgedBody, '0'.repeat(64));
    await command('apiWorkbench.realtime.subscribe', 'orders-webhooks');
    await waitFor('the genuine webhook, newest', async () => ((await command<Shown>('apiWorkbench.realtime.showWebhooks')).received >= 2 ? true : undefined));
    await command('apiWorkbench.realtime.replayWebhook', { url: endpoint.url });
    await command('workbench.action.closeSidebar');
    await command('workbench.action.closePanel');
    const final = await command<Shown>('apiWorkbench.realtime.showWebhooks');
    assert.match(final.html ?? '', /200 OK in \d+ ms/);
    await takeScreenshot('realtime-webhooks', 2_000);
  });

  it('encrypted channel: the master key from SecretStorage decrypts (marked), publish encrypts; a wrong key is shown plainly and nothing else is lost', async () => {
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: MASTER_KEY }), 'stored');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('apiWorkbench').inspect('realtime.connections'));
    assert.ok(!settings.includes(MASTER_KEY), 'the master key is not in settings');
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    const snap = await vscode.commands.executeCommand<{ state: string }>('apiWorkbench.realtime.subscribe', 'private-encrypted-deeper');
    assert.equal(snap?.state, 'subscribed');
    await vscode.commands.executeCommand('apiWorkbench.realtime.publish', {
      channel: 'private-encrypted-deeper',
      event: 'sealed',
      data: '{"plan":"attack at dawn"}',
    });
    await logContains('private-encrypted-deeper  sealed [decrypted]  {"plan":"attack at dawn"}');
    // Another key for publishing: this subscription holds the old one, so it cannot open the box.
    await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: OTHER_MASTER_KEY });
    await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel: 'private-encrypted-deeper', event: 'sealed-other', data: '{"n":2}' });
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'deeper-plain');
    await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel: 'deeper-plain', event: 'after', data: '{"n":3}' });
    const text = await logContains('deeper-plain  after  {"n":3}');
    assert.match(text, /Could not decrypt sealed-other on private-encrypted-deeper: it was encrypted with a different key/);
    assert.ok(!text.includes('sealed-other [decrypted]'));
    await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: MASTER_KEY });
  });

  it('sign in as a user, send events to that user (shown under the user in the tree), terminate its connections', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    const user = await vscode.commands.executeCommand<SignedInUser>('apiWorkbench.realtime.signIn', { userId: 'deeper-user' });
    assert.equal(user?.id, 'deeper-user');
    assert.deepEqual(await vscode.commands.executeCommand('apiWorkbench.realtime.sendToUser', { userId: 'deeper-user', event: 'note', data: '{"hi":1}' }), {
      userId: 'deeper-user',
      event: 'note',
    });
    await logContains('#server-to-user-deeper-user  note  {"hi":1}');
    const conn = await findConnectionNode(api, 'realtime', SANDBOX);
    assert.ok(conn);
    const userNode = await waitFor('the user node with its event', async () => {
      const kids = await loadedChildren(conn);
      const node = kids.find((k) => k.id.endsWith('/user'));
      return node && (await treeLabel(node)) === 'user deeper-user' && ((await node.children?.()) ?? []).length >= 1 ? node : undefined;
    });
    const events = (await userNode.children?.()) ?? [];
    assert.equal(await treeLabel(events[0]), 'note');
    assert.equal(
      await vscode.commands.executeCommand('apiWorkbench.realtime.terminateUserConnections', { userId: 'deeper-user', confirmed: true }),
      'deeper-user',
    );
    await logContains('terminated the connections of user deeper-user');
    await logContains(/\[Local Sandbox\] disconnected/);
  });

  it('batch publish keeps the order; channel information lists channels, counts and presence users', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'deeper-batch');
    const events = [1, 2, 3].map((n) => ({ channel: 'deeper-batch', name: `b${n}`, data: { n } }));
    await vscode.commands.executeCommand('apiWorkbench.realtime.publishBatch', { events });
    const text = await logContains('deeper-batch  b3');
    const at = (s: string) => text.indexOf(`deeper-batch  ${s}`);
    assert.ok(at('b1') < at('b2') && at('b2') < at('b3'), 'in order');
    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      const refused = await vscode.commands.executeCommand('apiWorkbench.realtime.publishBatch', {
        events: JSON.stringify(Array.from({ length: 11 }, (_, i) => ({ channel: 'deeper-batch', name: `x${i}` }))),
      });
      assert.equal(refused, undefined);
    } finally {
      errors.restore();
    }
    assert.match(String(errors.calls[0]?.[0]), /a batch holds at most 10 events, this has 11/);

    // From the palette: asked where the events come from (here the selection), then confirmed.
    const batch = JSON.stringify(
      [
        { channel: 'deeper-batch', name: 'sel1', data: { n: 1 } },
        { channel: 'deeper-batch', name: 'sel2' },
      ],
      null,
      2,
    );
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `// notes\n${batch}\n` });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(doc.positionAt(doc.getText().indexOf('[')), doc.positionAt(doc.getText().lastIndexOf(']') + 1));
    const picks = stubWindow('showQuickPick', (items: readonly vscode.QuickPickItem[]) => items.find((i) => i.label.startsWith('$(selection)')));
    let confirm = stubWindow('showInformationMessage', () => undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.publishBatch'), undefined, 'declined: nothing sent');
      const [question, modal] = confirm.calls[0] as [string, { detail?: string }];
      assert.equal(question, 'Publish 2 events on Local Sandbox?');
      assert.match(modal.detail ?? '', /^From the selection in Untitled-\d+, in this order:\n1\. deeper-batch · sel1\n2\. deeper-batch · sel2$/);
      confirm.restore();
      confirm = stubWindow('showInformationMessage', (message: string) => (message.startsWith('Publish 2 events') ? 'Publish' : undefined));
      await vscode.commands.executeCommand('apiWorkbench.realtime.publishBatch');
      const after = await logContains('deeper-batch  sel2');
      assert.ok(after.indexOf('deeper-batch  sel1') < after.indexOf('deeper-batch  sel2'));
    } finally {
      picks.restore();
      confirm.restore();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    const presence = await vscode.commands.executeCommand<ChannelReport>('apiWorkbench.realtime.channelInfo', { channel: 'presence-demo', show: false });
    assert.equal(presence?.info.occupied, true);
    assert.ok((presence.info.user_count ?? 0) >= 2);
    assert.ok(presence.users?.includes('ada'));
    const listing = await vscode.commands.executeCommand<Record<string, { subscription_count?: number }>>('apiWorkbench.realtime.channelInfo', { show: false });
    assert.equal(listing?.['deeper-batch']?.subscription_count, 1);
  });
});
