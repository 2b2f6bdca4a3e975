// Collection scripts (issue 40): the engine's cost as a run sees it, through the script thread the
// editor and the CLI use (src/notebook/scripts/workerHost.ts). Goals from the issue:
//   a warm cell with a pre-request and a test script: p50 ≤ 2 ms;
//   the first script of a run, the engine's load included: ≤ 60 ms;
//   1,000 cells each with a test script: ≤ 3 s of script time in all.
// A reference measured in the same run (a fixed piece of plain JavaScript work) shows how loaded
// the machine was: compare the figures against it, not against another day's.
import type { ScriptInput } from '../../src/notebook/scripts/model';
import { ScriptWorkerEngine } from '../../src/notebook/scripts/workerHost';
import { median, percentile, type BenchReporter } from './report';

const WARM_CELLS = 200;
const MANY_CELLS = 1000;

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

export default async function scriptsBench(r: BenchReporter): Promise<void> {
  r.section('Collection scripts');
  const refs: number[] = [referenceMs()];

  const firstEngine = new ScriptWorkerEngine();
  let t0 = performance.now();
  const first = await firstEngine.run(TEST_SCRIPT, post);
  const firstMs = performance.now() - t0;
  if (first.failure) throw new Error(`the first script failed: ${first.failure.message}`);
  firstEngine.dispose();
  r.metric('first script of a run, engine load included', firstMs, ' ms', { atMost: 60 });

  const engine = new ScriptWorkerEngine();
  for (let i = 0; i < 20; i++) await engine.run(TEST_SCRIPT, post);
  const cells: number[] = [];
  for (let i = 0; i < WARM_CELLS; i++) {
    t0 = performance.now();
    await engine.run(PRE_SCRIPT, pre);
    await engine.run(TEST_SCRIPT, post);
    cells.push(performance.now() - t0);
  }
  refs.push(referenceMs());
  r.metric('warm cell, pre-request + test script, p50', percentile(cells, 50), ' ms', { atMost: 2 });
  r.metric('warm cell, pre-request + test script, p95', percentile(cells, 95), ' ms');

  t0 = performance.now();
  for (let i = 0; i < MANY_CELLS; i++) await engine.run(TEST_SCRIPT, post);
  r.metric(`${MANY_CELLS.toLocaleString('en')} cells each with a test script, script time`, (performance.now() - t0) / 1000, ' s', { atMost: 3 });
  engine.dispose();
  refs.push(referenceMs());
  r.metric('reference: 20 JSON round trips of 2,000 items (machine load)', median(refs), ' ms');
}
