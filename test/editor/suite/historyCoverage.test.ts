// What the History holds, as the README promises it: every request the user sent (an http cell, a
// Playground message, a Compare run), no listing made in the background to offer choices (the
// channels Subscribe… suggests), and tooltips that show a URL as it was sent.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { historyTooltip } from '../../../src/editor/history/tree';
import type { PlaygroundPanel } from '../../../src/editor/llm/playgroundPanel';
import type { ExtensionApi } from '../../../src/extension';
import { defaultSettings } from '../../../src/services/llm/playgroundMessages';
import type { HistoryEntry } from '../../../src/history/model';
import { canDriveWebviews, inWebview } from '../harness/suiteApi';
import { captureQuickPicks, SANDBOX, SLOW_UI_WAIT_MS, stubWindow, trustedSandbox, waitFor, within } from './kit';

describe('history: every request the user sent, no background listing', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    await api.services.connections.setActive('llm', SANDBOX);
  });

  /** Entries recorded after `before` (ids), newest first. */
  async function since(before: ReadonlySet<string>): Promise<HistoryEntry[]> {
    return (await api.services.history.entries()).filter((e) => !before.has(e.id));
  }
  const ids = async () => new Set((await api.services.history.entries()).map((e) => e.id));

  it('an http cell’s request is in the History, with its cell', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end('{"ok": true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const allow = stubWindow('showWarningMessage', () => 'Allow');
    try {
      const before = await ids();
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder);
      const uri = vscode.Uri.joinPath(folder, 'history-http.awb.md');
      await vscode.workspace.fs.writeFile(
        uri,
        new TextEncoder().encode(`\`\`\`http name=orders\nGET http://${host}/orders?page=2\n\n?? status == 200\n\`\`\`\n`),
      );
      const doc = await vscode.workspace.openNotebookDocument(uri);
      const [result] = await api.notebook().controller.runAll(doc);
      assert.equal(result?.ok, true, JSON.stringify(result));
      const entry = await waitFor('the http cell in the History', async () => (await since(before)).find((e) => e.url.endsWith('/orders?page=2')));
      assert.equal(entry.method, 'GET');
      assert.equal(entry.status, 200);
      assert.equal(entry.cell?.name, 'orders');
      assert.equal(entry.cell?.passed, 1);
      await vscode.workspace.fs.delete(uri);
    } finally {
      allow.restore();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a Playground message is in the History, sent by the Playground', async () => {
    const panel = await vscode.commands.executeCommand<PlaygroundPanel>('apiWorkbench.llm.openPlayground', { connection: SANDBOX, model: 'sandbox-chat' });
    try {
      await within(panel.whenRendered(0), 'the playground webview to draw', SLOW_UI_WAIT_MS);
      const before = await ids();
      await panel.receive({ type: 'send', text: 'Say hello.', settings: defaultSettings('sandbox-chat') });
      const sent = await since(before);
      const chat = sent.find((e) => e.service === 'llm' && /\/(chat\/completions|responses)$/.test(e.url));
      assert.ok(chat, `the playground's request: ${sent.map((e) => `${e.method} ${e.url}`).join(', ')}`);
      assert.equal(chat.command, 'apiWorkbench.llm.openPlayground');
      assert.match(chat.request.body ?? '', /Say hello\./);
    } finally {
      panel.dispose();
    }
  });

  it('a Compare run started from its panel’s Run button is in the History, one request per model', async function () {
    if (!canDriveWebviews()) this.skip();
    await vscode.commands.executeCommand('apiWorkbench.llm.compare');
    const before = await ids();
    await inWebview({ selector: '#prompt', action: 'fill', text: 'One word: what is an API?' });
    await inWebview({ selector: '#run', action: 'click' });
    const chats = await waitFor('the compared models’ requests in the History', async () => {
      const found = (await since(before)).filter((e) => e.service === 'llm' && /One word: what is an API\?/.test(e.request.body ?? ''));
      return found.length >= 2 ? found : undefined;
    });
    for (const e of chats) assert.equal(e.command, 'apiWorkbench.llm.compare');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Subscribe…’s suggestions (the occupied channels, listed over REST) are not in the History', async () => {
    const before = await ids();
    const capture = captureQuickPicks();
    try {
      const running = vscode.commands.executeCommand('apiWorkbench.realtime.subscribe');
      const qp = await waitFor('the channel picker', () => capture.picks[0]);
      qp.hide();
      await running;
    } finally {
      capture.restore();
    }
    const listed = (await since(before)).filter((e) => /\/channels(\?|$)/.test(e.url));
    assert.deepEqual(
      listed.map((e) => `${e.method} ${e.url} (${e.command ?? 'no command'})`),
      [],
    );
  });

  it('a tooltip shows the URL as it was sent, without Markdown escapes', () => {
    const entry: HistoryEntry = {
      id: 'tooltip',
      at: new Date().toISOString(),
      origin: 'command',
      command: 'apiWorkbench.realtime.publish',
      service: 'realtime',
      connection: SANDBOX,
      method: 'POST',
      url: 'http://127.0.0.1:1/apps/app_1/events?auth_key=key_1&auth_timestamp=1&body_md5=abc',
      request: { headers: {} },
      status: 200,
    };
    const tip = historyTooltip(entry);
    const text = typeof tip === 'string' ? tip : (tip as vscode.MarkdownString).value;
    assert.ok(text.includes(entry.url), text);
    assert.doesNotMatch(text, /\\[_*[\]()#`]/);
  });
});
