// An imported notebook and the example, as a new user meets them: each proposes a name that saves
// as an API notebook (`<source>.awb.md`), the example is the workspace's own when it has one, and
// error locations name the file the user sees.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { NOTEBOOK_TYPE } from '../../../src/features/ids';
import { takeScreenshot } from '../harness/suiteApi';
import { notebookEditorsSettled, SANDBOX, stubWindow, trustedSandbox, waitFor } from './kit';

const encoder = new TextEncoder();

function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with a workspace folder');
  return folder.uri;
}

const fileName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

describe('Imported notebooks and the example', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
  });

  it('Import… proposes <source name>.awb.md, and a failing cell names that file, not an untitled: URI (screenshot)', async () => {
    const source = vscode.Uri.joinPath(workspaceFolder(), 'orders.http');
    await vscode.workspace.fs.writeFile(source, encoder.encode('### Orders\n# @name orders\nGET https://api.openai.com/v1/models/{{undefinedModel}}\n'));
    let doc: vscode.NotebookDocument;
    try {
      doc = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.importFile', source);
    } finally {
      await vscode.workspace.fs.delete(source);
    }
    assert.equal(doc.notebookType, NOTEBOOK_TYPE);
    assert.equal(doc.isUntitled, true, 'unsaved until the user saves it');
    assert.equal(doc.uri.path, vscode.Uri.joinPath(workspaceFolder(), 'orders.awb.md').path, 'Save proposes orders.awb.md next to the source');
    const [result] = await api.notebook().controller.runAll(doc);
    assert.ok(result && !result.ok && result.error, 'the cell with an undefined variable failed');
    assert.match(result.error, /orders\.awb\.md:\d+/, result.error);
    assert.doesNotMatch(result.error, /untitled:|Untitled-\d/, result.error);
    // Save As, as the user sees it: the proposed name (the simple dialog of code-server), then closed.
    // The dialog opens some time after the command starts (at once without screenshots, whose settle
    // time hid that): closing it once right away closed nothing and the Save As waited for ever.
    // So it is closed until the Save As ends, however late it opened.
    let saved = false;
    const saving = Promise.resolve(vscode.commands.executeCommand('workbench.action.files.saveAs')).then(
      () => (saved = true),
      () => (saved = true),
    );
    await takeScreenshot('import-save-as-name', 4000);
    await waitFor('the Save As dialog to close', async () => {
      if (!saved) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return saved || undefined;
    });
    await saving;
  });

  it('Open the Example Notebook: an unsaved sandbox-tour.awb.md, or the workspace’s own sandbox-tour.awb.md when there is one', async () => {
    const own = vscode.Uri.joinPath(workspaceFolder(), 'sandbox-tour.awb.md');
    assert.equal((await vscode.workspace.findFiles('**/sandbox-tour.awb.md')).length, 0, 'no other suite left a sandbox-tour.awb.md in the workspace');
    const copy = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.openExample');
    assert.equal(copy.isUntitled, true);
    assert.equal(fileName(copy.uri), 'sandbox-tour.awb.md');
    // The next notebook editor takes this one's place in the group.
    await notebookEditorsSettled();
    const example = vscode.Uri.joinPath(vscode.Uri.file(api.services.context.extensionPath), 'examples', 'sandbox-tour.awb.md');
    await vscode.workspace.fs.writeFile(own, await vscode.workspace.fs.readFile(example));
    try {
      const doc = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.openExample');
      assert.equal(doc.uri.toString(), own.toString(), 'the workspace’s own file');
      assert.equal(doc.isDirty, false, 'not a dirty copy');
      assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), own.toString(), 'shown');
      await notebookEditorsSettled();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      // The copy's editor is shown again in its place.
      await notebookEditorsSettled();
    } finally {
      await vscode.workspace.fs.delete(own);
    }
  });

  it('cells to api.openai.com say they are not sent with Local Sandbox, and Run against Local Sandbox makes every one relative and runs (screenshot)', async () => {
    const source = vscode.Uri.joinPath(workspaceFolder(), 'openai.http');
    const requests = [
      '### Models\n# @name models\nGET https://api.openai.com/v1/models\n',
      '### One model\n# @name one\nGET https://api.openai.com/v1/models/sandbox-chat\n',
    ];
    await vscode.workspace.fs.writeFile(source, encoder.encode(requests.join('\n')));
    let doc: vscode.NotebookDocument;
    try {
      doc = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.importFile', source);
    } finally {
      await vscode.workspace.fs.delete(source);
    }
    const cells = doc.getCells().filter((c) => c.document.languageId === 'llm');
    assert.equal(cells.length, 2);
    const status = (cell: vscode.NotebookCell) =>
      api
        .notebook()
        .cellStatus.provideCellStatusBarItems(cell)
        .map((i) => i.text);
    for (const cell of cells) {
      assert.ok(status(cell).includes('$(warning) api.openai.com: not sent with Local Sandbox'), status(cell).join(' | '));
      assert.ok(!status(cell).some((t) => t.includes('(active)')), 'no claim that the active connection will send it');
    }
    vscode.window.activeNotebookEditor?.revealRange(new vscode.NotebookRange(0, 2), vscode.NotebookEditorRevealType.AtTop);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('import-real-host-not-sent', 1500);
    // The picker the status item opens offers the cell and the whole notebook first.
    let statusChanged = 0;
    const statusSub = api.notebook().cellStatus.onDidChangeCellStatusBarItems(() => statusChanged++);
    const offered: string[] = [];
    const picker = stubWindow('showQuickPick', (items: readonly vscode.QuickPickItem[]) => {
      offered.push(...items.map((i) => i.label));
      return items.find((i) => i.label.startsWith('$(run-all)'));
    });
    try {
      assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.chooseCellConnection', cells[0]), SANDBOX);
    } finally {
      picker.restore();
    }
    assert.deepEqual(offered.slice(0, 2), ['$(debug-start) Run against Local Sandbox', '$(run-all) Run all 2 llm cells to real hosts against Local Sandbox']);
    assert.deepEqual(
      cells.map((c) =>
        c.document
          .getText()
          .split('\n')
          .find((l) => l.startsWith('GET')),
      ),
      ['GET /models', 'GET /models/sandbox-chat'],
    );
    for (const cell of cells) {
      assert.equal((cell.metadata as { attributes?: Record<string, string> }).attributes?.connection, SANDBOX);
      assert.ok(!status(cell).some((t) => t.startsWith('$(warning)')), status(cell).join(' | '));
    }
    // …and VS Code is told to ask again, so the cells stop showing the warning they no longer have.
    await waitFor('the cell status items to be refreshed after the cells changed', () => statusChanged > 0);
    statusSub.dispose();
    const results = await api.notebook().controller.runAll(doc);
    assert.ok(results.length === 2 && results.every((r) => r.response?.status === 200), JSON.stringify(results.map((r) => r.error ?? r.response?.status)));
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('import-run-against-sandbox', 1500);
  });
});
