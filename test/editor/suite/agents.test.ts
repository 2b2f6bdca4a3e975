// The language-model tools inside a real VS Code: invoked through vscode.lm.invokeTool (outside a
// chat, so with no invocation token) over the Local Sandbox the extension started, with keys from
// SecretStorage; the confirmation VS Code shows before publishing (prepareInvocation's result);
// read-only tools run without one.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { activateExtension, sandboxKeys, startSandboxRecordingKeys } from './kit';

const TOOLS = ['list_resources', 'llm_chat', 'maps_search_places', 'maps_compute_route', 'realtime_publish', 'realtime_recent_messages', 'run_notebook'];

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('agents: language-model tools', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let keys: string[];

  before(async () => {
    api = await activateExtension();
    keys = sandboxKeys(await startSandboxRecordingKeys(api));
  });

  it('registers the seven tools with VS Code under their stable names', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const name of TOOLS) assert.ok(names.includes(name), `${name} is not among vscode.lm.tools: ${names.join(', ')}`);
    const publish = vscode.lm.tools.find((t) => t.name === 'realtime_publish');
    assert.deepEqual(Object.keys((publish?.inputSchema as { properties: object }).properties), ['channel', 'event', 'data', 'connection']);
  });

  it('registers its MCP server where VS Code has the finalized API (1.101+), offered only when apiWorkbench.agents.mcpServer is on (the tools are language-model tools already): the resolved definition answers tools/list with its token, and refuses without it @smoke', async () => {
    const [major, minor] = vscode.version.split('.').map(Number);
    const provider = api.agentTools.mcpProvider;
    // On the floor (1.100) nothing is registered and activation succeeded all the same.
    if (major === 1 && minor < 101) return assert.equal(provider, undefined);
    assert.ok(provider, `VS Code ${vscode.version} has the MCP API: the server definition should be registered`);
    // The language-model tools are registered: the same tools are not offered a second time as an MCP server…
    assert.deepEqual(provider.provideMcpServerDefinitions(), [], 'every tool would appear twice');
    // …unless the setting asks for it.
    const settings = vscode.workspace.getConfiguration('apiWorkbench');
    await settings.update('agents.mcpServer', true, vscode.ConfigurationTarget.Global);
    const [offered] = provider.provideMcpServerDefinitions();
    await settings.update('agents.mcpServer', undefined, vscode.ConfigurationTarget.Global);
    assert.ok(offered, 'apiWorkbench.agents.mcpServer offers the MCP server');
    const definition = await provider.resolveMcpServerDefinition(offered);
    assert.match(definition.uri.toString(true), /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const listTools = (headers: Record<string, string>) =>
      fetch(definition.uri.toString(true), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const answer = await listTools(definition.headers);
    assert.equal(answer.status, 200);
    const body = (await answer.json()) as { result: { tools: Array<{ name: string }> } };
    assert.deepEqual(
      body.result.tools.map((t) => t.name),
      TOOLS,
    );
    assert.equal((await listTools({})).status, 401);
  });

  it('invokeTool runs the tools on the stored sandbox connections; no key is in any result', async () => {
    const texts: string[] = [];
    const models = await invoke('list_resources', { service: 'llm' });
    texts.push(models);
    assert.match(models, /model\(s\) on "Local Sandbox":\n- /);
    assert.match(models, /- sandbox-chat/);
    const answer = await invoke('llm_chat', { prompt: 'Say hello.' });
    texts.push(answer);
    assert.match(answer, /\(sandbox-chat on "Local Sandbox": \d+ tokens in, \d+ out; cost \$0\.00\)$/);
    const places = await invoke('maps_search_places', { query: 'Berlin', maxResults: 2 });
    texts.push(places);
    assert.match(places, /^\d place\(s\) for "Berlin" on "Local Sandbox":\n1\. /);
    const route = await invoke('maps_compute_route', { origin: 'Berlin', destination: 'Potsdam' });
    texts.push(route);
    assert.match(route, /^DRIVE from "Berlin" to "Potsdam": [\d.]+ km/);
    const listening = await invoke('realtime_recent_messages', { channel: 'agents-editor' });
    texts.push(listening);
    assert.match(listening, /^Now listening to "agents-editor" on "Local Sandbox"/);
    for (const text of texts) for (const key of keys) assert.ok(!text.includes(key), `a key is in a tool result: ${text.slice(0, 200)}`);
  });

  it("run_notebook runs a notebook of the open folder with the editor's notebook host, and refuses one outside it", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test window has a folder open');
    const uri = vscode.Uri.joinPath(folder.uri, 'agents-tool.awb.md');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('```llm name=models\nGET /models\n\n?? status == 200\n```\n'));
    try {
      const text = await invoke('run_notebook', { path: 'agents-tool.awb.md' });
      assert.match(text, /^agents-tool\.awb\.md: 1 passed, 0 failed\nPASS line 1 "models" \(llm 200, \d+ ms\)$/);
      // A file that exists outside the open folder: the extension's own manifest.
      const outside = await invoke('run_notebook', { path: path.join(api.services.context.extensionPath, 'package.json') });
      assert.match(outside, /^refused: .*package\.json is outside the folder this server may run notebooks from/);
    } finally {
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('asks before publishing, showing the channel, the event and the data; read-only tools do not ask', async () => {
    const publish = api.agentTools.tools.get('realtime_publish');
    assert.ok(publish);
    const token = new vscode.CancellationTokenSource().token;
    const prepared = await publish.prepareInvocation?.({ input: { channel: 'team', event: 'lunch', data: { places: ['Pizza Uno'] } } }, token);
    assert.deepEqual(prepared?.confirmationMessages, {
      title: 'Publish to "team"?',
      message:
        'Publish event "lunch" to channel "team" on the realtime connection "Local Sandbox". Everyone subscribed to the channel receives it.\n\nData: {"places":["Pizza Uno"]}',
    });
    for (const name of ['list_resources', 'maps_search_places', 'maps_compute_route', 'realtime_recent_messages', 'llm_chat']) {
      const readOnly = await api.agentTools.tools
        .get(name)
        ?.prepareInvocation?.({ input: { service: 'llm', query: 'x', origin: 'a', destination: 'b', channel: 'c', prompt: 'Hi' } }, token);
      assert.equal(readOnly?.confirmationMessages, undefined, `${name} asked for confirmation`);
    }
  });

  it('publishes through invokeTool, and realtime_recent_messages returns what was delivered', async () => {
    const sent = await invoke('realtime_publish', { channel: 'agents-editor', event: 'lunch', data: { places: ['Pizza Uno'] } });
    assert.match(sent, /^Delivered: "lunch" was published to channel "agents-editor" on "Local Sandbox"/);
    const seen = await invoke('realtime_recent_messages', { channel: 'agents-editor', waitSeconds: 10 });
    assert.match(seen, /1 message\(s\), oldest first:\n.* lunch: \{"places":\["Pizza Uno"\]\}/);
  });
});
