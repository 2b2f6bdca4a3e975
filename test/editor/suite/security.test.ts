// The security pass, in the real editor, trusted: every contributed command runs once (against the
// sandbox, and against user connections holding keys the "user" typed), then nothing the extension
// can reach — settings at every level, globalState and workspaceState, the text its output channels
// wrote to disk, every open document, every message it showed — holds any key or app secret; a
// coverage check fails when a contributed command was not exercised. The positive control proves the
// counting server would see every key, which securityRestricted.test.ts shows it never does in
// restricted mode. The harness's file scan over the user-data dir, workspace and browser profile runs after this.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { ExportedConnections } from '../../../src/editor/exportConnections';
import { ANSWER_SCHEME } from '../../../src/editor/llm/answerDocuments';
import type { TreeNode } from '../../../src/editor/tree';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { isTrustedRun } from '../harness/suiteApi';
import { activateExtension, loadedChildren, SANDBOX, waitFor } from './kit';
import {
  ConnectionSteps,
  assertClean,
  stamp,
  USER_LLM_KEY,
  USER_MAPS_KEY,
  USER_RT_SECRET,
  COUNTED_LLM_KEY,
  COUNTED_MAPS_KEY,
  sandboxSecrets,
  Dialogs,
  pick,
  Commands,
  contributedCommands,
  assertSettingsClean,
  filesUnder,
  countingServer,
  COUNTED,
  COUNTED_APP,
  configureCounted,
  removeCounted,
  runCountedScenario,
} from './securityKit';
import { llmScenario, mapsScenario, realtimeScenario } from './securityScenarios';

/**
 * Contributed commands this test does not run, each with the reason it cannot run here. Keep it
 * empty unless a command truly cannot be driven in a test (an entry must name a contributed command).
 */
const CANNOT_RUN: Record<string, string> = {};

// --- the trusted pass ------------------------------------------------------------------------------

describe('security: every command, then no secret in settings, state, logs, documents or messages', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let user: Sandbox;
  const cmd = new Commands();
  const dialogs = new Dialogs();
  const steps = new ConnectionSteps(() => api, dialogs, cmd);
  const scratch: vscode.TextDocument[] = [];
  let savedLog = '';

  before(async function () {
    if (!isTrustedRun()) this.skip();
    api = await activateExtension();
    dialogs.install();
    await cmd.run('apiWorkbench.sandbox.start');
    const info = api.services.sandbox.info;
    assert.ok(info, 'the sandbox did not start');
    sandboxSecrets(info, 'first');
    // The "user's own" services: a second sandbox in this process with the keys the user types below.
    user = await startSandbox({
      port: 0,
      llmKey: USER_LLM_KEY,
      mapsKey: USER_MAPS_KEY,
      llm: { tokenRate: 0 },
      realtime: { secret: USER_RT_SECRET, demo: false },
    });
  });

  after(async () => {
    dialogs.restore();
    delete process.env.API_WORKBENCH_SECURITY_KEY;
    for (const doc of scratch) {
      if (doc.isClosed) continue;
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await user?.close();
  });

  it('language models: connect with a typed key, ask, a wrong key (401), import, switch, selection, model actions, clear, remove', async () => {
    await llmScenario({ api, cmd, dialogs, scratch, steps, user });
  });

  it('maps: connect with a typed key, search, a wrong key (401), import, switch, every query, map, results, clear, remove', async () => {
    await mapsScenario({ api, cmd, dialogs, scratch, steps, user });
  });

  it('realtime: connect with a typed secret, private channel, publish, client event, a wrong secret (401), webhooks, save log, clear, remove', async () => {
    savedLog = await realtimeScenario({ api, cmd, dialogs, scratch, steps, user });
  });

  it('positive control: run trusted, the counted scenario reaches the counting server with every key', async () => {
    const server = await countingServer();
    try {
      await configureCounted(api, server);
      await runCountedScenario(cmd);
      await waitFor('the WebSocket upgrade', () => server.upgrades > 0);
      await cmd.run('apiWorkbench.realtime.disconnect', COUNTED.realtime);
      const auth = server.requests.map((r) => `${String(r.headers.authorization ?? '')} ${String(r.headers['x-goog-api-key'] ?? '')}`);
      assert.ok(
        auth.some((a) => a.includes(`Bearer ${COUNTED_LLM_KEY}`)),
        'the LLM request carried its key',
      );
      assert.ok(
        auth.some((a) => a.includes(COUNTED_MAPS_KEY)),
        'the maps requests carried their key',
      );
      const publish = server.requests.find((r) => r.url.startsWith(`/apps/${COUNTED_APP.appId}/events?`));
      assert.ok(publish && /[?&]auth_signature=[0-9a-f]{64}/.test(publish.url), 'the publish was signed with the secret');
      assert.ok(server.upgrades > 0, 'the WebSocket connected');

      // Export Connections for CI: the file names the connections and their key variables, no key.
      const exportFile = vscode.Uri.file(path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'security-connections.json'));
      const exported = await cmd.run<ExportedConnections>('apiWorkbench.exportConnections', { uri: exportFile });
      assert.ok(exported && exported.keyVariables.length >= 3, 'each counted connection got a key variable');
      const exportedText = readFileSync(exportFile.fsPath, 'utf8');
      assertClean('the exported connections file', exportedText);
      for (const name of Object.values(COUNTED)) assert.ok(exportedText.includes(`"name": "${name}"`), `${name} is exported`);
      assert.ok(!exportedText.includes(`"name": "${SANDBOX}"`), 'the sandbox is left out');
    } finally {
      await removeCounted(api);
      await server.close();
    }
  });

  it('sandbox and log commands: show the log, stop the sandbox (its keys leave SecretStorage), start it again', async () => {
    await cmd.run('apiWorkbench.showLog');
    const before = api.services.sandbox.info!;
    await cmd.run('apiWorkbench.sandbox.stop');
    assert.equal(api.services.sandbox.running, false);
    assert.equal(await api.services.secrets.get({ service: 'llm', name: SANDBOX }), undefined, 'stopping removes the sandbox keys');
    await cmd.run('apiWorkbench.sandbox.start');
    const info = api.services.sandbox.info;
    assert.ok(info && info.llm.apiKey !== before.llm.apiKey, 'a new sandbox with new keys');
    sandboxSecrets(info, 'restarted');
  });

  it('API notebook: the example (untitled), run all, environment, whole body, new notebook; no key in any output', async () => {
    const example = await cmd.run<vscode.NotebookDocument>('apiWorkbench.notebook.openExample');
    assert.equal(example.isUntitled, true, 'the example opens as a copy');
    const results = await api.notebook().controller.runAll(example);
    assert.ok(results.length >= 5 && results.every((r) => r.ok), JSON.stringify(results.map((r) => [r.name, r.ok, r.error])));
    const outputs = example.getCells().flatMap((c) => c.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))));
    assert.ok(outputs.length >= results.length);
    for (const o of outputs) assertClean('a notebook output', o);
    dialogs.answer('showQuickPick', pick('(no environment)'));
    await cmd.run('apiWorkbench.notebook.selectEnvironment', example.uri);
    dialogs.assertDrained('notebook.selectEnvironment');
    const models = example.getCells().find((c) => (c.metadata.attributes as Record<string, string> | undefined)?.name === 'models');
    assert.ok(models);
    const body = await cmd.run<vscode.TextDocument>('apiWorkbench.notebook.openWholeBody', models);
    assertClean('the whole body', body.getText());
    const fresh = await cmd.run<vscode.NotebookDocument>('apiWorkbench.notebook.new', 'security-fresh');
    assert.ok(fresh.uri.path.endsWith('/security-fresh.awb.md'), fresh.uri.path);
    // Record Run and Run from Recording: the recording file holds no key.
    const recordedUri = vscode.Uri.joinPath(fresh.uri, '..', 'security-recorded.awb.md');
    await vscode.workspace.fs.writeFile(recordedUri, new TextEncoder().encode('```llm name=models\nGET /models\n\n?? status == 200\n```\n'));
    const recordedDoc = await vscode.workspace.openNotebookDocument(recordedUri);
    await vscode.window.showNotebookDocument(recordedDoc);
    const recorded = await cmd.run<{ recorded: number; recording: string }>('apiWorkbench.notebook.recordRun', recordedDoc, 'record');
    assert.equal(recorded.recorded, 1);
    assertClean('a recording', new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(fresh.uri, '..', recorded.recording))));
    const replayed = await cmd.run<{ replayed: number }>('apiWorkbench.notebook.runFromRecording', recordedDoc);
    assert.equal(replayed.replayed, 1);
    // The cell status bar's commands, values given (their pickers are tested in "Cell names you can see").
    const request = example.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code && ['llm', 'maps', 'realtime'].includes(c.document.languageId));
    const vars = example.getCells().find((c) => c.document.languageId === 'vars');
    assert.ok(request && vars, 'the example has a request cell and a vars cell');
    await cmd.run('apiWorkbench.notebook.nameCell', request, 'security_named');
    await cmd.run('apiWorkbench.notebook.chooseCellConnection', request, '');
    await cmd.run('apiWorkbench.notebook.chooseCellEnvironment', vars, 'staging');
    // Run with Models: a notebook whose cell uses {{model}}, run once per model; the table it opens is scanned below.
    const withModel = await vscode.workspace.openNotebookDocument(
      'api-workbench-notebook',
      new vscode.NotebookData([
        new vscode.NotebookCellData(
          vscode.NotebookCellKind.Code,
          'POST /chat/completions\nContent-Type: application/json\n\n{"model": "{{model}}", "messages": [{"role": "user", "content": "hi"}]}\n\n?? status == 200',
          'llm',
        ),
      ]),
    );
    await vscode.window.showNotebookDocument(withModel);
    const table = await cmd.run<{ document: vscode.TextDocument } | undefined>('apiWorkbench.notebook.runWithModels', undefined, ['sandbox-chat']);
    assert.ok(table, 'Run with Models showed its table');
  });

  it('API notebook import: a .http file with the key in it, then a pasted cURL; keys left out, the cells run', async () => {
    const info = api.services.sandbox.info!;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'awb-import-')), 'requests.http');
    writeFileSync(file, `@base = ${info.llm.baseUrl}\n\n### Models\n# @name models\nGET {{base}}/models\nAuthorization: Bearer ${info.llm.apiKey}\n`);
    const imported = await cmd.run<vscode.NotebookDocument>('apiWorkbench.notebook.importFile', vscode.Uri.file(file));
    assert.equal(imported.isUntitled, true);
    assert.equal(
      imported
        .getCells()
        .find((c) => c.kind === vscode.NotebookCellKind.Code && c.document.languageId === 'llm')
        ?.document.getText(),
      'GET /models',
    );
    await vscode.env.clipboard.writeText(
      `curl -X POST ${info.maps.baseUrl}/v1/places:searchText \\\n  -H 'X-Goog-Api-Key: ${info.maps.apiKey}' -H 'X-Goog-FieldMask: places.id' \\\n  -d '{"textQuery": "Lisbon"}'`,
    );
    let pasted: vscode.NotebookCell;
    try {
      pasted = await cmd.run<vscode.NotebookCell>('apiWorkbench.notebook.pasteCurl');
    } finally {
      // The clipboard held a key: the coverage test checks it is clean afterwards.
      await vscode.env.clipboard.writeText('');
    }
    assert.equal(pasted.document.languageId, 'maps');
    // A JSON body pasted without a Content-Type is sent as JSON.
    assert.match(
      pasted.document.getText(),
      /^POST \/v1\/places:searchText\nX-Goog-FieldMask: places.id\nContent-Type: application\/json\n\n\{"textQuery": "Lisbon"\}$/,
    );
    for (const cell of imported.getCells()) assertClean('an imported cell', cell.document.getText());
    const results = await api.notebook().controller.runAll(imported);
    assert.ok(results.length === 3 && results.every((r) => r.ok), JSON.stringify(results.map((r) => [r.name, r.ok, r.error])));

    // Back out: a cell as cURL, the notebook as .http, a cURL pasted into a cell converted in place.
    const copied = await cmd.run<{ text: string }>('apiWorkbench.notebook.copyCellAsCurl', pasted);
    assertClean('Copy Cell as cURL', copied.text);
    const code = await cmd.run<{ text: string }>('apiWorkbench.notebook.copyCellAsCode', pasted, 'python');
    assert.match(code.text, /os\.environ\["GOOGLE_MAPS_API_KEY"\]/, 'Copy Cell as Code reads the key from the environment');
    assertClean('Copy Cell as Code', code.text);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const program = await cmd.run<{ text: string }>('apiWorkbench.notebook.exportAsCode', imported.uri, 'python');
    assert.match(program.text, /os\.environ/, 'Export Notebook as Code reads keys from the environment');
    assertClean('Export Notebook as Code', program.text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // The history's newest request (one of the imported cells just run), as code.
    const entry = (await api.services.history.entries())[0];
    assert.ok(entry, 'the history has the requests just sent');
    const entryCode = await cmd.run<{ text: string }>('apiWorkbench.history.copyAsCode', entry, 'python');
    assertClean('History › Copy as Code', entryCode.text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.env.clipboard.writeText('');
    const exported = vscode.Uri.file(path.join(path.dirname(file), 'exported.http'));
    await cmd.run('apiWorkbench.notebook.exportHttp', imported.uri, exported);
    assertClean('the exported .http file', Buffer.from(await vscode.workspace.fs.readFile(exported)).toString('utf8'));
    const edit = new vscode.WorkspaceEdit();
    // A made-up key: cell text reaches the editor's backups, which the harness scans for the real ones.
    const pastedKey = `sk-pasted-into-a-cell-${stamp}`;
    const curlCell = new vscode.NotebookCellData(
      vscode.NotebookCellKind.Code,
      `curl ${info.llm.baseUrl}/models -H 'Authorization: Bearer ${pastedKey}'`,
      'llm',
    );
    edit.set(imported.uri, [vscode.NotebookEdit.insertCells(imported.cellCount, [curlCell])]);
    await vscode.workspace.applyEdit(edit);
    const converted = await cmd.run<vscode.NotebookCell>('apiWorkbench.notebook.convertCurlCell', imported.cellAt(imported.cellCount - 1).document.uri);
    assert.equal(converted.document.getText(), 'GET /models');
    for (const cell of imported.getCells()) assert.ok(!cell.document.getText().includes(pastedKey), 'the pasted key is in a cell');
  });

  it('no secret in any apiWorkbench setting at any level', () => {
    // Also checked while each user connection existed (after its key was typed): see the service tests.
    assertSettingsClean('at the end');
  });

  it('no secret in globalState or workspaceState', () => {
    const { globalState, workspaceState } = api.services.context;
    assert.ok(globalState.keys().length > 0, 'the extension keeps state (results, models, presence id)');
    for (const [label, memento] of [
      ['globalState', globalState],
      ['workspaceState', workspaceState],
    ] as const) {
      for (const key of memento.keys()) {
        assertClean(`${label} key ${key}`, key);
        assertClean(`${label} ${key}`, JSON.stringify(memento.get(key)) ?? '');
      }
    }
  });

  it('no secret in the text the output channels wrote (diagnostics log and realtime log files)', async () => {
    const logDir = api.services.context.logUri.fsPath;
    const exthostDir = path.dirname(logDir);
    // The channels write through buffered loggers: a marker shows when the diagnostics file has caught up.
    const marker = `security-scan-marker-${stamp}`;
    api.services.log.info(marker);
    await cmd.run('apiWorkbench.showLog');
    const diagnostics = path.join(logDir, 'API Workbench.log');
    await waitFor(`${diagnostics} to hold the marker`, () => existsSync(diagnostics) && readFileSync(diagnostics, 'utf8').includes(marker));
    const realtime = await waitFor('the realtime output channel file', () =>
      filesUnder(exthostDir).find(
        (f) => /output_logging_[^/\\]+[/\\]\d+-API Workbench Realtime\.log$/.test(f) && readFileSync(f, 'utf8').includes('security-hooked'),
      ),
    );
    const diagText = readFileSync(diagnostics, 'utf8');
    assert.match(diagText, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions → 401/, 'the diagnostics log has the failed requests');
    assert.match(readFileSync(realtime, 'utf8'), /private-security {2}security-event/, 'the realtime file has the traffic');
    // Every file under the extension host's log folder: both channels, other channels, exthost.log.
    const files = filesUnder(exthostDir);
    for (const f of files) assertClean(path.relative(exthostDir, f), readFileSync(f, 'utf8'));
  });

  it('no secret in any open document (answers, JSON responses, the saved realtime log) or shown message', () => {
    const docs = vscode.workspace.textDocuments;
    assert.ok(
      docs.some((d) => d.uri.scheme === ANSWER_SCHEME),
      'answer documents are open',
    );
    assert.ok(
      docs.some((d) => d.languageId === 'json'),
      'JSON responses are open',
    );
    assert.ok(
      docs.some((d) => d.uri.fsPath.endsWith('security-realtime.log')),
      'the saved realtime log is open',
    );
    for (const d of docs) assertClean(`document ${d.uri.toString()}`, d.getText());
    assertClean('the saved realtime log', savedLog);
    assert.ok(dialogs.shown.length > 20, 'messages and prompts were shown');
    for (const d of dialogs.shown) {
      // A key's own password box returns the key; what the extension showed is the arguments.
      assertClean(`${d.name} ${JSON.stringify(d.args[0]).slice(0, 80)}`, JSON.stringify(d.args));
    }
  });

  it('no secret in what the views show (labels, descriptions, tooltips) or on the clipboard', async () => {
    let seen = 0;
    const walk = async (nodes: readonly TreeNode[], depth: number, view: string): Promise<void> => {
      for (const node of nodes.slice(0, 200)) {
        const item = await node.toTreeItem();
        const tooltip = typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
        const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
        seen++;
        assertClean(`${view} tree item ${node.id}`, JSON.stringify([label, item.description, tooltip, item.contextValue, item.command?.title]));
        if (depth < 3 && node.children) {
          // A connection answers "Loading…" first: wait (bounded) for its real children.
          await walk(await loadedChildren(node), depth + 1, view);
        }
      }
    };
    for (const service of ['llm', 'maps', 'realtime'] as const) {
      await walk((await api.views[service].provider.getChildren()) ?? [], 0, service);
    }
    assert.ok(seen > 10, `tree items checked: ${seen}`);
    assertClean('the clipboard', await vscode.env.clipboard.readText());
  });

  it('exercised every contributed command (coverage)', () => {
    const contributed = contributedCommands();
    assert.ok(contributed.length >= 50, `contributed commands: ${contributed.length}`);
    const stale = Object.keys(CANNOT_RUN).filter((c) => !contributed.includes(c));
    assert.deepEqual(stale, [], 'CANNOT_RUN names commands that are not contributed');
    const missing = contributed.filter((c) => !cmd.exercised.has(c) && !(c in CANNOT_RUN));
    assert.deepEqual(missing, [], 'contributed commands this test did not run: add them to the test (or to CANNOT_RUN with the reason)');
  });
});
