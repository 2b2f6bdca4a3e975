// CLI benchmark: the same 20 requests with 20 status assertions (10 LLM `GET /models`, 10 maps text
// searches) run by our CLI (dist/cli.js), `httpyac send` and `newman run`, each as a whole process,
// against ONE sandbox already running in its own process; the runs of the three are interleaved.
// Figures: wall time from spawn to exit, and peak memory of each process.
//
// Peak memory is the process's own getrusage(RUSAGE_SELF).ru_maxrss (Node: resourceUsage().maxRSS,
// the high-water mark of its resident set over its whole life), read in an 'exit' hook that a
// `--require` preload (via NODE_OPTIONS) installs in every Node process of the run and written to
// a file per pid. Exact, unlike polling /proc/<pid>/status (which misses the last moments), and
// the same method for all three tools. Also: the `--sandbox` variant (sandbox start included), and
// `node -e 0`, the floor every tool starts from. Every run has this process's environment but
// NODE_EXTRA_CA_CERTS (toolEnv).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const LLM_KEY = 'sk-bench-cli-000000000000000000';
const MAPS_KEY = 'AIzaBenchCli000000000000000000';
const REQUESTS_PER_SERVICE = 10;
const ROUNDS = 5;
const TIME_BUDGET_MS = 120_000;
const CITIES = ['Lisbon', 'Porto', 'Madrid', 'Paris', 'Berlin', 'Rome', 'Vienna', 'Prague', 'Oslo', 'Dublin'];

const ROOT = path.resolve(__dirname, '../../..');
const OUR_CLI = path.join(ROOT, 'dist/cli.js');

function binOf(pkg: string, name: string): string {
  const manifest = path.join(ROOT, 'node_modules', pkg, 'package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> }).bin;
  return path.join(path.dirname(manifest), typeof bin === 'string' ? bin : bin[name]);
}

const PEAK_HOOK = `const fs = require('fs'), path = require('path');
process.on('exit', () => {
  try { fs.writeFileSync(path.join(process.env.BENCH_PEAK_DIR, process.pid + '.json'), JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })); } catch {}
});
`;

/**
 * The environment every tool runs in: this process's, without NODE_EXTRA_CA_CERTS. Node reads and
 * parses that file (a whole CA bundle on the machines this runs on) as each process starts, before
 * any of the tool's code: ~35 ms of every run here, the same for all three tools, for TLS that no
 * run uses (the sandbox is plain HTTP on loopback). Left in, it measures the machine's CA bundle
 * beside each tool; `node -e 0` is measured the same way, as the floor.
 */
function toolEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

interface Measured {
  wallMs: number;
  /** The largest peak of the Node processes the run started (each tool runs in one). */
  peakMiB: number;
  code: number | null;
  output: string;
}

async function measure(work: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  const peakDir = mkdtempSync(path.join(work, 'peak-'));
  const hook = path.join(work, 'peak-hook.js');
  writeFileSync(hook, PEAK_HOOK);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: work,
    env: { ...toolEnv(), ...env, CI: 'true', BENCH_PEAK_DIR: peakDir, NODE_OPTIONS: `--require ${hook}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  const peaks = readdirSync(peakDir).map((f) => (JSON.parse(readFileSync(path.join(peakDir, f), 'utf8')) as { maxRssKiB: number }).maxRssKiB);
  rmSync(peakDir, { recursive: true, force: true });
  return { wallMs, peakMiB: Math.max(0, ...peaks) / 1024, code, output };
}

function notebook(): string {
  const cells: string[] = ['# CLI bench\n'];
  for (let i = 0; i < REQUESTS_PER_SERVICE; i++) cells.push(`\`\`\`llm name=models${i}\nGET /models\n\n?? status == 200\n\`\`\`\n`);
  for (const city of CITIES.slice(0, REQUESTS_PER_SERVICE)) {
    cells.push(
      `\`\`\`maps name=search${city}\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName\nContent-Type: application/json\n\n{"textQuery": "${city}"}\n\n?? status == 200\n\`\`\`\n`,
    );
  }
  return cells.join('\n');
}

function httpFile(llm: string, maps: string): string {
  const reqs: string[] = [];
  for (let i = 0; i < REQUESTS_PER_SERVICE; i++) reqs.push(`# @name models${i}\nGET ${llm}/models\nAuthorization: Bearer ${LLM_KEY}\n\n?? status == 200\n`);
  for (const city of CITIES.slice(0, REQUESTS_PER_SERVICE)) {
    reqs.push(
      `# @name search${city}\nPOST ${maps}/v1/places:searchText\nX-Goog-Api-Key: ${MAPS_KEY}\nX-Goog-FieldMask: places.id,places.displayName\nContent-Type: application/json\n\n{"textQuery": "${city}"}\n\n?? status == 200\n`,
    );
  }
  return reqs.join('\n###\n\n');
}

function postmanCollection(llm: string, maps: string): string {
  const test = [{ listen: 'test', script: { type: 'text/javascript', exec: ["pm.test('status 200', () => pm.response.to.have.status(200));"] } }];
  const items = [
    ...Array.from({ length: REQUESTS_PER_SERVICE }, (_, i) => ({
      name: `models${i}`,
      request: { method: 'GET', header: [{ key: 'Authorization', value: `Bearer ${LLM_KEY}` }], url: `${llm}/models` },
      event: test,
    })),
    ...CITIES.slice(0, REQUESTS_PER_SERVICE).map((city) => ({
      name: `search${city}`,
      request: {
        method: 'POST',
        header: [
          { key: 'X-Goog-Api-Key', value: MAPS_KEY },
          { key: 'X-Goog-FieldMask', value: 'places.id,places.displayName' },
          { key: 'Content-Type', value: 'application/json' },
        ],
        body: { mode: 'raw', raw: JSON.stringify({ textQuery: city }) },
        url: `${maps}/v1/places:searchText`,
      },
      event: test,
    })),
  ];
  return JSON.stringify({ info: { name: 'cli-bench', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: items }, null, 2);
}

export default async function (r: BenchReporter): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'awb-cli-bench-'));
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--llm-key', LLM_KEY, '--maps-key', MAPS_KEY, '--maps-quota', '1000000']);
  try {
    const { llm, maps } = sandbox.info;
    writeFileSync(path.join(work, 'bench.awb.md'), notebook());
    writeFileSync(
      path.join(work, 'connections.json'),
      JSON.stringify({
        llm: [{ name: 'Bench', baseUrl: llm.baseUrl, keyEnv: 'BENCH_LLM_KEY' }],
        maps: [{ name: 'Bench', baseUrl: maps.baseUrl, keyEnv: 'BENCH_MAPS_KEY' }],
      }),
    );
    writeFileSync(path.join(work, 'bench.http'), httpFile(llm.baseUrl, maps.baseUrl));
    writeFileSync(path.join(work, 'bench.postman_collection.json'), postmanCollection(llm.baseUrl, maps.baseUrl));

    const tools: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv }> = [
      { name: 'ours', args: [OUR_CLI, 'run', 'bench.awb.md', '--connections', 'connections.json'], env: { BENCH_LLM_KEY: LLM_KEY, BENCH_MAPS_KEY: MAPS_KEY } },
      { name: 'httpyac', args: [binOf('httpyac', 'httpyac'), 'send', 'bench.http', '--all'] },
      { name: 'newman', args: [binOf('newman', 'newman'), 'run', 'bench.postman_collection.json', '--reporters', 'cli'] },
      // The floor: a Node process that does nothing, started and measured as the tools are.
      { name: 'node -e 0', args: ['-e', '0'] },
      {
        name: 'ours --sandbox',
        args: [OUR_CLI, 'run', 'bench.awb.md', '--sandbox'],
        env: { SANDBOX_REALTIME_DEMO: '0', SANDBOX_LLM_KEY: LLM_KEY, SANDBOX_MAPS_KEY: MAPS_KEY, SANDBOX_MAPS_QUOTA: '1000000' },
      },
    ];
    const runs = new Map<string, Measured[]>(tools.map((t) => [t.name, []]));
    const deadline = Date.now() + TIME_BUDGET_MS;
    for (let round = 0; round < ROUNDS && Date.now() < deadline; round++) {
      for (const t of tools) {
        const m = await measure(work, t.args, t.env ?? {});
        if (m.code !== 0) throw new Error(`${t.name} exited with ${m.code}:\n${m.output}`);
        runs.get(t.name)?.push(m);
      }
    }
    // Our own output must show the 20 checks held, or the figures compare different work.
    const ours = runs.get('ours') ?? [];
    if (!/20 passed, 0 failed\s*$/.test(ours[0]?.output ?? '')) throw new Error(`our CLI did not pass the 20 cells:\n${ours[0]?.output}`);

    const wall = (name: string) => median((runs.get(name) ?? []).map((m) => m.wallMs));
    const peak = (name: string) => Math.max(...(runs.get(name) ?? []).map((m) => m.peakMiB));
    r.section(`CLI: 20 requests + 20 status checks, whole process (median of ${ours.length} interleaved runs)`);
    r.note('peak memory: getrusage(RUSAGE_SELF).ru_maxrss of each Node process, read at exit via a --require hook');
    if (process.env.NODE_EXTRA_CA_CERTS) r.note('NODE_EXTRA_CA_CERTS is set here and left out of every run (see toolEnv): no run uses TLS');
    for (const t of tools) r.metric(`${t.name}: wall time`, wall(t.name), 'ms');
    r.metric('ours: peak memory (highest of the runs)', peak('ours'), 'MiB', { atMost: 100 });
    r.metric('ours: peak memory (median of the runs)', median((runs.get('ours') ?? []).map((m) => m.peakMiB)), 'MiB');
    r.metric('httpyac: peak memory', peak('httpyac'), 'MiB');
    r.metric('newman: peak memory', peak('newman'), 'MiB');
    r.metric('ours --sandbox: peak memory', peak('ours --sandbox'), 'MiB');
    // 0.35 until issue 39 (we had been at 0.246; `node -e 0` alone is ~0.09).
    r.ratio('wall time, ours ÷ httpyac', wall('ours'), wall('httpyac'), 0.25);
    r.ratio('wall time, ours ÷ newman', wall('ours'), wall('newman'));
    r.ratio('wall time, node -e 0 ÷ httpyac (the floor)', wall('node -e 0'), wall('httpyac'));
    r.ratio('peak memory, ours ÷ httpyac', peak('ours'), peak('httpyac'));
    r.ratio('peak memory, ours ÷ newman', peak('ours'), peak('newman'));
  } finally {
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
