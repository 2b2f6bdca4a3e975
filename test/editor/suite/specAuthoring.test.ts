// Spec-aware http cells in the real editor: a notebook whose vars cell names an OpenAPI document
// (`spec = ./shop.yaml`, beside it in the workspace) suggests the document's body fields with their
// types and descriptions, and flags a body field of the wrong type before anything is sent
// (screenshot spec-authoring: the suggestions with their details, the flagged cell above).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { inWebview, screenshotsWanted, takeScreenshot } from '../harness/suiteApi';
import { activateExtension, waitFor } from './kit';

const SHOP = `openapi: 3.0.3
info: { title: Shop, version: '1' }
servers:
  - url: https://shop.example.com/api
paths:
  /orders:
    post:
      operationId: createOrder
      summary: Place an order
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [item, quantity]
              properties:
                item: { type: string, description: What is ordered. }
                quantity: { type: integer, minimum: 1, description: How many of it. }
                size: { type: string, enum: [S, M, L], description: The size, for clothes. }
                express: { type: boolean, description: Sent the same day. }
      responses: { '201': { description: created } }
`;

const NOTEBOOK = [
  '# Shop',
  '',
  '```vars',
  'spec = ./shop.yaml',
  'baseUrl = https://shop.example.com/api',
  '```',
  '',
  '```http name=wrong',
  'POST {{baseUrl}}/orders',
  'Content-Type: application/json',
  '',
  '{"item": "tea", "quantity": "three"}',
  '```',
  '',
  '```http name=order',
  'POST {{baseUrl}}/orders',
  'Content-Type: application/json',
  '',
  '{',
  '  "item": "tea",',
  '  "quantity": 2',
  '}',
  '```',
  '',
].join('\n');

const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

describe('Spec-aware http cells', function () {
  this.timeout(60_000);

  after(async () => {
    await vscode.commands.executeCommand('hideSuggestWidget');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('suggest the OpenAPI document’s body fields and flag a field of the wrong type (screenshot)', async () => {
    await activateExtension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder.uri, 'shop.yaml'), new TextEncoder().encode(SHOP));
    const uri = vscode.Uri.joinPath(folder.uri, 'shop.awb.md');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(NOTEBOOK));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const [wrong, order] = doc.getCells().filter((c) => c.document.languageId === 'http');

    // The document is read in the background; the cells are checked again once it is.
    const found = await waitFor('the wrong-type diagnostic from the spec', () =>
      vscode.languages.getDiagnostics(wrong.document.uri).find((d) => d.code === 'spec-wrong-type'),
    );
    assert.equal(found.message, 'the field "quantity" is an integer in POST /orders in ./shop.yaml, not "three".');
    assert.equal(found.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(found.range.start.line, 3);
    assert.deepEqual(vscode.languages.getDiagnostics(order.document.uri), [], 'the right cell has nothing to say');

    const text = order.document.getText();
    const at = order.document.positionAt(text.indexOf('"quantity"') + 1);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', order.document.uri, at);
    const byLabel = new Map(list.items.map((i) => [label(i), i]));
    for (const name of ['item', 'quantity', 'size', 'express']) assert.ok(byLabel.has(name), `${name} is suggested`);
    assert.equal(byLabel.get('size')?.detail, 'string · one of: S, M, L');
    assert.equal(byLabel.get('quantity')?.detail, 'integer · required');

    const editor = await vscode.window.showTextDocument(order.document);
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    if (screenshotsWanted()) {
      await inWebview({ selector: '.editor-widget.suggest-widget.visible .monaco-list-row[aria-label*="size"]', action: 'find' });
      await vscode.commands.executeCommand('toggleSuggestionDetails');
      await takeScreenshot('spec-authoring', 800);
      await vscode.commands.executeCommand('toggleSuggestionDetails');
    }
    await vscode.commands.executeCommand('hideSuggestWidget');
  });
});
