// answerStream (features/llm/llmStream.ts): Ask reads one shape of events whichever API the
// connection uses. Against the sandbox, both chat completions and the Responses API give the same
// answer, cut it the same way, report tool calls alike, and a conversation with tool results goes
// out in the Responses API's own form (instructions, function_call, function_call_output).
import * as assert from 'node:assert/strict';
import { sandboxConnections, type HttpConnection, type LlmApi } from '../../../src/core/connections';
import type { OutgoingRequest } from '../../../src/core/http';
import { asLlmConnection, llmClient } from '../../../src/features/llm/clients';
import { answerStream, responsesInput, type AnswerEvent, type AnswerRequest } from '../../../src/features/llm/llmStream';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer } from '../../../src/sandbox/llm';
import type { ChatMessage, ConversationMessage, ToolDefinition } from '../../../src/services/llm';
import { workbench } from './workbench';

const APIS: LlmApi[] = ['chat', 'responses'];
const WEATHER: ToolDefinition = {
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

interface Answer {
  events: AnswerEvent[];
  text: string;
  done: Extract<AnswerEvent, { type: 'done' }>;
  /** The request body as it went out (JSON). */
  body: Record<string, unknown>;
  path: string;
}

describe('features/llm/llmStream: one answer stream for chat completions and the Responses API', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let llm: HttpConnection;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llm: { tokenRate: 0 } });
    const { connections, key } = sandboxConnections(sandbox.info);
    llm = asLlmConnection(connections.find((c) => c.service === 'llm'))!;
    assert.ok(key(llm));
  });
  after(() => sandbox.close());

  async function ask(api: LlmApi | undefined, req: AnswerRequest): Promise<Answer> {
    const sent: OutgoingRequest[] = [];
    const client = llmClient(
      workbench(() => sandbox.info.llm.apiKey),
      llm,
      (r) => sent.push(r),
    );
    const events: AnswerEvent[] = [];
    for await (const e of answerStream(client, api, req)) events.push(e);
    const done = events.at(-1);
    assert.ok(done?.type === 'done', `the last event is done: ${JSON.stringify(events.at(-1))}`);
    assert.equal(sent.length, 1);
    return {
      events,
      text: events.map((e) => (e.type === 'delta' ? e.text : '')).join(''),
      done,
      body: JSON.parse(sent[0].body ?? '{}') as Record<string, unknown>,
      path: new URL(sent[0].url).pathname,
    };
  }

  it('both APIs stream the same answer: start, deltas that join to it, then done with stop, usage and the request id', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Answer in one line.' },
      { role: 'user', content: 'Name three rivers of France.' },
    ];
    const expected = sandboxAnswer(messages, 'sandbox-chat');
    for (const api of APIS) {
      const a = await ask(api, { model: 'sandbox-chat', messages });
      assert.equal(a.events[0].type, 'start', api);
      assert.ok(a.events.filter((e) => e.type === 'delta').length > 3, `${api}: the answer arrives in pieces`);
      assert.equal(a.text, expected, api);
      assert.equal(a.done.finishReason, 'stop', api);
      assert.equal(a.done.model, 'sandbox-chat', api);
      assert.match(a.done.requestId ?? '', /^req_/, api);
      assert.ok((a.done.usage?.completion_tokens ?? 0) > 0 && (a.done.usage?.prompt_tokens ?? 0) > 0, `${api}: usage ${JSON.stringify(a.done.usage)}`);
      assert.ok(a.done.timings.totalMs >= a.done.timings.headersMs, api);
    }
  });

  it("the connection's API decides the wire: chat completions by default, /responses with the system text as instructions", async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use metric units.' },
      { role: 'user', content: 'How far is the Moon?' },
    ];
    const chat = await ask(undefined, { model: 'sandbox-chat', messages, temperature: 0.2 });
    assert.equal(chat.path, '/v1/chat/completions');
    assert.equal((chat.body.messages as unknown[]).length, 3);
    const responses = await ask('responses', { model: 'sandbox-chat', messages, temperature: 0.2, topP: 0.9, maxTokens: 500 });
    assert.equal(responses.path, '/v1/responses');
    assert.deepEqual(
      {
        instructions: responses.body.instructions,
        input: responses.body.input,
        max_output_tokens: responses.body.max_output_tokens,
        temperature: responses.body.temperature,
        top_p: responses.body.top_p,
        stream: responses.body.stream,
      },
      {
        instructions: 'Be brief.\n\nUse metric units.',
        input: [{ role: 'user', content: 'How far is the Moon?' }],
        max_output_tokens: 500,
        temperature: 0.2,
        top_p: 0.9,
        stream: true,
      },
    );
    assert.equal(chat.text, sandboxAnswer(messages, 'sandbox-chat'));
    const merged: ChatMessage[] = [
      { role: 'system', content: 'Be brief.\n\nUse metric units.' },
      { role: 'user', content: 'How far is the Moon?' },
    ];
    assert.equal(responses.text, sandboxAnswer(merged, 'sandbox-chat'), 'the service answered the conversation with the instructions first');
  });

  it('an answer cut by the token limit ends with finish reason "length" in both APIs, at the same text', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Tell me a long story about a lighthouse.' }];
    const cut = sandboxAnswer(messages, 'sandbox-chat', { maxTokens: 5 });
    for (const api of APIS) {
      const a = await ask(api, { model: 'sandbox-chat', messages, maxTokens: 5 });
      assert.equal(a.done.finishReason, 'length', api);
      assert.equal(a.text, cut, api);
    }
  });

  it("a tool call is reported alike by both APIs; the tool's result sent back goes out in each API's form and the model answers in text", async () => {
    const question: ConversationMessage = { role: 'user', content: 'What is the weather in Lyon? Use get_weather.' };
    for (const api of APIS) {
      const first = await ask(api, { model: 'sandbox-chat', messages: [question], tools: [WEATHER] });
      const calls = first.events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
      assert.equal(calls.length, 1, api);
      assert.equal(calls[0].name, 'get_weather', api);
      assert.equal(typeof (JSON.parse(calls[0].arguments) as { city?: unknown }).city, 'string', `${api}: arguments fit the schema`);
      assert.equal(first.done.finishReason, 'tool_calls', api);
      assert.deepEqual(first.done.toolCalls, calls, api);

      const followUp: ConversationMessage[] = [
        question,
        { role: 'assistant', content: null, toolCalls: calls },
        { role: 'tool', toolCallId: calls[0].id, content: '{"celsius": 21}' },
      ];
      const second = await ask(api, { model: 'sandbox-chat', messages: followUp, tools: [WEATHER] });
      assert.equal(second.done.finishReason, 'stop', api);
      assert.ok(second.text.length > 0, `${api}: an answer in text`);
      assert.equal(
        second.events.some((e) => e.type === 'tool_call'),
        false,
        api,
      );
      if (api === 'responses') {
        assert.deepEqual(second.body.input, [
          { role: 'user', content: question.content },
          { type: 'function_call', call_id: calls[0].id, name: 'get_weather', arguments: calls[0].arguments },
          { type: 'function_call_output', call_id: calls[0].id, output: '{"celsius": 21}' },
        ]);
      }
    }
  });

  it('responsesInput: system and developer text becomes the instructions, an assistant turn keeps its text before its calls', () => {
    const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Lyon"}' };
    assert.deepEqual(
      responsesInput([
        { role: 'system', content: 'One.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Checking.', toolCalls: [call, { ...call, id: 'call_2' }] },
        { role: 'tool', toolCallId: 'call_1', content: 'sunny' },
        { role: 'developer', content: 'Two.' },
        { role: 'assistant', content: 'Sunny.' },
      ]),
      {
        instructions: 'One.\n\nTwo.',
        input: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Checking.' },
          { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Lyon"}' },
          { type: 'function_call', callId: 'call_2', name: 'get_weather', arguments: '{"city":"Lyon"}' },
          { type: 'function_call_output', callId: 'call_1', output: 'sunny' },
          { role: 'assistant', content: 'Sunny.' },
        ],
      },
    );
    assert.deepEqual(responsesInput([{ role: 'user', content: 'Hi' }]), { input: [{ role: 'user', content: 'Hi' }] }, 'no instructions without system text');
  });
});
