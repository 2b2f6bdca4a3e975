// Realtime in the real editor, against the local sandbox (which publishes demo traffic): connect,
// subscribe, publish from the command and find the event in the realtime log; presence members in
// the tree; webhooks (genuine and forged) in the log; screenshots of the live log and the tree.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Published } from '../../../src/editor/realtime/commands';
import type { ReceiverInfo } from '../../../src/editor/realtime/webhooks';
import type { ConnectionNode, TreeNode } from '../../../src/editor/tree';
import type { ExtensionApi } from '../../../src/extension';
import type { SubscriptionSnapshot } from '../../../src/services/realtime/client';
import { takeScreenshot } from '../harness/suiteApi';
import { acceptLabel, captureQuickPicks, findConnectionNode, loadedChildren, SANDBOX, stubWindow, treeLabel, trustedSandbox, typeInto, waitFor } from './kit';

describe('realtime', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'awb-realtime-'));

  before(async function () {
    ({ api } = await trustedSandbox(this));
    assert.equal(api.services.connections.active('realtime')?.name, 'Local Sandbox');
  });

  after(async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.stopWebhookReceiver');
  });

  async function connectionNode(): Promise<ConnectionNode> {
    const node = await findConnectionNode(api, 'realtime', SANDBOX);
    assert.ok(node, 'no Local Sandbox node in the realtime view');
    return node;
  }

  /** The loaded children of the sandbox connection (not the Loading… node). */
  async function channelNodes(): Promise<TreeNode[]> {
    return loadedChildren(await connectionNode());
  }

  async function channelNode(name: string): Promise<TreeNode> {
    return waitFor(`channel ${name} in the tree`, async () => (await channelNodes()).find((n) => n.id.endsWith(`/ch/${name}`)));
  }

  /** What the realtime log holds, through Save Realtime Log… (the lines written to the output channel). */
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

  it('Connect: the connection node shows connected with its socket id, and the log says so @smoke', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    const item = await waitFor('connected node', async () => {
      const it = await (await connectionNode()).toTreeItem();
      return /connected · socket \d+\.\d+/.test(String(it.description)) ? it : undefined;
    });
    assert.equal(item.contextValue, 'realtime.connection.connected');
    await logContains(/\[Local Sandbox\] connected \(socket \d+\.\d+\)/);
  });

  it('subscribe to a sandbox channel, publish from the command, and the log shows the event', async () => {
    const snap = await vscode.commands.executeCommand<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', 'test-orders');
    assert.equal(snap?.state, 'subscribed');
    const out = await vscode.commands.executeCommand<Published>('apiWorkbench.realtime.publish', {
      channel: 'test-orders',
      event: 'order-placed',
      data: '{ "id": 42,\n  "items": ["tea"] }',
    });
    assert.deepEqual(out, { connection: 'Local Sandbox', channel: 'test-orders', event: 'order-placed', data: '{"id":42,"items":["tea"]}' });
    const text = await logContains('test-orders  order-placed  {"id":42,"items":["tea"]}');
    assert.match(text, /\d\d:\d\d:\d\d\.\d{3} {2}test-orders {2}order-placed {2}/, 'time, channel, event, compact data');
    const item = await (await channelNode('test-orders')).toTreeItem();
    assert.equal(item.contextValue, 'realtime.channel.subscribed');
    assert.match(String(item.description), /subscribed/);
  });

  it('the walkthrough’s Watch demo-ticker opens the realtime log; the connection row says one state', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.disconnect');
    await channelNodes();
    const description = String((await (await connectionNode()).toTreeItem()).description);
    assert.equal(description.match(/connected/g)?.length, 1, `one state: ${description}`);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    const logShown = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output' && /Realtime/.test(e.document.uri.path));
    assert.equal(logShown(), false, 'the log is closed before');
    const snap = await vscode.commands.executeCommand<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', 'demo-ticker');
    assert.ok(snap);
    await waitFor('the realtime log to be shown', logShown);
    await logContains(/demo-ticker {2}price {2}/);
    await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', 'demo-ticker');
  });

  it('tree actions: Publish Here asks only for the event and data, and confirms; Copy Channel Name copies the name', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const node = await channelNode('test-orders');
    const answers = ['from-tree', '{"tree": true}'];
    const input = stubWindow('showInputBox', () => answers.shift());
    const source = stubWindow('showQuickPick', (items: { label: string }[]) => items.find((i) => i.label.includes('Type it')));
    const confirm = stubWindow('showInformationMessage', () => 'Publish');
    let out: Published | undefined;
    try {
      out = await vscode.commands.executeCommand<Published>('apiWorkbench.realtime.publishHere', node);
    } finally {
      input.restore();
      source.restore();
      confirm.restore();
    }
    assert.equal(out?.channel, 'test-orders');
    assert.equal(input.calls.length, 2, 'event name and data; the channel came from the node');
    const dataBox = input.calls[1][0] as vscode.InputBoxOptions;
    assert.equal(dataBox.value, '{ "id": 42,\n  "items": ["tea"] }', 'prefilled with the data last published…');
    assert.match(String(dataBox.prompt), /last published/, '…and it says so');
    assert.match(String(confirm.calls[0]?.[0]), /Publish from-tree to test-orders on Local Sandbox\?/);
    assert.match(String((confirm.calls[0]?.[1] as { detail?: string }).detail), /typed.*\n\{"tree":true\}/s);
    await logContains('test-orders  from-tree  {"tree":true}');
    await vscode.commands.executeCommand('apiWorkbench.realtime.copyChannelName', node);
    assert.equal(await vscode.env.clipboard.readText(), 'test-orders');
  });

  it('Publish Event… asks where the data comes from (the open file, the selection) and shows it before sending', async () => {
    const json = await vscode.workspace.openTextDocument({ language: 'json', content: '{\n  "from": "file"\n}' });
    await vscode.window.showTextDocument(json);
    // Dismissing the confirmation sends nothing: the open JSON file is never published silently.
    let sources: { label: string }[] = [];
    const pickFile = stubWindow('showQuickPick', (items: { label: string }[]) => {
      sources = items;
      return items.find((i) => i.label.includes('All of'));
    });
    const dismiss = stubWindow('showInformationMessage', () => undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel: 'test-orders', event: 'not-sent' }), undefined);
      assert.match(String((dismiss.calls[0]?.[1] as { detail?: string }).detail), /\{"from":"file"\}/, 'the confirmation shows the data');
    } finally {
      dismiss.restore();
    }
    assert.ok(sources.some((i) => i.label.includes('Type it')) && sources.some((i) => i.label.includes('A file')), 'typed, the open file, or a file');
    const confirm = stubWindow('showInformationMessage', () => 'Publish');
    try {
      await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel: 'test-orders', event: 'from-file' });
    } finally {
      pickFile.restore();
    }
    await logContains('test-orders  from-file  {"from":"file"}');

    const text = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'before {"sel": 1} after' });
    const editor = await vscode.window.showTextDocument(text);
    editor.selection = new vscode.Selection(new vscode.Position(0, 7), new vscode.Position(0, 17));
    const pickSelection = stubWindow('showQuickPick', (items: { label: string }[]) => items.find((i) => i.label.includes('The selection')));
    try {
      await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel: 'test-orders', event: 'from-selection' });
    } finally {
      pickSelection.restore();
      confirm.restore();
    }
    const text2 = await logContains('test-orders  from-selection  {"sel":1}');
    assert.ok(!text2.includes('not-sent'), 'the dismissed publish was not sent');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a presence channel shows its members in the tree (the demo people and this editor)', async () => {
    const snap = await vscode.commands.executeCommand<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', 'presence-demo');
    assert.equal(snap?.state, 'subscribed');
    const node = await channelNode('presence-demo');
    const item = await node.toTreeItem();
    assert.match(String(item.description), /3 members/);
    const members = await waitFor('members', async () => {
      const kids = (await node.children?.()) as TreeNode[];
      return kids.length >= 3 ? kids : undefined;
    });
    const labels = (await Promise.all(members.map((m) => treeLabel(m)))).sort();
    assert.deepEqual(
      labels.filter((l) => l === 'ada' || l === 'grace'),
      ['ada', 'grace'],
    );
    const items = await Promise.all(members.map((m) => Promise.resolve(m.toTreeItem())));
    const me = items.find((i) => typeof i.description === 'string' && i.description.includes('(you)'));
    assert.ok(me, 'this editor is listed as a member');
    assert.equal(me.contextValue, 'realtime.member');
  });

  it('a webhook arrives in the log; a forged one is rejected and logged as such', async () => {
    const info = await vscode.commands.executeCommand<ReceiverInfo>('apiWorkbench.realtime.startWebhookReceiver');
    assert.ok(info?.registered, 'the sandbox was told to send webhooks to the receiver');
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'hooked-channel');
    await logContains('webhook channel_occupied  hooked-channel');

    const body = JSON.stringify({ time_ms: Date.now(), events: [{ name: 'channel_occupied', channel: 'forged-channel' }] });
    const res = await fetch(info.url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-pusher-key': api.services.sandbox.info!.realtime.key, 'x-pusher-signature': '0'.repeat(64) },
    });
    assert.equal(res.status, 401);
    const text = await logContains('webhook REJECTED (401, forged: X-Pusher-Signature does not match the body)');
    assert.ok(!text.includes('webhook channel_occupied  forged-channel'), 'the forged event was not logged as a webhook');
  });

  it('Send Client Event… sends on a private channel and refuses a public one with a clear message', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'private-chat');
    const sent = await vscode.commands.executeCommand('apiWorkbench.realtime.sendClientEvent', {
      channel: 'private-chat',
      event: 'client-typing',
      data: '{"typing":true}',
    });
    assert.deepEqual(sent, { connection: 'Local Sandbox', channel: 'private-chat', event: 'client-typing' });
    await logContains('sent client-typing on private-chat');

    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      await vscode.commands.executeCommand('apiWorkbench.realtime.sendClientEvent', { channel: 'test-orders', event: 'client-x', data: '{}' });
    } finally {
      errors.restore();
    }
    assert.match(String(errors.calls[0]?.[0]), /only allowed on private- and presence- channels/);
  });

  it('a publish the service refuses (data over 10 KB) is reported clearly, without Retry', async () => {
    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      const out = await vscode.commands.executeCommand('apiWorkbench.realtime.publish', {
        channel: 'test-orders',
        event: 'too-big',
        data: JSON.stringify({ blob: 'x'.repeat(11_000) }),
      });
      assert.equal(out, undefined);
    } finally {
      errors.restore();
    }
    assert.match(String(errors.calls[0]?.[0]), /10240 bytes/);
    assert.ok(!errors.calls[0]?.includes('Retry'));
  });

  it('screenshot: the live realtime log and the channels tree', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'demo-ticker');
    await logContains('demo-ticker  price  {"symbol":"ACME"');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('apiWorkbench.realtime.focus');
    await vscode.commands.executeCommand('apiWorkbench.realtime.showLog');
    // Let a few ticker events stream in and the views render (bounded; not an assertion).
    const shot = await takeScreenshot('realtime-log', 2_500);
    if (shot) assert.ok(readFileSync(shot).length > 10_000, 'a real image was written');
  });

  it('Subscribe to Channel…: a name typed into the picker (not in the list) is subscribed to on Enter', async () => {
    const capture = captureQuickPicks();
    let snap: SubscriptionSnapshot | undefined;
    try {
      const running = vscode.commands.executeCommand<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe');
      const qp = await waitFor('the channel picker', () => capture.picks[0]);
      await typeInto(qp, 'typed-by-hand', (l) => l[0] === '$(add) Subscribe to typed-by-hand');
      await takeScreenshot('realtime-subscribe-typed', 800);
      await acceptLabel(qp, '$(add) Subscribe to typed-by-hand');
      snap = await running;
    } finally {
      capture.restore();
    }
    assert.equal(snap?.channel, 'typed-by-hand');
    assert.equal(snap?.state, 'subscribed');
    await channelNode('typed-by-hand');
    await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', 'typed-by-hand');
  });

  it('Unsubscribe and Disconnect: the tree and the context menus follow', async () => {
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', 'test-orders'), 'test-orders');
    await waitFor('test-orders unsubscribed in the tree', async () => {
      const node = (await channelNodes()).find((n) => n.id.endsWith('/ch/test-orders'));
      return !node || (await node.toTreeItem()).contextValue === 'realtime.channel';
    });
    await vscode.commands.executeCommand('apiWorkbench.realtime.disconnect');
    const item = await waitFor('disconnected node', async () => {
      const it = await (await connectionNode()).toTreeItem();
      return it.contextValue === 'realtime.connection.disconnected' ? it : undefined;
    });
    assert.match(String(item.description), /disconnected/);
    await logContains(/\[Local Sandbox\] disconnected — disconnected by you/);
  });
});
