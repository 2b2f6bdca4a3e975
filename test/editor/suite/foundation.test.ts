// Foundation acceptance in the real editor: welcome → sandbox tree, keys only in SecretStorage,
// origin approval, application-scoped endpoints, malformed settings reported.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Connection, HttpConnection } from '../../../src/core/connections';
import type { ExtensionApi } from '../../../src/extension';
import type { ConnectionNode, TreeNode } from '../../../src/editor/tree';
import { isTrustedRun, recordSecret, takeScreenshot } from '../harness/suiteApi';
import { activateExtension, loadedChildren, startSandboxRecordingKeys, stubWindow, treeLabels, userConfig, waitFor } from './kit';

/** A local server that counts requests and records what arrived (the "other host"). */
async function countingServer(): Promise<{ url: string; hits: { url: string; headers: http.IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const hits: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${hits.length}` });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'remote-model', object: 'model', created: 1, owned_by: 'remote' }], resources: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

function httpConn(c: Connection | undefined): HttpConnection | undefined {
  return c && c.service !== 'realtime' ? c : undefined;
}

describe('foundation', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  before(async function () {
    if (!isTrustedRun()) this.skip();
    api = await activateExtension();
    // A new user's editor: whatever suites ran before left no sandbox running and no connection behind.
    await vscode.commands.executeCommand('apiWorkbench.sandbox.stop');
    for (const s of ['llm', 'maps', 'realtime']) await userConfig().update(`${s}.connections`, undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const s of ['llm', 'maps', 'realtime']) await userConfig().update(`${s}.connections`, undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows each view empty (welcome content) before any connection exists', async () => {
    for (const s of ['llm', 'maps', 'realtime'] as const) {
      assert.deepEqual(api.services.connections.list(s), [], `${s} already has connections`);
      assert.deepEqual(await api.views[s].provider.getChildren(), []);
    }
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('welcome', 800);
  });

  it('"Try the Local Sandbox" gives every view a Local Sandbox connection with a tree below it @smoke @vsix', async () => {
    await startSandboxRecordingKeys(api);
    for (const s of ['llm', 'maps', 'realtime'] as const) {
      const roots = (await api.views[s].provider.getChildren()) as TreeNode[];
      assert.deepEqual(await treeLabels(roots), ['Local Sandbox'], s);
      const kids = await treeLabels(await loadedChildren(roots[0]));
      assert.ok(kids.length > 0, `${s}: no children below the connection`);
      assert.ok(!kids.some((k) => /Could not load|Set API Key|Set App Secret/.test(k)), `${s}: ${kids.join(', ')}`);
      assert.equal(api.services.connections.active(s)?.name, 'Local Sandbox');
    }
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('views-sandbox', 1500);
  });

  it('stores a key typed into "Set API Key…" in SecretStorage only, bound to the connection origin', async () => {
    const server = await countingServer();
    try {
      await userConfig().update('llm.connections', [{ name: 'Work', baseUrl: `${server.url}/v1` }], vscode.ConfigurationTarget.Global);
      const conn = await waitFor('Work connection', () => httpConn(api.services.connections.get('llm', 'Work')));
      const secret = `sk-test-${Math.random().toString(36).slice(2)}${Date.now()}`;
      recordSecret(secret);
      const input = stubWindow('showInputBox', () => secret);
      try {
        await vscode.commands.executeCommand('apiWorkbench.llm.setKey', conn);
      } finally {
        input.restore();
      }
      assert.equal(input.calls.length, 1);
      assert.equal((input.calls[0][0] as vscode.InputBoxOptions).password, true, 'the key box must be a password box');
      const stored = await api.services.secrets.get(conn);
      assert.equal(stored?.value, secret);
      assert.deepEqual(stored?.origins, [server.url]);
      // Settings and globalState carry no trace of it.
      assert.ok(!JSON.stringify(userConfig().inspect('llm.connections')).includes(secret));
      for (const k of api.services.context.globalState.keys())
        assert.ok(!JSON.stringify(api.services.context.globalState.get(k)).includes(secret), `globalState ${k}`);
      // A request sends it where it was entered for, and the log line for it is redacted (the secret scan checks the log files).
      const res = await api.services.http.create(conn).json({ path: 'models' });
      assert.equal(res.status, 200);
      assert.equal(server.hits.length, 1);
      assert.equal(server.hits[0].headers.authorization, `Bearer ${secret}`);
    } finally {
      await server.close();
    }
  });

  it('asks before a key goes to a new origin, and sends nothing unless the user allows it', async () => {
    const a = await countingServer();
    const b = await countingServer();
    try {
      await userConfig().update('llm.connections', [{ name: 'Moving', baseUrl: `${a.url}/v1` }], vscode.ConfigurationTarget.Global);
      const connA = await waitFor('Moving connection', () => api.services.connections.get('llm', 'Moving'));
      const secret = `sk-move-${Date.now()}`;
      recordSecret(secret);
      await api.services.secrets.set(connA, secret, [a.url]);
      // The user's own setting now points elsewhere (e.g. edited, or pasted from a colleague).
      await userConfig().update('llm.connections', [{ name: 'Moving', baseUrl: `${b.url}/v1` }], vscode.ConfigurationTarget.Global);
      const connB = await waitFor('moved connection', () => {
        const c = httpConn(api.services.connections.get('llm', 'Moving'));
        return c?.baseUrl.startsWith(b.url) ? c : undefined;
      });
      const decline = stubWindow('showWarningMessage', () => undefined);
      try {
        await assert.rejects(api.services.http.create(connB).json({ path: 'models' }), (e: { code?: string }) => e.code === 'origin_not_approved');
      } finally {
        decline.restore();
      }
      assert.equal(decline.calls.length, 1, 'the user was asked once');
      assert.match(String(decline.calls[0][0]), new RegExp(b.url.replace(/[.:/]/g, '\\$&')));
      assert.equal(b.hits.length, 0, 'nothing may reach the new host before approval');

      const allow = stubWindow('showWarningMessage', () => 'Allow');
      try {
        await api.services.http.create(connB).json({ path: 'models' });
        await api.services.http.create(connB).json({ path: 'models' });
      } finally {
        allow.restore();
      }
      assert.equal(allow.calls.length, 1, 'approval is remembered');
      assert.equal(b.hits.length, 2);
      assert.deepEqual((await api.services.secrets.get(connB))?.origins, [a.url, b.url]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('ignores endpoints from a workspace .vscode/settings.json: no request reaches that host', async () => {
    const evil = await countingServer();
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const settingsFile = path.join(folder, '.vscode', 'settings.json');
    try {
      mkdirSync(path.dirname(settingsFile), { recursive: true });
      writeFileSync(
        settingsFile,
        JSON.stringify({
          'apiWorkbench.llm.connections': [
            { name: 'Local Sandbox', baseUrl: `${evil.url}/v1` },
            { name: 'Evil', baseUrl: `${evil.url}/v1` },
          ],
          'apiWorkbench.maps.connections': [{ name: 'Evil', baseUrl: evil.url }],
          // A window-scoped setting in the same file tells when the editor has read it (application-
          // scoped ones never show up as workspace values at all, which is the point).
          'editor.fontSize': 13,
        }),
      );
      await waitFor('workspace settings to load', () => vscode.workspace.getConfiguration('editor').inspect('fontSize')?.workspaceValue === 13 || undefined);
      assert.equal(api.services.connections.get('llm', 'Evil'), undefined);
      assert.equal(api.services.connections.get('maps', 'Evil'), undefined);
      // Everything the views do now still goes to the user's own endpoints.
      await vscode.commands.executeCommand('apiWorkbench.llm.refresh');
      await vscode.commands.executeCommand('apiWorkbench.maps.refresh');
      for (const s of ['llm', 'maps'] as const) {
        const roots = ((await api.views[s].provider.getChildren()) ?? []).filter((n): n is ConnectionNode => 'conn' in n);
        for (const r of roots) await loadedChildren(r);
      }
      assert.equal(evil.hits.length, 0);
    } finally {
      rmSync(settingsFile, { force: true });
      await evil.close();
    }
  });

  it('imports a key from a named environment variable into SecretStorage, and clears it', async () => {
    await userConfig().update('maps.connections', [{ name: 'EnvMaps', baseUrl: 'https://maps.example.invalid' }], vscode.ConfigurationTarget.Global);
    const conn = await waitFor('EnvMaps', () => api.services.connections.get('maps', 'EnvMaps'));
    const secret = `AIzaEnv${Date.now()}`;
    recordSecret(secret);
    process.env.API_WORKBENCH_TEST_MAPS_KEY = secret;
    const input = stubWindow('showInputBox', () => 'API_WORKBENCH_TEST_MAPS_KEY');
    try {
      await vscode.commands.executeCommand('apiWorkbench.maps.importKeyFromEnv', conn);
    } finally {
      input.restore();
      delete process.env.API_WORKBENCH_TEST_MAPS_KEY;
    }
    assert.equal((await api.services.secrets.get(conn))?.value, secret);
    const confirm = stubWindow('showWarningMessage', () => 'Remove');
    try {
      await vscode.commands.executeCommand('apiWorkbench.maps.clearKey', 'EnvMaps');
    } finally {
      confirm.restore();
    }
    assert.equal(await api.services.secrets.get(conn), undefined);
  });

  it('reports a malformed connection setting and keeps the valid entries', async () => {
    const warn = stubWindow('showWarningMessage', () => undefined);
    try {
      await userConfig().update(
        'llm.connections',
        [
          { name: 'Fine', baseUrl: 'https://api.openai.com/v1' },
          { name: 'Broken', baseUrl: 'not a url' },
        ],
        vscode.ConfigurationTarget.Global,
      );
      await waitFor('Fine', () => api.services.connections.get('llm', 'Fine'));
      assert.equal(api.services.connections.get('llm', 'Broken'), undefined);
      await waitFor('a warning', () => warn.calls.find((c) => /Broken/.test(String(c[0]))));
      assert.match(String(warn.calls.find((c) => /Broken/.test(String(c[0])))![0]), /baseUrl: must be an http\(s\) URL/);
    } finally {
      warn.restore();
    }
  });
});
