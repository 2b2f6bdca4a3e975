// Keys found in a pasted cURL or an imported file, in the real editor: the notification carries a
// button that puts each where the cells read it from (SecretStorage), also for a host that has no
// connection yet: an http cell's {{$secret name}}, or a new connection made with the key and named
// in the cells that go to its host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { ADD_CONNECTION, STORE_SECRETS, UNDO_CELL_CONNECTIONS } from '../../../src/editor/notebook/importKeys';
import { recordSecret, takeScreenshot } from '../harness/suiteApi';
import { SANDBOX, stubWindow, trustedSandbox, userConfig, waitFor } from './kit';

const HTTP_TOKEN = 'tok-import-keys-test-0123456789abcdef';
const OPENAI_KEY = 'sk-import-keys-test-0123456789abcdefABCD';
const MAPS_KEY = 'AIzaSyImportKeysTestKey0123456789abcdefg';

async function emptyNotebook(name: string): Promise<vscode.NotebookDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder);
  const uri = vscode.Uri.joinPath(folder.uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('# Pasted\n'));
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}

/** Answers every warning with the first of `wanted` it offers, and keeps what was asked. */
function answerWarnings(...wanted: string[]) {
  const asked: Array<{ text: string; buttons: string[] }> = [];
  const stub = stubWindow('showWarningMessage', (text: string, ...buttons: string[]) => {
    asked.push({ text, buttons });
    return wanted.find((w) => buttons.includes(w));
  });
  return { asked, restore: () => stub.restore() };
}

async function paste(curl: string): Promise<vscode.NotebookCell> {
  await vscode.env.clipboard.writeText(curl);
  try {
    return await vscode.commands.executeCommand<vscode.NotebookCell>('apiWorkbench.notebook.pasteCurl');
  } finally {
    await vscode.env.clipboard.writeText('');
  }
}

describe('keys found by paste and import: a button stores each', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    for (const k of [HTTP_TOKEN, OPENAI_KEY, MAPS_KEY]) recordSecret(k);
  });

  after(async () => {
    for (const service of ['llm', 'maps'] as const) {
      for (const c of api.services.connections.list(service).filter((c) => c.source === 'settings')) await api.services.secrets.clear(c);
      await userConfig().update(`${service}.connections`, undefined, vscode.ConfigurationTarget.Global);
      await api.services.connections.setActive(service, SANDBOX);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a token for a host of no service: "Store as Notebook Secrets" stores it under the name the http cell reads', async () => {
    await emptyNotebook('pasted-secret.awb.md');
    const answers = answerWarnings(STORE_SECRETS);
    let cell: vscode.NotebookCell;
    try {
      cell = await paste(`curl https://status.example.com/v2/summary -H 'Authorization: Bearer ${HTTP_TOKEN}'`);
    } finally {
      answers.restore();
    }
    assert.equal(cell.document.languageId, 'http');
    const name = /\{\{\$secret (\w+)\}\}/.exec(cell.document.getText())?.[1];
    assert.ok(name, `the cell reads the token by reference: ${cell.document.getText()}`);
    assert.ok(!cell.document.getText().includes(HTTP_TOKEN));
    assert.deepEqual(answers.asked[0]?.buttons, [STORE_SECRETS], JSON.stringify(answers.asked));
    assert.match(answers.asked[0].text, new RegExp(`The http cell reads \\{\\{\\$secret ${name}\\}\\}: store it in SecretStorage under that name`));
    assert.equal(await api.services.secrets.getNotebookSecret(name), HTTP_TOKEN);
  });

  it('an OpenAI key with no OpenAI connection yet: "Add Connection with This Key" adds it, stores the key and names it in the cell', async () => {
    await emptyNotebook('pasted-openai.awb.md');
    const answers = answerWarnings(ADD_CONNECTION);
    let cell: vscode.NotebookCell;
    try {
      cell = await paste(`curl https://api.openai.com/v1/models -H 'Authorization: Bearer ${OPENAI_KEY}'`);
    } finally {
      answers.restore();
    }
    assert.deepEqual(answers.asked[0]?.buttons, [ADD_CONNECTION], JSON.stringify(answers.asked));
    const conn = await waitFor('the new connection', () => api.services.connections.get('llm', 'OpenAI'));
    assert.equal((await api.services.secrets.get(conn))?.value, OPENAI_KEY);
    assert.equal(api.services.connections.active('llm')?.name, SANDBOX, 'the active connection is left alone');
    assert.equal(
      (cell.metadata as { attributes?: Record<string, string> }).attributes?.connection,
      'OpenAI',
      'the cell names the connection that holds its key',
    );
    assert.ok(!cell.document.getText().includes(OPENAI_KEY));
  });

  it('"Add Connection with This Key" says what it added and which cells now use it, and Undo puts the cells back', async () => {
    await emptyNotebook('pasted-openai-undo.awb.md');
    await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
    const answers = answerWarnings(ADD_CONNECTION);
    const told: Array<{ text: string; buttons: string[] }> = [];
    const info = stubWindow('showInformationMessage', (text: string, ...buttons: string[]) => {
      told.push({ text, buttons });
      return buttons.includes(UNDO_CELL_CONNECTIONS) ? UNDO_CELL_CONNECTIONS : undefined;
    });
    let cell: vscode.NotebookCell;
    try {
      cell = await paste(`curl https://api.openai.com/v1/models -H 'Authorization: Bearer ${OPENAI_KEY}'`);
      const said = await waitFor('the message saying what was added', () => told.find((t) => t.buttons.includes(UNDO_CELL_CONNECTIONS)));
      assert.match(
        said.text,
        /^Added the connection "OpenAI" \(https:\/\/api\.openai\.com\/v1\) with the key found in the import; cell \d+ now uses it \(connection=OpenAI\)\.$/,
      );
      assert.ok(!said.text.includes(OPENAI_KEY));
      await waitFor('the cell back on its own connection after Undo', () =>
        (cell.metadata as { attributes?: Record<string, string> }).attributes?.connection === undefined ? true : undefined,
      );
    } finally {
      answers.restore();
      info.restore();
    }
    assert.ok(api.services.connections.get('llm', 'OpenAI'), 'the connection stays: only the cells are put back');
  });

  it('Import… of a Postman collection: each kind of key gets its button; a request no cell can send is kept with its note (screenshot)', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const file = vscode.Uri.joinPath(folder.uri, 'trip-planning.postman_collection.json');
    const item = (name: string, method: string, url: string, header: Array<{ key: string; value: string }>, body?: string) => ({
      name,
      request: { method, url, header, ...(body ? { body: { mode: 'raw', raw: body } } : {}) },
    });
    const collection = {
      info: { name: 'Trip planning', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        item(
          'Search places',
          'POST',
          'https://places.googleapis.com/v1/places:searchText',
          [
            { key: 'X-Goog-Api-Key', value: MAPS_KEY },
            { key: 'X-Goog-FieldMask', value: 'places.displayName' },
          ],
          '{"textQuery": "Lisbon"}',
        ),
        item('Service status', 'GET', 'https://status.example.com/v2/summary', [{ key: 'Authorization', value: `Bearer ${HTTP_TOKEN}` }]),
        item('Check the models endpoint', 'HEAD', 'https://api.openai.com/v1/models', []),
      ],
    };
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(collection, null, 2)));
    const answers = answerWarnings(ADD_CONNECTION, STORE_SECRETS);
    let doc: vscode.NotebookDocument;
    try {
      doc = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.importFile', file);
    } finally {
      answers.restore();
      // The keys were written there by this test: the editor must not leave them anywhere, nor may the test.
      await vscode.workspace.fs.delete(file);
    }
    // One notification with both buttons; after one is clicked, the other is offered again.
    assert.deepEqual(
      answers.asked.map((a) => a.buttons),
      [[STORE_SECRETS, ADD_CONNECTION], [STORE_SECRETS]],
      JSON.stringify(answers.asked),
    );
    const conn = await waitFor('the Google Maps Platform connection', () => api.services.connections.get('maps', 'Google Maps Platform'));
    assert.equal((await api.services.secrets.get(conn))?.value, MAPS_KEY);
    const maps = doc.getCells().find((c) => c.document.languageId === 'maps');
    assert.equal((maps?.metadata as { attributes?: Record<string, string> } | undefined)?.attributes?.connection, 'Google Maps Platform');
    const text = doc
      .getCells()
      .map((c) => c.document.getText())
      .join('\n');
    assert.match(text, /\*\*Not imported as a cell:\*\* HEAD is not a method an llm cell sends/);
    for (const k of [MAPS_KEY, HTTP_TOKEN]) assert.ok(!text.includes(k), 'no key in the notebook');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    // The whole notebook: the maps cell naming its new connection, the http cell's secret, the kept block.
    vscode.window.activeNotebookEditor?.revealRange(new vscode.NotebookRange(0, 1), vscode.NotebookEditorRevealType.AtTop);
    await takeScreenshot('import-postman-kept-block', 1500);
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
  });
});
