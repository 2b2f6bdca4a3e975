// Record Run and Run from Recording in the real editor: the answers of a notebook (a streamed chat
// from the sandbox, an http cell to a server that counts what reaches it) are kept in
// recordings/<notebook>.json, replayed without a request leaving, shown as "from a recording", and a
// cell changed since fails naming the field that differs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordedRunSummary } from '../../../src/editor/notebook/recording';
import { RESULT_MIME } from '../../../src/features/ids';
import type { SandboxInfo } from '../../../src/sandbox/types';
import type { ResultPayload } from '../../../src/webview/result/protocol';
import { takeScreenshot } from '../harness/suiteApi';
import { countingServer, sandboxKeys, stubWindow, trustedSandbox, type CountingServer } from './kit';

const decoder = new TextDecoder();

function payloadOf(cell: vscode.NotebookCell): ResultPayload | undefined {
  return cell.outputs.flatMap((o) => o.items.filter((i) => i.mime === RESULT_MIME).map((i) => JSON.parse(decoder.decode(i.data)) as ResultPayload))[0];
}

describe('Record Run and Run from Recording', function () {
  this.timeout(120_000);
  let info: SandboxInfo;
  let server: CountingServer;

  before(async function () {
    ({ info } = await trustedSandbox(this));
    server = await countingServer('{"greeting": "hello from the counting server"}');
  });
  after(() => server?.close());
  const hits = () => server.requests.length;

  it('records a notebook, replays it with nothing sent and says so in each cell, and a changed cell fails naming the field', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder');
    const uri = vscode.Uri.joinPath(folder.uri, 'recorded-demo.awb.md');
    const text = [
      '# Recorded',
      '',
      '```llm name=chat',
      'POST /chat/completions',
      'Content-Type: application/json',
      '',
      '{"model": "sandbox-chat", "stream": true, "messages": [{"role": "user", "content": "Say hello to Lisbon"}]}',
      '',
      '?? status == 200',
      '```',
      '',
      '```http name=greet',
      `GET http://${server.host}/greeting`,
      '',
      '?? json.greeting contains "counting server"',
      '```',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const recordingUri = vscode.Uri.joinPath(folder.uri, 'recordings', 'recorded-demo.awb.md.json');
    await vscode.workspace.fs.delete(recordingUri).then(undefined, () => undefined);
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const warnings = stubWindow('showWarningMessage', () => 'Allow');
    try {
      const recorded = await vscode.commands.executeCommand<RecordedRunSummary>('apiWorkbench.notebook.recordRun', doc, 'record');
      assert.deepEqual(
        recorded.results.map((r) => [r.name, r.ok]),
        [
          ['chat', true],
          ['greet', true],
        ],
        JSON.stringify(recorded.results.map((r) => r.error)),
      );
      assert.equal(recorded.recorded, 2);
      assert.equal(hits(), 1, 'recording sent the http cell once');
      const file = decoder.decode(await vscode.workspace.fs.readFile(recordingUri));
      for (const key of sandboxKeys(info)) assert.ok(!file.includes(key), 'no sandbox credential is written into the recording');
      assert.match(file, /"\{sandbox-llm\}\/v1\/chat\/completions"/, 'the sandbox is named, not its port');
      assert.equal(payloadOf(doc.cellAt(1))?.fromRecording, undefined, 'a live answer is not marked as recorded');

      const replayed = await vscode.commands.executeCommand<RecordedRunSummary>('apiWorkbench.notebook.runFromRecording', doc);
      assert.deepEqual(
        replayed.results.map((r) => [r.name, r.ok]),
        [
          ['chat', true],
          ['greet', true],
        ],
        JSON.stringify(replayed.results.map((r) => r.error)),
      );
      assert.equal(replayed.replayed, 2);
      assert.equal(hits(), 1, 'nothing reached the server while replaying');
      const chat = payloadOf(doc.cellAt(1));
      assert.equal(chat?.fromRecording, true, 'the chat cell says its answer came from a recording');
      assert.ok((chat?.answer ?? '').length > 0, 'the streamed answer is replayed');
      assert.equal(payloadOf(doc.cellAt(2))?.fromRecording, true);
      await takeScreenshot('notebook-replayed', 800);

      // The prompt changed since it was recorded: the replay sends nothing and names the field.
      const edit = new vscode.WorkspaceEdit();
      const chatDoc = doc.cellAt(1).document;
      const at = chatDoc.getText().indexOf('Say hello to Lisbon');
      edit.replace(chatDoc.uri, new vscode.Range(chatDoc.positionAt(at), chatDoc.positionAt(at + 'Say hello to Lisbon'.length)), 'Say hello to Porto');
      assert.ok(await vscode.workspace.applyEdit(edit));
      const changed = await vscode.commands.executeCommand<RecordedRunSummary>('apiWorkbench.notebook.runFromRecording', doc);
      const [chatResult, greet] = changed.results;
      assert.equal(chatResult.ok, false);
      assert.match(chatResult.error ?? '', /not in the recording recordings\/recorded-demo\.awb\.md\.json/);
      assert.match(chatResult.error ?? '', /body\.messages\[0\]\.content: recorded "Say hello to Lisbon", sent "Say hello to Porto"/);
      assert.equal(greet.ok, true, 'the other cells still replay');
      assert.equal(hits(), 1, 'nothing was sent for the changed cell either');
    } finally {
      warnings.restore();
    }
  });
});
