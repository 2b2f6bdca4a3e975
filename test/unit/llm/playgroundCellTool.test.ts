// A user-defined playground tool that runs a notebook cell: the model's arguments are the cell's
// `{{args.…}}` variables, the cell runs on the engine against the real sandbox with keys from the
// connections only, its result goes back to the model, and every way it can fail is a clear tool
// error in a conversation that is kept. Also: the saved cell keeps custom tools' replies and cells.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorText } from '../../../src/core/errors';
import { HttpClient } from '../../../src/core/http';
import { connectionsHost, parseNotebook, sandboxConnections } from '../../../src/notebook/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LlmClient, openAiErrorParser } from '../../../src/services/llm';
import { defaultSettings, type CustomTool, type PlaygroundSettings, type Turn } from '../../../src/services/llm/playgroundMessages';
import { argumentVariables, cellToolRunner } from '../../../src/features/llm/playgroundCellTool';
import { cellToConversation, conversationToCell } from '../../../src/features/llm/playgroundCell';
import { runExchange } from '../../../src/features/llm/playgroundConversation';
import { ToolBox, type ToolServices } from '../../../src/features/llm/playgroundTools';

const NOTEBOOK = [
  '# Tools for the playground',
  '',
  '```maps name=findPlace',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id,places.displayName,places.formattedAddress',
  '',
  '{"textQuery": "{{args.city}}", "maxResultCount": 2}',
  '',
  '?? status == 200',
  '```',
  '',
  '```maps name=brokenPlace',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id',
  '',
  '{"textQuery": "{{args.city}}"}',
  '',
  '?? status == 404',
  '```',
  '',
].join('\n');

const CITY_SCHEMA = JSON.stringify({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, null, 2);

describe('llm/playground: a user-defined tool that runs a notebook cell', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let llm: LlmClient;
  let services: ToolServices;
  let dir: string;
  let sentKeys: string[];

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    const { connections, key } = sandboxConnections(sandbox.info);
    llm = new LlmClient(
      new HttpClient({
        service: 'Sandbox LLM',
        baseUrl: sandbox.info.llm.baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(sandbox.info.llm.apiKey),
        parseError: openAiErrorParser,
      }),
    );
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'awb-celltool-'));
    await fs.writeFile(path.join(dir, 'tools.awb.md'), NOTEBOOK);
    const host = connectionsHost({
      connections,
      key: (c) => {
        const k = key(c);
        if (k) sentKeys.push(c.service);
        return k;
      },
    });
    const readNotebook = async (p: string) => ({ file: p, cells: parseNotebook(await fs.readFile(path.join(dir, p), 'utf8'), p).cells });
    const none = (): never => {
      throw new Error('not used');
    };
    services = { maps: none, realtime: none, confirmPublish: () => Promise.resolve(false), runCell: cellToolRunner({ host, readNotebook }) };
  });
  beforeEach(() => (sentKeys = []));
  after(async () => {
    await sandbox.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const tool = (cell: CustomTool['cell']): CustomTool => ({
    name: 'find_place',
    description: 'Finds places in a city',
    parameters: CITY_SCHEMA,
    reply: '',
    cell,
  });

  async function converse(customTools: CustomTool[], text: string): Promise<Turn[]> {
    const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), customTools };
    const turns: Turn[] = [{ kind: 'user', text }];
    const tools = await ToolBox.create([], customTools, services, errorText);
    const outcome = await runExchange({
      client: llm,
      api: 'chat',
      settings,
      turns,
      tools,
      signal: new AbortController().signal,
      onChange: () => {},
      describeError: errorText,
    });
    assert.equal(outcome, 'answered');
    return turns;
  }

  it("the arguments reach the cell as {{args.…}}, the cell runs on the maps sandbox with the connection's key, and the model answers with its result", async () => {
    const turns = await converse([tool({ notebook: 'tools.awb.md', name: 'findPlace' })], 'Find places in Lisbon.');
    assert.deepEqual(
      turns.map((t) => t.kind),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    const call = turns[2];
    assert.ok(call.kind === 'tool' && call.status === 'done', JSON.stringify(call));
    assert.deepEqual(JSON.parse(call.arguments), { city: 'Lisbon' });
    assert.equal(call.ranOn, 'Notebook cell findPlace · Local Sandbox');
    const result = JSON.parse(call.result ?? '{}') as { places: Array<{ formattedAddress?: string }> };
    assert.ok(result.places.length > 0, call.result);
    assert.match(JSON.stringify(result.places), /Lisbo/);
    assert.deepEqual(sentKeys, ['maps']);
    assert.ok(!call.result?.includes(sandbox.info.maps.apiKey));
    const answer = turns[3];
    assert.ok(answer.kind === 'assistant' && /Lisbo|place/i.test(answer.text), JSON.stringify(answer));
  });

  it('a failing cell, a missing cell and a missing notebook are clear tool errors; the model is told and the conversation goes on', async () => {
    const cases: Array<[CustomTool['cell'], RegExp]> = [
      [{ notebook: 'tools.awb.md', name: 'brokenPlace' }, /cell "brokenPlace" of tools\.awb\.md failed: assertions failed: \?\? status == 404 \(found 200\)/],
      [{ notebook: 'tools.awb.md', name: 'nope' }, /tools\.awb\.md has no cell named "nope" \(its named cells: findPlace, brokenPlace\)/],
      [{ notebook: 'missing.awb.md', name: 'findPlace' }, /the notebook missing\.awb\.md could not be read: .*ENOENT/],
    ];
    for (const [cell, message] of cases) {
      const turns = await converse([tool(cell)], 'Find places in Porto.');
      assert.deepEqual(
        turns.map((t) => t.kind),
        ['user', 'assistant', 'tool', 'assistant'],
      );
      const call = turns[2];
      assert.ok(call.kind === 'tool' && call.status === 'failed', JSON.stringify(call));
      assert.match((JSON.parse(call.result ?? '{}') as { error: string }).error, message);
      assert.ok(turns[3].kind === 'assistant' && turns[3].text.length > 0);
    }
    // Without a way to read notebooks (not the editor), the tool says so instead of answering something.
    const box = await ToolBox.create([], [tool({ notebook: 'tools.awb.md', name: 'findPlace' })], { ...services, runCell: undefined }, errorText);
    const out = await box.run({ id: 'c1', name: 'find_place', arguments: '{"city": "Lisbon"}' });
    assert.equal(out.status, 'failed');
    assert.match(out.result, /runs a notebook cell, and notebook cells cannot run here/);
  });

  it("the cell runs in the notebook's chosen environment (its vars env=… cells apply)", async () => {
    const cells = parseNotebook(
      [
        '```vars',
        'fields = places.id',
        '```',
        '',
        '```vars env=staging',
        'fields = places.id,places.formattedAddress',
        '```',
        '',
        '```maps name=envPlace',
        'POST /v1/places:searchText',
        'X-Goog-FieldMask: {{fields}}',
        '',
        '{"textQuery": "{{args.city}}"}',
        '```',
        '',
      ].join('\n'),
      'env.awb.md',
    ).cells;
    const host = connectionsHost(sandboxConnections(sandbox.info));
    const run = (environment?: string) =>
      cellToolRunner({ host, readNotebook: () => Promise.resolve({ file: 'env.awb.md', cells, environment }) })(
        { notebook: 'env.awb.md', name: 'envPlace' },
        { city: 'Lisbon' },
      );
    const plain = await run();
    const staging = await run('staging');
    assert.ok(plain.ok && staging.ok, `${plain.result} ${staging.result}`);
    const places = (r: { result: string }) => (JSON.parse(r.result) as { places: Array<Record<string, unknown>> }).places;
    assert.ok(places(plain).length > 0 && places(plain).every((p) => p.formattedAddress === undefined), 'no environment: the plain field mask');
    assert.ok(
      places(staging).every((p) => typeof p.formattedAddress === 'string'),
      "the staging environment's field mask",
    );
  });

  it('arguments become variables: every field, nested ones and the whole object', () => {
    assert.deepEqual(argumentVariables({ city: 'Lisbon', stops: ['a', { b: 1 }], n: 2 }), {
      args: '{"city":"Lisbon","stops":["a",{"b":1}],"n":2}',
      'args.city': 'Lisbon',
      'args.stops': '["a",{"b":1}]',
      'args.stops[0]': 'a',
      'args.stops[1]': '{"b":1}',
      'args.stops[1].b': '1',
      'args.n': '2',
    });
  });

  it("the saved cell keeps each custom tool's fixed reply and cell, and is still a request the sandbox answers", async () => {
    const customTools: CustomTool[] = [
      { name: 'get_weather', description: 'Weather', parameters: CITY_SCHEMA, reply: '{"temperature": 21, "sky": "sunny"}' },
      tool({ notebook: 'tools.awb.md', name: 'findPlace' }),
    ];
    const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), customTools };
    const text = await conversationToCell(settings, [{ kind: 'user', text: 'Weather in Madrid?' }]);
    assert.deepEqual(cellToConversation(text).settings.customTools, customTools);
    const body = text.split('\n\n')[1].split('\n?? ')[0];
    assert.ok(!body.includes('sunny'), 'the reply stays out of what is sent');
    const res = await fetch(`${sandbox.info.llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.info.llm.apiKey}`, 'content-type': 'application/json' },
      body,
    });
    assert.equal(res.status, 200, await res.clone().text());
  });
});
