// Evaluating prompts in the real editor against the sandbox: a judge's reason in the cell's output,
// pass or fail, and Run with Models (the models picked in a multi-select quick pick, the notebook
// run once per model, the table of checks × models opened beside it, the cells' outputs untouched).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { RESULT_MIME } from '../../../src/features/ids';
import type { ResultPayload } from '../../../src/webview/result/protocol';
import type { ModelsRun } from '../../../src/editor/notebook/runWithModels';
import { takeScreenshot } from '../harness/suiteApi';
import { stubWindow, trustedSandbox, waitFor } from './kit';

const decoder = new TextDecoder();

const NOTEBOOK = `# Cafés

\`\`\`vars
model = sandbox-chat
\`\`\`

\`\`\`llm name=suggest
POST /chat/completions

{"model": "{{model}}", "messages": [{"role": "user", "content": "Suggest one café in Lisbon"}]}

?? status == 200
?? judge: names a café in Lisbon
?? judge: recommends a restaurant in Tokyo
\`\`\`
`;

async function openNotebook(name: string, text: string): Promise<vscode.NotebookDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with a workspace folder');
  const uri = vscode.Uri.joinPath(folder.uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}

function outputs(cell: vscode.NotebookCell): { payloads: ResultPayload[]; text: string } {
  const items = cell.outputs.flatMap((o) => o.items);
  return {
    payloads: items.filter((i) => i.mime === RESULT_MIME).map((i) => JSON.parse(decoder.decode(i.data)) as ResultPayload),
    text: items
      .filter((i) => i.mime === 'text/plain')
      .map((i) => decoder.decode(i.data))
      .join('\n'),
  };
}

describe('Evaluating prompts in the editor', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
  });

  it("shows each judge's verdict and reason in the cell's output, pass or fail", async () => {
    const doc = await openNotebook('judged.awb.md', NOTEBOOK);
    const results = await api.notebook().controller.runAll(doc);
    const suggest = results.find((r) => r.name === 'suggest');
    assert.ok(suggest);
    assert.equal(suggest.ok, false, 'the Tokyo rubric fails');
    const cell = doc.getCells().find((c) => (c.metadata.attributes as Record<string, string> | undefined)?.name === 'suggest');
    assert.ok(cell);
    const { payloads, text } = outputs(cell);
    const [good, bad] = payloads[0].assertions.filter((a) => a.source.startsWith('?? judge:'));
    assert.equal(good.passed, true);
    assert.equal(good.judgeModel, 'sandbox-chat');
    assert.match(good.reason ?? '', /^The answer has 2 of the rubric’s 3 words \(café, lisbon\)/);
    assert.equal(bad.passed, false);
    assert.equal(
      bad.reason,
      'The answer has 0 of the rubric’s 3 words; missing: recommends, restaurant, tokyo. The sandbox passes an answer with at least half of them.',
    );
    assert.match(text, /✓ \?\? judge: names a café in Lisbon \(judge sandbox-chat: The answer has 2 of the rubric’s 3 words/);
    assert.match(text, /✗ \?\? judge: recommends a restaurant in Tokyo \(judge sandbox-chat: The answer has 0 of the rubric’s 3 words/);
    vscode.window.activeNotebookEditor?.revealRange(new vscode.NotebookRange(cell.index, cell.index + 1), vscode.NotebookEditorRevealType.AtTop);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('notebook-judge-reasons', 2000);
  });

  it("shows each judge's reason in the Testing view's output at its check's line, and a failed judge's reason in its failure", async () => {
    const doc = await openNotebook('judged-testing.awb.md', NOTEBOOK);
    const controller = api.testing.controller;
    const create = controller.createTestRun.bind(controller);
    const output: Array<{ text: string; line?: number }> = [];
    const failures: string[] = [];
    controller.createTestRun = (request, name, persist) => {
      const run = create(request, name, persist);
      return Object.assign(Object.create(run) as vscode.TestRun, {
        appendOutput: (text: string, location?: vscode.Location, item?: vscode.TestItem) => (
          output.push({ text, line: location?.range.start.line }),
          run.appendOutput(text, location, item)
        ),
        failed: (t: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], d?: number) => (
          failures.push(...[m].flat().map((x) => (typeof x.message === 'string' ? x.message : x.message.value))),
          run.failed(t, m, d)
        ),
      });
    };
    try {
      await api.notebook().controller.runAll(doc);
      await waitFor('the judged cell in the Testing view', () => failures.length > 0);
    } finally {
      controller.createTestRun = create;
    }
    const good = output.find((o) => o.text.startsWith('?? judge: names a café in Lisbon'));
    assert.ok(good, JSON.stringify(output));
    assert.match(good.text, /^\?\? judge: names a café in Lisbon: pass \(judge sandbox-chat\): The answer has 2 of the rubric’s 3 words/);
    // 0-based: the check is on the 13th line of the file.
    assert.equal(good.line, 12);
    assert.ok(output.some((o) => o.text.startsWith('?? judge: recommends a restaurant in Tokyo: fail (judge sandbox-chat): The answer has 0')));
    assert.ok(
      failures.some((f) =>
        /^\?\? judge: recommends a restaurant in Tokyo: expected judge: recommends a restaurant in Tokyo, got fail: The answer has 0/.test(f),
      ),
      JSON.stringify(failures),
    );
  });

  it('Run with Models: picks models in a multi-select quick pick, runs the notebook per model, opens the table; the outputs stay', async () => {
    const doc = await openNotebook('models.awb.md', NOTEBOOK);
    const before = doc.getCells().map((c) => c.outputs.length);
    const pick = stubWindow('showQuickPick', (items: readonly vscode.QuickPickItem[]) =>
      items.filter((i) => i.label === 'sandbox-chat' || i.label === 'gpt-4o-mini'),
    );
    let run: ModelsRun | undefined;
    try {
      run = await vscode.commands.executeCommand<ModelsRun | undefined>('apiWorkbench.notebook.runWithModels');
    } finally {
      pick.restore();
    }
    assert.ok(run, 'the command ran');
    const options = pick.calls[0][1] as vscode.QuickPickOptions;
    assert.equal(options.canPickMany, true);
    const items = (pick.calls[0][0] as vscode.QuickPickItem[]).filter((i) => i.kind !== vscode.QuickPickItemKind.Separator);
    const offered = items.map((i) => i.label);
    assert.ok(offered.includes('sandbox-chat-mini') && offered.includes('gpt-4o'), 'the connection’s chat models are offered');
    for (const id of ['babbage-002', 'dall-e-2', 'text-embedding-3-small', 'whisper-1'])
      assert.ok(!offered.includes(id), `${id} cannot chat and is not offered`);
    assert.deepEqual(
      items.filter((i) => i.picked).map((i) => i.label),
      ['sandbox-chat', 'sandbox-chat-mini'],
      'two chat models are pre-selected',
    );
    // In the order the quick pick lists them (chat models, the sandbox's own first).
    assert.deepEqual(
      run.runs.map((r) => r.matrix),
      [{ model: 'sandbox-chat' }, { model: 'gpt-4o-mini' }],
    );
    const rows = run.text.split('\n').map((l) => l.split(/ {2,}/));
    const header = rows.find((r) => r[0] === 'check');
    assert.ok(header, run.text);
    assert.deepEqual(header.slice(1), ['sandbox-chat', 'gpt-4o-mini']);
    for (const line of run.text.split('\n')) assert.ok(Array.from(line).length <= 100, `the table fits the editor: ${line}`);
    assert.deepEqual(
      rows.filter((r) => r[0].startsWith('suggest › ')).map((r) => [r[0], r[1], r[2]]),
      [
        ['suggest › status == 200', '✓', '✓'],
        ['suggest › judge: names a café in Lisbon', '✓', '✓'],
        ['suggest › judge: recommends a restaurant in Tokyo', '✗', '✗'],
      ],
    );
    assert.ok(rows.some((r) => r[0] === 'cost (USD)'));
    assert.equal(vscode.window.activeTextEditor?.document, run.document, 'the table is shown');
    assert.equal(run.document.uri.scheme, 'api-workbench-report', 'a read-only view');
    assert.ok(!run.document.isUntitled && !run.document.isDirty, 'closing it does not ask to save');
    assert.deepEqual(
      doc.getCells().map((c) => c.outputs.length),
      before,
      'the cells’ outputs are those of the last ordinary run',
    );
    await takeScreenshot('notebook-run-with-models', 1500);
  });
});
