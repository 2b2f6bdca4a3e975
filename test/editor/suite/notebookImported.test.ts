// An imported notebook and the example, as a new user meets them: each proposes a name that saves
// as an API notebook (`<source>.awb.md`), the example is the workspace's own when it has one, and
// error locations name the file the user sees.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { NOTEBOOK_TYPE } from '../../../src/features/ids';
import { takeScreenshot } from '../harness/suiteApi';
import { trustedSandbox } from './kit';

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
    const saving = vscode.commands.executeCommand('workbench.action.files.saveAs');
    await takeScreenshot('import-save-as-name', 4000);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await saving.then(
      () => undefined,
      () => undefined,
    );
  });

  it('Open the Example Notebook: an unsaved sandbox-tour.awb.md, or the workspace’s own sandbox-tour.awb.md when there is one', async () => {
    const own = vscode.Uri.joinPath(workspaceFolder(), 'sandbox-tour.awb.md');
    assert.equal((await vscode.workspace.findFiles('**/sandbox-tour.awb.md')).length, 0, 'no other suite left a sandbox-tour.awb.md in the workspace');
    const copy = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.openExample');
    assert.equal(copy.isUntitled, true);
    assert.equal(fileName(copy.uri), 'sandbox-tour.awb.md');
    const example = vscode.Uri.joinPath(vscode.Uri.file(api.services.context.extensionPath), 'examples', 'sandbox-tour.awb.md');
    await vscode.workspace.fs.writeFile(own, await vscode.workspace.fs.readFile(example));
    try {
      const doc = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.openExample');
      assert.equal(doc.uri.toString(), own.toString(), 'the workspace’s own file');
      assert.equal(doc.isDirty, false, 'not a dirty copy');
      assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), own.toString(), 'shown');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await vscode.workspace.fs.delete(own);
    }
  });
});
