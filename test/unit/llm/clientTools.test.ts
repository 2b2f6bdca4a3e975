// Our LlmClient with tools, structured outputs and the Responses API, against the sandbox, checked
// against what the official `openai` client gets for the same requests.
import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import OpenAI from 'openai';
import { ApiError } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer, SLOW_MODEL } from '../../../src/sandbox/llm';
import {
  ChatStreamDecoder,
  LlmClient,
  openAiErrorParser,
  ResponsesStreamDecoder,
  type ChatStreamEvent,
  type ConversationMessage,
  type ResponseStreamEvent,
  type ToolDefinition,
} from '../../../src/services/llm';
import { TRIP_SCHEMA } from './llmSchemas';

const KEY = 'sk-sandbox-client-tools-test';
const MODEL = 'sandbox-chat';
const WEATHER: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
  strict: true,
};
const TIME: ToolDefinition = {
  name: 'get_time',
  parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'], additionalProperties: false },
};

async function all<E>(stream: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

describe('llm/client: tools, structured outputs and the Responses API', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let llm: LlmClient;
  let sdk: OpenAI;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 } });
    const baseUrl = sandbox.info.llm.baseUrl;
    llm = new LlmClient(
      new HttpClient({
        service: 'Sandbox LLM',
        baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
      }),
    );
    sdk = new OpenAI({ baseURL: baseUrl, apiKey: KEY, maxRetries: 0 });
  });
  after(() => sandbox.close());

  const ask = 'Weather in Madrid in fahrenheit, please.';

  it('returns tool calls as {id, name, arguments}, equal to what the SDK sees, and sends results back', async () => {
    const r = await llm.chat({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [WEATHER, TIME] });
    assert.equal(r.finishReason, 'tool_calls');
    assert.equal(r.text, '');
    const calls = r.toolCalls ?? [];
    assert.equal(calls.length, 1);
    assert.deepEqual(JSON.parse(calls[0].arguments), { city: 'Madrid', unit: 'fahrenheit' });
    const theirs = await sdk.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: ask }],
      tools: [WEATHER, TIME].map((f) => ({ type: 'function' as const, function: f })),
    });
    const theirCall = theirs.choices[0].message.tool_calls?.[0];
    assert.ok(theirCall?.type === 'function');
    assert.deepEqual([calls[0].name, calls[0].arguments], [theirCall.function.name, theirCall.function.arguments]);

    const messages: ConversationMessage[] = [
      { role: 'user', content: ask },
      { role: 'assistant', content: null, toolCalls: calls },
      { role: 'tool', toolCallId: calls[0].id, content: 'Sunny, 75F' },
    ];
    const answer = await llm.chat({ model: MODEL, messages, tools: [WEATHER] });
    assert.equal(answer.finishReason, 'stop');
    assert.ok(answer.text.includes('“Sunny, 75F”'), answer.text);
    assert.equal(answer.toolCalls, undefined);
    const named = await llm.chat({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [WEATHER, TIME], toolChoice: { name: 'get_time' } });
    assert.equal(named.toolCalls?.[0].name, 'get_time');
    const none = await llm.chat({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [WEATHER], toolChoice: 'none' });
    assert.equal(none.text, sandboxAnswer([{ role: 'user', content: ask }], MODEL));
  });

  it('assembles streamed parallel tool calls by index into the same calls as the plain answer', async () => {
    const messages: ConversationMessage[] = [{ role: 'user', content: 'Call get_weather for Oslo and get_time for Europe/Oslo.' }];
    const plain = await llm.chat({ model: MODEL, messages, tools: [WEATHER, TIME] });
    const events = await all(llm.chatStream({ model: MODEL, messages, tools: [WEATHER, TIME] }));
    const calls = events.filter((e): e is Extract<ChatStreamEvent, { type: 'tool_call' }> => e.type === 'tool_call');
    assert.deepEqual(
      calls.map((c) => [c.index, c.call.name, c.call.arguments]),
      (plain.toolCalls ?? []).map((c, i) => [i, c.name, c.arguments]),
    );
    assert.equal(calls.length, 2);
    assert.ok(events.filter((e) => e.type === 'tool_call_delta').length > 4, 'argument fragments are reported as they arrive');
    const done = events[events.length - 1];
    assert.ok(done.type === 'done');
    assert.equal(done.finishReason, 'tool_calls');
    assert.deepEqual(
      done.toolCalls,
      calls.map((c) => c.call),
    );
    assert.ok(done.usage);
  });

  it('assembles tool calls from pieces split anywhere, interleaved by index, without a finish_reason', () => {
    const chunk = (tool_calls: unknown[]) => `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { tool_calls } }] })}\n\n`;
    const wire =
      chunk([{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }]) +
      chunk([{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"x"' } }]) +
      chunk([{ index: 0, function: { arguments: '{"é":' } }]) +
      chunk([{ index: 1, function: { arguments: ':1}' } }]) +
      chunk([{ index: 0, function: { arguments: '"ü"}' } }]) +
      'data: [DONE]\n\n';
    const bytes = Buffer.from(wire);
    for (const size of [1, 3, 7, bytes.length]) {
      const decoder = new ChatStreamDecoder('test');
      const out: ChatStreamEvent[] = [];
      for (let i = 0; i < bytes.length; i += size) decoder.push(bytes.subarray(i, i + size), out);
      const end = decoder.end(out);
      assert.deepEqual(end.toolCalls, [
        { id: 'call_a', name: 'f', arguments: '{"é":"ü"}' },
        { id: 'call_b', name: 'g', arguments: '{"x":1}' },
      ]);
      assert.deepEqual(
        out.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? e.index : -1)),
        [0, 1],
      );
    }
  });

  it('answers json_schema requests with conforming JSON, streamed text equal to plain', async () => {
    const messages: ConversationMessage[] = [{ role: 'user', content: 'Plan 5 nights in Rome in autumn.' }];
    const responseFormat = { type: 'json_schema' as const, name: 'trip', schema: TRIP_SCHEMA, strict: true };
    const r = await llm.chat({ model: MODEL, messages, responseFormat });
    const value: unknown = JSON.parse(r.text);
    const validate = new Ajv({ strict: false }).compile(TRIP_SCHEMA);
    assert.ok(validate(value), JSON.stringify(validate.errors));
    assert.deepEqual(
      value,
      JSON.parse(
        (
          await sdk.chat.completions.create({
            model: MODEL,
            messages: [{ role: 'user', content: 'Plan 5 nights in Rome in autumn.' }],
            response_format: { type: 'json_schema', json_schema: responseFormat },
          })
        ).choices[0].message.content ?? '',
      ),
    );
    const events = await all(llm.chatStream({ model: MODEL, messages, responseFormat }));
    assert.equal(events.map((e) => (e.type === 'delta' ? e.text : '')).join(''), r.text);
  });

  it('respond and respondStream give the SDK output_text; function calls come back as tool calls', async () => {
    const input = 'Summarise the sandbox in a line.';
    const plain = await llm.respond({ model: MODEL, input, instructions: 'Be brief.' });
    const sdkText = (await sdk.responses.create({ model: MODEL, input, instructions: 'Be brief.' })).output_text;
    assert.equal(plain.text, sdkText);
    assert.equal(plain.status, 'completed');
    assert.match(plain.id ?? '', /^resp_/);
    assert.ok(plain.usage && plain.usage.total_tokens === plain.usage.prompt_tokens + (plain.usage.completion_tokens ?? 0));
    const events = await all(llm.respondStream({ model: MODEL, input, instructions: 'Be brief.' }));
    assert.equal(events[0].type, 'start');
    assert.equal(events.map((e) => (e.type === 'delta' ? e.text : '')).join(''), plain.text);
    const done = events[events.length - 1];
    assert.ok(done.type === 'done');
    assert.equal(done.text, plain.text);

    const call = await llm.respond({ model: MODEL, input: ask, tools: [WEATHER] });
    const tc = call.toolCalls?.[0];
    assert.ok(tc);
    assert.deepEqual(JSON.parse(tc.arguments), { city: 'Madrid', unit: 'fahrenheit' });
    const streamed = (await all(llm.respondStream({ model: MODEL, input: ask, tools: [WEATHER] }))).filter(
      (e): e is Extract<ResponseStreamEvent, { type: 'tool_call' }> => e.type === 'tool_call',
    );
    assert.deepEqual(
      streamed.map((e) => [e.call.name, e.call.arguments]),
      [[tc.name, tc.arguments]],
    );
    const answer = await llm.respond({
      model: MODEL,
      input: [
        { role: 'user', content: ask },
        { type: 'function_call', callId: tc.id, name: tc.name, arguments: tc.arguments },
        { type: 'function_call_output', callId: tc.id, output: 'Sunny, 75F' },
      ],
    });
    assert.ok(answer.text.includes('“Sunny, 75F”'), answer.text);
  });

  it('a Responses stream cut before response.completed, or carrying an error event, is an ApiError', () => {
    const ev = (type: string, extra: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...extra })}\n\n`;
    const cut = new ResponsesStreamDecoder('test');
    const out: ResponseStreamEvent[] = [];
    cut.push(Buffer.from(ev('response.output_text.delta', { delta: 'Hel', output_index: 0 })), out);
    assert.deepEqual(out, [{ type: 'delta', text: 'Hel', outputIndex: 0 }]);
    assert.throws(
      () => cut.end(),
      (e: unknown) => e instanceof ApiError && e.kind === 'stream',
    );
    const failed = new ResponsesStreamDecoder('test');
    failed.push(Buffer.from(ev('error', { message: 'overloaded', code: 'server_error' })), []);
    assert.throws(
      () => failed.throwIfFailed(),
      (e: unknown) => e instanceof ApiError && e.kind === 'stream' && /overloaded/.test(e.message),
    );
  });

  it('Stop works on the slow model: cancelling ends the stream after the first words', async () => {
    const controller = new AbortController();
    let text = '';
    let deltas = 0;
    await assert.rejects(async () => {
      for await (const e of llm.chatStream({ model: SLOW_MODEL, messages: [{ role: 'user', content: 'Tell me a story.' }] }, { cancel: controller.signal })) {
        if (e.type === 'delta') {
          text += e.text;
          if (++deltas === 3) controller.abort();
        }
      }
    });
    // A chunk already read when Stop is pressed may still be delivered; nothing after it is.
    assert.ok(deltas === 3 || deltas === 4, `deltas after Stop: ${deltas}`);
    assert.ok(sandboxAnswer([{ role: 'user', content: 'Tell me a story.' }], SLOW_MODEL).startsWith(text));
  });
});
