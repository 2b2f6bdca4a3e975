// features/llm/chatModels: what VS Code's chat-model provider relies on, against the real sandbox:
// model ids that stay unique when two connections serve the same model, VS Code's messages (text,
// tool calls, tool results) as the conversation the service understands, an answer streamed piece
// by piece, cancellation that stops it, and failures that name the status and the request id.
import * as assert from 'node:assert/strict';
import { sandboxConnections, type HttpConnection } from '../../../src/core/connections';
import { errorText } from '../../../src/core/errors';
import { asLlmConnection, llmClient } from '../../../src/features/llm/clients';
import {
  chatModelId,
  describeChatModel,
  describeChatModels,
  estimateChatTokens,
  findChatModel,
  streamChatAnswer,
  toConversation,
  type BridgeMessage,
} from '../../../src/features/llm/chatModels';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer } from '../../../src/sandbox/llm';
import type { ToolCall } from '../../../src/services/llm';
import { workbench } from './workbench';

const unexpectedToolCall = (c: ToolCall) => assert.fail(`unexpected tool call ${c.name}`);

describe('features/llm/chatModels: LLM connections as VS Code chat models', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let llm: HttpConnection;
  before(async () => {
    // Slow enough that a cancel after the first piece arrives before the rest.
    sandbox = await startSandbox({ port: 0, llm: { tokenRate: 200 } });
    llm = asLlmConnection(sandboxConnections(sandbox.info).connections.find((c) => c.service === 'llm'))!;
  });
  after(() => sandbox.close());

  const client = () =>
    llmClient(
      workbench(() => sandbox.info.llm.apiKey),
      llm,
    );

  it('describes each model with an id unique across connections, "<model> (<connection>)" as its name, limits and tool calling', () => {
    const other = { ...llm, name: 'Ollama' };
    const a = describeChatModel(llm, 'gpt-4o');
    const b = describeChatModel(other, 'gpt-4o');
    assert.notEqual(a.id, b.id);
    assert.equal(a.name, `gpt-4o (${llm.name})`);
    assert.equal(a.family, 'gpt-4o');
    assert.ok(a.maxInputTokens > 0 && a.maxOutputTokens > 0);
    assert.equal(a.capabilities.toolCalling, true);
    assert.deepEqual(findChatModel([llm, other], b.id), { conn: other, model: 'gpt-4o' });
    // A model name with a slash (Ollama's "library/model") survives the round trip.
    assert.equal(findChatModel([llm], chatModelId(llm, 'library/llama3:8b'))?.model, 'library/llama3:8b');
    assert.equal(findChatModel([other], a.id), undefined, 'a removed connection finds nothing');
  });

  it('lists chat models only, the sandbox chat model first, claiming tool calling only where a model has it', () => {
    const listed = ['babbage-002', 'dall-e-2', 'gpt-4o-search-preview', 'gpt-4o-mini', 'sandbox-chat', 'text-embedding-3-small', 'tts-1'].map((id) => ({ id }));
    const described = describeChatModels(llm, listed);
    assert.deepEqual(
      described.map((m) => m.family),
      ['sandbox-chat', 'gpt-4o-mini', 'gpt-4o-search-preview'],
    );
    assert.deepEqual(
      described.map((m) => m.capabilities.toolCalling),
      [true, true, false],
    );
  });

  it("turns VS Code's messages into the conversation: text joined, the assistant's tool calls, each tool result its own message", () => {
    const messages: BridgeMessage[] = [
      { role: 'system', parts: [{ kind: 'text', value: 'Be brief.' }] },
      {
        role: 'user',
        parts: [
          { kind: 'text', value: 'Weather in ' },
          { kind: 'text', value: 'Lyon?' },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'call_1', name: 'get_weather', input: { city: 'Lyon' } }] },
      { role: 'user', parts: [{ kind: 'toolResult', callId: 'call_1', text: '18 °C' }] },
    ];
    assert.deepEqual(toConversation(messages), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Lyon?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Lyon"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: '18 °C' },
    ]);
    assert.equal(estimateChatTokens('x'.repeat(400)), estimateChatTokens({ role: 'user', parts: [{ kind: 'text', value: 'x'.repeat(400) }] }));
    assert.ok(estimateChatTokens('x'.repeat(400)) >= 100);
  });

  it("streams the service's answer text in pieces as they arrive, and tool calls when the model asks for a tool", async () => {
    const question = { role: 'user' as const, content: 'Name three rivers of France.' };
    const pieces: string[] = [];
    await streamChatAnswer(
      client(),
      undefined,
      { model: 'sandbox-chat', messages: [question] },
      { text: (t) => pieces.push(t), toolCall: unexpectedToolCall },
      undefined,
    );
    assert.ok(pieces.length > 3, 'the answer arrives in pieces');
    assert.equal(pieces.join(''), sandboxAnswer([question], 'sandbox-chat'));

    const calls: ToolCall[] = [];
    const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const ask = { role: 'user' as const, content: 'What is the weather in Lyon? Use get_weather.' };
    await streamChatAnswer(
      client(),
      undefined,
      { model: 'sandbox-chat', messages: [ask], tools: [weather] },
      { text: () => undefined, toolCall: (c) => calls.push(c) },
      undefined,
    );
    assert.deepEqual(
      calls.map((c) => c.name),
      ['get_weather'],
    );
  });

  it('cancelling stops the answer: no text arrives after it', async () => {
    const question = { role: 'user' as const, content: 'Tell me a long story about a lighthouse.' };
    const abort = new AbortController();
    const pieces: string[] = [];
    const streamed = streamChatAnswer(
      client(),
      undefined,
      { model: 'sandbox-chat', messages: [question] },
      {
        text: (t) => {
          pieces.push(t);
          abort.abort();
        },
        toolCall: unexpectedToolCall,
      },
      abort.signal,
    );
    await assert.rejects(streamed);
    assert.equal(pieces.length, 1);
    assert.ok(pieces[0].length < sandboxAnswer([question], 'sandbox-chat').length);
  });

  it("a failure names the status, the service's words and the request id, never the key", async () => {
    const failed = await streamChatAnswer(
      client(),
      undefined,
      { model: 'no-such-model', messages: [{ role: 'user', content: 'hello' }] },
      { text: (t) => assert.fail(`text arrived: ${t}`), toolCall: unexpectedToolCall },
      undefined,
    ).then(
      () => assert.fail('an unknown model was answered'),
      (e: unknown) => errorText(e),
    );
    assert.match(failed, /404/);
    assert.match(failed, /no-such-model/);
    assert.match(failed, /request id req_/);
    assert.ok(!failed.includes(sandbox.info.llm.apiKey));
  });
});
