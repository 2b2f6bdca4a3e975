// The request history in the real editor, against the local sandbox: a maps command lands in the
// History view redacted (and the file it is kept in holds no key), re-runs, becomes a notebook cell
// the engine parses; keepResponses=false keeps no body; the Testing view runs a notebook's cells
// with a failing assertion reported as expected/actual at its line.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CopiedCode } from '../../../src/editor/codeCopy';
import type { AddedCell } from '../../../src/editor/history/commands';
import type { HistoryEntry } from '../../../src/history/model';
import type { ExtensionApi } from '../../../src/extension';
import { parseNotebook } from '../../../src/notebook/api';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { takeScreenshot } from '../harness/suiteApi';
import { quietPeriod, sandboxKeys, trustedSandbox, userConfig, waitFor } from './kit';

type Outcome = { state: string; messages: readonly vscode.TestMessage[] };

/** Watches what runs of the controller report, by wrapping each run it creates; restore() unwraps. */
function watchTestRuns(controller: vscode.TestController): { outcomes: Map<string, Outcome>; restore: () => void } {
  const outcomes = new Map<string, Outcome>();
  const create = controller.createTestRun.bind(controller);
  controller.createTestRun = (request, name, persist) => {
    const run = create(request, name, persist);
    return Object.assign(Object.create(run) as vscode.TestRun, {
      passed: (t: vscode.TestItem, d?: number) => (outcomes.set(t.id, { state: 'passed', messages: [] }), run.passed(t, d)),
      failed: (t: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], d?: number) => (
        outcomes.set(t.id, { state: 'failed', messages: [m].flat() }),
        run.failed(t, m, d)
      ),
      errored: (t: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], d?: number) => (
        outcomes.set(t.id, { state: 'errored', messages: [m].flat() }),
        run.errored(t, m, d)
      ),
      skipped: (t: vscode.TestItem) => (outcomes.set(t.id, { state: 'skipped', messages: [] }), run.skipped(t)),
    });
  };
  return { outcomes, restore: () => void (controller.createTestRun = create) };
}

describe('history', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let info: SandboxInfo;

  before(async function () {
    ({ api, info } = await trustedSandbox(this));
    await vscode.commands.executeCommand('apiWorkbench.history.clear');
  });

  async function storedText(): Promise<string> {
    await api.services.history.flush();
    return Buffer.from(await vscode.workspace.fs.readFile(api.services.history.file)).toString('utf8');
  }

  function newest(pred: (e: HistoryEntry) => boolean): Promise<HistoryEntry> {
    return waitFor('a history entry', async () => (await api.services.history.entries()).find(pred));
  }

  let searched: HistoryEntry;

  it('a maps command lands in the History view, redacted, and no key reaches workspace storage @smoke', async () => {
    await vscode.commands.executeCommand('apiWorkbench.maps.searchPlaces', { query: 'Lyon' });
    searched = await newest((e) => e.url.endsWith('/v1/places:searchText'));
    assert.equal(searched.origin, 'command');
    assert.equal(searched.service, 'maps');
    assert.equal(searched.connection, 'Local Sandbox');
    assert.equal(searched.status, 200);
    assert.match(searched.request.body ?? '', /Lyon/);
    assert.match(searched.response?.body ?? '', /Lyon/);
    const stored = await storedText();
    assert.ok(stored.includes(searched.id));
    for (const key of sandboxKeys(info)) assert.ok(!stored.includes(key), 'a sandbox key is in the stored history');

    await vscode.commands.executeCommand('apiWorkbench.history.focus');
    await vscode.commands.executeCommand('apiWorkbench.history.show', searched);
    await takeScreenshot('history-view', 800);
  });

  it('re-runs an entry: the same request is sent again and recorded', async () => {
    const again = await vscode.commands.executeCommand<HistoryEntry | undefined>('apiWorkbench.history.rerun', searched);
    assert.ok(again, 're-run returned no entry');
    assert.notEqual(again.id, searched.id);
    assert.equal(again.status, 200);
    assert.equal(again.url, searched.url);
    assert.equal((JSON.parse(again.request.body ?? '{}') as { textQuery?: string }).textQuery, 'Lyon');
    assert.equal((await api.services.history.entries())[0].id, again.id);
  });

  it('adds an entry to a notebook as a request cell the engine parses', async () => {
    const added = await vscode.commands.executeCommand<AddedCell | undefined>('apiWorkbench.history.addToNotebook', searched);
    assert.ok(added);
    // No notebook was in front: a new untitled API notebook holds the cell.
    assert.equal(added.kind, 'notebook');
    const notebook = vscode.workspace.notebookDocuments.find((n) => n.uri.toString() === added.uri.toString());
    assert.ok(notebook && notebook.cellCount === 1, 'the new notebook holds the cell');
    assert.equal(notebook.cellAt(0).document.languageId, 'maps');
    const nb = parseNotebook(added.text, 'added.awb.md');
    assert.deepEqual(nb.problems, []);
    const cells = nb.cells.filter((c) => c.kind === 'code');
    assert.equal(cells.length, 1);
    assert.equal(cells[0].language, 'maps');
    assert.match(cells[0].value, /^POST \/v1\/places:searchText\n/);
    assert.match(cells[0].value, /"textQuery": "Lyon"/);
    assert.match(cells[0].value, /\?\? status == 200$/);
    for (const key of sandboxKeys(info)) assert.ok(!added.text.includes(key) && !notebook.cellAt(0).document.getText().includes(key));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Copy as Code… of an entry: the request in the language picked, to its connection, the key read from the environment', async () => {
    const copied = await vscode.commands.executeCommand<CopiedCode | undefined>('apiWorkbench.history.copyAsCode', searched, 'javascript');
    assert.ok(copied);
    assert.equal(copied.language, 'javascript');
    assert.match(copied.text, /process\.env\.GOOGLE_MAPS_API_KEY/);
    assert.match(copied.text, /Lyon/);
    assert.ok(copied.text.includes(info.maps.baseUrl), 'the code goes to the entry’s connection');
    for (const key of sandboxKeys(info)) assert.ok(!copied.text.includes(key), 'a sandbox key is in the copied code');
    assert.equal(await vscode.env.clipboard.readText(), copied.text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('keepResponses=false keeps the request and its status but no response body', async () => {
    await userConfig().update('history.keepResponses', false, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('apiWorkbench.maps.geocode', { address: 'Lyon, France' });
      const geocoded = await newest((e) => e.url.includes('/geocode/'));
      assert.equal(geocoded.status, 200);
      assert.equal(geocoded.response, undefined);
      const stored = JSON.parse(await storedText()) as { entries: HistoryEntry[] };
      assert.equal(stored.entries.find((e) => e.id === geocoded.id)?.response, undefined);
    } finally {
      await userConfig().update('history.keepResponses', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("the realtime tree's channel listings (background loads) stay out of the History; a command's requests land", async () => {
    await vscode.commands.executeCommand('apiWorkbench.history.clear');
    const listings = async () => (await api.services.history.entries()).filter((e) => e.service === 'realtime' && /\/channels(\?|$)/.test(e.url));
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    // Each subscription changes the channel list: the tree reloads it in the background, from events of a socket a command opened.
    for (const channel of ['history-bg-1', 'history-bg-2', 'history-bg-3']) {
      await vscode.commands.executeCommand('apiWorkbench.realtime.subscribe', channel);
      await vscode.commands.executeCommand('apiWorkbench.realtime.focus');
      await vscode.commands.executeCommand('list.expand');
    }
    await takeScreenshot('history-no-background-listings', 500);
    // Nothing to wait on for a request that must not be recorded: a window for a late one to land.
    await quietPeriod(1_000);
    const shown = await listings();
    assert.deepEqual(
      shown.map((e) => `${e.method} ${e.url} (${e.command ?? e.origin})`),
      [],
    );
    for (const channel of ['history-bg-1', 'history-bg-2', 'history-bg-3']) await vscode.commands.executeCommand('apiWorkbench.realtime.unsubscribe', channel);
  });

  it('a Run All in the notebook editor shows its checks in the Testing view, as a run from there does', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(folder, 'editor-run-tests.awb.md');
    const cell = (name: string, status: number) => [
      '```maps name=' + name,
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: places.id',
      '',
      '{"textQuery": "Lyon"}',
      '',
      `?? status == ${status}`,
      '```',
      '',
    ];
    writeFileSync(file, ['# Editor run', '', ...cell('good', 200), ...cell('bad', 201)].join('\n'));
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const { outcomes, restore } = watchTestRuns(api.testing.controller);
    try {
      await api.notebook().controller.runAll(doc);
      await waitFor('the run in the Testing view', () => outcomes.size === 2);
    } finally {
      restore();
    }
    const fileItem = api.testing.controller.items.get(uri.toString());
    assert.ok(fileItem, 'the notebook is listed in the Testing view');
    const states: string[] = [];
    fileItem.children.forEach((c) => void states.push(`${c.label}: ${outcomes.get(c.id)?.state}`));
    assert.deepEqual(states, ['good: POST /v1/places:searchText: passed', 'bad: POST /v1/places:searchText: failed']);
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await takeScreenshot('testing-view-after-notebook-run', 1000);
  });

  it('the Testing view runs a notebook: a failing assertion shows expected and actual at its line', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(folder, 'history-tests.awb.md');
    const text = [
      '# Checks',
      '',
      '```maps name=lyon',
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: places.id,places.displayName',
      '',
      '{"textQuery": "Lyon"}',
      '',
      '?? status == 200',
      '?? json.places[0].displayName.text contains Lyon',
      '```',
      '',
      '```maps name=wrong',
      'POST /v1/places:searchText',
      'X-Goog-FieldMask: places.id',
      '',
      '{"textQuery": "{{lyon.json.places[0].displayName.text}}"}',
      '',
      '?? status == 201',
      '```',
      '',
    ].join('\n');
    writeFileSync(file, text);
    const uri = vscode.Uri.file(file);
    const { controller, profile } = api.testing;
    await controller.resolveHandler?.(undefined);
    const fileItem = await waitFor('the notebook in the Testing view', () => controller.items.get(uri.toString()));
    const items: vscode.TestItem[] = [];
    fileItem.children.forEach((c) => void items.push(c));
    assert.deepEqual(
      items.map((i) => i.label),
      ['lyon: POST /v1/places:searchText', 'wrong: POST /v1/places:searchText'],
    );
    assert.equal(items[1].range?.start.line, 12);

    const { outcomes, restore } = watchTestRuns(controller);
    try {
      const cts = new vscode.CancellationTokenSource();
      await profile.runHandler(new vscode.TestRunRequest([fileItem]), cts.token);
    } finally {
      restore();
    }
    assert.equal(outcomes.get(items[0].id)?.state, 'passed');
    const failed = outcomes.get(items[1].id);
    assert.equal(failed?.state, 'failed');
    const [message] = failed.messages;
    assert.equal(message.expectedOutput, '201');
    assert.equal(message.actualOutput, '200');
    assert.equal(message.location?.uri.fsPath, uri.fsPath);
    assert.equal(message.location?.range.start.line, 18, 'the ?? status line (line 19)');
    // The run's requests are in the history too, with the notebook cell they came from.
    const fromNotebook = await newest((e) => e.origin === 'notebook' && e.cell?.name === 'wrong');
    assert.deepEqual([fromNotebook.cell?.passed, fromNotebook.cell?.failed], [0, 1]);
  });
});
