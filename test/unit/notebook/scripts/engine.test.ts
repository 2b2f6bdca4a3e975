import * as assert from 'node:assert/strict';
import { ScriptEngine } from '../../../../src/notebook/scripts/engine';
import type { ScriptInput } from '../../../../src/notebook/scripts/model';

const input = (over: Partial<ScriptInput> = {}): ScriptInput => ({
  phase: 'post',
  requestName: 'login',
  variables: { city: 'Lisbon' },
  request: { method: 'GET', url: 'https://api.example.com/items', headers: [] },
  response: { code: 200, headers: [{ key: 'Content-Type', value: 'application/json' }], body: '{"token":"t-1"}', responseTime: 12, size: 15 },
  ...over,
});

describe('script engine: QuickJS, bounded and isolated', function () {
  this.timeout(60_000);
  let engine: ScriptEngine;
  before(async () => (engine = await ScriptEngine.create()));
  after(() => engine.dispose());

  const runs = [
    ['an endless loop', 'while (true) {}', 'time'],
    ['an endless loop that catches', 'for (;;) { try { while (true) {} } catch (e) {} }', 'time'],
    ['a bomb of small objects', 'const a = []; while (true) a.push({ i: a.length, s: "x" + a.length });', /^(memory|time)$/],
    ['a doubling string', 'let s = "x"; while (true) s += s;', 'memory'],
    ['deep recursion', 'function f(n) { return f(n + 1) + 1; } f(0);', 'stack'],
    ['a huge log', 'const line = Array(10001).join("y"); for (;;) console.log(line);', 'log'],
  ] as const;
  for (const [what, source, limit] of runs) {
    it(`stops ${what} at its limit (${limit}) and runs the next script`, () => {
      const run = engine.run(source, input());
      if (typeof limit === 'string') assert.equal(run.failure?.limit, limit, JSON.stringify(run.failure));
      else assert.match(run.failure?.limit ?? '', limit, JSON.stringify(run.failure));
      assert.ok(run.durationMs < 5000, `${what} took ${run.durationMs} ms`);
      const next = engine.run('pm.test("still runs", () => pm.expect(1).to.equal(1));', input());
      assert.equal(next.failure, undefined);
      assert.deepEqual(
        next.output?.tests.map((t) => [t.name, t.passed]),
        [['still runs', true]],
      );
    });
  }

  it('a huge log keeps at most the log limit', () => {
    const run = engine.run('for (;;) console.log("z".repeat(1000));', input());
    const bytes = run.logs.reduce((n, l) => n + l.length + 1, 0);
    assert.ok(bytes <= engine.limits.logBytes, `${bytes} bytes kept`);
  });

  const escapes = [
    'this.constructor.constructor("return process")()',
    'Function("return process")()',
    '(() => {}).constructor("return typeof process")()',
    'globalThis.constructor.constructor("return globalThis.process")()',
    'console.log.constructor("return process")()',
    'require("fs")',
    'require("child_process")',
    'pm.constructor.constructor("return this")().process',
    '[].constructor.constructor("return typeof module")()',
  ];
  for (const source of escapes) {
    it(`finds nothing of the host: ${source}`, () => {
      const run = engine.run(`const found = ${source}; pm.test("reached", () => pm.expect(found === undefined || found === "undefined").to.be.true);`, input());
      const reached = run.output?.tests[0];
      // Either the script fails (ReferenceError: process is not defined) or what it found is nothing.
      if (run.failure) assert.match(run.failure.message, /not defined|not a function|cannot read/i);
      else assert.equal(reached?.passed, true, JSON.stringify(run));
    });
  }

  it('sees no Node globals at all', () => {
    const run = engine.run(
      'pm.test("none", () => { pm.expect([typeof process, typeof Buffer, typeof module, typeof __dirname, typeof fetch, typeof XMLHttpRequest]).to.eql(Array(6).fill("undefined")); });',
      input(),
    );
    assert.equal(run.output?.tests[0].passed, true, JSON.stringify(run.output));
  });

  it('a script that throws names its line; what it recorded before stays', () => {
    const run = engine.run('pm.test("first", () => {});\n\nnull.x;', input());
    assert.equal(run.failure?.line, 3);
    assert.match(run.failure?.message ?? '', /TypeError/);
    assert.equal(run.output?.tests.length, 1);
  });

  it('each script has a fresh context: nothing carries over', () => {
    engine.run('globalThis.leak = 1; Object.prototype.polluted = 2;', input());
    const run = engine.run('pm.test("clean", () => { pm.expect(typeof leak).to.equal("undefined"); pm.expect(({}).polluted).to.equal(undefined); });', input());
    assert.equal(run.output?.tests[0].passed, true, JSON.stringify(run.output));
  });
});
