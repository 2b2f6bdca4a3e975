// Cells that write themselves, in the real editor: suggestions, hover, go to definition,
// diagnostics with a quick fix, through VS Code's own commands on real notebook cells; the
// language defaults that keep word suggestions out and Enter a new line (screenshots); the sandbox's
// realtime channels after LISTEN/PUBLISH; New API Notebook.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { canDriveWebviews, inWebview, screenshotsWanted, takeScreenshot } from '../harness/suiteApi';
import { activateExtension, stubWindow, trustedSandbox, waitFor } from './kit';

const NOTEBOOK = [
  '# Writing cells',
  '',
  '```vars',
  'city = Lisbon',
  '```',
  '',
  '```maps name=place',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id,places.rating',
  '',
  '{"textQuery": "{{city}}"}',
  '',
  '?? status == 200',
  '```',
  '',
  '```llm name=chat',
  'POST /chat/completions',
  'Content-Type: application/json',
  '',
  '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "{{city}}"}]}',
  '```',
  '',
].join('\n');

async function openNotebook(name: string, content: string): Promise<vscode.NotebookDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with a workspace folder');
  const uri = vscode.Uri.joinPath(folder.uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}

function codeCell(doc: vscode.NotebookDocument, language: string): vscode.NotebookCell {
  const cell = doc.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === language);
  assert.ok(cell, `no ${language} cell`);
  return cell;
}

function positionOf(cell: vscode.NotebookCell, text: string, delta = 0): vscode.Position {
  const offset = cell.document.getText().indexOf(text);
  assert.ok(offset >= 0, `"${text}" is not in the cell`);
  return cell.document.positionAt(offset + delta);
}

async function completions(cell: vscode.NotebookCell, at: vscode.Position, trigger?: string): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', cell.document.uri, at, trigger);
  return list.items;
}

const label = (i: vscode.CompletionItem) => (typeof i.label === 'string' ? i.label : i.label.label);

describe('Writing notebook cells', function () {
  this.timeout(60_000);
  let doc: vscode.NotebookDocument;

  before(async () => {
    await activateExtension();
    doc = await openNotebook('writing-cells.awb.md', NOTEBOOK);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('suggests field-mask fields with their SKU tier, body keys and values, and {{ variables (screenshot)', async () => {
    const maps = codeCell(doc, 'maps');
    const mask = await completions(maps, positionOf(maps, 'places.rating', 'places.rating'.length));
    const rating = mask.find((i) => label(i) === 'places.rating');
    assert.equal(rating?.detail, 'Enterprise: Text Search Enterprise, $35 per 1,000');

    const llm = codeCell(doc, 'llm');
    const roles = await completions(llm, positionOf(llm, '"role": ', '"role": '.length));
    assert.ok(
      roles.some((i) => label(i) === 'user'),
      'the role values of a chat message',
    );
    const variables = await completions(llm, positionOf(llm, '{{city', 2), '{');
    assert.deepEqual(
      variables
        .map(label)
        .filter((l) => ['city', 'place', 'chat'].includes(l))
        .sort(),
      ['chat', 'city', 'place'],
    );
    // No word-based suggestions in cells: every item is the catalogue's.
    assert.ok(!variables.some((i) => i.kind === vscode.CompletionItemKind.Text), 'no word suggestions');

    // The suggest widget as a user sees it, in the field mask of the maps cell.
    const editor = await vscode.window.showTextDocument(maps.document);
    const end = positionOf(maps, 'places.rating', 'places.ra'.length);
    editor.selection = new vscode.Selection(end, end);
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    if (screenshotsWanted()) {
      // With the details beside the list: the SKU and price of places.rating (the toggle is remembered, so it is put back).
      await inWebview({ selector: '.editor-widget.suggest-widget.visible .monaco-list-row[aria-label*="places.rating"]', action: 'find' });
      await vscode.commands.executeCommand('toggleSuggestionDetails');
      await takeScreenshot('authoring-suggest', 800);
      await vscode.commands.executeCommand('toggleSuggestionDetails');
    }
    await vscode.commands.executeCommand('hideSuggestWidget');
  });

  it('hover shows a variable’s value and a mask field’s SKU and price (screenshot)', async () => {
    const maps = codeCell(doc, 'maps');
    const [variable] = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', maps.document.uri, positionOf(maps, '{{city}}', 3));
    const text = (h: vscode.Hover) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n');
    assert.match(text(variable), /Lisbon/);
    const [field] = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      maps.document.uri,
      positionOf(maps, 'places.rating', 3),
    );
    assert.match(text(field), /Text Search Enterprise, \$35 per 1,000 requests/);

    const editor = await vscode.window.showTextDocument(maps.document);
    const at = positionOf(maps, 'places.rating', 3);
    editor.selection = new vscode.Selection(at, at);
    await vscode.commands.executeCommand('editor.action.showHover');
    await takeScreenshot('authoring-hover', 800);
  });

  it('goes from {{city}} to its line in the vars cell', async () => {
    const llm = codeCell(doc, 'llm');
    const locations = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>(
      'vscode.executeDefinitionProvider',
      llm.document.uri,
      positionOf(llm, '{{city}}', 3),
    );
    const target = locations[0];
    const uri = 'uri' in target ? target.uri : target.targetUri;
    assert.equal(uri.toString(), codeCell(doc, 'vars').document.uri.toString());
  });

  it('diagnoses while typing: an undefined variable, with a quick fix that defines it in the vars cell', async () => {
    const maps = codeCell(doc, 'maps');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(maps.document.uri, new vscode.Range(positionOf(maps, '{{city}}'), positionOf(maps, '{{city}}', '{{city}}'.length)), '{{nope}}');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const found = await waitFor('the undefined-variable diagnostic', () =>
      vscode.languages.getDiagnostics(maps.document.uri).find((d) => d.message.startsWith('unknown variable "nope"')),
    );
    assert.equal(found.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(found.range.start.line, 3);
    const info = vscode.languages.getDiagnostics(maps.document.uri).find((d) => d.code === 'dearer-sku');
    assert.equal(info?.severity, vscode.DiagnosticSeverity.Information);
    assert.match(info?.message ?? '', /Text Search Enterprise \(\$35 per 1,000 requests\) because of rating/);

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', maps.document.uri, found.range);
    const define = actions.find((a) => a.title === 'Define "nope" in the vars cell');
    assert.ok(define?.edit, 'the quick fix');
    assert.ok(await vscode.workspace.applyEdit(define.edit));
    assert.equal(codeCell(doc, 'vars').document.getText(), 'city = Lisbon\nnope = ');
    await waitFor(
      'the diagnostic gone once defined',
      () => !vscode.languages.getDiagnostics(maps.document.uri).some((d) => d.message.startsWith('unknown variable')),
    );
  });

  it('a check on a field the mask leaves out offers "Add <field> to the field mask", which adds it', async () => {
    const maps = codeCell(doc, 'maps');
    const end = maps.document.lineAt(maps.document.lineCount - 1).range.end;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(maps.document.uri, end, '\n?? json.places[0].displayName.text exists');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const found = await waitFor('the not-in-mask diagnostic', () => vscode.languages.getDiagnostics(maps.document.uri).find((d) => d.code === 'not-in-mask'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', maps.document.uri, found.range);
    const add = actions.find((a) => a.title === 'Add places.displayName to the field mask');
    assert.ok(add?.edit, `the quick fix, among: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(add.edit));
    assert.equal(maps.document.lineAt(1).text, 'X-Goog-FieldMask: places.id,places.rating,places.displayName');
    await waitFor('the diagnostic gone once added', () => !vscode.languages.getDiagnostics(maps.document.uri).some((d) => d.code === 'not-in-mask'));
  });

  it('cells have no word suggestions and Enter does not accept a suggestion (language defaults)', () => {
    for (const languageId of ['llm', 'maps', 'realtime', 'vars', 'http']) {
      const config = vscode.workspace.getConfiguration('editor', { languageId });
      assert.equal(config.get('wordBasedSuggestions'), 'off', languageId);
      assert.equal(config.get('acceptSuggestionOnEnter'), 'off', languageId);
    }
  });
});

describe('Enter while suggestions show', function () {
  this.timeout(60_000);

  after(async () => {
    await vscode.commands.executeCommand('hideSuggestWidget');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('starts a new line and accepts no suggestion, typed with real keys', async function () {
    if (!canDriveWebviews()) this.skip();
    const doc = await openNotebook('enter-new-line.awb.md', '```maps\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.\n```\n');
    const maps = codeCell(doc, 'maps');
    // Focus as a person gives it: a click on the cell's line (the API's showTextDocument selects the cell, but the keyboard stays on the list).
    // (The lines re-render while the notebook settles: a click on one that just went is tried again.)
    const cellText = '.notebook-editor .cell-editor-container:has-text("X-Goog-FieldMask") .view-lines';
    await waitFor('a click in the cell', () => inWebview({ selector: cellText, action: 'click' }).then(Boolean, () => false));
    await waitFor('the cell editor focused', () => vscode.window.activeTextEditor?.document === maps.document);
    // The caret to the end of the field mask with a key too (a selection set through the API reaches the window later than keys may).
    await inWebview({ selector: '', action: 'press', text: 'Control+End' });
    // Keys as a person presses them, into the focused cell: "ra" opens the widget on places.rating.
    await inWebview({ selector: '', action: 'type', text: 'ra' });
    await waitFor('the typed letters at the end of the field mask', () => maps.document.lineAt(1).text === 'X-Goog-FieldMask: places.id,places.ra').catch(
      () => {
        throw new Error(`the keys went elsewhere: the cell reads ${JSON.stringify(maps.document.getText())}`);
      },
    );
    await inWebview({ selector: '.editor-widget.suggest-widget.visible .monaco-list-row[aria-label*="places.rating"]', action: 'find' });
    await takeScreenshot('authoring-enter-suggest-open', 300);
    await inWebview({ selector: '', action: 'press', text: 'Enter' });
    const text = await waitFor('Enter applied to the cell', () => (maps.document.lineCount > 2 ? maps.document.getText() : undefined));
    assert.equal(text, 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.ra\n', 'a new line, and places.rating not inserted');
  });
});

describe('Writing realtime cells', function () {
  this.timeout(90_000);

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('LISTEN and PUBLISH suggest a channel that exists only on the sandbox, as the realtime tree lists it', async function () {
    await trustedSandbox(this);
    // A channel no cell of the notebook names: occupied on the sandbox by this window's own subscription.
    const channel = 'authoring-sandbox-only';
    await vscode.commands.executeCommand('apiWorkbench.realtime.connect');
    const snap = await vscode.commands.executeCommand<{ state: string } | undefined>('apiWorkbench.realtime.subscribe', channel);
    assert.equal(snap?.state, 'subscribed');
    await vscode.commands.executeCommand('apiWorkbench.realtime.publish', { channel, event: 'hello', data: '{}' });

    const doc = await openNotebook('realtime-cells.awb.md', '```realtime\nLISTEN \n```\n\n```realtime\nPUBLISH \n{}\n```\n');
    const [listen, publish] = doc.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
    // The first request only starts the listing in the background (a provider never waits on the network).
    const offered = await waitFor('the sandbox channel after LISTEN', async () =>
      (await completions(listen, new vscode.Position(0, 'LISTEN '.length))).find((i) => label(i) === channel),
    );
    assert.equal(offered.kind, vscode.CompletionItemKind.Constant);
    assert.ok(
      (await completions(publish, new vscode.Position(0, 'PUBLISH '.length))).some((i) => label(i) === channel),
      'after PUBLISH too',
    );
  });
});

describe('Cell names you can see', function () {
  this.timeout(60_000);

  it('each cell shows its name, connection and environment; setting them rewrites the fence line (screenshot)', async () => {
    const api = await activateExtension();
    const doc = await openNotebook('cell-names.awb.md', '```vars\ncity = Lisbon\n```\n\n```llm\nGET /models\n```\n');
    const status = api.notebook().cellStatus;
    const texts = (cell: vscode.NotebookCell) => status.provideCellStatusBarItems(cell).map((i) => i.text);
    const llm = codeCell(doc, 'llm');
    assert.equal(texts(llm)[0], '$(tag) unnamed');
    assert.match(texts(llm)[1], /^\$\(plug\) /);
    assert.deepEqual(texts(codeCell(doc, 'vars')), ['$(server-environment) every environment']);

    assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.nameCell', llm, 'models'), 'models');
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.chooseCellConnection', llm, 'Work account'), 'Work account');
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.chooseCellEnvironment', codeCell(doc, 'vars'), 'staging'), 'staging');
    assert.deepEqual(texts(codeCell(doc, 'llm')), ['$(tag) models', '$(plug) Work account']);
    assert.deepEqual(texts(codeCell(doc, 'vars')), ['$(server-environment) staging']);
    await takeScreenshot('authoring-cell-status', 800);
    // A name other cells could not refer to is refused (the error is shown; the name stays).
    assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.nameCell', codeCell(doc, 'llm'), 'not a name'), undefined);
    assert.equal(texts(codeCell(doc, 'llm'))[0], '$(tag) models');

    await doc.save();
    const saved = new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri));
    assert.equal(saved, '```vars env=staging\ncity = Lisbon\n```\n\n```llm name=models connection="Work account"\nGET /models\n```\n');
  });
});

describe('New API Notebook', function () {
  this.timeout(60_000);
  const NAME_BOX = '.quick-input-widget:visible:has-text("New API Notebook") .quick-input-box input';

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('asks only for a name and creates <name>.awb.md in the workspace folder, open as an API notebook (screenshot)', async () => {
    await activateExtension();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder');
    let doc: vscode.NotebookDocument | undefined;
    if (canDriveWebviews()) {
      // As a person does: the name box offers a free name, the user types "tour" over it and presses Enter.
      const creating = vscode.commands.executeCommand<vscode.NotebookDocument | undefined>('apiWorkbench.notebook.new');
      await inWebview({ selector: NAME_BOX, action: 'find' });
      await takeScreenshot('authoring-new-notebook-name', 300);
      await inWebview({ selector: NAME_BOX, action: 'type', text: 'tour' });
      await inWebview({ selector: NAME_BOX, action: 'press', text: 'Enter' });
      doc = await creating;
    } else {
      doc = await vscode.commands.executeCommand<vscode.NotebookDocument | undefined>('apiWorkbench.notebook.new', 'tour');
    }
    assert.ok(doc, 'the notebook');
    assert.equal(doc.uri.toString(), vscode.Uri.joinPath(folder.uri, 'tour.awb.md').toString());
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.notebookType, 'api-workbench-notebook');
    assert.ok(
      doc.getCells().some((c) => c.document.languageId === 'vars'),
      'the template',
    );
    const saved = new TextDecoder().decode(await vscode.workspace.fs.readFile(doc.uri));
    assert.match(saved, /^# My API notebook/);
    await takeScreenshot('authoring-new-notebook', 800);

    // Opened again later by its file name, it is the notebook (a plain .md would open as Markdown text).
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('vscode.open', doc.uri);
    const reopened = await waitFor('the file open as a notebook', () => vscode.window.activeNotebookEditor?.notebook);
    assert.equal(reopened.uri.toString(), doc.uri.toString());
    assert.equal(reopened.notebookType, 'api-workbench-notebook');
  });

  it('completes a name typed with half the extension and refuses one already taken', async () => {
    await activateExtension();
    const guide = await vscode.commands.executeCommand<vscode.NotebookDocument>('apiWorkbench.notebook.new', 'guide.md');
    assert.ok(guide.uri.path.endsWith('/guide.awb.md'), guide.uri.path);
    assert.equal(guide.notebookType, 'api-workbench-notebook');
    const shown = stubWindow('showErrorMessage', () => undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('apiWorkbench.notebook.new', 'guide'), undefined);
    } finally {
      shown.restore();
    }
    assert.match(String(shown.calls[0]?.[0]), /guide\.awb\.md already exists in .*: give another name/);
  });
});
