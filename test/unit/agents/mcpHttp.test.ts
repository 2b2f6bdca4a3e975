// The editor's in-process MCP server (src/agents/mcpHttp.ts) as an MCP client meets it: the SDK's
// own Client over Streamable HTTP lists and calls the tools against the sandbox with the token,
// and without it (or with another one, or from a rebinding web page) gets nothing.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpHttpServer, type McpHttpServer } from '../../../src/agents/mcpHttp';
import { standaloneContext, type StandaloneContext } from '../../../src/agents/standalone';
import { TOOL_NAMES } from '../../../src/agents/tools';
import { sandboxConnections } from '../../../src/core/connections';
import { Redactor } from '../../../src/core/redact';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';

const LLM_KEY = 'sk-mcp-http-llm-key-0123456789';
const MAPS_KEY = 'AIzaMcpHttpMapsKey0123456789';
const SECRET = 'mcp-http-app-secret-0123456789';

interface CallResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

describe('agents: the in-process MCP server over Streamable HTTP', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let ctx: StandaloneContext;
  let server: McpHttpServer;
  const clients: Client[] = [];

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { secret: SECRET, demo: false } });
    const set = sandboxConnections(sandbox.info);
    ctx = standaloneContext({ connections: set.connections, key: set.key, redactor: new Redactor(), defaultModel: () => 'sandbox-chat' });
    server = await startMcpHttpServer(ctx, { version: '0.0.0-test' });
  });
  after(async () => {
    for (const c of clients) await c.close();
    await server.close();
    ctx.dispose();
    await sandbox.close();
  });

  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'mcp-http-test', version: '0.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
    return client;
  }

  it('listens on 127.0.0.1 only, and with the definition headers lists every tool and calls them against the sandbox, with no key in any result', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect({ ...server.headers });
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      [...TOOL_NAMES],
    );
    const results = [
      (await client.callTool({ name: 'llm_chat', arguments: { prompt: 'Say hello' } })) as CallResult,
      (await client.callTool({ name: 'maps_search_places', arguments: { query: 'Paris' } })) as CallResult,
      (await client.callTool({ name: 'list_resources', arguments: { service: 'realtime' } })) as CallResult,
    ];
    for (const r of results) assert.equal(r.isError, false, r.content[0]?.text);
    assert.ok(Array.isArray(results[1].structuredContent?.places) && results[1].structuredContent.places.length > 0, JSON.stringify(results[1]));
    const all = JSON.stringify(results);
    for (const k of [LLM_KEY, MAPS_KEY, SECRET, server.headers.Authorization.slice('Bearer '.length)]) assert.ok(!all.includes(k), 'a key is in a result');
  });

  it('refuses a request without the token, with another token (401), and one whose Host or Origin is not this server (403)', async () => {
    await assert.rejects(connect({}), /bearer token is missing or wrong/);
    await assert.rejects(connect({ Authorization: 'Bearer not-the-token' }), /bearer token is missing or wrong/);
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const post = (headers: Record<string, string>) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    assert.equal((await post({ ...server.headers, Origin: 'http://evil.example' })).status, 403);
    // What a browser sends after rebinding evil.example to 127.0.0.1: its own name as Host (fetch cannot set Host, so a raw request).
    const status = await new Promise<number>((resolve, reject) => {
      const r = request(server.url, { method: 'POST', headers: { ...server.headers, Host: `evil.example:${new URL(server.url).port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      r.on('error', reject);
      r.end(JSON.stringify(init));
    });
    assert.equal(status, 403);
  });
});
