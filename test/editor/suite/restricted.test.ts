// Restricted mode: in an untrusted workspace no request leaves with a stored key, and the views
// say why instead of showing data. Runs only when the driver opened the workspace untrusted.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { HttpConnection } from '../../../src/core/connections';
import type { ExtensionApi } from '../../../src/extension';
import { isTrustedRun, recordSecret, takeScreenshot } from '../harness/suiteApi';
import { activateExtension, startSandboxRecordingKeys, userConfig, waitFor } from './kit';

describe('restricted mode (untrusted workspace)', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  before(async function () {
    if (isTrustedRun()) this.skip();
    api = await activateExtension();
  });

  it('is untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('shows the restricted-mode welcome (an empty tree) even with connections configured', async () => {
    await startSandboxRecordingKeys(api);
    assert.equal(api.services.connections.list('llm').length, 1);
    for (const s of ['llm', 'maps', 'realtime'] as const) {
      assert.deepEqual(await api.views[s].provider.getChildren(), [], s);
    }
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('restricted-mode', 800);
  });

  it('sends no request with a stored key', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await userConfig().update('llm.connections', [{ name: 'Untrusted', baseUrl: `${url}/v1` }], vscode.ConfigurationTarget.Global);
      const conn = await waitFor('the Untrusted connection', () => api.services.connections.get('llm', 'Untrusted') as HttpConnection | undefined);
      const secret = `sk-untrusted-${Date.now()}`;
      recordSecret(secret);
      await api.services.secrets.set(conn, secret, [url]);
      await assert.rejects(
        api.services.http.create(conn).json({ path: 'models' }),
        (e: Error & { kind?: string }) => e.kind === 'auth' && /Restricted mode/.test(e.message),
      );
      assert.equal(hits, 0);
    } finally {
      await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
