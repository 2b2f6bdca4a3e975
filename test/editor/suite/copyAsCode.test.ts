// Copy Cell as Code… in the real editor, against the sandbox: the language pick (the last language
// used offered first; screenshot copy-as-code-pick), the code on the clipboard and in an editor
// beside (screenshot copy-as-code), the key an environment read, never its value.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CopiedCode, ExportedProgram } from '../../../src/editor/notebook/copyAsCode';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { takeScreenshot } from '../harness/suiteApi';
import { runAcceptingFirstPick, sandboxKeys, trustedSandbox } from './kit';

const NOTEBOOK = [
  '# Copy as Code',
  '',
  '```maps name=place',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id,places.displayName',
  '',
  '{"textQuery": "Lisbon"}',
  '```',
  '',
].join('\n');

describe('Copy Cell as Code…', function () {
  this.timeout(120_000);
  let info: SandboxInfo;

  before(async function () {
    ({ info } = await trustedSandbox(this));
  });

  it('the language pick, then the code beside with the key read from GOOGLE_MAPS_API_KEY; the last language comes first next time (screenshots)', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder.uri, 'copy-as-code.awb.md');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(NOTEBOOK));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const cell = doc.getCells().find((c) => c.document.languageId === 'maps');
    assert.ok(cell);

    // First with the language given, as a caller does: it becomes the last used.
    const first = await vscode.commands.executeCommand<CopiedCode | undefined>('apiWorkbench.notebook.copyCellAsCode', cell, 'python');
    assert.ok(first);
    assert.match(first.text, /os\.environ\["GOOGLE_MAPS_API_KEY"\]/);
    assert.match(first.text, /Text Search/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    // Then through the real quick pick: Python is offered first.
    const copied = await runAcceptingFirstPick<CopiedCode>('the language pick', 'copy-as-code-pick', 'apiWorkbench.notebook.copyCellAsCode', cell);
    assert.ok(copied, 'the pick was accepted');
    assert.equal(copied.language, 'python', 'the last language used is offered first');
    assert.equal(await vscode.env.clipboard.readText(), copied.text);
    assert.equal(vscode.window.activeTextEditor?.document.getText(), copied.text);
    assert.ok(copied.text.includes(info.maps.baseUrl), 'the code goes to the connection’s base URL');
    for (const key of sandboxKeys(info)) assert.ok(!copied.text.includes(key), 'a sandbox key is in the copied code');
    await takeScreenshot('copy-as-code', 1000);
  });

  it('Export Notebook as Code…: the format pick, then one program beside that reads the earlier answer and the keys from the environment (screenshots)', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder.uri, 'export-as-code.awb.md');
    const notebook = [
      '# Export as Code',
      '',
      '```llm name=models',
      'GET /models',
      '',
      '?? status == 200',
      '```',
      '',
      '```llm name=ask',
      'POST /chat/completions',
      '',
      '{"model": "{{models.json.data[0].id}}", "messages": [{"role": "user", "content": "Hello"}]}',
      '',
      '?? status == 200',
      '```',
      '',
      '```realtime name=heard',
      'LISTEN tour 1s',
      '```',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(notebook));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);

    const exported = await runAcceptingFirstPick<ExportedProgram>('the format pick', 'export-as-code-pick', 'apiWorkbench.notebook.exportAsCode');
    assert.ok(exported, 'the pick was accepted');
    assert.equal(exported.format, 'python', 'Python (requests) is offered first');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), exported.text);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'python');
    assert.match(exported.text, /os\.environ\["OPENAI_API_KEY"\]/);
    assert.match(exported.text, /"model": as_text\(models\["json"\]\["data"\]\[0\]\["id"\]\)/, 'the earlier answer is read by the code');
    assert.ok(exported.text.includes(info.llm.baseUrl), 'the code goes to the connection’s base URL');
    assert.match(exported.skipped.join('\n'), /^heard: realtime messages are signed or sent over a socket/m);
    for (const key of sandboxKeys(info)) assert.ok(!exported.text.includes(key), 'a sandbox key is in the program');
    await takeScreenshot('export-as-code', 1000);

    // Given the format, as a caller does: the SDK program.
    const sdk = await vscode.commands.executeCommand<ExportedProgram | undefined>('apiWorkbench.notebook.exportAsCode', doc.uri, 'javascript-sdk');
    assert.ok(sdk);
    assert.match(sdk.text, /^import \{ APIError, OpenAI \} from "openai";$/m);
    assert.match(sdk.text, /listen\("heard", listener, "tour", 1000\)/);
  });
});
