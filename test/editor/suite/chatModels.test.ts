// The LLM connections as VS Code chat models, inside a real VS Code that has the provider API
// (1.104+; the newest build): vscode.lm.selectChatModels finds the Local Sandbox's models under the
// vendor "api-workbench", sendRequest streams the sandbox's answer, and cancelling stops it. On the
// engine floor (1.100) the API is absent: nothing is registered and activation succeeded all the same.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { SANDBOX, activateExtension, sandboxKeys, startSandboxRecordingKeys, userConfig, waitFor } from './kit';
import { SLOW_MODEL, sandboxAnswer } from '../../../src/sandbox/llm';

const VENDOR = 'api-workbench';
const hasProviderApi = () => typeof (vscode.lm as unknown as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider === 'function';

describe('chat models: LLM connections as VS Code chat models', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let keys: string[];

  before(async function () {
    api = await activateExtension();
    if (!hasProviderApi()) {
      assert.equal(api.agentTools.chatModels, undefined, `VS Code ${vscode.version} has no chat-model provider API: nothing should be registered`);
      this.skip();
    }
    keys = sandboxKeys(await startSandboxRecordingKeys(api));
  });

  const sandboxModel = (id: string) =>
    waitFor(`the sandbox model ${id} among the chat models`, async () =>
      (await vscode.lm.selectChatModels({ vendor: VENDOR, family: id })).find((m) => m.name === `${id} (${SANDBOX})`),
    );

  it('selectChatModels lists the Local Sandbox models under the vendor "api-workbench", named "<model> (<connection>)" @smoke', async () => {
    const model = await sandboxModel('sandbox-chat');
    const all = await vscode.lm.selectChatModels({ vendor: VENDOR });
    const names = all.map((m) => m.name);
    for (const id of ['sandbox-chat', 'sandbox-chat-mini', SLOW_MODEL])
      assert.ok(names.includes(`${id} (${SANDBOX})`), `${id} is not among ${names.join(', ')}`);
    assert.equal(new Set(all.map((m) => m.id)).size, all.length, 'model ids are unique');
    // The sandbox also lists embedding and speech models; a chat request to them could only fail.
    assert.ok(!names.some((n) => /embed|whisper|tts/.test(n)), `not chat models: ${names.join(', ')}`);
    assert.equal(model.vendor, VENDOR);
    assert.ok(model.maxInputTokens > 0);
    assert.ok((await model.countTokens('x'.repeat(400))) >= 100);
  });

  it("sendRequest streams the sandbox's answer as text parts; no key is in it @smoke", async () => {
    const model = await sandboxModel('sandbox-chat');
    const tokens = new vscode.CancellationTokenSource();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {}, tokens.token);
    const pieces: string[] = [];
    for await (const piece of response.text) pieces.push(piece);
    assert.equal(pieces.join(''), sandboxAnswer([{ role: 'user', content: 'hello' }], 'sandbox-chat'));
    for (const key of keys) assert.ok(!pieces.join('').includes(key));
  });

  it('with tools, the model asks for a tool call (a LanguageModelToolCallPart); given the result, it answers in text @smoke', async () => {
    const model = await sandboxModel('sandbox-chat');
    const weather: vscode.LanguageModelChatTool = {
      name: 'get_weather',
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const question = vscode.LanguageModelChatMessage.User('What is the weather in Lyon? Use get_weather.');
    const first = await model.sendRequest([question], { tools: [weather] }, new vscode.CancellationTokenSource().token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of first.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    assert.deepEqual(
      calls.map((c) => c.name),
      ['get_weather'],
    );
    assert.equal(typeof (calls[0].input as { city?: unknown }).city, 'string');
    const answered = await model.sendRequest(
      [
        question,
        vscode.LanguageModelChatMessage.Assistant([calls[0]]),
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0].callId, [new vscode.LanguageModelTextPart('18 °C, sunny')])]),
      ],
      { tools: [weather] },
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const piece of answered.text) text += piece;
    assert.ok(text.length > 0, 'the model answered in text after the tool result');
  });

  it('cancelling the request stops the answer before it is complete @smoke', async () => {
    // The slow model streams at reading pace: the cancel arrives long before the end.
    const model = await sandboxModel(SLOW_MODEL);
    const tokens = new vscode.CancellationTokenSource();
    const question = 'Tell me a long story about a lighthouse.';
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(question)], {}, tokens.token);
    let text = '';
    for await (const piece of response.text) {
      text += piece;
      tokens.cancel();
    }
    const full = sandboxAnswer([{ role: 'user', content: question }], SLOW_MODEL);
    assert.ok(text.length > 0 && text.length < full.length, `${text.length} of ${full.length} characters arrived`);
  });

  it('asked silently, a connection whose key is not yet approved for its host is left out (listing it would ask the user) @smoke', async () => {
    const provider = api.agentTools.chatModels;
    assert.ok(provider);
    const info = api.services.sandbox.info;
    assert.ok(info);
    const name = 'Unapproved Host';
    type Entry = { name: string } & Record<string, unknown>;
    const entries = () => userConfig().inspect<Entry[]>('llm.connections')?.globalValue ?? [];
    await userConfig().update('llm.connections', [...entries(), { name, baseUrl: info.llm.baseUrl }], vscode.ConfigurationTarget.Global);
    try {
      const conn = await waitFor('the added connection', () => api.services.connections.get('llm', name));
      const listedSilently = async () =>
        (await provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token)).filter((m) =>
          m.name.endsWith(`(${name})`),
        );
      await api.services.secrets.set(conn, info.llm.apiKey, []);
      assert.deepEqual(await listedSilently(), []);
      await api.services.secrets.set(conn, info.llm.apiKey, [new URL(info.llm.baseUrl).origin]);
      assert.ok(
        (await listedSilently()).some((m) => m.name === `sandbox-chat (${name})`),
        'listed once its key is approved for the host',
      );
    } finally {
      await userConfig().update(
        'llm.connections',
        entries().filter((e) => e.name !== name),
        vscode.ConfigurationTarget.Global,
      );
    }
  });

  it('a failing request names the status, the service and the request id @smoke', async () => {
    const provider = api.agentTools.chatModels;
    assert.ok(provider);
    const [model] = (await provider.provideLanguageModelChatInformation({ silent: true }, new vscode.CancellationTokenSource().token)).filter((m) =>
      m.name.endsWith(`(${SANDBOX})`),
    );
    const gone = { ...model, id: `${model.id.slice(0, model.id.lastIndexOf('/'))}/no-such-model` };
    const progress = { report: () => assert.fail('no text for a failed request') };
    await assert.rejects(
      provider.provideLanguageModelChatResponse(
        gone,
        [vscode.LanguageModelChatMessage.User('hello')],
        {},
        progress,
        new vscode.CancellationTokenSource().token,
      ),
      (e: Error) => {
        assert.match(e.message, /404/);
        assert.match(e.message, /request id req_/);
        for (const key of keys) assert.ok(!e.message.includes(key));
        return true;
      },
    );
  });
});
