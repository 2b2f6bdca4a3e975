// The Realtime Inspector (a view in the panel) and the realtime edges a new user met, in the real
// editor against the sandbox: a published message appears as a row the page drew; filters (and a bad regex) change
// what the page shows; pause holds and resume shows every held message; republish (edited, to
// another channel, confirmed) arrives; the tree drops its Connect hint once connected; Subscribe
// suggests occupied and recent channels and explains the prefixes.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { InspectorInput, InspectorSnapshot } from '../../../src/editor/realtime/inspector';
import type { TreeNode } from '../../../src/editor/tree';
import type { ExtensionApi } from '../../../src/extension';
import type { SubscriptionSnapshot } from '../../../src/services/realtime/client';
import { takeScreenshot } from '../harness/suiteApi';
import { acceptItem, captureQuickPicks, findConnectionNode, loadedChildren, SANDBOX, SLOW_UI_WAIT_MS, stubWindow, trustedSandbox, waitFor } from './kit';

const CHANNEL = 'inspector-orders';
const MASTER_KEY = Buffer.from('inspector-test-master-key-32-by!').toString('base64');

describe('realtime inspector and edges', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const inspector = (input: InspectorInput = {}) => vscode.commands.executeCommand<InspectorSnapshot>('apiWorkbench.realtime.showInspector', input);
  const publish = (event: string, data: string, channel = CHANNEL) => vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel, event, data });
  /** Polls the inspector until `ok` holds for what the host counts and the page reports drawing. */
  const inspectorUntil = async (what: string, ok: (s: InspectorSnapshot) => boolean) => {
    let last: InspectorSnapshot | undefined;
    try {
      return await waitFor(
        what,
        async () => {
          last = await inspector();
          return ok(last) ? last : undefined;
        },
        30_000,
      );
    } catch (e) {
      throw new Error(`${e instanceof Error ? e.message : String(e)}; the inspector said ${JSON.stringify(last)}`, { cause: e });
    }
  };

  const realtimeLogShown = () => vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'output' && /Realtime/.test(e.document.uri.path));

  /** Runs Subscribe to Channel… and picks the item `choose` returns from its picker (none: Escape). */
  async function subscribeThroughPicker(
    choose: (items: readonly vscode.QuickPickItem[]) => vscode.QuickPickItem | undefined,
  ): Promise<{ snap: SubscriptionSnapshot | undefined; items: vscode.QuickPickItem[] }> {
    // Subscribing shows the realtime log; the panel opening a moment later moves focus, which closes
    // a quick pick that has just opened (under load the two met: the test then waited for an item
    // of a picker no longer on screen). A picker closed before it was answered is opened again, as a
    // user would.
    for (let attempt = 1; ; attempt++) {
      const capture = captureQuickPicks();
      try {
        const running = vscode.commands.executeCommand<SubscriptionSnapshot | undefined>('apiWorkbench.realtime.subscribe');
        const qp = await waitFor('the channel picker', () => capture.picks[0]);
        let closedEarly = false;
        let answering = false;
        const closed = new Promise<void>((resolve) =>
          qp.onDidHide(() => {
            if (!answering) closedEarly = true;
            resolve();
          }),
        );
        const items = [...qp.items];
        const item = choose(items);
        // The workbench reports the first active item once the picker is on screen: choose after that.
        await waitFor('the picker on screen', () => qp.activeItems.length > 0 || closedEarly);
        if (!closedEarly) {
          if (item) {
            // Its wait for the item is moot once the picker has closed.
            const accepting = acceptItem(qp, item).catch((e: unknown) => {
              if (!closedEarly) throw e;
            });
            await Promise.race([accepting, closed]);
            if (!closedEarly) await accepting;
          } else {
            answering = true;
            qp.hide();
          }
        }
        const snap = await running;
        if (item && snap === undefined && closedEarly && attempt < 3) continue;
        // Subscribing shows the realtime log a moment after the command returns: once it is on
        // screen its panel can no longer take the focus from the next picker (and close it).
        if (snap) await waitFor('the realtime log on screen after subscribing', realtimeLogShown, SLOW_UI_WAIT_MS);
        return { snap, items };
      } finally {
        capture.restore();
      }
    }
  }

  async function connectionChildren(): Promise<TreeNode[]> {
    const node = await findConnectionNode(api, 'realtime', SANDBOX);
    assert.ok(node, 'no Local Sandbox node');
    return loadedChildren(node);
  }

  it('the tree drops "Connect to subscribe…" once connected (and shows it again after Disconnect)', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.disconnect');
    await waitFor('the Connect hint while disconnected', async () => (await connectionChildren()).some((n) => n.id.endsWith('/connect')));
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    await waitFor('the Connect hint gone once connected', async () => !(await connectionChildren()).some((n) => n.id.endsWith('/connect')));
  });

  it('Subscribe suggests occupied channels (REST /channels) and recent ones, and explains the prefixes', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', 'presence-demo');
    let { snap, items } = await subscribeThroughPicker((given) => given.find((i) => i.label === 'presence-demo'));
    assert.equal(snap?.state, 'subscribed');
    const labels = items.map((i) => i.label);
    assert.ok(labels.indexOf('Occupied now') < labels.indexOf('presence-demo'), `the demo presence channel is listed as occupied: ${labels.join(' | ')}`);
    assert.match(String(items.find((i) => i.label === 'presence-demo')?.description), /presence.*members/);
    for (const prefix of ['private-', 'presence-', 'private-encrypted-', 'cache-'])
      assert.ok(
        items.some((i) => i.label.endsWith(`${prefix}…`) && i.description),
        `explains ${prefix}`,
      );

    // A prefix starts the name; the channel typed is then offered under Recent.
    const box = stubWindow('showInputBox', (opts: vscode.InputBoxOptions) => `${opts.value ?? ''}inspector-recent`);
    try {
      ({ snap } = await subscribeThroughPicker((given) => given.find((i) => i.label.endsWith(' cache-…'))));
    } finally {
      box.restore();
    }
    assert.equal(snap?.channel, 'cache-inspector-recent');
    assert.equal((box.calls[0][0] as vscode.InputBoxOptions).value, 'cache-', 'the box starts with the prefix picked');
    assert.match(String((box.calls[0][0] as vscode.InputBoxOptions).prompt), /private-encrypted-/);
    await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', 'cache-inspector-recent');
    ({ items } = await subscribeThroughPicker(() => undefined));
    const recentAt = items.findIndex((i) => i.label === 'Recent');
    assert.ok(recentAt >= 0 && items.findIndex((i) => i.label === 'cache-inspector-recent') > recentAt, 'the channel just used is under Recent');
  });

  it('a message published to the sandbox appears as a row the page drew, and opens with its full JSON @smoke', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', CHANNEL);
    await inspector({ clear: true, filter: { channel: CHANNEL, event: '', regex: '' }, paused: false });
    await publish('order-placed', '{"id":7,"items":["tea","cake"]}');
    // Other channels this window subscribed to earlier may deliver meanwhile: the page's header is
    // drawn a moment after the counts change, so wait until both tell the same story.
    const inStep = (x: InspectorSnapshot) => (x.page?.header ?? '').includes(`${x.counts.received} received = 1 shown + ${x.counts.filteredOut} filtered out`);
    const s = await inspectorUntil(
      'the row on the page, its header in step with the counts',
      (x) => x.page?.total === 1 && x.page.seqs.length === 1 && inStep(x),
    );
    assert.equal(s.counts.shown, 1);
    // Other channels this window subscribed to earlier (suite order varies) may add filtered-out messages.
    assert.ok((s.page?.header ?? '').includes(`${s.counts.received} received = 1 shown + ${s.counts.filteredOut} filtered out`), s.page?.header);
    assert.equal(s.counts.received, 1 + s.counts.filteredOut + s.counts.held + s.counts.dropped, 'the counts add up');
    // Asked again on each poll: one in a few isolated runs the first opening did not stick (see the report).
    const opened = await waitFor(
      'the message opened',
      async () => {
        const x = await inspector({ select: s.page!.seqs[0] });
        return x.detail?.seq === s.page!.seqs[0] ? x : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      { channel: opened.detail?.channel, event: opened.detail?.event, decrypted: opened.detail?.decrypted },
      { channel: CHANNEL, event: 'order-placed', decrypted: false },
    );
    assert.equal(opened.detail?.data, '{\n  "id": 7,\n  "items": [\n    "tea",\n    "cake"\n  ]\n}');
  });

  it('filters by event and a regular expression over the data; a bad regex says so and keeps the last filter', async () => {
    for (const [event, n] of [
      ['order-shipped', 1],
      ['order-shipped', 2],
      ['order-refunded', 3],
    ] as const)
      await publish(event, `{"n":${n},"note":"item ${n === 2 ? 'fragile' : 'plain'}"}`);
    await inspector({ filter: { event: 'shipped' } });
    let s = await inspectorUntil('two shipped rows', (x) => x.page?.total === 2);
    assert.equal(s.counts.received, s.counts.shown + s.counts.filteredOut + s.counts.held + s.counts.dropped, 'the counts add up');
    await inspector({ filter: { regex: 'frag[a-z]+' } });
    await inspectorUntil('one fragile row', (x) => x.page?.total === 1);
    await inspector({ filter: { regex: '(fragile' } });
    s = await inspectorUntil('the bad regex refused', (x) => x.filterProblem !== undefined);
    assert.equal(s.filter.regex, 'frag[a-z]+', 'the last valid filter stays');
    assert.equal(s.page?.total, 1);
    // A pattern that backtracks for ever in JavaScript's engine runs in linear time here, over a long message (9 KB: the channel limit is 10 KB).
    await publish('order-shipped', JSON.stringify({ note: `${'a'.repeat(9_000)}!` }));
    await inspector({ filter: { regex: '(a+)+$' } });
    // No data ends in a run of a (each is JSON): the page drawn again with no row says the filter answered.
    await inspectorUntil('the catastrophic pattern answered', (x) => x.filter.regex === '(a+)+$' && x.filterProblem === undefined && x.page?.total === 0);
    // Look-behind has no linear-time form: refused with a message naming the pattern, the last filter kept.
    await inspector({ filter: { regex: '(?<=item )fragile' } });
    s = await inspectorUntil('look-behind refused', (x) => x.filterProblem !== undefined && x.filter.regex === '(a+)+$');
    assert.match(s.filterProblem ?? '', /\(\?<=item \)fragile/);
    await vscode.commands.executeCommand('notifications.clearAll');
    const shot = await takeScreenshot('realtime-inspector-refused-pattern', 1_500);
    if (shot) assert.ok(readFileSync(shot).length > 10_000, 'a real image was written');
  });

  it('Pause: messages keep arriving and are counted; Resume shows every one of them', async () => {
    await inspector({ filter: { channel: CHANNEL, event: 'burst', regex: '' } });
    await inspectorUntil('the burst filter', (x) => x.page?.total === 0 && x.filter.event === 'burst');
    await inspector({ paused: true });
    await inspectorUntil('paused', (x) => x.counts.paused);
    for (let i = 0; i < 20; i++) await publish('burst', `{"i":${i}}`);
    // Other subscribed channels (the demo's chat) are held too: at least the 20 published here.
    const held = await inspectorUntil('20 held, on the page too', (x) => x.counts.held >= 20 && /[1-9][\d,]* held while paused/.test(x.page?.header ?? ''));
    assert.equal(held.page?.total, 0, 'nothing new on the page while paused');
    assert.match(held.page?.header ?? '', /held while paused/);
    await inspector({ paused: false });
    const resumed = await inspectorUntil('all 20 shown after resume', (x) => !x.counts.paused && x.page?.total === 20);
    assert.equal(resumed.counts.held, 0);
    assert.equal(resumed.counts.received, resumed.counts.shown + resumed.counts.filteredOut + resumed.counts.dropped);
  });

  it('Republish: an edited copy to another channel after a confirmation showing it; dismissing sends nothing', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', 'inspector-copy');
    // Live again even if the pause test failed half-way.
    await inspector({ paused: false });
    await inspectorUntil('not paused', (x) => !x.counts.paused);
    const confirm = stubWindow('showWarningMessage', () => undefined);
    let s: InspectorSnapshot | undefined;
    try {
      s = await inspector({ republish: { channel: 'inspector-copy', data: '{"edited": true}' } });
    } finally {
      confirm.restore();
    }
    assert.equal(s?.republished, undefined, 'dismissed: nothing sent');
    assert.match(String(confirm.calls[0]?.[0]), /Republish burst to inspector-copy \(it came from inspector-orders\)/);
    assert.match(String((confirm.calls[0]?.[1] as { detail?: string }).detail), /\{"edited":true\}/);
    const ok = stubWindow('showWarningMessage', () => 'Republish');
    try {
      s = await inspector({ republish: { channel: 'inspector-copy', data: '{"edited": true}' } });
    } finally {
      ok.restore();
    }
    assert.deepEqual(s?.republished, { connection: SANDBOX, channel: 'inspector-copy', event: 'burst', data: '{"edited":true}' });
    // The filter is sent again while waiting: once in CI the page kept the previous filter (a message
    // to the panel that did not arrive), and setting the same filter twice changes nothing.
    const copyOnly = { filter: { channel: 'inspector-copy', event: '', regex: '' } };
    await waitFor(
      'the republished row',
      async () => {
        const snap = await inspector(copyOnly);
        return snap?.page?.total === 1 ? snap : undefined;
      },
      30_000,
    );
  });

  it('Republish to an encrypted channel encrypts with the master key (subscribers open it); without a key it is refused, nothing sent', async () => {
    const channel = 'private-encrypted-inspector';
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: MASTER_KEY }), 'stored');
    await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', channel);
    await inspector({ filter: { channel, event: '', regex: '' }, paused: false });
    await publish('sealed', '{"n":1}', channel);
    await inspectorUntil('the sealed row', (x) => x.page?.total === 1);
    const ok = stubWindow('showWarningMessage', () => 'Republish');
    let s: InspectorSnapshot | undefined;
    try {
      s = await inspector({ republish: { channel, event: 'sealed', data: '{"n": 2}' } });
    } finally {
      ok.restore();
    }
    assert.match(String((ok.calls[0]?.[1] as { detail?: string }).detail), /Encrypted with the master key/);
    assert.deepEqual(s?.republished, { connection: SANDBOX, channel, event: 'sealed', data: '{"n":2}' });
    // The subscription opened it with the key: sent unboxed, it would be a decryption failure, not a row.
    const two = await inspectorUntil('the republished row', (x) => x.page?.total === 2);
    const opened = await waitFor(
      'the republished message opened',
      async () => {
        for (const seq of two.page!.seqs) {
          const x = await inspector({ select: seq });
          if (x.detail?.seq === seq && x.detail.data === '{\n  "n": 2\n}') return x;
        }
        return undefined;
      },
      30_000,
    );
    assert.equal(opened.detail?.decrypted, true);

    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: '' }), 'removed');
    const refused = stubWindow('showWarningMessage', () => 'Republish');
    try {
      s = await inspector({ republish: { channel, event: 'sealed', data: '{"n": 3}' } });
    } finally {
      refused.restore();
    }
    assert.equal(s?.republished, undefined, 'nothing sent without a key');
    assert.match(String(refused.calls[0]?.[0]), /Not republished: private-encrypted-inspector is an encrypted channel .* no encryption master key/);
    assert.equal((refused.calls[0]?.[1] as { modal?: boolean } | undefined)?.modal, undefined, 'no confirmation was asked');
    // Nothing went out: a marker published after the refusal arrives, and with it everything sent
    // before it (one channel's messages arrive in order), yet the channel still has two sealed rows.
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: MASTER_KEY }), 'stored');
    await publish('marker', '{"n":4}', channel);
    await inspector({ filter: { channel, event: 'marker', regex: '' } });
    await inspectorUntil('the marker row', (x) => x.filter.event === 'marker' && x.page?.total === 1);
    await inspector({ filter: { channel, event: 'sealed', regex: '' } });
    await inspectorUntil('two sealed rows, no third', (x) => x.filter.event === 'sealed' && x.page?.total === 2);
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: '' }), 'removed');
    await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', channel);
  });

  it('the inspector is a view in the panel (beside the Output), not an editor tab; closing the panel and showing it again rebuilds the page', async () => {
    await inspector();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
    assert.ok(!tabs.includes('Realtime Inspector'), `no editor tab: ${tabs.join(' | ')}`);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await publish('while-hidden', '{"n":1}');
    const s = await inspectorUntil('the page drawn again once shown', (x) => x.page !== undefined && x.counts.received > 0);
    assert.ok(s.updates > 0);
  });

  it('screenshot: the inspector with a filter applied and a message opened', async () => {
    await vscode.commands.executeCommand('apiWorkbench.realtime.focus');
    for (let i = 0; i < 12; i++)
      await publish(
        i % 3 ? 'order-updated' : 'order-placed',
        JSON.stringify({ id: `ord_${1000 + i}`, status: i % 2 ? 'shipped' : 'packed', total: 10 + i * 2.5, items: [{ sku: 'tea', qty: 1 + (i % 3) }] }),
      );
    await inspector({ filter: { channel: 'orders', event: 'order', regex: '"status":"ship' } });
    const s = await inspectorUntil('the filtered rows', (x) => (x.page?.total ?? 0) >= 6);
    await inspector({ select: s.page!.seqs[s.page!.seqs.length - 2] });
    await inspectorUntil('the message opened', (x) => x.detail !== undefined);
    await vscode.commands.executeCommand('notifications.clearAll');
    // The panel is short by default: the rows and the opened message need the room.
    await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
    // The trees beside the inspector take a moment to render (bounded wait, not an assertion).
    const shot = await takeScreenshot('realtime-inspector', 2_500);
    if (shot) assert.ok(readFileSync(shot).length > 10_000, 'a real image was written');
  });
});
