// ```http cells in the real editor: the first request of a notebook to a host asks once (a modal,
// remembered for that notebook only), {{$secret name}} asks once with a password box and is kept
// in SecretStorage, and a service cell whose absolute URL no connection has offers Connect….
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { APPROVED_HOSTS_STATE_KEY } from '../../../src/features/ids';
import { isTrustedRun, recordSecret } from '../harness/suiteApi';
import { activateExtension, countingServer, stubWindow, trustedSandbox, type CountingServer } from './kit';

const SECRET = `awb-http-cell-secret-${Date.now()}`;
const SECRET_NAME = `suite-token-${Date.now()}`;

async function openNotebook(name: string, text: string): Promise<vscode.NotebookDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suite runs with a workspace folder');
  const uri = vscode.Uri.joinPath(folder.uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}

describe('http cells in the editor', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let server: CountingServer;
  let host = '';
  /** What reached the server since the test began: its path and the key header it carried. */
  const seen = () => server.requests.map((r) => ({ url: r.url, key: r.headers['x-api-key'] as string | undefined }));

  before(async function () {
    if (!isTrustedRun()) this.skip();
    api = await activateExtension();
    recordSecret(SECRET);
    server = await countingServer('{"ok": true}');
    host = server.host;
  });
  after(() => server?.close());
  beforeEach(() => {
    if (server) server.requests.length = 0;
  });

  const cell = (path: string) => `\`\`\`http name=call\nGET http://${host}${path}\nX-Api-Key: {{$secret ${SECRET_NAME}}}\n\n?? status == 200\n\`\`\`\n`;

  it('asks once per notebook and host (remembered under the notebook URI), and asks for a $secret once with a password box', async () => {
    const warnings = stubWindow('showWarningMessage', () => 'Allow');
    const inputs = stubWindow('showInputBox', () => SECRET);
    try {
      const doc = await openNotebook('http-approve.awb.md', cell('/first'));
      const [first] = await api.notebook().controller.runAll(doc);
      assert.equal(first.ok, true, JSON.stringify(first));
      const [second] = await api.notebook().controller.runAll(doc);
      assert.equal(second.ok, true, JSON.stringify(second));

      assert.equal(warnings.calls.length, 1, 'the host was asked about once');
      assert.equal(warnings.calls[0][0], `Send requests from this notebook to ${host}?`);
      assert.equal((warnings.calls[0][1] as vscode.MessageOptions).modal, true);
      assert.equal(inputs.calls.length, 1, 'the secret was asked for once');
      assert.equal((inputs.calls[0][0] as vscode.InputBoxOptions).password, true);
      assert.deepEqual(
        seen().map((s) => [s.url, s.key]),
        [
          ['/first', SECRET],
          ['/first', SECRET],
        ],
      );
      const approved = api.services.context.workspaceState.get<Record<string, string[]>>(APPROVED_HOSTS_STATE_KEY, {});
      assert.deepEqual(approved[doc.uri.toString()], [host]);
      assert.ok(!JSON.stringify([first, second]).includes(SECRET), 'the secret is masked in the results');
    } finally {
      warnings.restore();
      inputs.restore();
    }
  });

  it('another notebook is asked again; Cancel sends nothing and is asked once per run', async () => {
    const warnings = stubWindow('showWarningMessage', () => undefined);
    const inputs = stubWindow('showInputBox', () => SECRET);
    try {
      const doc = await openNotebook('http-cancel.awb.md', cell('/a') + '\n' + cell('/b').replace('name=call', 'name=again'));
      const results = await api.notebook().controller.runAll(doc);
      assert.equal(warnings.calls.length, 1, 'one question for the two cells of one run');
      for (const r of results)
        assert.match(r.error ?? '', new RegExp(`not sent: you did not allow requests from this notebook to ${host.replace(/\./g, '\\.')}`));
      assert.equal(inputs.calls.length, 0, 'no secret is asked for a refused host');
      assert.equal(seen().length, 0);
      await api.notebook().controller.runCell(
        doc,
        doc.getCells().findIndex((c) => c.kind === vscode.NotebookCellKind.Code),
      );
      assert.equal(warnings.calls.length, 2, 'a new run asks again');
    } finally {
      warnings.restore();
      inputs.restore();
    }
  });

  it('an llm cell whose absolute URL no connection has is refused and offers Connect…', async () => {
    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      const doc = await openNotebook('http-foreign.awb.md', '```llm\nPOST https://api.openai.com/v1/chat/completions\n\n{"model": "gpt-4o"}\n```\n');
      const [r] = await api.notebook().controller.runAll(doc);
      assert.deepEqual(r.needsConnection, { service: 'llm', host: 'api.openai.com' });
      assert.equal(r.request, undefined);
      const offer = errors.calls.find((c) => String(c[0]).includes('This request goes to api.openai.com'));
      assert.ok(offer, JSON.stringify(errors.calls));
      assert.equal(offer[1], 'Connect…');
    } finally {
      errors.restore();
    }
  });
});

describe('http cells cannot carry a connection key', function () {
  this.timeout(90_000);

  it("an http cell whose {{$env}} holds the Local Sandbox's key is refused, naming the connection, and sends nothing", async function () {
    const { api, info } = await trustedSandbox(this);
    const server = await countingServer();
    const host = server.host;
    // The extension host's environment is what {{$env}} reads in the editor.
    process.env.AWB_SUITE_LEAK = info.llm.apiKey;
    const warnings = stubWindow('showWarningMessage', () => 'Allow');
    try {
      const doc = await openNotebook(
        'http-env-leak.awb.md',
        `\`\`\`llm name=models\nGET /models\n\`\`\`\n\n\`\`\`http name=leak\nPOST http://${host}/collect\nContent-Type: application/json\n\n{"v": "{{$env AWB_SUITE_LEAK}}"}\n\`\`\`\n`,
      );
      const [models, leak] = await api.notebook().controller.runAll(doc);
      assert.equal(models.ok, true, JSON.stringify(models));
      assert.match(leak.error ?? '', /AWB_SUITE_LEAK holds the key of the llm connection "Local Sandbox".*nothing was sent/);
      assert.equal(server.requests.length, 0);
    } finally {
      delete process.env.AWB_SUITE_LEAK;
      warnings.restore();
      await server.close();
    }
  });
});

describe('http cells in restricted mode', function () {
  this.timeout(60_000);

  it('send nothing and ask nothing in an untrusted workspace', async function () {
    if (isTrustedRun()) this.skip();
    const api = await activateExtension();
    const server = await countingServer();
    const host = server.host;
    const warnings = stubWindow('showWarningMessage', () => 'Allow');
    const inputs = stubWindow('showInputBox', () => SECRET);
    try {
      const doc = await openNotebook('http-restricted.awb.md', `\`\`\`http\nGET http://${host}/x\nX-Api-Key: {{$secret ${SECRET_NAME}}}\n\`\`\`\n`);
      const [r] = await api.notebook().controller.runAll(doc);
      assert.match(r.error ?? '', /Restricted mode: this workspace is not trusted, so http cells send nothing/);
      assert.equal(warnings.calls.length, 0);
      assert.equal(inputs.calls.length, 0);
      assert.equal(server.requests.length, 0);
    } finally {
      warnings.restore();
      inputs.restore();
      await server.close();
    }
  });
});
