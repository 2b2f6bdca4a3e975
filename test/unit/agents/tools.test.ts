// The agent tools (src/agents) against the real sandbox, through callTool as both front ends call
// them: what each returns, the refusals, the budget, truncation, and no key in any result.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SpendBudget } from '../../../src/agents/budget';
import { confirmationFor } from '../../../src/agents/confirm';
import { standaloneContext, type StandaloneContext, type StandaloneOptions } from '../../../src/agents/standalone';
import { AGENT_TOOLS, callTool, inputJsonSchema, TOOL_NAMES } from '../../../src/agents/tools';
import type { ToolResult } from '../../../src/agents/result';
import { sandboxConnections } from '../../../src/core/connections';
import { Redactor } from '../../../src/core/redact';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { repoRoot } from '../helpers/sandboxProcess';

const LLM_KEY = 'sk-agents-llm-key-0123456789';
const MAPS_KEY = 'AIzaAgentsMapsKey0123456789';
const SECRET = 'agents-app-secret-0123456789';
const KEYS = [LLM_KEY, MAPS_KEY, SECRET];

function assertNoKey(r: ToolResult): void {
  const all = JSON.stringify(r);
  for (const k of KEYS) assert.ok(!all.includes(k), `a key is in the result: ${all.slice(0, 300)}`);
}

function ok(r: ToolResult): Record<string, unknown> {
  assert.equal(r.isError, false, r.text);
  assertNoKey(r);
  return r.structured ?? {};
}

describe('agents: the tools against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let root: string;
  const contexts: StandaloneContext[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { secret: SECRET, demo: false } });
    root = mkdtempSync(path.join(tmpdir(), 'awb-agents-'));
  });
  after(async () => {
    for (const c of contexts) c.dispose();
    await sandbox.close();
  });

  function context(extra: Partial<StandaloneOptions> = {}): StandaloneContext {
    const set = sandboxConnections(sandbox.info);
    const ctx = standaloneContext({
      connections: set.connections,
      key: set.key,
      redactor: new Redactor(),
      root,
      defaultModel: () => 'sandbox-chat',
      ...extra,
    });
    contexts.push(ctx);
    return ctx;
  }

  it('every tool has its stable name, annotations, and a JSON Schema in which every input is described', () => {
    assert.deepEqual(
      AGENT_TOOLS.map((t) => t.name),
      [...TOOL_NAMES],
    );
    for (const t of AGENT_TOOLS) {
      const schema = inputJsonSchema(t);
      assert.equal(schema.type, 'object', t.name);
      const props = schema.properties as Record<string, { description?: string }>;
      for (const [name, p] of Object.entries(props)) assert.ok(p.description && p.description.length > 10, `${t.name}.${name} has no description`);
    }
    const publish = AGENT_TOOLS.find((t) => t.name === 'realtime_publish')!;
    assert.equal(publish.annotations.destructiveHint, true);
    assert.equal(publish.annotations.readOnlyHint, false);
    for (const name of ['list_resources', 'llm_chat', 'maps_search_places', 'maps_compute_route', 'realtime_recent_messages'])
      assert.equal(AGENT_TOOLS.find((t) => t.name === name)!.annotations.readOnlyHint, true, name);
  });

  it('package.json declares the same tools for VS Code (languageModelTools): names, descriptions and the generated input schemas', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string; modelDescription: string; displayName: string; inputSchema: unknown }> };
    };
    assert.deepEqual(
      pkg.contributes.languageModelTools.map((t) => [t.name, t.displayName, t.modelDescription, t.inputSchema]),
      AGENT_TOOLS.map((t) => [t.name, t.annotations.title, t.description, inputJsonSchema(t)]),
    );
  });

  it('list_resources lists the models, the maps APIs and the occupied channels', async () => {
    const ctx = context();
    const llm = ok(await callTool(ctx, 'list_resources', { service: 'llm' }));
    assert.ok((llm.resources as Array<{ id: string }>).some((r) => r.id === 'sandbox-chat'));
    const maps = ok(await callTool(ctx, 'list_resources', { service: 'maps' }));
    assert.ok((maps.resources as Array<{ id: string }>).some((r) => r.id === 'places'));
    await callTool(ctx, 'realtime_recent_messages', { channel: 'agents-occupied' });
    const rt = await callTool(ctx, 'list_resources', { service: 'realtime' });
    assert.ok(
      (ok(rt).resources as Array<{ id: string }>).some((r) => r.id === 'agents-occupied'),
      rt.text,
    );
  });

  it('llm_chat answers with usage and cost; a prompt and messages both work', async () => {
    const ctx = context();
    const r = await callTool(ctx, 'llm_chat', { prompt: 'Say hello.' });
    const s = ok(r);
    assert.ok(typeof s.answer === 'string' && s.answer.length > 0);
    assert.equal(s.model, 'sandbox-chat');
    assert.ok((s.usage as { inputTokens: number }).inputTokens > 0);
    assert.equal(s.costUsd, 0);
    assert.match(r.text, /tokens in, \d+ out; cost \$0\.00/);
    ok(
      await callTool(ctx, 'llm_chat', {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        model: 'sandbox-chat-mini',
      }),
    );
  });

  it('bad arguments, an unknown tool and an unknown connection are tool errors that say what to do', async () => {
    const ctx = context();
    const both = await callTool(ctx, 'llm_chat', { prompt: 'a', messages: [{ role: 'user', content: 'b' }] });
    assert.equal(both.isError, true);
    assert.match(both.text, /give either prompt or messages/);
    const wrongType = await callTool(ctx, 'list_resources', { service: 'video' });
    assert.match(wrongType.text, /service: expected one of "llm", "maps", "realtime"/);
    assert.match((await callTool(ctx, 'nope', {})).text, /there is no tool "nope": the tools are list_resources, /);
    const conn = await callTool(ctx, 'maps_search_places', { query: 'pizza', connection: 'Work' });
    assert.equal(conn.isError, true);
    assert.match(conn.text, /no maps connection named "Work": use one of "Local Sandbox"/);
  });

  it('maps_search_places gives name, address, lat/lng and id; maps_compute_route distance, duration and polyline', async () => {
    const ctx = context();
    const found = ok(await callTool(ctx, 'maps_search_places', { query: 'Berlin', maxResults: 3 }));
    const places = found.places as Array<{ id: string; name: string; address: string; lat: number; lng: number }>;
    assert.ok(places.length >= 1 && places.length <= 3);
    assert.ok(places[0].id && places[0].name && places[0].address);
    assert.ok(Math.abs(places[0].lat - 52.5) < 1 && Math.abs(places[0].lng - 13.4) < 1, JSON.stringify(places[0]));
    const route = ok(await callTool(ctx, 'maps_compute_route', { origin: '52.52,13.405', destination: `places/${places[0].id}`, travelMode: 'WALK' }));
    assert.equal(route.found, true);
    assert.ok((route.distanceMeters as number) >= 0 && typeof route.durationSeconds === 'number' && typeof route.polyline === 'string');
    const byAddress = ok(await callTool(ctx, 'maps_compute_route', { origin: 'Berlin', destination: 'Potsdam' }));
    assert.ok((byAddress.distanceMeters as number) > 10_000, JSON.stringify(byAddress));
  });

  it('realtime_publish is refused when the front end does not allow it, and says how to allow it', async () => {
    const ctx = context({ publishRefusal: 'start the server with --allow-publish' });
    const r = await callTool(ctx, 'realtime_publish', { channel: 'team', event: 'lunch', data: { places: 3 } });
    assert.equal(r.isError, true);
    assert.equal(r.text, 'not published: start the server with --allow-publish');
  });

  it('realtime_recent_messages returns what its subscription saw, including what realtime_publish delivered', async () => {
    const ctx = context();
    const first = ok(await callTool(ctx, 'realtime_recent_messages', { channel: 'team' }));
    assert.equal(first.subscribedNow, true);
    assert.deepEqual(first.messages, []);
    const sent = await callTool(ctx, 'realtime_publish', { channel: 'team', event: 'lunch', data: { places: ['Pizza Uno'] } });
    assert.equal(ok(sent).delivered, true);
    assert.match(sent.text, /^Delivered: "lunch" was published to channel "team"/);
    const later = await callTool(ctx, 'realtime_recent_messages', { channel: 'team', waitSeconds: 10 });
    const messages = ok(later).messages as Array<{ event: string; data: unknown }>;
    assert.deepEqual(
      messages.map((m) => [m.event, m.data]),
      [['lunch', { places: ['Pizza Uno'] }]],
    );
    assert.match(later.text, /1 message\(s\), oldest first:\n.* lunch: \{"places":\["Pizza Uno"\]\}/);
  });

  it('--budget-usd: an LLM call whose estimate would pass the budget is not sent, and the error says how to go on', async () => {
    // The sandbox serves OpenAI's model ids too; gpt-4o is priced, so the estimate is real.
    const ctx = context({ budget: new SpendBudget(0.002, 'restart the server with a larger --budget-usd') });
    const cheap = ok(await callTool(ctx, 'llm_chat', { prompt: 'Hi', model: 'gpt-4o', maxTokens: 16 }));
    assert.ok((cheap.costUsd as number) > 0);
    const budget = cheap.budget as { spentUsd: number; limitUsd: number };
    assert.equal(budget.limitUsd, 0.002);
    assert.ok(budget.spentUsd > 0);
    const refused = await callTool(ctx, 'llm_chat', { prompt: 'Write a long story.', model: 'gpt-4o', maxTokens: 4000 });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /^not sent: this call may cost up to \$0\.04.*of the \$0\.0020 budget.*restart the server with a larger --budget-usd/);
  });

  it('asks for confirmation before publishing (showing channel, event and data) and before a costly LLM call; read-only calls are not asked about', () => {
    const ctx = context();
    const publish = confirmationFor(ctx, 'realtime_publish', { channel: 'team', event: 'lunch', data: { places: ['Pizza Uno'] } });
    assert.deepEqual(publish, {
      title: 'Publish to "team"?',
      message:
        'Publish event "lunch" to channel "team" on the realtime connection "Local Sandbox". Everyone subscribed to the channel receives it.\n\nData: {"places":["Pizza Uno"]}',
    });
    const costly = confirmationFor(ctx, 'llm_chat', { prompt: 'Write a book.', model: 'gpt-4o', maxTokens: 10_000 });
    assert.equal(costly?.title, 'Send a costly language-model request?');
    assert.match(costly?.message ?? '', /^This call to gpt-4o on "Local Sandbox" may cost up to \$0\.10 .*more than \$0\.05\.$/);
    assert.equal(confirmationFor(ctx, 'llm_chat', { prompt: 'Hi', model: 'gpt-4o', maxTokens: 100 }), undefined);
    assert.equal(confirmationFor(ctx, 'llm_chat', { prompt: 'Hi' }), undefined, 'a free sandbox model');
    for (const name of ['list_resources', 'maps_search_places', 'maps_compute_route', 'realtime_recent_messages'])
      assert.equal(confirmationFor(ctx, name, { service: 'llm', query: 'x', origin: 'a', destination: 'b', channel: 'c' }), undefined, name);
  });

  it("one rate limiter per connection holds across calls and tools: the connection's quota counts every call", async () => {
    const set = sandboxConnections(sandbox.info);
    const maps = set.connections.find((c) => c.service === 'maps')!;
    const limited = { ...maps, rateLimitPerMinute: 3 };
    const ctx = context({ connections: [limited], key: () => MAPS_KEY });
    ok(await callTool(ctx, 'maps_search_places', { query: 'Berlin' }));
    ok(await callTool(ctx, 'maps_compute_route', { origin: 'Berlin', destination: 'Potsdam' }));
    ok(await callTool(ctx, 'list_resources', { service: 'maps' }));
    const key = ctx.clients.http.rateLimitKey(limited);
    assert.equal(ctx.clients.http.limiter.remaining(key, 3), 0);
    assert.ok(ctx.clients.http.limiter.waitTime(key, 3) > 50_000, 'a fourth call this minute would wait for the window');
  });

  it('--budget-usd holds for language-model cells of run_notebook too: over-budget cells are not sent', async () => {
    writeFileSync(
      path.join(root, 'costly.awb.md'),
      '```llm name=costly\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "gpt-4o", "max_tokens": 4000, "messages": [{"role": "user", "content": "Write a long story."}]}\n\n?? status == 200\n```\n',
    );
    const ctx = context({ budget: new SpendBudget(0.001, 'restart the server with a larger --budget-usd') });
    const r = await callTool(ctx, 'run_notebook', { path: 'costly.awb.md' });
    assert.equal(ok(r).summary, '0 passed, 1 failed');
    assert.match(r.text, /not sent: this call may cost up to \$0\.04/);
    assert.equal(ctx.budget?.spentUsd, 0);
  });

  it('--budget-usd for run_notebook: ten runs at once spend no more than the budget, and an unpriced model is not sent', async () => {
    const cell = (model: string) =>
      `\`\`\`llm name=story\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "${model}", "max_tokens": 300, "messages": [{"role": "user", "content": "Tell a story."}]}\n\n?? status == 200\n\`\`\`\n`;
    writeFileSync(path.join(root, 'story.awb.md'), cell('gpt-4o'));
    writeFileSync(path.join(root, 'unpriced.awb.md'), cell('gpt-4-turbo'));
    const ctx = context({ budget: new SpendBudget(0.01, 'restart the server with a larger --budget-usd') });
    const unpriced = await callTool(ctx, 'run_notebook', { path: 'unpriced.awb.md' });
    assert.match(unpriced.text, /not sent: no price is known for gpt-4-turbo/);
    const runs = await Promise.all(Array.from({ length: 10 }, () => callTool(ctx, 'run_notebook', { path: 'story.awb.md' })));
    const passed = runs.filter((r) => ok(r).summary === '1 passed, 0 failed').length;
    assert.ok(passed > 0 && passed < 10, `${passed} of 10 runs sent their cell`);
    assert.ok(ctx.budget!.spentUsd <= 0.01, `spent $${ctx.budget!.spentUsd}`);
    assert.equal(ctx.budget!.reservedUsd, 0, 'every reservation was settled');
  });

  it('a long answer is cut to the stated size, and says so', async () => {
    const ctx = context({ maxResultChars: 40 });
    const r = await callTool(ctx, 'list_resources', { service: 'llm' });
    assert.equal(r.isError, false);
    assert.match(r.text, /\n… \(truncated: 40 of [\d,]+ characters shown\)$/);
  });

  describe('run_notebook', () => {
    let foreign: Server;
    let foreignHits = 0;
    before(async () => {
      foreign = createServer((_req, res) => {
        foreignHits++;
        res.end('{}');
      });
      await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
    });
    after(() => foreign.close());

    it('runs a notebook inside the root: per-cell results and "N passed, N failed"', async () => {
      writeFileSync(
        path.join(root, 'ok.awb.md'),
        '```llm name=models\nGET /models\n\n?? status == 200\n```\n\n```llm name=wrong\nGET /models\n\n?? status == 404\n```\n',
      );
      const r = await callTool(context(), 'run_notebook', { path: 'ok.awb.md' });
      const s = ok(r);
      assert.equal(s.summary, '1 passed, 1 failed');
      assert.match(
        r.text,
        /^ok\.awb\.md: 1 passed, 1 failed\nPASS line 1 "models" \(llm 200, \d+ ms\)\nFAIL line 7 "wrong" \(llm 200, \d+ ms\)\n {2}\?\? status == 404: expected == 404, got 200$/,
      );
    });

    it('refuses a notebook outside the root, saying how to allow it', async () => {
      const outside = mkdtempSync(path.join(tmpdir(), 'awb-agents-outside-'));
      writeFileSync(path.join(outside, 'x.awb.md'), '```llm\nGET /models\n```\n');
      for (const p of [path.join(outside, 'x.awb.md'), path.relative(root, path.join(outside, 'x.awb.md'))]) {
        const r = await callTool(context(), 'run_notebook', { path: p });
        assert.equal(r.isError, true);
        assert.match(r.text, /^refused: .* is outside the folder this server may run notebooks from .*; start the server with --root/);
      }
    });

    it('a cell aimed at a foreign origin is refused before anything is sent, and the key is in no result', async () => {
      const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      writeFileSync(
        path.join(root, 'foreign.awb.md'),
        `\`\`\`llm name=absolute\nGET ${url}/v1/models\n\n?? status == 200\n\`\`\`\n\n\`\`\`http name=own\nGET ${url}/x\n\`\`\`\n`,
      );
      const r = await callTool(context(), 'run_notebook', { path: 'foreign.awb.md' });
      const s = ok(r);
      assert.equal(s.summary, '0 passed, 2 failed');
      assert.match(r.text, /no LLM connection has that host/);
      assert.match(r.text, /is not an allowed host/);
      assert.equal(foreignHits, 0);
    });

    it('a sandbox key reached through {{$env}} (any name holding it) is refused in an http cell; nothing is sent', async () => {
      const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      writeFileSync(
        path.join(root, 'envkey.awb.md'),
        `\`\`\`http name=leak\nPOST ${url}/x\nContent-Type: application/json\n\n{"v": "{{$env ALIAS}}"}\n\`\`\`\n`,
      );
      const ctx = context({
        allowedHosts: ['127.0.0.1'],
        env: { ALIAS: LLM_KEY },
        envPolicy: { allowed: ['ALIAS'], credentials: new Map() },
      });
      const r = await callTool(ctx, 'run_notebook', { path: 'envkey.awb.md' });
      const s = ok(r);
      assert.equal(s.summary, '0 passed, 1 failed');
      assert.match(r.text, /\{\{\$env ALIAS\}\}: the environment variable ALIAS holds the key of the llm connection "Local Sandbox"/);
      assert.equal(foreignHits, 0);
    });
  });
});
