// `npm run bench`: every *.bench.js next to this file, each in a fresh child process (so one
// benchmark's heap, JIT state and leftover sockets cannot skew the next), then a summary.
//   node out/test/bench/index.js [name-filter…] [--report-only]
// Exits 1 when a benchmark crashed or a goal was missed, so a slipped goal cannot pass unseen (it did
// once: three misses ended in exit 0); --report-only exits 1 only for a crash (to look at figures while
// working on one of them).
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod/mini';
import { validate } from '../../src/core/validate';
import { BenchReporter, formatNumber, type BenchRecord } from './report';

const RUN_FLAG = '--run-bench';
const TIMEOUT_MS = (Number(process.env.BENCH_TIMEOUT_S) || 600) * 1000;

const goalSchema = z.union([z.object({ atMost: z.number() }), z.object({ atLeast: z.number() })]);
const recordSchema = z.object({
  section: z.string(),
  name: z.string(),
  value: z.number(),
  unit: z.string(),
  ours: z.optional(z.number()),
  reference: z.optional(z.number()),
  goal: z.optional(goalSchema),
  met: z.optional(z.boolean()),
});
const benchModuleSchema = z.object({ default: z.custom<(r: BenchReporter) => Promise<void> | void>((v) => typeof v === 'function') });

/** Child: run one benchmark file's default export, sending each figure to the parent. */
async function runOne(file: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- each benchmark is a built CommonJS file chosen at run time
  const loaded = validate(benchModuleSchema, require(file));
  if (!loaded.ok) throw new Error(`${path.basename(file)} has no default export function (${loaded.problem})`);
  // process.exit() can drop IPC messages still queued, so every send is awaited before the child exits.
  const sent: Promise<void>[] = [];
  const reporter = new BenchReporter(undefined, (r) => {
    sent.push(new Promise<void>((resolve) => process.send?.(r, undefined, undefined, () => resolve()) ?? resolve()));
  });
  await loaded.value.default(reporter);
  await Promise.all(sent);
}

interface BenchResult {
  file: string;
  status: 'ok' | 'crashed' | 'timeout';
  records: BenchRecord[];
  ms: number;
}

function runInChild(file: string): Promise<BenchResult> {
  const started = Date.now();
  const records: BenchRecord[] = [];
  return new Promise((resolve) => {
    const child = fork(__filename, [RUN_FLAG, file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--expose-gc'] });
    child.on('message', (m) => {
      const r = validate(recordSchema, m);
      if (r.ok) records.push(r.value);
    });
    const timer = setTimeout(() => {
      console.error(`\n${path.basename(file)}: still running after ${TIMEOUT_MS / 1000} s, stopping it`);
      child.kill('SIGKILL');
      resolve({ file, status: 'timeout', records, ms: Date.now() - started });
    }, TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ file, status: code === 0 ? 'ok' : 'crashed', records, ms: Date.now() - started });
    });
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const reportOnly = args.includes('--report-only');
  const filters = args.filter((a) => !a.startsWith('--'));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort()
    .map((f) => path.join(__dirname, f));
  if (files.length === 0) {
    console.error(`no *.bench.js in ${__dirname}${filters.length ? ` matching ${filters.join(', ')}` : ''} (build with node esbuild.mjs --production --tests)`);
    return 1;
  }
  const results: BenchResult[] = [];
  for (const file of files) {
    // The machine may be shared: its load when each benchmark starts says how far to trust the times.
    const load = `load ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;
    console.log(`\n━━ ${path.basename(file, '.bench.js')} (${load}) ${'━'.repeat(60)}`);
    results.push(await runInChild(file));
  }

  console.log(`\n━━ summary ${'━'.repeat(60)}`);
  let missed = 0;
  for (const r of results) {
    const goals = r.records.filter((x) => x.goal);
    const miss = goals.filter((x) => !x.met);
    missed += miss.length;
    const status = r.status === 'ok' ? `${goals.length - miss.length}/${goals.length} goals met` : r.status.toUpperCase();
    console.log(`  ${path.basename(r.file, '.bench.js').padEnd(28)} ${status.padEnd(20)} ${(r.ms / 1000).toFixed(1)} s`);
    for (const g of goals) {
      const bound = g.goal && ('atMost' in g.goal ? `≤ ${formatNumber(g.goal.atMost)}` : `≥ ${formatNumber(g.goal.atLeast)}`);
      console.log(`      ${g.met ? 'pass' : 'MISS'}  ${g.name}: ${formatNumber(g.value)}${g.unit === '×' ? '×' : ` ${g.unit}`} (goal ${bound})`);
    }
  }
  const crashed = results.filter((r) => r.status !== 'ok').length;
  console.log(`\n${results.length} benchmark(s), ${crashed} crashed, ${missed} goal(s) missed`);
  return crashed > 0 || (!reportOnly && missed > 0) ? 1 : 0;
}

if (process.argv[2] === RUN_FLAG) {
  runOne(process.argv[3]).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exit(1);
    },
  );
} else {
  void main().then((code) => process.exit(code));
}
