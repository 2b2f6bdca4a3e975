// Collection scripts in the editor: a pre-request script that sets a variable and logs, a response
// script whose pm.test shows as a check, and the log under it in the cell's output (screenshot).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { RESULT_MIME } from '../../../src/features/ids';
import type { ResultPayload } from '../../../src/webview/result/protocol';
import { takeScreenshot } from '../harness/suiteApi';
import { quietPeriod, trustedSandbox, waitFor } from './kit';

const decoder = new TextDecoder();

describe('API notebook scripts', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  before(async function () {
    ({ api } = await trustedSandbox(this));
  });

  it('a pre-request script sets a variable and logs; a response pm.test shows its result and the log in the cell output (screenshot)', async () => {
    const info = api.services.sandbox.info;
    assert.ok(info);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder.uri, 'scripts-demo.awb.md');
    const text = [
      '# Scripts',
      '',
      '```llm name=models',
      '< {%',
      '  pm.variables.set("limit", "2");',
      '  console.log("listing at most", pm.variables.get("limit"), "models");',
      '%}',
      'GET /models?limit={{limit}}',
      '',
      '> {%',
      '  pm.test("status is 200", () => pm.response.to.have.status(200));',
      '  pm.test("lists models", () => pm.expect(pm.response.json().data).to.be.an("array").that.is.not.empty);',
      '  client.log("first model:", pm.response.json().data[0].id);',
      '%}',
      '```',
      '',
    ].join('\n');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const [result] = await api.notebook().controller.runAll(doc);
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(
      result.assertions.map((a) => [a.source, a.passed]),
      [
        ['status is 200', true],
        ['lists models', true],
      ],
    );
    const cell = doc.getCells()[1];
    const payload = cell.outputs.flatMap((o) =>
      o.items.filter((i) => i.mime === RESULT_MIME).map((i) => JSON.parse(decoder.decode(i.data)) as ResultPayload),
    )[0];
    assert.ok(payload.logs, 'the output carries the script log');
    assert.equal(payload.logs.lines[0], 'listing at most 2 models');
    assert.match(payload.logs.lines[1], /^first model: /);
    // Each pm.test is a child of its cell in the Testing view, by name.
    const cellItem = await waitFor('the cell in the Testing view', () => api.testing.controller.items.get(uri.toString())?.children.get(`${uri.toString()}#1`));
    const tests = await waitFor('the script tests in the Testing view', () => {
      const labels: string[] = [];
      cellItem.children.forEach((t) => void labels.push(t.label));
      return labels.length ? labels : undefined;
    });
    assert.deepEqual(tests, ['status is 200', 'lists models']);
    // {{limit}} is set by the cell's own pre-request script: no problem is shown for it. The cell was
    // diagnosed when the notebook opened, long before the run ended; a problem appearing later (an
    // edit's debounced diagnosis) has no event to wait for, hence a watched while (quietPeriod).
    await quietPeriod(1000);
    assert.deepEqual(
      vscode.languages.getDiagnostics(cell.document.uri).map((d) => d.message),
      [],
    );
    const feature = api.notebook();
    await waitFor('the viewer to render the result', () => feature.rendered.some((m) => m.resultId === payload.resultId), 30_000).catch(() => undefined);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('notebook-scripts', 1500);
  });
});
