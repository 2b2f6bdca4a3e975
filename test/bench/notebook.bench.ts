// Notebook engine benchmark: what running a request as a notebook cell adds to the request itself.
// The same request (LLM `GET /models`, maps `places:searchText`) is sent N times directly with an
// HttpClient and N times as a cell through the engine (createRunner + runCell over the sandbox's
// connections, as the editor runs one cell), alternated request by request (ABBA), against ONE
// sandbox in its own process (dist/sandbox.js). The engine's part per cell: parsing the cell,
// variables, a client per cell, the origin checks, capping and redacting the response, assertions.
import { sandboxConnections } from '../../src/core/connections';
import { HttpClient } from '../../src/core/http';
import { googleErrorParser } from '../../src/services/maps/errors';
import { openAiErrorParser } from '../../src/services/llm/errors';
import { connectionsHost, createRunner, parseNotebook } from '../../src/notebook/api';
import { median, percentile, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const LLM_KEY = 'sk-bench-notebook-0000000000000000';
const MAPS_KEY = 'AIzaBenchNotebook00000000000000';
const PAIRS = 300;
const WARMUP = 50;
const TIME_BUDGET_MS = 30_000;
const OVERHEAD_GOAL_MS = 20;

const NOTEBOOK = [
  '# engine bench',
  '',
  '```llm name=models',
  'GET /models',
  '',
  '?? status == 200',
  '```',
  '',
  '```maps name=search',
  'POST /v1/places:searchText',
  'X-Goog-FieldMask: places.id,places.displayName,places.formattedAddress',
  'Content-Type: application/json',
  '',
  '{"textQuery": "Springfield", "pageSize": 5}',
  '',
  '?? status == 200',
  '```',
  '',
].join('\n');

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export default async function notebookBench(r: BenchReporter): Promise<void> {
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--llm-key', LLM_KEY, '--maps-key', MAPS_KEY, '--maps-quota', '1000000000']);
  try {
    const { connections, key } = sandboxConnections(sandbox.info);
    const parsed = parseNotebook(NOTEBOOK, 'bench.awb.md');
    const runner = createRunner(parsed.cells, { host: connectionsHost({ connections, key }), file: 'bench.awb.md' });
    const cellIndex = (name: string) => parsed.cells.findIndex((c) => c.metadata.attributes?.name === name);

    const llm = new HttpClient({
      service: 'LLM (bench)',
      baseUrl: sandbox.info.llm.baseUrl,
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(LLM_KEY),
      parseError: openAiErrorParser,
    });
    const maps = new HttpClient({
      service: 'Maps (bench)',
      baseUrl: sandbox.info.maps.baseUrl,
      auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      credentials: () => Promise.resolve(MAPS_KEY),
      parseError: googleErrorParser,
    });

    const cases: Array<{ label: string; direct: () => Promise<unknown>; cell: () => Promise<unknown> }> = [
      {
        label: 'llm GET /models',
        direct: () => llm.json({ method: 'GET', path: '/models' }),
        cell: async () => {
          const res = await runner.runCell(cellIndex('models'));
          if (!res.ok) throw new Error(`the models cell failed: ${res.error ?? res.response?.status}`);
        },
      },
      {
        label: 'maps searchText (5 places)',
        direct: () =>
          maps.json({
            method: 'POST',
            path: '/v1/places:searchText',
            headers: { 'x-goog-fieldmask': 'places.id,places.displayName,places.formattedAddress' },
            body: { textQuery: 'Springfield', pageSize: 5 },
          }),
        cell: async () => {
          const res = await runner.runCell(cellIndex('search'));
          if (!res.ok) throw new Error(`the search cell failed: ${res.error ?? res.response?.status}`);
        },
      },
    ];

    r.section('Notebook engine: a request run as a cell vs. the same request sent directly (sandbox in its own process)');
    r.note('alternated request by request (ABBA); overhead = median(cell) − median(direct)');
    for (const c of cases) {
      for (let i = 0; i < WARMUP; i++) {
        await c.direct();
        await c.cell();
      }
      const direct: number[] = [];
      const cell: number[] = [];
      const deadline = Date.now() + TIME_BUDGET_MS / cases.length;
      for (let i = 0; i < PAIRS && Date.now() < deadline; i++) {
        if (i % 2 === 0) {
          direct.push(await time(c.direct));
          cell.push(await time(c.cell));
        } else {
          cell.push(await time(c.cell));
          direct.push(await time(c.direct));
        }
      }
      r.metric(`${c.label}: direct HttpClient, median of ${direct.length}`, median(direct), 'ms');
      r.metric(`${c.label}: as a cell, median of ${cell.length}`, median(cell), 'ms');
      r.metric(`${c.label}: as a cell, p95`, percentile(cell, 95), 'ms');
      r.metric(`${c.label}: engine overhead per cell (median)`, median(cell) - median(direct), 'ms', { atMost: OVERHEAD_GOAL_MS });
      r.ratio(`${c.label}: cell ÷ direct (median)`, median(cell), median(direct));
    }
    runner.dispose();
  } finally {
    await sandbox.stop();
  }
}
