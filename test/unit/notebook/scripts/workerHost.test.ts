import * as assert from 'node:assert/strict';
import type { ScriptInput } from '../../../../src/notebook/scripts/model';
import { ScriptWorkerEngine } from '../../../../src/notebook/scripts/workerHost';

const input: ScriptInput = {
  phase: 'post',
  requestName: 'login',
  variables: {},
  request: { method: 'GET', url: 'https://api.example.com/items', headers: [] },
  response: { code: 200, headers: [], body: '{}', responseTime: 1, size: 2 },
};

describe('script engine thread: native operations are bounded too', function () {
  this.timeout(60_000);
  let engine: ScriptWorkerEngine;
  beforeEach(() => (engine = new ScriptWorkerEngine()));
  afterEach(() => engine.dispose());

  const bombs = [
    // Each step is one long native operation, where QuickJS's interrupt handler never runs.
    ['a loop pushing 1 MB strings', 'const a = []; while (1) a.push("x".repeat(1 << 20));'],
    ['an ArrayBuffer bomb', 'const a = []; while (1) a.push(new ArrayBuffer(1 << 20));'],
  ] as const;
  for (const [what, source] of bombs) {
    it(`stops ${what} within seconds and runs the next script`, async () => {
      const started = performance.now();
      const run = await engine.run(source, input);
      const took = performance.now() - started;
      assert.match(run.failure?.limit ?? '', /^(time|memory)$/, JSON.stringify(run.failure));
      assert.ok(took < 5000, `${what} took ${Math.round(took)} ms`);
      const next = await engine.run('pm.test("still runs", () => pm.expect(1).to.equal(1));', input);
      assert.deepEqual(
        next.output?.tests.map((t) => [t.name, t.passed]),
        [['still runs', true]],
      );
    });
  }

  it('a warmed engine runs each cell in a context of its own: no global, function or prototype change crosses', async () => {
    engine.warm();
    const first = await engine.run(
      'leaked = "implicit"; var declared = 1; function helper() { return 2; } globalThis.token = "t"; Object.prototype.polluted = 3; Array.prototype.last = function () {}; pm.test = () => {};',
      input,
    );
    assert.equal(first.failure, undefined, JSON.stringify(first.failure));
    const next = await engine.run(
      `pm.test("clean", () => {
        pm.expect([typeof leaked, typeof declared, typeof helper, typeof token, typeof ({}).polluted, typeof [].last]).to.eql(Array(6).fill("undefined"));
      });`,
      input,
    );
    assert.deepEqual(
      next.output?.tests.map((t) => [t.name, t.passed, t.message]),
      [['clean', true, undefined]],
    );
  });

  it('an endless loop ends at the time limit; the libraries a script loads are not its time', async () => {
    const run = await engine.run('for (;;) require("lodash");', input);
    assert.equal(run.failure?.limit, 'time', JSON.stringify(run.failure));
    const lodash = await engine.run('const _ = require("lodash"); pm.test("chunk", () => pm.expect(_.chunk([1, 2, 3], 2)).to.eql([[1, 2], [3]]));', input);
    assert.equal(lodash.output?.tests[0].passed, true, JSON.stringify(lodash));
  });
});
