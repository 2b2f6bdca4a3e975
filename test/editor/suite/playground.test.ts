// The LLM playground in the real editor: opened for the sandbox's model, a turn whose tool call runs
// against the maps sandbox (shown with its result, then the model's answer), a publish that asks
// first, saved as a notebook cell and reopened from it; Send, Stop, Edit and Resend clicked in the
// webview itself (through the driver's browser) on the slow model.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { PlaygroundPanel } from '../../../src/editor/llm/playgroundPanel';
import { defaultSettings, type PlaygroundSettings, type Turn } from '../../../src/services/llm/playgroundMessages';
import { canDriveWebviews, inWebview, takeScreenshot } from '../harness/suiteApi';
import { SANDBOX, stubWindow, trustedSandbox, waitFor } from './kit';

const kinds = (turns: Turn[]) => turns.map((t) => t.kind).join(',');

async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('llm playground', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  const opened: PlaygroundPanel[] = [];

  before(async function () {
    ({ api } = await trustedSandbox(this));
    for (const service of ['llm', 'maps', 'realtime'] as const) await api.services.connections.setActive(service, SANDBOX);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    for (const p of opened) p.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function open(args: unknown): Promise<PlaygroundPanel> {
    const panel = await vscode.commands.executeCommand<PlaygroundPanel>('apiWorkbench.llm.openPlayground', args);
    assert.ok(panel, 'the command returns the panel');
    opened.push(panel);
    // The webview has loaded and drawn the (empty) conversation.
    await within(panel.whenRendered(0), 30_000, 'the playground webview to draw');
    return panel;
  }

  it('runs a turn whose tool call searches the maps sandbox, shows the call, its result and the answer @smoke', async () => {
    const panel = await open({ connection: SANDBOX, model: 'sandbox-chat' });
    assert.equal(panel.panel.title, `Playground: sandbox-chat (${SANDBOX})`);
    const settings: PlaygroundSettings = {
      ...defaultSettings('sandbox-chat'),
      system: 'You help plan city trips. Use the tools.',
      temperature: 0.7,
      maxTokens: 400,
      tools: ['search_places', 'compute_route', 'publish_to_channel'],
    };
    panel.load(settings, []);

    await panel.receive({ type: 'send', text: 'Search places to visit in Lisbon.', settings });
    const turns = panel.conversation;
    assert.equal(kinds(turns), 'user,assistant,tool,assistant', JSON.stringify(turns));
    const tool = turns[2];
    assert.ok(tool.kind === 'tool' && tool.name === 'search_places' && tool.status === 'done', JSON.stringify(tool));
    assert.equal(tool.ranOn, `Maps · ${SANDBOX}`);
    assert.match(tool.result ?? '', /Lisbo/);
    const answer = turns[3];
    assert.ok(answer.kind === 'assistant' && answer.text.length > 0 && answer.stats?.requestId, JSON.stringify(answer));
    assert.equal(answer.stats.costUsd, 0);

    await within(panel.whenRendered(4), 30_000, 'the webview to draw the four turns');
    // Room for the conversation: no side bar, no toasts.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('llm-playground', 800);
  });

  it('asks before publishing (declined: nothing is sent), saves the conversation as a cell and reopens it', async () => {
    const panel = opened[0];
    const settings: PlaygroundSettings = { ...panel.settings, tools: ['publish_to_channel'] };
    const warn = stubWindow('showWarningMessage', () => undefined);
    try {
      await panel.receive({ type: 'send', text: 'Publish channel: news, event: update, data: hello', settings });
    } finally {
      warn.restore();
    }
    assert.equal(warn.calls.length, 1, 'one confirmation');
    assert.match(String(warn.calls[0][0]), /publish "update" to channel "news"/);
    assert.deepEqual((warn.calls[0][1] as { modal?: boolean }).modal, true);
    const declined = panel.conversation.find((t) => t.kind === 'tool' && t.name === 'publish_to_channel');
    assert.ok(declined?.kind === 'tool' && declined.status === 'declined', JSON.stringify(declined));

    await panel.receive({ type: 'saveAsCell', settings });
    const nb = await waitFor('the new notebook', () =>
      vscode.workspace.notebookDocuments.find((d) => d.notebookType === 'api-workbench-notebook' && d.isUntitled),
    );
    const cell = nb.cellAt(nb.cellCount - 1);
    assert.equal(cell.document.languageId, 'llm');
    const text = cell.document.getText();
    assert.match(text, /^POST \/chat\/completions\n/);
    assert.match(text, /"search_places"/);

    const reopened = await vscode.commands.executeCommand<PlaygroundPanel>('apiWorkbench.llm.openCellInPlayground', cell);
    opened.push(reopened);
    assert.equal(reopened.settings.system, settings.system);
    assert.equal(kinds(reopened.conversation), kinds(panel.conversation.filter((t) => t.kind !== 'error')));

    // Edit the first message and resend it: the turns after it are dropped, the new one is answered.
    await reopened.receive({
      type: 'resend',
      index: 0,
      text: 'Search places to visit in Porto.',
      settings: { ...reopened.settings, tools: ['search_places'] },
    });
    const resent = reopened.conversation;
    assert.equal(kinds(resent), 'user,assistant,tool,assistant', JSON.stringify(resent));
    assert.match((resent[2] as { result?: string }).result ?? '', /Porto/);

    // The untitled notebook is closed without a save prompt.
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  /** A notebook file in the workspace folder (the tools name it relative to the folder). */
  async function workspaceNotebook(name: string, lines: string[]): Promise<vscode.Uri> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite opens a workspace folder');
    const file = vscode.Uri.joinPath(folder.uri, name);
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(lines.join('\n')));
    return file;
  }

  /** The user-defined find_place tool, answered by the named cell of `notebook`. */
  function findPlaceTool(notebook: string, name: string): PlaygroundSettings['customTools'][number] {
    const parameters = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false });
    return { name: 'find_place', description: 'Finds places in a city', parameters, reply: '', cell: { notebook, name } };
  }

  it('a tool of your own runs a notebook cell of the workspace with the arguments as {{args.…}}; a missing cell is a tool error', async () => {
    const file = await workspaceNotebook('playground-tools.awb.md', [
      '```maps name=findPlace',
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: places.id,places.displayName,places.formattedAddress',
      '',
      '{"textQuery": "{{args.city}}", "maxResultCount": 2}',
      '',
      '?? status == 200',
      '```',
      '',
    ]);
    try {
      const panel = opened[0] ?? (await open({ connection: SANDBOX, model: 'sandbox-chat' }));
      const tool = (name: string) => findPlaceTool('playground-tools.awb.md', name);
      const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), customTools: [tool('findPlace')] };
      panel.load(settings, []);
      await panel.receive({ type: 'send', text: 'Find places in Lisbon.', settings });
      const call = panel.conversation[2];
      assert.ok(call?.kind === 'tool' && call.status === 'done', JSON.stringify(panel.conversation));
      assert.equal(call.ranOn, `Notebook cell findPlace · ${SANDBOX}`);
      assert.match(call.result ?? '', /Lisbo/);

      const missing = { ...settings, customTools: [tool('nope')] };
      panel.load(missing, []);
      await panel.receive({ type: 'send', text: 'Find places in Porto.', settings: missing });
      const failed = panel.conversation[2];
      assert.ok(failed?.kind === 'tool' && failed.status === 'failed', JSON.stringify(panel.conversation));
      assert.match(failed.result ?? '', /playground-tools\.awb\.md has no cell named \\"nope\\" \(its named cells: findPlace\)/);
      assert.equal(kinds(panel.conversation), 'user,assistant,tool,assistant', 'the conversation goes on');
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  it('a cell tool runs the notebook as the editor shows it: in its chosen environment, with unsaved edits', async () => {
    const file = await workspaceNotebook('playground-env-tools.awb.md', [
      '```vars',
      'mask = places.id,places.formattedAddress',
      '```',
      '',
      '```vars env=brief',
      'mask = places.id',
      '```',
      '',
      '```maps name=findPlace',
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: {{mask}}',
      '',
      '{"textQuery": "{{args.city}}", "maxResultCount": 2}',
      '```',
      '',
    ]);
    try {
      const panel = opened[0] ?? (await open({ connection: SANDBOX, model: 'sandbox-chat' }));
      const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), customTools: [findPlaceTool('playground-env-tools.awb.md', 'findPlace')] };
      const toolResult = async (): Promise<string> => {
        panel.load(settings, []);
        await panel.receive({ type: 'send', text: 'Find places in Lisbon.', settings });
        const call = panel.conversation[2];
        assert.ok(call?.kind === 'tool' && call.status === 'done', JSON.stringify(panel.conversation));
        return call.result ?? '';
      };
      assert.match(await toolResult(), /formattedAddress/, 'closed, no environment: the file on disk with the plain vars');

      const nb = await vscode.workspace.openNotebookDocument(file);
      await vscode.window.showNotebookDocument(nb);
      await vscode.commands.executeCommand('apiWorkbench.notebook.selectEnvironment', nb.uri, 'brief');
      const brief = await toolResult();
      assert.match(brief, /"id"/);
      assert.doesNotMatch(brief, /formattedAddress/, 'the "brief" environment\'s field mask');

      const cell = nb.getCells().find((c) => c.document.languageId === 'maps')?.document;
      assert.ok(cell, 'the maps cell');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(cell.uri, cell.lineAt(1).range, 'X-Goog-FieldMask: places.displayName');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(nb.isDirty, 'the edit is not saved');
      const edited = await toolResult();
      assert.match(edited, /displayName/, 'the unsaved edit is what ran');
      assert.doesNotMatch(edited, /"id"/);
      await vscode.commands.executeCommand('apiWorkbench.notebook.selectEnvironment', nb.uri, '');
      await vscode.window.showNotebookDocument(nb);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });

  it('buttons clicked in the webview: Send, then Stop keeps the partial answer; Edit and Resend replace the turns after the message', async function () {
    if (!canDriveWebviews()) this.skip();
    // One playground on screen, so the selectors below can only mean this one.
    for (const p of opened.splice(0)) p.dispose();
    const panel = await open({ connection: SANDBOX, model: 'sandbox-chat-slow' });
    const answer = () => panel.conversation.find((t): t is Extract<Turn, { kind: 'assistant' }> => t.kind === 'assistant');
    const words = (t: { text: string } | undefined) => (t?.text.trim() ? t.text.trim().split(/\s+/).length : 0);

    await inWebview({ selector: '#prompt', action: 'fill', text: 'Tell me about Lisbon.' });
    await inWebview({ selector: '#send', action: 'click' });
    await waitFor('a few words of the slow answer', () => words(answer()) >= 3, 30_000);
    await inWebview({ selector: '#stop', action: 'click' });
    const stopped = await waitFor('the answer to stop', () => (answer()?.stopped ? answer() : undefined), 15_000);
    assert.deepEqual(panel.conversation[0], { kind: 'user', text: 'Tell me about Lisbon.' });
    assert.ok(stopped && !stopped.streaming && words(stopped) >= 3, JSON.stringify(stopped));
    // Stop again resolves once the exchange is over: from then on nothing can add to the answer.
    await within(panel.receive({ type: 'stop' }), 15_000, 'the stopped exchange to end');
    assert.equal(answer()?.text, stopped.text, 'nothing arrives after Stop, and what had arrived is kept');
    assert.ok(stopped.stats?.estimated && (stopped.stats.tokensOut ?? 0) > 0, `an estimate instead of "cost unknown": ${JSON.stringify(stopped.stats)}`);
    await within(panel.whenRendered(2), 15_000, 'the webview to draw the stopped answer');
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('llm-playground-stopped', 500);

    await inWebview({ selector: '.turn.user button.link', action: 'click' });
    await inWebview({ selector: '.turn.user textarea.edit', action: 'fill', text: 'Tell me about Porto.' });
    await inWebview({ selector: '.turn.user .row button:not(.secondary)', action: 'click' });
    await waitFor(
      'the resent message to be answered',
      () => panel.conversation[0]?.kind === 'user' && (panel.conversation[0] as { text: string }).text === 'Tell me about Porto.' && words(answer()) >= 2,
      30_000,
    );
    await inWebview({ selector: '#stop', action: 'click' });
    await waitFor('the second answer to stop', () => answer()?.stopped, 15_000);
    assert.equal(kinds(panel.conversation), 'user,assistant', 'the old answer was dropped');
  });

  it('the tab’s title follows the model picked in the page', async () => {
    // Last: earlier tests share the first playground (opened[0]), which this one changes.
    const panel = await open({ connection: SANDBOX, model: 'sandbox-chat' });
    panel.load(defaultSettings('sandbox-chat'), []);
    assert.equal(panel.panel.title, `Playground: sandbox-chat (${SANDBOX})`);
    // What the page posts when the user picks another model in its settings.
    await panel.receive({ type: 'settings', settings: defaultSettings('sandbox-chat-mini') });
    assert.equal(panel.panel.title, `Playground: sandbox-chat-mini (${SANDBOX})`);
  });
});
