// Record/replay and shards benchmark, against ONE sandbox in its own process:
//   - replaying a notebook of 100 recorded cells (half of them streamed chat answers) in the engine,
//     nothing sent: goal ≤ 1 s for all 100;
//   - what recording adds to a cell: the same cell run with and without a recording cassette,
//     alternated (ABBA); overhead = median(recorded) − median(plain): goal p50 ≤ 2 ms;
//   - `api-workbench run` of 600 jobs (one notebook × 600 data rows: a streamed chat answer each, as
//     an evaluation runs, 8 at a time) in one process vs each of three `--shard i/3` processes: each
//     shard ≤ 40% of the single run's wall time (a third, plus the start of a process).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sandboxConnections } from '../../src/core/connections';
import { setExchangeHook } from '../../src/core/httpExchange';
import { Redactor } from '../../src/core/redact';
import { Cassette, connectionsHost, createRunner, parseNotebook, runNotebook, type CassetteStorage } from '../../src/notebook/api';
import { median, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const LLM_KEY = 'sk-bench-cassette-000000000000000';
const MAPS_KEY = 'AIzaBenchCassette000000000000000';
const CLI = path.resolve(__dirname, '../../../dist/cli.js');

function hundredCells(): string {
  const cells: string[] = ['# replay bench', ''];
  for (let i = 0; i < 100; i++) {
    if (i % 2 === 0)
      cells.push(
        '```llm',
        'POST /chat/completions',
        'Content-Type: application/json',
        '',
        `{"model": "sandbox-chat", "stream": true, "messages": [{"role": "user", "content": "Tell me about city ${i}"}]}`,
        '',
        '?? status == 200',
        '```',
        '',
      );
    else if (i % 4 === 1) cells.push('```llm', 'GET /models', '', '?? status == 200', '```', '');
    else
      cells.push(
        '```maps',
        'POST /v1/places:searchText',
        'X-Goog-FieldMask: places.id,places.displayName',
        'Content-Type: application/json',
        '',
        `{"textQuery": "Springfield ${i}", "pageSize": 3}`,
        '',
        '?? status == 200',
        '```',
        '',
      );
  }
  return cells.join('\n');
}

function memoryStorage(): CassetteStorage & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return { files, read: (n) => files.get(n), write: (n, t) => void files.set(n, t), where: (n) => `memory:${n}` };
}

function runCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; code: number | null; out: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-2000)));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-2000)));
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code, out }));
  });
}

export default async function cassetteBench(r: BenchReporter): Promise<void> {
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--llm-key', LLM_KEY, '--maps-key', MAPS_KEY, '--maps-quota', '1000000000']);
  const work = mkdtempSync(path.join(tmpdir(), 'awb-bench-cassette-'));
  try {
    const { connections, key } = sandboxConnections(sandbox.info);
    const redactor = new Redactor();
    const host = () => connectionsHost({ connections, key, redactor });
    const text = hundredCells();

    r.section('Record and replay (engine in this process, sandbox in its own)');
    const storage = memoryStorage();
    const recorder = new Cassette('record', storage, redactor);
    let unset = setExchangeHook(recorder.hook);
    const live = await recorder.run('bench.awb.md', () => runNotebook(text, { host: host(), file: 'bench.awb.md' }));
    unset();
    recorder.save();
    if (!live.ok) throw new Error('the recorded run failed');
    const replays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const player = new Cassette('replay', storage, redactor);
      unset = setExchangeHook(player.hook);
      const t = performance.now();
      const replayed = await player.run('bench.awb.md', () => runNotebook(text, { host: host(), file: 'bench.awb.md' }));
      replays.push(performance.now() - t);
      unset();
      if (!replayed.ok || player.replayed !== 100) throw new Error(`the replay failed (${player.replayed} replayed)`);
    }
    r.metric('replay 100 recorded cells (50 streamed), median of 5', median(replays), 'ms', { atMost: 1000 });

    // Recording overhead: one streamed chat cell, with and without a recording cassette, alternated.
    const one = parseNotebook(hundredCells().split('```llm').slice(0, 2).join('```llm'), 'one.awb.md');
    const runner = createRunner(one.cells, { host: host(), file: 'one.awb.md' });
    const cell = one.cells.findIndex((c) => c.kind === 'code');
    const plain: number[] = [];
    const recorded: number[] = [];
    const timeCell = async (withTape: boolean) => {
      const tape = new Cassette('record', memoryStorage(), redactor);
      const undo = withTape ? setExchangeHook(tape.hook) : () => undefined;
      const t = performance.now();
      const res = await (withTape ? tape.run('one.awb.md', () => runner.runCell(cell)) : runner.runCell(cell));
      const ms = performance.now() - t;
      undo();
      if (!res.ok) throw new Error('the cell failed');
      return ms;
    };
    for (let i = 0; i < 30; i++) await timeCell(i % 2 === 0);
    for (let i = 0; i < 200; i++) {
      if (i % 2 === 0) {
        plain.push(await timeCell(false));
        recorded.push(await timeCell(true));
      } else {
        recorded.push(await timeCell(true));
        plain.push(await timeCell(false));
      }
    }
    runner.dispose();
    r.metric('streamed chat cell, plain, median of 200', median(plain), 'ms');
    r.metric('streamed chat cell, recording, median of 200', median(recorded), 'ms');
    r.metric('recording overhead per cell (p50)', Math.max(0, median(recorded) - median(plain)), 'ms', { atMost: 2 });

    r.section('Shards: 600 jobs in one run vs each of three --shard i/3 runs (CLI processes)');
    const nb = path.join(work, 'shard.awb.md');
    writeFileSync(
      nb,
      '# shard bench\n\n```llm\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "sandbox-chat", "stream": true, "messages": [{"role": "user", "content": "Row {{n}}"}]}\n\n?? status == 200\n```\n',
    );
    const rows = path.join(work, 'rows.csv');
    writeFileSync(rows, ['n', ...Array.from({ length: 600 }, (_, i) => String(i))].join('\n') + '\n');
    const conns = path.join(work, 'connections.json');
    writeFileSync(conns, JSON.stringify({ llm: [{ name: 'bench', baseUrl: sandbox.info.llm.baseUrl, keyEnv: 'BENCH_LLM_KEY' }] }));
    const env = { BENCH_LLM_KEY: LLM_KEY };
    const base = ['run', nb, '--connections', conns, '--data', rows, '--parallel', '8', '--reporter', 'json', '--out'];
    const single = await runCli([...base, path.join(work, 'all.json')], work, env);
    if (single.code !== 0) throw new Error(`the single run failed: ${single.out}`);
    const shards: number[] = [];
    for (const i of [1, 2, 3]) {
      const s = await runCli([...base, path.join(work, `s${i}.json`), '--shard', `${i}/3`], work, env);
      if (s.code !== 0) throw new Error(`shard ${i} failed: ${s.out}`);
      shards.push(s.ms);
    }
    r.metric('600 jobs, one run', single.ms, 'ms');
    r.metric('slowest of three shards of 200', Math.max(...shards), 'ms');
    r.ratio('slowest shard ÷ single run', Math.max(...shards), single.ms, 0.4);
  } finally {
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
