// The LLM playground's logic without the editor: the conversation (edit and resend), the tool-call
// loop running the user's own maps and realtime APIs, user-defined tools, structured outputs checked
// with ajv, the Responses API, Stop, failures that keep the conversation, and the notebook cell form.
// Everything runs against the real sandbox (LLM, maps and realtime).
import * as assert from 'node:assert/strict';
import { httpConnectionFromSetting } from '../../../src/core/connections';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LIMITED_MODEL, SLOW_MODEL } from '../../../src/sandbox/llm';
import { LlmClient, openAiErrorParser, type TokenUsage } from '../../../src/services/llm';
import { defaultSettings, type PlaygroundSettings, type Turn } from '../../../src/services/llm/playgroundMessages';
import { googleErrorParser } from '../../../src/services/maps';
import { MapsClient } from '../../../src/services/maps/client';
import { restBaseUrl } from '../../../src/services/realtime/endpoints';
import { RealtimeRest } from '../../../src/services/realtime/rest';
import { cellToConversation, conversationToCell } from '../../../src/features/llm/playgroundCell';
import { editTurn, messagesOf, runExchange, type ExchangeOptions, type ExchangeOutcome } from '../../../src/features/llm/playgroundConversation';
import { checkSchema, validateJsonText } from '../../../src/features/llm/playgroundSchema';
import { ToolBox, type ToolServices } from '../../../src/features/llm/playgroundTools';
import { TRIP_SCHEMA } from './llmSchemas';

const KEY = 'sk-sandbox-playground-test';
const MAPS_KEY = 'maps-sandbox-playground-test';

describe('llm/playground: conversation, tool calls on our own APIs, structured outputs', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let llm: LlmClient;
  let services: ToolServices;
  let published: Array<{ channel: string; event: string }>;
  let allowPublish = false;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0, limitedWindowMs: 120_000 } });
    // No retries: a 429 must reach the conversation at once instead of being waited out.
    llm = new LlmClient(
      new HttpClient({
        service: 'Sandbox LLM',
        baseUrl: sandbox.info.llm.baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
        retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 },
      }),
    );
    const maps = new MapsClient(
      new HttpClient({
        service: 'Maps',
        baseUrl: sandbox.info.maps.baseUrl,
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
        credentials: () => Promise.resolve(MAPS_KEY),
        parseError: googleErrorParser,
      }),
    );
    const rt = sandbox.info.realtime;
    const rest = new RealtimeRest({
      http: new HttpClient({
        service: 'Realtime',
        baseUrl: restBaseUrl({ key: rt.key, host: rt.host, port: rt.port, useTLS: false }),
        auth: { placement: 'none' },
      }),
      appId: rt.appId,
      key: rt.key,
      secret: () => Promise.resolve(rt.secret),
    });
    services = {
      maps: () => ({ client: maps, connection: 'Local Sandbox' }),
      realtime: () => Promise.resolve({ rest, connection: 'Local Sandbox' }),
      confirmPublish: (channel, event) => {
        if (allowPublish) published.push({ channel, event });
        return Promise.resolve(allowPublish);
      },
    };
  });
  beforeEach(() => {
    published = [];
    allowPublish = false;
  });
  after(() => sandbox.close());

  async function exchange(
    settings: PlaygroundSettings,
    turns: Turn[],
    extra: { signal?: AbortSignal; onChange?: () => void; tools?: ToolBox | null } & Pick<ExchangeOptions, 'price' | 'onUsage'> = {},
  ): Promise<ExchangeOutcome> {
    const tools = extra.tools === null ? undefined : (extra.tools ?? (await ToolBox.create(settings.tools, settings.customTools, services, errorText)));
    const { price, onUsage } = extra;
    return runExchange({
      client: llm,
      api: settings.api,
      settings,
      turns,
      tools,
      signal: extra.signal ?? new AbortController().signal,
      onChange: extra.onChange ?? (() => {}),
      describeError: errorText,
      price,
      onUsage,
    });
  }

  const kinds = (turns: Turn[]) => turns.map((t) => t.kind).join(',');

  for (const api of ['chat', 'responses'] as const) {
    it(`${api}: a maps tool call runs against the maps sandbox, its result goes back, and the model answers with it`, async () => {
      const settings = {
        ...defaultSettings('sandbox-chat', api),
        system: 'You plan trips.',
        tools: ['search_places', 'list_channels'] as PlaygroundSettings['tools'],
      };
      const turns: Turn[] = [{ kind: 'user', text: 'Search places to visit in Lisbon.' }];
      assert.equal(await exchange(settings, turns), 'answered');
      assert.equal(kinds(turns), 'user,assistant,tool,assistant');
      const [, call, tool, answer] = turns;
      assert.ok(call.kind === 'assistant' && call.toolCalls?.[0]?.name === 'search_places');
      assert.ok(tool.kind === 'tool' && tool.status === 'done', JSON.stringify(tool));
      assert.equal(tool.ranOn, 'Maps · Local Sandbox');
      const result = JSON.parse(tool.result ?? '{}') as { places: Array<{ name?: string; address?: string }> };
      assert.ok(result.places.length > 0, tool.result);
      assert.match(JSON.stringify(result.places), /Lisbo/);
      assert.ok(answer.kind === 'assistant' && answer.text.length > 0 && !answer.streaming);
      // The answer is built from the tool result the playground sent back.
      assert.match(answer.text, /Lisbo|place/i);
      assert.equal(answer.stats?.api, api);
      assert.ok((answer.stats?.tokensIn ?? 0) > 0 && (answer.stats?.tokensOut ?? 0) > 0, JSON.stringify(answer.stats));
      assert.equal(answer.stats?.costUsd, 0, 'sandbox models are free');
      assert.ok(answer.stats?.requestId, 'request id shown');
      assert.ok(answer.stats?.firstTokenMs !== undefined && answer.stats.latencyMs >= answer.stats.firstTokenMs);
    });
  }

  it('edit and resend: the turns after the edited one are dropped, and the model answers the new text', async () => {
    const settings = defaultSettings('sandbox-chat');
    const turns: Turn[] = [{ kind: 'user', text: 'Tell me about Porto.' }];
    await exchange(settings, turns, { tools: null });
    turns.push({ kind: 'user', text: 'And its wine?' });
    await exchange(settings, turns, { tools: null });
    assert.equal(kinds(turns), 'user,assistant,user,assistant');
    const edited = editTurn(turns, 0, 'Tell me about Faro.');
    assert.deepEqual(edited, [{ kind: 'user', text: 'Tell me about Faro.' }]);
    await exchange(settings, edited, { tools: null });
    assert.equal(kinds(edited), 'user,assistant');
    assert.match((edited[1] as { text: string }).text, /Faro/);
    assert.throws(() => editTurn(turns, 1, 'x'), /not one of your messages/);
  });

  it('publishing asks first: declined publishes nothing and tells the model; accepted publishes on the realtime sandbox', async () => {
    const settings = { ...defaultSettings('sandbox-chat'), tools: ['publish_to_channel'] as PlaygroundSettings['tools'] };
    const declined: Turn[] = [{ kind: 'user', text: 'Publish channel: news, event: update, data: hello' }];
    assert.equal(await exchange(settings, declined), 'answered');
    const tool = declined.find((t) => t.kind === 'tool');
    assert.ok(tool?.kind === 'tool' && tool.status === 'declined', JSON.stringify(tool));
    assert.match(tool.result ?? '', /declined/);
    assert.deepEqual(published, []);

    allowPublish = true;
    const accepted: Turn[] = [{ kind: 'user', text: 'Publish channel: news, event: update, data: hello' }];
    await exchange(settings, accepted);
    const done = accepted.find((t) => t.kind === 'tool');
    assert.ok(done?.kind === 'tool' && done.status === 'done', JSON.stringify(done));
    assert.deepEqual(JSON.parse(done.result ?? ''), { published: true, channel: 'news', event: 'update' });
    assert.equal(done.ranOn, 'Realtime · Local Sandbox');
  });

  it('a user-defined tool answers with its fixed reply, which the model uses', async () => {
    const settings = {
      ...defaultSettings('sandbox-chat'),
      customTools: [
        {
          name: 'get_weather',
          description: 'Weather in a city',
          parameters: JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
          reply: '{"temperature": 21, "sky": "sunny"}',
        },
      ],
    };
    const turns: Turn[] = [{ kind: 'user', text: 'What is the weather in Madrid?' }];
    assert.equal(await exchange(settings, turns), 'answered');
    const tool = turns[2];
    assert.ok(tool.kind === 'tool' && tool.status === 'done' && tool.ranOn === 'Fixed reply');
    assert.deepEqual(JSON.parse(tool.arguments), { city: 'Madrid' });
    assert.match((turns[3] as { text: string }).text, /21|sunny/);
  });

  it('bad tool calls become clear results (unknown tool, invalid JSON, arguments off the schema, a tool that throws) and the conversation goes on', async () => {
    const box = await ToolBox.create(
      ['search_places'],
      [],
      {
        ...services,
        maps: () => {
          throw new Error('there is no active maps connection');
        },
      },
      errorText,
    );
    const unknown = await box.run({ id: 'c1', name: 'delete_everything', arguments: '{}' });
    assert.equal(unknown.status, 'failed');
    const errorOf = (o: { result: string }) => (JSON.parse(o.result) as { error: string }).error;
    assert.match(errorOf(unknown), /"delete_everything", which is not one of the tools switched on/);
    const badJson = await box.run({ id: 'c2', name: 'search_places', arguments: '{"query": "Lis' });
    assert.match(errorOf(badJson), /not valid JSON/);
    const offSchema = await box.run({ id: 'c3', name: 'search_places', arguments: '{"query": 5, "extra": true}' });
    assert.match(errorOf(offSchema), /do not fit its schema: .*\/query must be string/);
    assert.match(errorOf(offSchema), /\/extra is not allowed/);
    const throws = await box.run({ id: 'c4', name: 'search_places', arguments: '{"query": "Lisbon"}' });
    assert.match(errorOf(throws), /"search_places" failed: there is no active maps connection/);

    // In a conversation: the failure is shown, sent to the model, and the model still answers.
    const settings = { ...defaultSettings('sandbox-chat'), tools: ['search_places'] as PlaygroundSettings['tools'] };
    const turns: Turn[] = [{ kind: 'user', text: 'Search places in Lisbon.' }];
    assert.equal(await exchange(settings, turns, { tools: box }), 'answered');
    assert.equal(kinds(turns), 'user,assistant,tool,assistant');
    assert.equal((turns[2] as { status: string }).status, 'failed');

    await assert.rejects(
      ToolBox.create([], [{ name: 'bad', description: '', parameters: '{"type": "objekt"}', reply: '' }], services, errorText),
      /parameters schema of tool "bad" is not a valid JSON Schema/,
    );
  });

  it('a 429 mid-conversation is an error turn; the turns before it are kept', async () => {
    const settings = { ...defaultSettings(LIMITED_MODEL), tools: ['search_places'] as PlaygroundSettings['tools'] };
    const turns: Turn[] = [{ kind: 'user', text: 'Search places in Lisbon.' }];
    // The limited model allows two requests per window: the call and the answer.
    assert.equal(await exchange(settings, turns), 'answered');
    const before = structuredClone(turns);
    turns.push({ kind: 'user', text: 'And in Porto?' });
    assert.equal(await exchange(settings, turns), 'failed');
    assert.deepEqual(turns.slice(0, before.length), before);
    const last = turns[turns.length - 1];
    assert.ok(last.kind === 'error' && /429|rate/i.test(last.text), JSON.stringify(last));
    assert.equal(turns[turns.length - 2].kind, 'user', 'the question is kept to resend');
  });

  it("the daily budget is asked before each request: declined sends nothing and keeps the question; usage is reported for today's total", async () => {
    const settings = defaultSettings('sandbox-chat');
    const turns: Turn[] = [{ kind: 'user', text: 'Hello?' }];
    let asked = 0;
    const declined = await runExchange({
      client: llm,
      api: 'chat',
      settings,
      turns,
      signal: new AbortController().signal,
      onChange: () => {},
      describeError: errorText,
      maySend: () => Promise.resolve(++asked < 0),
    });
    assert.equal(declined, 'failed');
    assert.equal(asked, 1);
    assert.deepEqual(
      turns.map((t) => t.kind),
      ['user', 'error'],
    );
    assert.match(turns[1].kind === 'error' ? turns[1].text : '', /budget/);
    const used: string[] = [];
    const sent: Turn[] = [{ kind: 'user', text: 'Hello?' }];
    const outcome = await runExchange({
      client: llm,
      api: 'chat',
      settings,
      turns: sent,
      signal: new AbortController().signal,
      onChange: () => {},
      describeError: errorText,
      maySend: () => Promise.resolve(true),
      onUsage: (model, usage) => used.push(`${model}:${usage.total_tokens}`),
      price: () => 0.5,
    });
    assert.equal(outcome, 'answered');
    assert.equal(used.length, 1);
    assert.match(used[0], /^sandbox-chat:\d+$/);
    const answer = sent[sent.length - 1];
    assert.ok(answer.kind === 'assistant' && answer.stats?.costUsd === 0.5, JSON.stringify(answer));
  });

  it('structured outputs: a strict json_schema answer validates; a mismatch is listed field by field; an invalid schema is refused in words', async () => {
    const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), responseFormat: 'json_schema', schemaText: JSON.stringify(TRIP_SCHEMA) };
    const turns: Turn[] = [{ kind: 'user', text: 'Plan 3 nights in Lisbon in spring.' }];
    assert.equal(await exchange(settings, turns, { tools: null }), 'answered');
    const answer = turns[1];
    assert.ok(answer.kind === 'assistant');
    assert.deepEqual(answer.validation, { ok: true, problems: [] }, answer.text);

    const check = await checkSchema(JSON.stringify(TRIP_SCHEMA));
    assert.ok(check.ok);
    const problems = validateJsonText(
      check,
      JSON.stringify({
        destination: 'Lisbon',
        nights: 0,
        budget: null,
        season: 'monsoon',
        stops: [{ name: 'x', hours: 'two', booked: true }],
        traveller: { name: 'A' },
        extra: 1,
      }),
    );
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    assert.match(byPath['/nights'], />= 1/);
    assert.match(byPath['/season'], /must be one of "spring", "summer", "autumn", "winter"/);
    assert.match(byPath['/stops/0/hours'], /must be number/);
    assert.match(byPath['/traveller/age'], /required/);
    assert.match(byPath['/extra'], /not allowed/);
    assert.deepEqual(validateJsonText(check, 'not json')[0]?.path, '(answer)');

    const invalid = await checkSchema('{"type": "objekt"}');
    assert.ok(!invalid.ok && /not a valid JSON Schema/.test(invalid.message));
    const notJson = await checkSchema('{"type": ');
    assert.ok(!notJson.ok && /not valid JSON/.test(notJson.message));
    const bad: Turn[] = [{ kind: 'user', text: 'Plan a trip.' }];
    assert.equal(await exchange({ ...settings, schemaText: '{"type": "objekt"}' }, bad, { tools: null }), 'failed');
    assert.equal(kinds(bad), 'user,error');
    assert.match((bad[1] as { text: string }).text, /not a valid JSON Schema/);
  });

  it("Stop keeps what arrived from the slow model, priced as an estimate and counted in today's total", async () => {
    const abort = new AbortController();
    const turns: Turn[] = [{ kind: 'user', text: 'Tell me a long story about the sea.' }];
    const recorded: TokenUsage[] = [];
    const outcome = await exchange(defaultSettings(SLOW_MODEL), turns, {
      tools: null,
      signal: abort.signal,
      onChange: () => {
        const a = turns[1];
        if (a?.kind === 'assistant' && a.text.split(' ').length >= 3) abort.abort();
      },
      price: (_model, usage) => usage.prompt_tokens * 1e-6 + (usage.completion_tokens ?? 0) * 2e-6,
      onUsage: (_model, usage) => recorded.push(usage),
    });
    assert.equal(outcome, 'stopped');
    const a = turns[1];
    assert.ok(a.kind === 'assistant' && a.stopped && a.text.length > 0 && !a.streaming, JSON.stringify(a));
    assert.equal(turns.length, 2);
    const st = a.stats;
    assert.ok(st?.estimated, 'the stats say they are estimates');
    assert.equal(st.tokensOut, Math.ceil(a.text.length / 4), 'output estimated from the text that arrived');
    assert.ok((st.tokensIn ?? 0) > 0);
    assert.equal(st.costUsd, (st.tokensIn ?? 0) * 1e-6 + (st.tokensOut ?? 0) * 2e-6);
    assert.deepEqual(
      recorded,
      [{ prompt_tokens: st.tokensIn, completion_tokens: st.tokensOut, total_tokens: (st.tokensIn ?? 0) + (st.tokensOut ?? 0) }],
      "added to today's total once",
    );
  });

  it('saves as an llm cell and reopens from it (chat completions and the Responses API)', async () => {
    const turns: Turn[] = [
      { kind: 'user', text: 'Search places in Lisbon.' },
      { kind: 'assistant', text: '', toolCalls: [{ id: 'call_1', name: 'search_places', arguments: '{"query":"Lisbon"}' }] },
      { kind: 'tool', callId: 'call_1', name: 'search_places', arguments: '{"query":"Lisbon"}', status: 'done', result: '{"places":[]}' },
      { kind: 'assistant', text: 'None found.' },
      { kind: 'error', text: 'not sent' },
    ];
    for (const api of ['chat', 'responses'] as const) {
      const settings: PlaygroundSettings = {
        ...defaultSettings('sandbox-chat', api),
        system: 'Be brief.',
        temperature: 0.3,
        topP: 0.9,
        maxTokens: 200,
        tools: ['search_places'],
        responseFormat: 'json_schema',
        schemaText: JSON.stringify(TRIP_SCHEMA, null, 2),
      };
      if (api === 'chat') Object.assign(settings, { stop: ['END'], seed: 7 });
      const cell = await conversationToCell(settings, turns);
      assert.match(cell, api === 'chat' ? /^POST \/chat\/completions\n/ : /^POST \/responses\n/);
      assert.match(cell, /\n\?\? status == 200$/);
      const back = cellToConversation(cell);
      assert.deepEqual(back.settings, settings);
      assert.deepEqual(messagesOf(back.settings.system, back.turns), messagesOf(settings.system, turns));
    }
    assert.throws(() => cellToConversation('GET /models'), /Only a cell that sends POST \/chat\/completions/);
    assert.throws(() => cellToConversation('POST /chat/completions\n\n{"model": {{m}}}'), /not plain JSON/);
  });

  it('the saved cell is a request the sandbox answers', async () => {
    const cell = await conversationToCell({ ...defaultSettings('sandbox-chat'), system: 'Be brief.' }, [{ kind: 'user', text: 'Hello there.' }]);
    const body = cell.split('\n\n')[1].split('\n?? ')[0];
    const res = await fetch(`${sandbox.info.llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    assert.equal(res.status, 200);
  });
});

describe('llm connections: the "api" setting', () => {
  it('chooses the Responses API per connection; chat completions otherwise; maps ignore it', () => {
    const conn = httpConnectionFromSetting('llm', { name: 'R', baseUrl: 'https://api.example.com/v1', api: 'responses' });
    assert.ok(typeof conn !== 'string' && conn.llmApi === 'responses');
    const plain = httpConnectionFromSetting('llm', { name: 'C', baseUrl: 'https://api.example.com/v1' });
    assert.ok(typeof plain !== 'string' && plain.llmApi === undefined);
    const maps = httpConnectionFromSetting('maps', { name: 'M', baseUrl: 'https://maps.example.com', api: 'responses' });
    assert.ok(typeof maps !== 'string' && maps.llmApi === undefined);
  });
});
