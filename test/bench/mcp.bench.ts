// MCP benchmark: `api-workbench mcp` (dist/cli.js) as an agent meets it, through the SDK's client
// over stdio, against ONE sandbox in its own process. Figures: how long the server takes from
// spawn to answering `initialize`, and what a tool call costs over calling the maps client
// directly with the same request (p50 of interleaved calls: JSON-RPC framing, two processes'
// stdio, validation, redaction).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { HttpClient } from '../../src/core/http';
import { SlidingWindowLimiter } from '../../src/core/rateLimiter';
import { MapsClient } from '../../src/services/maps/client';
import { googleErrorParser } from '../../src/services/maps/errors';
import { median, percentile, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const MAPS_KEY = 'AIzaBenchMcp000000000000000000';
const CLI = path.resolve(__dirname, '../../../dist/cli.js');
const STARTS = 7;
const CALLS = 60;
const QUERY = 'Berlin';
const FIELDS = 'places.id,places.displayName,places.formattedAddress,places.location';

export default async function mcpBench(r: BenchReporter): Promise<void> {
  r.section('MCP server (api-workbench mcp over stdio, the SDK client)');
  const sandbox = await startSandboxProcess(['--maps-key', MAPS_KEY]);
  const dir = mkdtempSync(path.join(tmpdir(), 'awb-bench-mcp-'));
  const connections = path.join(dir, 'connections.json');
  writeFileSync(
    connections,
    JSON.stringify({ maps: [{ name: 'Bench', baseUrl: sandbox.info.maps.baseUrl, keyEnv: 'AWB_BENCH_MAPS_KEY', rateLimitPerMinute: 100_000 }] }),
  );
  const serve = async () => {
    const started = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--connections', connections],
      cwd: dir,
      env: { AWB_BENCH_MAPS_KEY: MAPS_KEY },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    return { client, startMs: performance.now() - started };
  };
  try {
    const starts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const s = await serve();
      starts.push(s.startMs);
      await s.client.close();
    }
    r.metric(`server start, spawn to initialize answered (median of ${STARTS})`, median(starts), ' ms', { atMost: 1500 });

    const { client } = await serve();
    const direct = new MapsClient(
      new HttpClient({
        service: 'Maps (bench)',
        baseUrl: sandbox.info.maps.baseUrl,
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
        credentials: () => Promise.resolve(MAPS_KEY),
        parseError: googleErrorParser,
        rateLimit: { key: 'bench', perMinute: 100_000 },
        limiter: new SlidingWindowLimiter(),
        log: () => undefined,
      }),
    );
    const viaMcp: number[] = [];
    const viaClient: number[] = [];
    // Warm both paths (connections, JIT) before measuring; then interleave so drift hits both alike.
    for (let i = 0; i < 5; i++) {
      await client.callTool({ name: 'maps_search_places', arguments: { query: QUERY } });
      await direct.searchText({ textQuery: QUERY, maxResultCount: 5 }, { fieldMask: FIELDS });
    }
    for (let i = 0; i < CALLS; i++) {
      let t = performance.now();
      const res = await client.callTool({ name: 'maps_search_places', arguments: { query: QUERY } });
      viaMcp.push(performance.now() - t);
      if (res.isError) throw new Error(`maps_search_places failed: ${JSON.stringify(res.content)}`);
      t = performance.now();
      await direct.searchText({ textQuery: QUERY, maxResultCount: 5 }, { fieldMask: FIELDS });
      viaClient.push(performance.now() - t);
    }
    await client.close();
    const p50Mcp = percentile(viaMcp, 50);
    const p50Client = percentile(viaClient, 50);
    r.metric(`maps_search_places through MCP, p50 of ${CALLS}`, p50Mcp, ' ms');
    r.metric('the same search with MapsClient directly, p50', p50Client, ' ms');
    r.metric('tool call overhead over the client (p50 difference)', p50Mcp - p50Client, ' ms', { atMost: 5 });
  } finally {
    await sandbox.stop();
  }
}
