// `api-workbench mcp` as an agent meets it: the BUILT CLI (dist/cli.js) spawned over stdio by the
// SDK's own client. Every tool, the refusals, the budget, truncation, a malformed line survived,
// and no key in any result or on stderr.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TOOL_NAMES } from '../../../src/agents/tools';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { parseCliArgs } from '../../../src/cli/args';
import { assertBuilt, CLI } from '../cli/cliKit';

const LLM_KEY = 'sk-mcp-recognisable-llm-key-0123456789';
const MAPS_KEY = 'AIzaMcpRecognisableMapsKey0123456789';
const SECRET = 'mcp-recognisable-app-secret-0123456789';

interface Served {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
}

interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The built CLI with `input` written to its stdin, which then ends; what it printed, once it exited. */
function rawSession(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // The answers arrive before stdin ends: the server answers each request as it is read.
    let answered = 0;
    child.stdout.on('data', () => {
      answered = stdout.split('\n').filter(Boolean).length;
      if (answered >= 2) child.stdin.end();
    });
    child.stdin.write(input);
  });
}

function textOf(r: CallResult): string {
  return r.content.map((c) => c.text ?? '').join('\n');
}

describe('api-workbench mcp (dist/cli.js) with the SDK client over stdio', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;
  let connectionsFile: string;
  const served: Served[] = [];
  const seen: string[] = [];

  before(async () => {
    assertBuilt();
    // The services the connections file points at, with keys the test can look for.
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { secret: SECRET, demo: false } });
    dir = mkdtempSync(path.join(tmpdir(), 'awb-mcp-'));
    const rt = sandbox.info.realtime;
    connectionsFile = path.join(dir, 'connections.json');
    writeFileSync(
      connectionsFile,
      JSON.stringify({
        llm: [{ name: 'Work LLM', baseUrl: sandbox.info.llm.baseUrl, keyEnv: 'AWB_MCP_LLM_KEY' }],
        maps: [{ name: 'Work Maps', baseUrl: sandbox.info.maps.baseUrl, keyEnv: 'AWB_MCP_MAPS_KEY' }],
        realtime: [{ name: 'Work RT', appId: rt.appId, key: rt.key, host: rt.host, port: rt.port, useTLS: false, keyEnv: 'AWB_MCP_SECRET' }],
      }),
    );
  });

  after(async () => {
    for (const s of served) await s.client.close().catch(() => undefined);
    await sandbox.close();
    // Whatever any server said, on stdout (as results) or stderr, never held a key.
    for (const text of seen)
      for (const key of [LLM_KEY, MAPS_KEY, SECRET]) assert.ok(!text.includes(key), `a key reached the agent or stderr: ${text.slice(0, 300)}`);
  });

  async function serve(args: string[]): Promise<Served> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...args],
      cwd: dir,
      env: { AWB_MCP_LLM_KEY: LLM_KEY, AWB_MCP_MAPS_KEY: MAPS_KEY, AWB_MCP_SECRET: SECRET },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = new Client({ name: 'api-workbench-test', version: '1' });
    await client.connect(transport);
    const s: Served = { client, transport, stderr: () => stderr };
    served.push(s);
    return s;
  }

  async function call(s: Served, name: string, args: Record<string, unknown>): Promise<CallResult> {
    const r = (await s.client.callTool({ name, arguments: args })) as CallResult;
    seen.push(JSON.stringify(r), s.stderr());
    return r;
  }

  async function ok(s: Served, name: string, args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown> }> {
    const r = await call(s, name, args);
    assert.notEqual(r.isError, true, textOf(r));
    assert.ok(r.structuredContent, `${name} gave no structuredContent`);
    return { text: textOf(r), data: r.structuredContent };
  }

  it('lists the seven tools by their stable names, each with a described JSON Schema and annotations', async () => {
    const s = await serve(['--connections', connectionsFile]);
    const { tools } = await s.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...TOOL_NAMES],
    );
    for (const t of tools) {
      assert.ok(t.description && t.inputSchema.type === 'object', t.name);
      for (const [p, schema] of Object.entries(t.inputSchema.properties ?? {})) assert.ok((schema as { description?: string }).description, `${t.name}.${p}`);
    }
    assert.equal(tools.find((t) => t.name === 'realtime_publish')?.annotations?.destructiveHint, true);
    assert.equal(tools.find((t) => t.name === 'maps_search_places')?.annotations?.readOnlyHint, true);
  });

  it('every tool works over a --connections file whose keys come from keyEnv, and no key is in any result or on stderr', async () => {
    const s = await serve(['--connections', connectionsFile, '--allow-publish', '--root', dir]);
    const models = await ok(s, 'list_resources', { service: 'llm' });
    assert.match(models.text, /- sandbox-chat/);
    assert.equal(models.data.connection, 'Work LLM');
    const chat = await ok(s, 'llm_chat', { prompt: `Repeat this back: ${LLM_KEY}`, model: 'sandbox-chat' });
    assert.ok(typeof chat.data.answer === 'string' && (chat.data.usage as { outputTokens: number }).outputTokens > 0);
    const places = await ok(s, 'maps_search_places', { query: 'Paris', maxResults: 2 });
    const first = (places.data.places as Array<{ id: string; name: string; lat: number; lng: number }>)[0];
    assert.ok(first.id && first.name && Number.isFinite(first.lat) && Number.isFinite(first.lng));
    const route = await ok(s, 'maps_compute_route', { origin: 'Paris', destination: 'Versailles', travelMode: 'DRIVE' });
    assert.ok((route.data.distanceMeters as number) > 0 && (route.data.durationSeconds as number) > 0 && typeof route.data.polyline === 'string');
    const listening = await ok(s, 'realtime_recent_messages', { channel: 'lunch' });
    assert.equal(listening.data.subscribedNow, true);
    const sent = await ok(s, 'realtime_publish', { channel: 'lunch', event: 'suggestions', data: { places: [first.name] } });
    assert.equal(sent.data.delivered, true);
    const recent = await ok(s, 'realtime_recent_messages', { channel: 'lunch', waitSeconds: 10 });
    assert.deepEqual(
      (recent.data.messages as Array<{ event: string; data: unknown }>).map((m) => [m.event, m.data]),
      [['suggestions', { places: [first.name] }]],
    );
    writeFileSync(path.join(dir, 'ok.awb.md'), '```llm name=models\nGET /models\n\n?? status == 200\n```\n');
    const run = await ok(s, 'run_notebook', { path: 'ok.awb.md' });
    assert.equal(run.data.summary, '1 passed, 0 failed');
    // The sandbox quotes the prompt in its answer: the key an agent pasted comes back masked.
    assert.match(chat.data.answer, /Repeat this back: \*\*\*/);
  });

  it('a connection whose token comes from a "tokenCommand" signs llm_chat with it; a failing command stops the server at start, with its message', async () => {
    // A stand-in for `az account get-access-token … -o tsv` that prints the sandbox's key as the token.
    const script = path.join(dir, 'token.js');
    writeFileSync(script, `console.log(${JSON.stringify(LLM_KEY)});`);
    const tokenFile = path.join(dir, 'token-connections.json');
    writeFileSync(
      tokenFile,
      JSON.stringify({ llm: [{ name: 'Token LLM', baseUrl: sandbox.info.llm.baseUrl, tokenCommand: `"${process.execPath}" "${script}"` }] }),
    );
    const s = await serve(['--connections', tokenFile]);
    const { text } = await ok(s, 'llm_chat', { prompt: 'Say hello', model: 'sandbox-chat' });
    assert.ok(text.length > 0);

    const failing = path.join(dir, 'fail.js');
    writeFileSync(failing, `console.error("ERROR: Please run 'az login' to setup account."); process.exit(1);`);
    const failFile = path.join(dir, 'fail-connections.json');
    writeFileSync(
      failFile,
      JSON.stringify({ llm: [{ name: 'Token LLM', baseUrl: sandbox.info.llm.baseUrl, tokenCommand: `"${process.execPath}" "${failing}"` }] }),
    );
    const r = await rawSession(['mcp', '--connections', failFile], '');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /Please run 'az login'/);
  });

  it('refuses realtime_publish without --allow-publish, saying to start the server with it', async () => {
    const s = await serve(['--sandbox']);
    const r = await call(s, 'realtime_publish', { channel: 'team', event: 'hello', data: 'hi' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /start the server with --allow-publish/);
  });

  it('run_notebook causes no side effect without --allow-publish: PUBLISH, BATCH, SEND_TO_USER, an http POST to an allowed host and a write to a connection are refused; reads and model calls go', async () => {
    const hits: string[] = [];
    const shop = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const root = mkdtempSync(path.join(dir, 'effects-'));
    const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\`\n\n`;
    writeFileSync(
      path.join(root, 'effects.awb.md'),
      fence('realtime name=publish', 'PUBLISH effects-gate suggestion\n{"place": "Pizza Uno"}\n\n?? status == 200') +
        fence('realtime name=batch', 'BATCH\n[{"channel": "effects-gate", "name": "suggestion", "data": {}}]\n\n?? status == 200') +
        fence('realtime name=user', 'SEND_TO_USER user-1 suggestion\n{}\n\n?? status == 200') +
        fence('http name=order', `POST http://${host}/orders\nContent-Type: application/json\n\n{"item": 1}\n\n?? status == 200`) +
        fence('http name=look', `GET http://${host}/orders\n\n?? status == 200`) +
        fence('llm name=upload', 'POST /files\nContent-Type: application/json\n\n{"purpose": "fine-tune"}') +
        fence(
          'llm name=chat',
          'POST /chat/completions\nContent-Type: application/json\n\n{"model": "sandbox-chat", "messages": [{"role": "user", "content": "hi"}]}\n\n?? status == 200',
        ),
    );
    try {
      const s = await serve(['--sandbox', '--root', root, '--allow-host', host]);
      await ok(s, 'realtime_recent_messages', { channel: 'effects-gate' });
      const run = await ok(s, 'run_notebook', { path: 'effects.awb.md' });
      const cells = run.data.cells as Array<{ name: string; ok: boolean; error?: string }>;
      assert.deepEqual(
        cells.map((c) => [c.name, c.ok]),
        [
          ['publish', false],
          ['batch', false],
          ['user', false],
          ['order', false],
          ['look', true],
          ['upload', false],
          ['chat', true],
        ],
        run.text,
      );
      for (const c of cells.filter((c) => !c.ok)) assert.match(c.error ?? '', /start the server with --allow-publish/, c.name);
      assert.match(cells[3].error ?? '', new RegExp(`not sent: POST http://${host}/orders may change data on the server`));
      assert.deepEqual(hits, ['GET /orders'], 'the POST never reached the server');
      const recent = await ok(s, 'realtime_recent_messages', { channel: 'effects-gate', waitSeconds: 1 });
      assert.deepEqual(recent.data.messages, [], 'nothing was published');

      // With --allow-publish the same notebook publishes and posts.
      const allowed = await serve(['--sandbox', '--root', root, '--allow-host', host, '--allow-publish']);
      await ok(allowed, 'realtime_recent_messages', { channel: 'effects-gate' });
      const again = await ok(allowed, 'run_notebook', { path: 'effects.awb.md' });
      const okNames = (again.data.cells as Array<{ name: string; ok: boolean }>).filter((c) => c.ok).map((c) => c.name);
      assert.deepEqual(okNames, ['publish', 'batch', 'user', 'order', 'look', 'chat'], again.text);
      const published = await ok(allowed, 'realtime_recent_messages', { channel: 'effects-gate', waitSeconds: 5 });
      assert.ok((published.data.messages as unknown[]).length >= 2, JSON.stringify(published.data));
    } finally {
      shop.close();
    }
  });

  it('refuses a notebook outside --root and a cell aimed at a foreign origin', async () => {
    const root = mkdtempSync(path.join(dir, 'root-'));
    const s = await serve(['--sandbox', '--root', root]);
    writeFileSync(path.join(dir, 'outside.awb.md'), '```llm\nGET /models\n```\n');
    const outside = await call(s, 'run_notebook', { path: '../outside.awb.md' });
    assert.equal(outside.isError, true);
    assert.match(textOf(outside), /outside the folder this server may run notebooks from .*--root/);
    writeFileSync(path.join(root, 'foreign.awb.md'), '```llm name=elsewhere\nGET https://example.invalid/v1/models\n\n?? status == 200\n```\n');
    const foreign = await ok(s, 'run_notebook', { path: 'foreign.awb.md' });
    assert.equal(foreign.data.summary, '0 passed, 1 failed');
    assert.match(foreign.text, /FAIL line 1 "elsewhere".*\n.*no LLM connection has that host/);
  });

  it('survives a malformed line on stdin: the error goes to stderr, the next call still works', async () => {
    const s = await serve(['--sandbox']);
    // The transport's child process: what an MCP client writes to the server.
    const stdin = (s.transport['_process'] as { stdin: Writable } | undefined)?.stdin;
    assert.ok(stdin);
    const said = new Promise<void>((resolve) => {
      const check = () => (/not valid JSON/.test(s.stderr()) ? resolve() : undefined);
      (s.transport.stderr as Readable).on('data', check);
      check();
    });
    stdin.write('this is not json\n{"jsonrpc":"2.0","method":"no/such","id":"x"}\n{}\n');
    await said;
    const r = await ok(s, 'list_resources', { service: 'maps' });
    assert.match(r.text, /maps API/);
  });

  it('answers an 11 MB message with a JSON-RPC error naming its size and the limit, and goes on serving', async () => {
    const s = await serve(['--sandbox']);
    const huge = 'x'.repeat(11 * 1024 * 1024);
    await assert.rejects(
      s.client.callTool({ name: 'llm_chat', arguments: { prompt: huge } }),
      (e: Error & { code?: number }) => e.code === -32600 && /message too large \(\d+ bytes; limit 10485760\)/.test(e.message),
    );
    // One without an id (a notification) gets the error with id null, and is said on stderr.
    const stdin = (s.transport['_process'] as { stdin: Writable } | undefined)?.stdin;
    assert.ok(stdin);
    stdin.write(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${huge}"}}\n`);
    const r = await ok(s, 'list_resources', { service: 'maps' });
    assert.match(r.text, /maps API/);
    assert.match(s.stderr(), /a message too large \(\d+ bytes; limit 10485760\) was refused/);
  });

  it('stdout carries only protocol messages (the sandbox and every notice go to stderr), and the server ends when stdin does', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_resources', arguments: { service: 'realtime' } } },
    ];
    const r = await rawSession(['mcp', '--sandbox'], lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n');
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split('\n').filter(Boolean);
    assert.deepEqual(
      out.map((l) => (JSON.parse(l) as { id: number }).id),
      [1, 2],
    );
    assert.match(r.stderr, /serving 7 tools over stdio/);
    assert.match(r.stderr, /not valid JSON/);
  });

  it('mcp options: refused where they make no sense, with a sentence saying why', () => {
    assert.throws(() => parseCliArgs(['mcp', 'notebook.awb.md']), /mcp takes no files/);
    assert.throws(() => parseCliArgs(['mcp', '--budget-usd', '0']), /--budget-usd takes an amount of US dollars greater than 0/);
    assert.throws(() => parseCliArgs(['mcp', '--bail']), /--bail is not an option of mcp/);
    assert.throws(() => parseCliArgs(['run', 'x.awb.md', '--allow-publish']), /--allow-publish is an option of mcp/);
    assert.deepEqual(parseCliArgs(['mcp', '--sandbox', '--allow-publish', '--budget-usd', '0.5', '--root', 'nb']), {
      command: 'mcp',
      sandbox: true,
      modelMap: [],
      connectionsFile: undefined,
      root: 'nb',
      allowPublish: true,
      budgetUsd: 0.5,
      allowHosts: [],
      allowEnv: [],
      proxy: undefined,
      ca: [],
    });
  });

  it('--budget-usd stops an LLM call whose estimated cost would pass it, and says how to go on', async () => {
    const s = await serve(['--sandbox', '--budget-usd', '0.001']);
    const r = await call(s, 'llm_chat', { prompt: 'Write a long story.', model: 'gpt-4o', maxTokens: 2000 });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^not sent: this call may cost up to \$0\.02.* of the \$0\.0010 budget\..*restart the server with a larger --budget-usd\.$/);
  });

  it('--budget-usd holds for 40 llm_chat calls at once: each reserves its worst case before it is sent, and together they spend no more than the budget', async () => {
    const s = await serve(['--sandbox', '--budget-usd', '0.01']);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(s, 'llm_chat', { prompt: `Tell story number ${i} at length.`, model: 'gpt-4o', maxTokens: 300 })),
    );
    const sent = results.filter((r) => r.isError !== true);
    const refused = results.filter((r) => r.isError === true);
    const spent = sent.reduce((sum, r) => sum + (r.structuredContent?.costUsd as number), 0);
    assert.ok(sent.length > 0 && refused.length > 0, `${sent.length} sent, ${refused.length} refused`);
    assert.ok(spent <= 0.01, `40 calls at once spent $${spent} of a $0.01 budget`);
    for (const r of refused) assert.match(textOf(r), /^not sent: (this call may cost up to|the budget is used up)/);
  });

  it('--budget-usd refuses a model whose price is unknown, until --price gives one', async () => {
    const unpriced = await serve(['--sandbox', '--budget-usd', '1']);
    const r = await call(unpriced, 'llm_chat', { prompt: 'Hi', model: 'gpt-4-turbo', maxTokens: 16 });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^not sent: no price is known for gpt-4-turbo.*start the server with --price <model>=<input>\/<output>/);
    const priced = await serve(['--sandbox', '--budget-usd', '1', '--price', 'gpt-4-turbo=10/30']);
    const { data } = await ok(priced, 'llm_chat', { prompt: 'Hi', model: 'gpt-4-turbo', maxTokens: 16 });
    assert.ok((data.costUsd as number) > 0);
    assert.throws(() => parseCliArgs(['mcp', '--price', 'gpt-4-turbo=ten']), /--price takes model=input\/output in US dollars per 1M tokens/);
    assert.throws(() => parseCliArgs(['run', 'x.awb.md', '--price', 'a=1/2']), /--price is an option of mcp/);
  });

  it('cuts a long result to the stated size and says so', async () => {
    const s = await serve(['--sandbox', '--root', dir]);
    const long = 'x'.repeat(480);
    const cells = Array.from({ length: 40 }, (_, i) => `\`\`\`llm name=c${i}\nGET /models\n\n?? text contains ${long}\n\`\`\`\n`).join('\n');
    writeFileSync(path.join(dir, 'long.awb.md'), cells);
    const r = await ok(s, 'run_notebook', { path: 'long.awb.md' });
    assert.equal(r.data.summary, '0 passed, 40 failed');
    assert.match(r.text, /\n… \(truncated: 20,000 of [\d,]+ characters shown\)$/);
  });
});
