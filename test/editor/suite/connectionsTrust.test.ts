// Connections you can trust, in the editor: adding one checks it and shows what came back, without
// making it the active one; an Azure deployments connection lists its deployments; Entra ID sign-in
// through an authentication provider registered under the "microsoft" id (code-server has none)
// whose tokens come from the sandbox's own token endpoint; Diagnose Connection's report.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { DIAGNOSE, MAKE_ACTIVE } from '../../../src/editor/connectionCheck';
import { MICROSOFT_AUTH_PROVIDER } from '../../../src/editor/entraSignIn';
import type { ExtensionApi } from '../../../src/extension';
import type { SandboxInfo } from '../../../src/sandbox/types';
import { recordSecret, takeScreenshot } from '../harness/suiteApi';
import {
  activateExtension,
  findConnectionNode,
  loadedChildren,
  SANDBOX,
  startSandboxRecordingKeys,
  stubWindow,
  treeLabel,
  treeLabels,
  userConfig,
  waitFor,
} from './kit';

const g = vscode.ConfigurationTarget.Global;
const ACCOUNT = 'avery@contoso.example';

type Entry = { name: string } & Record<string, unknown>;
const llmEntries = () => userConfig().inspect<Entry[]>('llm.connections')?.globalValue ?? [];
async function removeLlm(...names: string[]): Promise<void> {
  await userConfig().update(
    'llm.connections',
    llmEntries().filter((e) => !names.includes(e.name)),
    g,
  );
}

/** A "microsoft" provider whose sessions carry tokens from the sandbox's Entra token endpoint. */
class SandboxMicrosoftProvider implements vscode.AuthenticationProvider {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  session: vscode.AuthenticationSession | undefined;
  tokensIssued = 0;

  constructor(private readonly info: SandboxInfo) {}

  async signIn(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const origin = new URL(this.info.llm.baseUrl).origin;
    const res = await fetch(`${origin}/sandbox-tenant/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'awb-editor-test',
        client_secret: this.info.llm.apiKey,
        scope: scopes.join(' '),
      }),
    });
    assert.equal(res.status, 200, 'the sandbox issued a token');
    const { access_token } = (await res.json()) as { access_token: string };
    recordSecret(access_token);
    this.tokensIssued++;
    this.session = { id: `s${this.tokensIssued}`, accessToken: access_token, account: { id: 'avery', label: ACCOUNT }, scopes: [...scopes] };
    this.changed.fire({ added: [this.session], removed: [], changed: [] });
    return this.session;
  }

  signOut(): void {
    const gone = this.session;
    this.session = undefined;
    if (gone) this.changed.fire({ added: [], removed: [gone], changed: [] });
  }

  getSessions(): Promise<vscode.AuthenticationSession[]> {
    return Promise.resolve(this.session ? [this.session] : []);
  }
  createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    return this.signIn(scopes);
  }
  removeSession(): Promise<void> {
    this.signOut();
    return Promise.resolve();
  }
}

describe('connections you can trust: the check, Azure deployments, Entra ID, Diagnose Connection @auth', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let info: SandboxInfo;
  let origin: string;

  before(async () => {
    api = await activateExtension();
    info = await startSandboxRecordingKeys(api);
    origin = new URL(info.llm.baseUrl).origin;
    await api.services.connections.setActive('llm', SANDBOX);
  });

  it('adding a connection checks it, shows what it lists, and leaves the sandbox active unless asked', async () => {
    const name = 'Checked Server';
    const real = vscode.window.showInformationMessage.bind(vscode.window) as (m: string, ...items: string[]) => Thenable<string | undefined>;
    let answer: (v: string | undefined) => void = () => undefined;
    const picks = stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => items.find((i) => i.label === 'Other OpenAI-compatible server'));
    const inputs = stubWindow('showInputBox', (o: vscode.InputBoxOptions) =>
      o.password ? info.llm.apiKey : o.prompt?.startsWith('Base URL') ? info.llm.baseUrl : name,
    );
    // The real notification is shown (for the screenshot); the answer is given by the test.
    const infos = stubWindow('showInformationMessage', (message: string, ...items: string[]) => {
      void real(message, ...items);
      return new Promise<string | undefined>((r) => (answer = r));
    });
    try {
      const added = vscode.commands.executeCommand('apiWorkbench.llm.addConnection');
      await waitFor('the check’s message', () => infos.calls.length > 0);
      const [message, ...buttons] = infos.calls[0] as string[];
      assert.match(message, new RegExp(`^"${name}" works: \\d+ listed: .+ and \\d+ more\\. `));
      assert.match(message, /"Local Sandbox" stays the active Language Models connection until you choose/);
      assert.deepEqual(buttons, [MAKE_ACTIVE, DIAGNOSE]);
      await waitFor('the new connection in the tree', () => findConnectionNode(api, 'llm', name));
      // Found again each time: a tree refreshed by another view's change has new node objects.
      await waitFor('the node says connected', async () => {
        const node = await findConnectionNode(api, 'llm', name);
        return node !== undefined && /✓ connected/.test(String((await node.toTreeItem()).description));
      });
      await vscode.commands.executeCommand('apiWorkbench.llm.focus');
      await takeScreenshot('connection-check', 800);
      answer(undefined);
      await added;
      assert.equal(api.services.connections.active('llm')?.name, SANDBOX, 'not made active without asking');
    } finally {
      picks.restore();
      inputs.restore();
      infos.restore();
      await removeLlm(name);
    }
  });

  it('Connect… from a cell on an OpenAI-compatible host no connection has offers that host’s preset first, its base URL filled in', async () => {
    const picks = stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => items[0]);
    const inputs = stubWindow('showInputBox', (o: vscode.InputBoxOptions) => o.value);
    const quiet = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'].map((m) => stubWindow(m as 'showInformationMessage', () => undefined));
    try {
      await vscode.commands.executeCommand('apiWorkbench.llm.addConnection', { host: 'localhost:11434' });
      const first = (picks.calls[0][0] as vscode.QuickPickItem[])[0];
      assert.equal(first.label, 'Ollama (local)');
      assert.equal(first.description, "the cell's host: http://localhost:11434/v1");
      const baseUrlPrompt = inputs.calls.map((c) => c[0] as vscode.InputBoxOptions).find((o) => o.prompt?.startsWith('Base URL'));
      assert.equal(baseUrlPrompt?.value, 'http://localhost:11434/v1');
      const entry = llmEntries().find((e) => e.name === 'Ollama (local)');
      assert.equal(entry?.baseUrl, 'http://localhost:11434/v1');
    } finally {
      picks.restore();
      inputs.restore();
      for (const q of quiet) q.restore();
      await removeLlm('Ollama (local)');
    }
  });

  it('Connect… writes an Azure deployments connection; one on the sandbox lists its deployments with the api-key', async () => {
    const picked = stubWindow('showQuickPick', (items: vscode.QuickPickItem[]) => items.find((i) => i.label === 'Azure OpenAI deployments (classic API)'));
    const inputs = stubWindow('showInputBox', (o: vscode.InputBoxOptions) =>
      o.password ? '' : o.prompt === 'Azure OpenAI resource name' ? 'contoso' : (o.value ?? 'Azure Classic'),
    );
    const infos = stubWindow('showInformationMessage', () => undefined);
    try {
      await vscode.commands.executeCommand('apiWorkbench.llm.addConnection');
      const entry = llmEntries().find((e) => e.baseUrl === 'https://contoso.openai.azure.com/openai');
      assert.deepEqual(entry && { baseUrl: entry.baseUrl, azure: entry.azure }, {
        baseUrl: 'https://contoso.openai.azure.com/openai',
        azure: { apiVersion: '2024-10-21' },
      });
      assert.match(String(infos.calls[0]?.[0]), /Set its key to check it/);
    } finally {
      picked.restore();
      inputs.restore();
      infos.restore();
    }
    const name = 'Sandbox Azure';
    await userConfig().update('llm.connections', [...llmEntries(), { name, baseUrl: `${origin}/openai`, azure: {} }], g);
    const conn = await waitFor('the Azure connection', () => api.services.connections.get('llm', name));
    await api.services.secrets.set(conn, info.llm.apiKey, [origin]);
    const node = await waitFor('its node', () => findConnectionNode(api, 'llm', name));
    const labels = await treeLabels(await loadedChildren(node));
    assert.ok(labels.includes('sandbox-chat'), `deployments listed: ${labels.join(', ')}`);
    await removeLlm(
      name,
      ...llmEntries()
        .filter((e) => e.baseUrl === 'https://contoso.openai.azure.com/openai')
        .map((e) => e.name),
    );
  });

  it('Entra ID: VS Code’s "microsoft" sign-in gives the token, the account shows on the connection, sign-out forgets it', async () => {
    const provider = new SandboxMicrosoftProvider(info);
    const registration = vscode.authentication.registerAuthenticationProvider(MICROSOFT_AUTH_PROVIDER, 'Microsoft (sandbox)', provider);
    // The first sign-in asks the user to allow the extension (a modal the test host refuses to show):
    // this stands in for that one click, "Allow", and hands over the provider's session.
    const auth = vscode.authentication as unknown as Record<string, unknown>;
    const realGetSession = vscode.authentication.getSession.bind(vscode.authentication);
    const consents: unknown[] = [];
    auth.getSession = async (id: string, scopes: readonly string[], options?: vscode.AuthenticationGetSessionOptions) => {
      const silent = await realGetSession(id, scopes, { silent: true });
      if (silent || options?.silent || id !== MICROSOFT_AUTH_PROVIDER) return silent;
      consents.push(scopes);
      // Signed out: the user dismisses the sign-in (signing in again is the test's own step).
      if (!provider.session) throw new Error('sign-in cancelled');
      return provider.session;
    };
    const name = 'Azure (Entra)';
    try {
      await provider.signIn(['https://cognitiveservices.azure.com/.default']);
      await userConfig().update('llm.connections', [...llmEntries(), { name, baseUrl: `${origin}/openai`, azure: {}, entra: true }], g);
      const node = await waitFor('the Entra connection', () => findConnectionNode(api, 'llm', name));
      const kids = await loadedChildren(node);
      const labels = await treeLabels(kids);
      assert.ok(
        labels.includes('sandbox-chat'),
        `the deployments answered the Entra token: ${labels.join(', ')} ${String((await kids[0].toTreeItem()).description)}`,
      );
      await waitFor('the account on the connection', async () =>
        String((await findConnectionNode(api, 'llm', name).then((n) => n?.toTreeItem()))?.description).includes(`Entra ID: ${ACCOUNT}`),
      );

      provider.signOut();
      await waitFor('the account gone after sign-out', async () =>
        String((await findConnectionNode(api, 'llm', name).then((n) => n?.toTreeItem()))?.description).includes('not signed in'),
      );
      await provider.signIn(['https://cognitiveservices.azure.com/.default']);
      await vscode.commands.executeCommand('apiWorkbench.llm.refresh');
      const again = await waitFor('the connection again', () => findConnectionNode(api, 'llm', name));
      assert.ok((await treeLabels(await loadedChildren(again))).includes('sandbox-chat'), 'signed in again, the new token works');
      assert.equal(provider.tokensIssued, 2, 'one token per sign-in: renewals reuse the cached one');
      assert.ok(consents.length >= 1);
    } finally {
      auth.getSession = realGetSession;
      registration.dispose();
      await removeLlm(name);
    }
  });

  it('a tokenCommand in the connection settings: its token goes as Bearer, the row says so, no key is asked for', async () => {
    const name = 'Token Command';
    // A stand-in for `az account get-access-token … -o tsv`: prints the sandbox's key as the token.
    const tokenCommand = `"${process.execPath}" -e "console.log(process.env.AWB_TEST_TOKEN)"`;
    process.env.AWB_TEST_TOKEN = info.llm.apiKey;
    try {
      await userConfig().update('llm.connections', [...llmEntries(), { name, baseUrl: info.llm.baseUrl, tokenCommand }], g);
      const node = await waitFor('the token-command connection', () => findConnectionNode(api, 'llm', name));
      const labels = await treeLabels(await loadedChildren(node));
      assert.ok(labels.includes('sandbox-chat'), `listed with the command's token: ${labels.join(', ')}`);
      const item = await node.toTreeItem();
      assert.match(String(item.description), /token command/);
      assert.doesNotMatch(String(item.description), /no key/);
    } finally {
      delete process.env.AWB_TEST_TOKEN;
      await removeLlm(name);
    }
  });

  it('a token refused (401) before its expiry is fetched again once, and the listing goes on with the new one', async () => {
    const name = 'Renewed Token';
    const dir = mkdtempSync(path.join(tmpdir(), 'awb-renew-'));
    const runs = path.join(dir, 'runs.txt');
    // First run: a token the server does not take (revoked after it was issued); then the right one.
    const script = path.join(dir, 'token.js');
    writeFileSync(
      script,
      `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(runs)}, 'run\\n');` +
        `console.log(fs.readFileSync(${JSON.stringify(runs)}, 'utf8').length > 4 ? process.env.AWB_TEST_TOKEN : 'revoked-token-1234');`,
    );
    process.env.AWB_TEST_TOKEN = info.llm.apiKey;
    try {
      await userConfig().update(
        'llm.connections',
        [...llmEntries(), { name, baseUrl: info.llm.baseUrl, tokenCommand: `"${process.execPath}" "${script}"` }],
        g,
      );
      const node = await waitFor('the token-command connection', () => findConnectionNode(api, 'llm', name));
      const labels = await treeLabels(await loadedChildren(node));
      assert.ok(labels.includes('sandbox-chat'), `listed with the renewed token: ${labels.join(', ')}`);
      assert.equal(readFileSync(runs, 'utf8'), 'run\nrun\n', 'the command ran again once, after the 401');
    } finally {
      delete process.env.AWB_TEST_TOKEN;
      await removeLlm(name);
    }
  });

  it('Diagnose Connection: a redacted read-only report of resolution, proxy, request, latency and rate limits', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('apiWorkbench.diagnoseConnection', api.services.connections.get('llm', SANDBOX));
    assert.ok(doc, 'a report document opened');
    const text = doc.getText();
    assert.equal(doc.languageId, 'markdown');
    // A read-only view: closing it does not ask to save text nobody typed.
    assert.equal(doc.uri.scheme, 'api-workbench-report');
    assert.ok(!doc.isUntitled && !doc.isDirty, 'not an Untitled document');
    assert.match(text, /^# Connection diagnosis: Language Models \(Local Sandbox\)/);
    assert.match(text, /## Name resolution\n- 127\.0\.0\.1 → 127\.0\.0\.1/);
    assert.match(text, /## Proxy\n- none: /);
    assert.match(text, /- HTTP 200 in \d+ ms: the credentials were accepted/);
    assert.match(text, /- Authentication: API key as Authorization: Bearer/);
    assert.ok(!text.includes(info.llm.apiKey), 'the key is not in the report');
    await takeScreenshot('diagnose-connection', 800);
    assert.equal(await treeLabel((await findConnectionNode(api, 'llm', SANDBOX))!), SANDBOX);
  });
});
