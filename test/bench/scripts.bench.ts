// Collection scripts (issue 40): the engine's cost as a run sees it, through the script thread the
// editor and the CLI use (src/notebook/scripts/workerHost.ts), in cells that send their request to
// the sandbox (in its own process) between the pre-request and the test script, as a run does: the
// engine makes the next script's context while the request is out. Goals from the issue:
//   a warm cell with a pre-request and a test script: p50 ≤ 2 ms of script time;
//   the first script of a run, the engine's load included: ≤ 60 ms;
//   1,000 cells each with a test script: ≤ 3 s of script time in all.
// Also shown, without goals: scripts back to back with no request between (each pays for making
// its context), and the first script when the thread starts with it (cold).
// A reference measured in the same run (a fixed piece of plain JavaScript work) shows how loaded
// the machine was: compare the figures against it, not against another day's.
import type { ScriptInput } from '../../src/notebook/scripts/model';
import { ScriptWorkerEngine } from '../../src/notebook/scripts/workerHost';
import { median, percentile, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const WARM_CELLS = 200;
const MANY_CELLS = 1000;
const LLM_KEY = 'sk-bench-scripts-00000000000000000';
/** How long the editor has the notebook open before its first run, at least (the engine loads meanwhile). */
const OPEN_BEFORE_RUN_MS = 1000;

const body = JSON.stringify({ token: 't-1', user: { id: 7, name: 'Ada' }, items: [1, 2, 3] });
const pre: ScriptInput = {
  phase: 'pre',
  requestName: 'login',
  variables: { city: 'Lisbon' },
  request: { method: 'POST', url: 'https://api.example.com/login', headers: [{ key: 'Accept', value: 'application/json' }], body: '{}' },
};
const post: ScriptInput = {
  ...pre,
  phase: 'post',
  response: { code: 200, headers: [{ key: 'Content-Type', value: 'application/json' }], body, responseTime: 12, size: body.length },
};
const PRE_SCRIPT = 'pm.request.headers.add({ key: "X-Trace", value: pm.variables.get("city") });';
const TEST_SCRIPT = `pm.test("ok", () => { pm.response.to.have.status(200); pm.expect(pm.response.json().user.name).to.equal("Ada"); });
pm.environment.set("token", pm.response.json().token);`;

/** A fixed piece of plain JavaScript (JSON round trips), timed as the machine's load reference. */
function referenceMs(): number {
  const text = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ i, name: `item ${i}`, tags: ['a', 'b'] })));
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) JSON.stringify(JSON.parse(text));
  return performance.now() - t0;
}

async function timed(engine: ScriptWorkerEngine, source: string, input: ScriptInput): Promise<number> {
  const t0 = performance.now();
  const run = await engine.run(source, input);
  if (run.failure) throw new Error(`the bench's script failed: ${run.failure.message}`);
  return performance.now() - t0;
}

export default async function scriptsBench(r: BenchReporter): Promise<void> {
  r.section('Collection scripts');
  const refs: number[] = [referenceMs()];
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--llm-key', LLM_KEY]);
  try {
    const request = async () => {
      const res = await fetch(`${sandbox.info.llm.baseUrl}/models`, { headers: { Authorization: `Bearer ${LLM_KEY}` } });
      await res.text();
      if (!res.ok) throw new Error(`the sandbox answered ${res.status}`);
    };
    await request();

    // The editor: the runner warms the engine when the notebook opens; Run comes later.
    const opened = new ScriptWorkerEngine();
    opened.warm();
    await new Promise((resolve) => setTimeout(resolve, OPEN_BEFORE_RUN_MS));
    r.metric('first script of a run, the engine loaded when the notebook opened', await timed(opened, TEST_SCRIPT, post), ' ms', { atMost: 60 });
    opened.dispose();

    const cold = new ScriptWorkerEngine();
    r.metric('first script, the thread started with it (cold: thread start + engine load)', await timed(cold, TEST_SCRIPT, post), ' ms');
    cold.dispose();

    const engine = new ScriptWorkerEngine();
    engine.warm();
    for (let i = 0; i < 20; i++) await timed(engine, TEST_SCRIPT, post);
    const cells: number[] = [];
    const backToBack: number[] = [];
    for (let i = 0; i < WARM_CELLS; i++) {
      const preMs = await timed(engine, PRE_SCRIPT, pre);
      await request();
      cells.push(preMs + (await timed(engine, TEST_SCRIPT, post)));
      backToBack.push((await timed(engine, PRE_SCRIPT, pre)) + (await timed(engine, TEST_SCRIPT, post)));
    }
    refs.push(referenceMs());
    r.metric('warm cell, pre-request + test script, script time p50', percentile(cells, 50), ' ms', { atMost: 2 });
    r.metric('warm cell, pre-request + test script, script time p95', percentile(cells, 95), ' ms');
    r.metric('the same two scripts back to back, no request between, p50', percentile(backToBack, 50), ' ms');

    let scriptMs = 0;
    for (let i = 0; i < MANY_CELLS; i++) {
      await request();
      scriptMs += await timed(engine, TEST_SCRIPT, post);
    }
    r.metric(`${MANY_CELLS.toLocaleString('en')} cells against the sandbox, each with a test script: script time`, scriptMs / 1000, ' s', { atMost: 3 });
    engine.dispose();
    refs.push(referenceMs());
    r.metric('reference: 20 JSON round trips of 2,000 items (machine load)', median(refs), ' ms');
  } finally {
    await sandbox.stop();
  }
}
