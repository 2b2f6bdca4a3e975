// `npm run bench` (test/bench/index.ts) must fail when a goal is missed: three missed goals once
// ended "0 crashed, 3 goal(s) missed" with exit 0 and nobody saw them (issue 39). The built runner
// is copied beside a benchmark that misses its goal, and run as `npm run bench` runs it.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const RUNNER = path.resolve(__dirname, '../../bench/index.js');

describe('bench runner', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    if (!existsSync(RUNNER)) this.skip();
    // Inside out/, so the runner's packages (left external in test builds) resolve from node_modules.
    dir = mkdtempSync(path.join(path.dirname(path.dirname(RUNNER)), 'bench-runner-'));
    copyFileSync(RUNNER, path.join(dir, 'index.js'));
    writeFileSync(
      path.join(dir, 'slow.bench.js'),
      "exports.default = (r) => { r.section('demo'); r.metric('a figure over its goal', 30, 'ms', { atMost: 12 }); r.metric('a figure within', 5, 'ms', { atMost: 12 }); };",
    );
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  const run = (...args: string[]) => spawnSync(process.execPath, [path.join(dir, 'index.js'), ...args], { encoding: 'utf8', timeout: 50_000 });

  it('exits 1 when a goal is missed, printing each figure with its goal and the count last', () => {
    const r = run();
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /MISS {2}a figure over its goal: 30\.0 ms \(goal ≤ 12\.0\)/);
    assert.match(r.stdout, /pass {2}a figure within: 5\.00 ms \(goal ≤ 12\.0\)/);
    assert.equal(r.stdout.trimEnd().split('\n').pop(), '1 benchmark(s), 0 crashed, 1 goal(s) missed');
  });

  it('--report-only prints the same and exits 0 (for looking at figures while working on one)', () => {
    const r = run('--report-only');
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.trimEnd().split('\n').pop(), '1 benchmark(s), 0 crashed, 1 goal(s) missed');
  });
});
