// A real MCP session against the built-in sandbox, for the README's "Use with agents": the SDK's
// own client starts `api-workbench mcp` over stdio, lists the tools and calls each once, the way
// an agent planning "find Potsdam, how far it is from the office, and post an
// invitation to the team channel" would. Run from the checkout after `node esbuild.mjs`:
//   node docs/agents/session.mjs > docs/agents/session.md
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = [path.join(root, 'dist/cli.js'), 'mcp', '--sandbox', '--allow-publish', '--root', path.join(root, 'examples')];
const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
const client = new Client({ name: 'transcript', version: '1' });
await client.connect(transport);

const out = [];
const say = (line = '') => out.push(line);
say('# A session with `api-workbench mcp --sandbox --allow-publish --root examples`');
say();
say(
  `Made by \`node docs/agents/session.mjs\` with the MCP SDK's own client over stdio. Server: ${client.getServerVersion()?.name} ${client.getServerVersion()?.version}.`,
);
say();
const { tools } = await client.listTools();
say(`## tools/list: ${tools.length} tools`);
say();
for (const t of tools)
  say(`- \`${t.name}\` (${t.annotations?.readOnlyHint ? 'read-only' : t.annotations?.destructiveHint ? 'destructive' : 'runs requests'}): ${t.description}`);

async function call(name, input) {
  const r = await client.callTool({ name, arguments: input });
  say();
  say(`## tools/call \`${name}\` ${JSON.stringify(input)}${r.isError ? ' (isError)' : ''}`);
  say();
  say('```text');
  say(r.content.map((c) => c.text).join('\n'));
  say('```');
  return r;
}

// The sandbox's places are towns and cities (GeoNames), so the errand is an outing, not pizza.
await call('list_resources', { service: 'maps' });
const places = await call('maps_search_places', { query: 'Potsdam', maxResults: 3 });
const found = places.structuredContent?.places ?? [];
await call('maps_compute_route', { origin: '52.5219,13.4132', destination: found[0] ? `places/${found[0].id}` : 'Potsdam', travelMode: 'DRIVE' });
await call('llm_chat', { prompt: `Write a one-line invitation to a team outing to ${found[0]?.name ?? 'Potsdam'}`, maxTokens: 40 });
await call('realtime_recent_messages', { channel: 'team' });
await call('realtime_publish', { channel: 'team', event: 'outing', data: { outing: found[0]?.name ?? 'Potsdam', address: found[0]?.address } });
await call('realtime_recent_messages', { channel: 'team', waitSeconds: 5 });
await call('run_notebook', { path: 'sandbox-tour.awb.md' });
await call('run_notebook', { path: '../package.json' });
await client.close();
// The checkout's own path says nothing to a reader.
process.stdout.write(out.join('\n').split(root).join('<checkout>') + '\n');
