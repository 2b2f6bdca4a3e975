// Tools, structured outputs, the Responses API and the slow model, as the official `openai` client
// sees them from the sandbox. JSON is checked with ajv, an independent JSON Schema validator.
import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer, SLOW_MODEL } from '../../../src/sandbox/llm';
import { ManualClock } from '../helpers/clock';
import { TRIP_SCHEMA } from './llmSchemas';

const KEY = 'sk-sandbox-tools-test';
const MODEL = 'sandbox-chat';

const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather in a city', parameters: weatherParameters },
};
const TIME: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Local time in a timezone',
    parameters: { type: 'object', properties: { timezone: { type: 'string' } }, required: ['timezone'], additionalProperties: false },
  },
};

const ajv = new Ajv({ strict: false, allErrors: true });
function assertValid(schema: object, value: unknown): void {
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${JSON.stringify(value)} does not conform: ${ajv.errorsText(validate.errors)}`);
}

describe('llm sandbox: tools, structured outputs and the Responses API through the openai client', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let sdk: OpenAI;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 } });
    sdk = new OpenAI({ baseURL: sandbox.info.llm.baseUrl, apiKey: KEY, maxRetries: 0 });
  });
  after(() => sandbox.close());

  const ask = 'What is the weather in Paris in celsius for 3 days?';

  it('calls the tool the prompt needs, with arguments valid for its schema and taken from the prompt', async () => {
    const res = await sdk.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [TIME, WEATHER] });
    const choice = res.choices[0];
    assert.equal(choice.finish_reason, 'tool_calls');
    assert.equal(choice.message.content, null);
    const calls = choice.message.tool_calls ?? [];
    assert.equal(calls.length, 1);
    const call = calls[0];
    assert.ok(call.type === 'function');
    assert.match(call.id, /^call_/);
    assert.equal(call.function.name, 'get_weather');
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    assertValid(weatherParameters, args);
    assert.deepEqual(args, { city: 'Paris', unit: 'celsius', days: 3 });
    // Deterministic: the same request gives the same arguments.
    const again = await sdk.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [TIME, WEATHER] });
    const againCall = again.choices[0].message.tool_calls?.[0];
    assert.ok(againCall?.type === 'function');
    assert.equal(againCall.function.arguments, call.function.arguments);
  });

  it('honours tool_choice none, required and a named function, and refuses an unknown name', async () => {
    const messages = [{ role: 'user' as const, content: 'Hello there' }];
    const none = await sdk.chat.completions.create({ model: MODEL, messages, tools: [WEATHER], tool_choice: 'none' });
    assert.equal(none.choices[0].finish_reason, 'stop');
    assert.equal(none.choices[0].message.content, sandboxAnswer(messages, MODEL));
    const required = await sdk.chat.completions.create({ model: MODEL, messages, tools: [WEATHER], tool_choice: 'required' });
    assert.equal(required.choices[0].finish_reason, 'tool_calls');
    const named = await sdk.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: ask }],
      tools: [WEATHER, TIME],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    const call = named.choices[0].message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    assert.equal(call.function.name, 'get_time');
    assertValid(TIME.type === 'function' ? (TIME.function.parameters ?? {}) : {}, JSON.parse(call.function.arguments));
    await assert.rejects(
      sdk.chat.completions.create({ model: MODEL, messages, tools: [WEATHER], tool_choice: { type: 'function', function: { name: 'nope' } } }),
      (e: unknown) => {
        assert.ok(e instanceof OpenAI.BadRequestError);
        assert.equal(e.param, 'tool_choice');
        return true;
      },
    );
  });

  it('answers in text after the tool result, quoting it', async () => {
    const first = await sdk.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: ask }], tools: [WEATHER] });
    const call = first.choices[0].message.tool_calls?.[0];
    assert.ok(call?.type === 'function');
    const result = '{"temperature":21,"sky":"clear"}';
    const res = await sdk.chat.completions.create({
      model: MODEL,
      tools: [WEATHER],
      messages: [{ role: 'user', content: ask }, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: result }],
    });
    assert.equal(res.choices[0].finish_reason, 'stop');
    assert.ok(res.choices[0].message.content?.includes(`“${result}”`), res.choices[0].message.content ?? '');
  });

  it('streams a tool call as OpenAI does: a header delta, then argument fragments', async () => {
    const stream = await sdk.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: ask }],
      tools: [WEATHER],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) deltas.push(chunk);
    const withCalls = deltas.filter((c) => c.choices[0]?.delta.tool_calls);
    assert.ok(withCalls.length > 3, 'arguments arrive in several fragments');
    const head = withCalls[0].choices[0].delta;
    assert.equal(head.role, 'assistant');
    assert.deepEqual({ ...head.tool_calls?.[0], id: 'x' }, { index: 0, id: 'x', type: 'function', function: { name: 'get_weather', arguments: '' } });
    for (const c of withCalls.slice(1)) {
      const tc = c.choices[0].delta.tool_calls?.[0];
      assert.deepEqual(Object.keys(tc ?? {}).sort(), ['function', 'index'], 'fragments carry only index and arguments');
    }
    const args = withCalls.map((c) => c.choices[0].delta.tool_calls?.[0].function?.arguments ?? '').join('');
    assert.deepEqual(JSON.parse(args), { city: 'Paris', unit: 'celsius', days: 3 });
    assert.equal(deltas.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls');
    assert.ok(deltas[deltas.length - 1].usage, 'the usage chunk comes last');
  });

  it('streams parallel calls that the SDK stream helper assembles by index', async () => {
    const prompt = 'Use get_weather for Oslo and get_time for Europe/Oslo.';
    const runner = sdk.chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: prompt }], tools: [WEATHER, TIME] });
    const final = await runner.finalChatCompletion();
    const calls = final.choices[0].message.tool_calls ?? [];
    assert.deepEqual(
      calls.map((c) => (c.type === 'function' ? c.function.name : c.type)),
      ['get_weather', 'get_time'],
    );
    const plain = await sdk.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }], tools: [WEATHER, TIME] });
    assert.deepEqual(
      calls.map((c) => (c.type === 'function' ? c.function.arguments : '')),
      (plain.choices[0].message.tool_calls ?? []).map((c) => (c.type === 'function' ? c.function.arguments : '')),
    );
    assert.equal(final.choices[0].finish_reason, 'tool_calls');
  });

  it('answers json_schema requests with JSON that conforms to the schema, streamed or not', async () => {
    const messages = [{ role: 'user' as const, content: 'Plan 4 nights in Lisbon in spring.' }];
    const response_format = { type: 'json_schema' as const, json_schema: { name: 'trip', schema: TRIP_SCHEMA, strict: true } };
    const res = await sdk.chat.completions.create({ model: MODEL, messages, response_format });
    const value = JSON.parse(res.choices[0].message.content ?? '') as { destination: string; nights: number; season: string };
    assertValid(TRIP_SCHEMA, value);
    assert.equal(value.destination, 'Lisbon');
    assert.equal(value.nights, 4);
    assert.equal(value.season, 'spring');
    const stream = await sdk.chat.completions.create({ model: MODEL, messages, response_format, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    assert.equal(text, res.choices[0].message.content);
    // The SDK's parse helper reads it as the schema's object too.
    const parsed = await sdk.chat.completions.parse({ model: MODEL, messages, response_format });
    assert.deepEqual(parsed.choices[0].message.parsed, value);
  });

  it('answers the Responses API with output_text equal to the streamed deltas', async () => {
    const input = 'Tell me about Kyoto.';
    const plain = await sdk.responses.create({ model: MODEL, input, instructions: 'Be brief.' });
    assert.equal(plain.object, 'response');
    assert.match(plain.id, /^resp_/);
    assert.equal(plain.status, 'completed');
    assert.equal(
      plain.output_text,
      sandboxAnswer(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: input },
        ],
        MODEL,
      ),
    );
    assert.equal(plain.output[0].type, 'message');
    assert.ok(plain.usage && plain.usage.total_tokens === plain.usage.input_tokens + plain.usage.output_tokens);

    const stream = await sdk.responses.create({ model: MODEL, input, instructions: 'Be brief.', stream: true });
    const types: string[] = [];
    let deltas = '';
    let completedText = '';
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === 'response.output_text.delta') deltas += e.delta;
      // Raw stream events carry no output_text getter: join the message parts as the SDK does.
      if (e.type === 'response.completed')
        completedText = e.response.output
          .flatMap((o) => (o.type === 'message' ? o.content : []))
          .map((c) => (c.type === 'output_text' ? c.text : ''))
          .join('');
    }
    assert.equal(deltas, plain.output_text);
    assert.equal(completedText, plain.output_text);
    const distinct = types.filter((t, i) => t !== types[i - 1]);
    // The SDK's stream helper assembles the same text.
    const helper = await sdk.responses.stream({ model: MODEL, input, instructions: 'Be brief.' }).finalResponse();
    assert.equal(helper.output_text, plain.output_text);
    assert.deepEqual(distinct, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('answers the Responses API with function calls and structured text', async () => {
    const res = await sdk.responses.create({
      model: MODEL,
      input: ask,
      tools: [{ type: 'function', name: 'get_weather', parameters: weatherParameters, strict: false }],
    });
    const call = res.output[0];
    assert.ok(call.type === 'function_call');
    assertValid(weatherParameters, JSON.parse(call.arguments));
    const answer = await sdk.responses.create({
      model: MODEL,
      input: [{ role: 'user', content: ask }, call, { type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 24 degrees' }],
    });
    assert.ok(answer.output_text.includes('“Sunny, 24 degrees”'));
    const structured = await sdk.responses.create({
      model: MODEL,
      input: 'Plan 4 nights in Lisbon.',
      text: { format: { type: 'json_schema', name: 'trip', schema: TRIP_SCHEMA, strict: true } },
    });
    assertValid(TRIP_SCHEMA, JSON.parse(structured.output_text));
  });

  it('refuses strict schemas strict mode cannot enforce, and schemas asking for too much, with a 400', async () => {
    const loose = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'object', properties: { c: { type: 'string' } }, required: ['c'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    };
    const refusal = async (request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> => {
      try {
        await request;
      } catch (e) {
        assert.ok(e instanceof OpenAI.BadRequestError, String(e));
        return e;
      }
      assert.fail('expected a 400');
    };
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const format = await refusal(
      sdk.chat.completions.create({
        model: MODEL,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: loose, strict: true } },
      }),
    );
    assert.equal(format.param, 'response_format');
    assert.match(
      format.message,
      /^400 Invalid schema for response_format 'x': In context=\('properties', 'b'\), 'additionalProperties' is required to be supplied and to be false\.$/,
    );
    const tool = await refusal(
      sdk.chat.completions.create({
        model: MODEL,
        messages,
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherParameters, strict: true } }],
      }),
    );
    assert.equal(tool.param, 'tools[0].function.parameters');
    assert.match(tool.message, /Missing 'days'/);
    // Not strict: the same schema is accepted.
    await sdk.chat.completions.create({ model: MODEL, messages, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: loose } } });
    const huge = {
      type: 'object',
      properties: { xs: { type: 'array', minItems: 1_000_000_000, items: { type: 'string' } } },
      required: ['xs'],
      additionalProperties: false,
    };
    // Refused without building a billion-item array (which would not end before the test's timeout).
    await refusal(
      sdk.chat.completions.create({
        model: MODEL,
        messages,
        response_format: { type: 'json_schema', json_schema: { name: 'huge', schema: huge, strict: true } },
      }),
    );
    await refusal(sdk.responses.create({ model: MODEL, input: 'hi', text: { format: { type: 'json_schema', name: 'huge', schema: huge, strict: true } } }));
  });

  it('streams the slow model at reading pace, in readable sentences about the prompt', async () => {
    const messages = [{ role: 'user' as const, content: 'Why is the sky blue?' }];
    const expected = sandboxAnswer(messages, SLOW_MODEL);
    assert.match(expected, /^You asked: “Why is the sky blue\?”\. [A-Z]/);
    assert.ok(expected.split(' ').length < 80, 'short enough to read');
    // A sandbox on a clock that moves only while the sandbox waits for its next tick, to that tick, one
    // turn of the event loop later: no real time passes, and each chunk arrives at or after the
    // sandbox time it was sent at (a late read only makes the pace look slower, never faster).
    const clock = new ManualClock(0);
    const setTimer = clock.setTimer.bind(clock);
    clock.setTimer = (fn, ms) => {
      const handle = setTimer(fn, ms);
      const at = clock.now() + ms;
      setImmediate(() => clock.now() < at && clock.advanceTo(at));
      return handle;
    };
    const paced = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, clock });
    try {
      const stream = await new OpenAI({ baseURL: paced.info.llm.baseUrl, apiKey: KEY, maxRetries: 0 }).chat.completions.create({
        model: SLOW_MODEL,
        messages,
        stream: true,
      });
      const arrivedAt: number[] = [];
      let text = '';
      for await (const c of stream) {
        const d = c.choices[0]?.delta.content;
        if (d) {
          arrivedAt.push(clock.now());
          text += d;
        }
        if (arrivedAt.length === 12) break;
      }
      assert.equal(arrivedAt.length, 12);
      // Reading pace: under 20 chunks a second of the sandbox's time (the first one at once).
      arrivedAt.forEach((t, i) =>
        assert.ok(i <= (t * 20) / 1000, `chunk ${i + 1} arrived ${t} ms into the answer: faster than 20 a second (${arrivedAt.join(', ')})`),
      );
      assert.ok(expected.startsWith(text));
    } finally {
      await paced.close();
    }
  });
});
