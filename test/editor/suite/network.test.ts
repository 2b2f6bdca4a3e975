// VS Code's proxy settings reach the extension's own HTTP stack: with http.proxy set, a local
// forward proxy sees the extension's requests, with the URL's credentials as Proxy-Authorization;
// taking the setting away sends them direct again. The sandbox is on loopback, which is proxied
// only because http.noProxy holds <-loopback>.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { networkSettings } from '../../../src/core/net/network';
import type { ExtensionApi } from '../../../src/extension';
import { startTestProxy, type TestProxy } from '../../unit/helpers/netKit';
import { recordSecret } from '../harness/suiteApi';
import { activateExtension, SANDBOX, startSandboxRecordingKeys, waitFor } from './kit';

const PASSWORD = 'editor-proxy-pw-4321';

describe('http.proxy: VS Code’s proxy settings reach every request @network', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let proxy: TestProxy;
  const http = () => vscode.workspace.getConfiguration('http');

  before(async () => {
    api = await activateExtension();
    await startSandboxRecordingKeys(api);
    proxy = await startTestProxy();
    recordSecret(PASSWORD);
  });
  after(async () => {
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await http().update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    await proxy.close();
  });

  async function listModels(): Promise<void> {
    const conn = api.services.connections.get('llm', SANDBOX);
    assert.ok(conn && conn.service === 'llm', 'the sandbox LLM connection exists');
    const res = await api.services.http.create(conn).json({ path: 'models' });
    assert.equal(res.status, 200);
  }

  it('http.proxy (with credentials) carries the extension’s requests; without it they go direct', async () => {
    const url = `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}`;
    await http().update('noProxy', ['<-loopback>'], vscode.ConfigurationTarget.Global);
    await http().update('proxy', url, vscode.ConfigurationTarget.Global);
    await waitFor('the proxy setting applied', () => networkSettings().httpProxy?.port === String(proxy.port));
    // The views may list too when a setting changes, so only what this call sent is counted.
    const beforeProxied = proxy.seen.length;
    await listModels();
    const proxied = proxy.seen.slice(beforeProxied).filter((seen) => /\/v1\/models$/.test(seen.target));
    assert.ok(proxied.length >= 1, JSON.stringify(proxy.seen));
    assert.equal(proxied[0].kind, 'forward');
    assert.match(proxied[0].target, /^http:\/\/127\.0\.0\.1:\d+\/v1\/models$/);
    assert.equal(proxied[0].proxyAuthorization, `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`);

    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the proxy setting removed', () => networkSettings().httpProxy === undefined);
    const beforeDirect = proxy.seen.length;
    await listModels();
    assert.deepEqual(proxy.seen.slice(beforeDirect), [], 'with http.proxy gone the request went direct');
  });

  it('an http.proxy that cannot be used is not half-applied: requests go direct', async () => {
    await http().update('noProxy', ['<-loopback>'], vscode.ConfigurationTarget.Global);
    await http().update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await waitFor('the proxy setting applied', () => networkSettings().httpProxy?.port === String(proxy.port));
    await http().update('proxy', 'socks5://127.0.0.1:1080', vscode.ConfigurationTarget.Global);
    await waitFor('the unusable proxy dropped', () => networkSettings().httpProxy === undefined);
    const before = proxy.seen.length;
    await listModels();
    assert.equal(proxy.seen.length, before, 'the request went direct');
  });
});
