// The prelude (pm, client, expect…) is compiled once per run in a realm of its own that every script
// reaches through its objects' prototypes (engine.ts, prelude.ts): what a script does there, or to
// its own built-ins, must not reach the next script; and what a script reads as data is of its own
// realm, as when each script had the whole prelude in its context.
import * as assert from 'node:assert/strict';
import { ScriptEngine, type ScriptRun } from '../../../../src/notebook/scripts/engine';
import type { ScriptInput } from '../../../../src/notebook/scripts/model';

const input = (over: Partial<ScriptInput> = {}): ScriptInput => ({
  phase: 'post',
  requestName: 'login',
  variables: { city: 'Lisbon' },
  request: { method: 'GET', url: 'https://api.example.com/items?page=1', headers: [{ key: 'Accept', value: 'application/json' }] },
  response: { code: 200, headers: [{ key: 'Content-Type', value: 'application/json' }], body: '{"token":"t-1","items":[1,2]}', responseTime: 12, size: 29 },
  ...over,
});

/** A script that checks the prelude works as it should: run after each tampering script. */
const CHECK = `
pm.test("expect", () => { pm.expect(1).to.equal(1); pm.expect({ a: [1] }).to.eql({ a: [1] }); pm.expect("abc").to.include("b"); });
pm.test("expect fails", () => pm.expect(1).to.equal(2));
pm.test("response", () => { pm.response.to.have.status(200); pm.response.to.have.header("Content-Type"); pm.expect(pm.response.json().items).to.eql([1, 2]); });
pm.test("request", () => { pm.expect(pm.request.headers.get("accept")).to.equal("application/json"); pm.expect(pm.request.url.toString()).to.equal("https://api.example.com/items?page=1"); });
pm.test("variables", () => pm.expect(pm.variables.get("city")).to.equal("Lisbon"));
pm.test("clean", () => {
  const realm = pm.constructor.constructor("return this")();
  pm.expect([typeof realm.leak, typeof ({}).leak, typeof [].leak, typeof Object.getPrototypeOf(pm).leak, typeof realm.JSON.leak, typeof leak]).to.eql(Array(6).fill("undefined"));
  pm.expect(pm.constructor.constructor("try { return typeof leakedLet; } catch (e) { return 'none'; }")()).to.be.oneOf(["undefined", "none"]);
});
pm.environment.set("token", pm.response.json().token);
console.log("logged", { a: 1 });
`;

function assertClean(run: ScriptRun, after: string): void {
  assert.equal(run.failure, undefined, `${after}: ${JSON.stringify(run.failure)}`);
  assert.deepEqual(
    run.output?.tests.map((t) => [t.name, t.passed]),
    [
      ['expect', true],
      ['expect fails', false],
      ['response', true],
      ['request', true],
      ['variables', true],
      ['clean', true],
    ],
    `${after}: ${JSON.stringify(run.output?.tests)}`,
  );
  assert.equal(run.output?.tests[1].message, 'expected 1 to equal 2', after);
  assert.deepEqual(run.output?.variables, { token: 't-1' }, after);
  assert.deepEqual(run.logs, ['logged {"a":1}'], after);
}

describe('scripts share the prelude, never state', function () {
  this.timeout(60_000);
  let engine: ScriptEngine;
  // An engine per test: what one test's scripts might leave behind stays out of the others.
  beforeEach(async () => (engine = await ScriptEngine.create()));
  afterEach(() => engine.dispose());

  // Each line is tried on its own: the prelude's realm is frozen, so an attempt may throw or do nothing.
  const tamperings = {
    "the prelude's objects (pm.expect's chains, header lists, URL, pm.response.to)": [
      'Object.getPrototypeOf(pm.expect(1)).equal = function () { return this; }',
      'Object.defineProperty(Object.getPrototypeOf(pm.expect(1)), "eql", { value: function () { return this; } })',
      'delete Object.getPrototypeOf(pm.expect(1)).include',
      'pm.expect.fail = null',
      'Object.getPrototypeOf(pm.request.headers).get = function () { return "forged"; }',
      'Object.getPrototypeOf(pm.request.url).toString = function () { return "forged"; }',
      'Object.getPrototypeOf(pm.response.to).status = function () { return this; }',
      'Object.setPrototypeOf(Object.getPrototypeOf(pm.expect(1)), null)',
    ],
    "the prelude realm's built-ins and global object": [
      'Object.getPrototypeOf(pm).leak = 1',
      'Object.getPrototypeOf(pm).hasOwnProperty = function () { return false; }',
      'Object.getPrototypeOf(pm.request.headers.all()).push = function () { return 0; }',
      'Object.getPrototypeOf(pm.request.headers.all()).leak = 1',
      'pm.constructor.constructor("return this")().leak = 1',
      'pm.constructor.constructor("return JSON")().stringify = function () { return "{}"; }',
      'pm.constructor.constructor("return JSON")().leak = 1',
      'pm.constructor.constructor("return this")().Object = null',
      'pm.constructor.constructor("return String.prototype")().replace = function () { return ""; }',
      'pm.constructor.constructor("return Function.prototype")().call = null',
      'pm.constructor.constructor("Object.freeze = null; RegExp.prototype.exec = function () { return null; }")()',
      'pm.constructor.constructor("return eval")()("var leak = 1; let leakedLet = 1")',
      'pm.constructor.constructor("eval(\'var leak = 1; let leakedLet = 1\')")()',
      'pm.constructor.constructor("return Object.getPrototypeOf(function* () {})")().leak = 1',
      'pm.constructor.constructor("return Object.getPrototypeOf([][Symbol.iterator]())")().next = function () { return { done: true }; }',
    ],
    "the script's own built-ins, globals and API objects": [
      'Array.prototype.leak = 1; Object.prototype.leak = 2; JSON.leak = 3',
      'JSON.parse = function () { return {}; }; JSON.stringify = function () { return "{}"; }',
      'Array.prototype.push = function () { return 0; }; Array.prototype.map = null',
      'globalThis.leak = 1; leakImplicit = 2',
      '(0, eval)("let leakedLet = 1; var leak = 2")',
      'pm.expect = function () { return { to: { equal: function () {} } }; }; pm.test = function () {}',
      'pm.response.to = null; pm.request.headers = null; console.log = null',
      'Object.freeze(Object.prototype); Object.preventExtensions(globalThis)',
    ],
  };
  for (const [what, lines] of Object.entries(tamperings)) {
    it(`a script that changes ${what} leaves the next script as it was`, () => {
      assertClean(engine.run(CHECK, input()), 'before');
      for (const line of lines) {
        const tampering = engine.run(`try { ${line}; } catch (e) {}`, input());
        assert.equal(tampering.failure?.limit, undefined, `${line}: ${JSON.stringify(tampering.failure)}`);
        assertClean(engine.run(CHECK, input()), line);
      }
    });
  }

  it('the rehearsal run when the engine warms leaves nothing for the first script', () => {
    engine.rehearse();
    assertClean(engine.run(CHECK, input()), 'after the rehearsal');
  });

  it("a script's global object holds none of the engine's own names, and its results are still read", () => {
    const run = engine.run(
      'pm.test("own names", () => pm.expect(Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__awb"))).to.eql([]));',
      input(),
    );
    assert.equal(run.failure, undefined, JSON.stringify(run.failure));
    assert.deepEqual(
      run.output?.tests.map((t) => [t.name, t.passed, t.message]),
      [['own names', true, undefined]],
    );
  });

  it('what a script reads as data is of its own realm: instanceof, its prototypes, its Error', () => {
    const run = engine.run(
      `
      const j = pm.response.json();
      pm.test("json", () => pm.expect([j instanceof Object, j.items instanceof Array, Object.getPrototypeOf(j) === Object.prototype]).to.eql([true, true, true]));
      pm.test("toObject", () => { const o = pm.environment.toObject(); pm.expect(o instanceof Object).to.equal(true); pm.expect(o).to.eql({ city: "Lisbon" }); });
      pm.test("headers", () => pm.expect(pm.response.headers.toObject()).to.eql({ "Content-Type": "application/json" }));
      pm.test("client body", () => pm.expect(response.body instanceof Object).to.equal(true));
      let caught;
      try { pm.expect(1).to.equal(2); } catch (e) { caught = e; }
      pm.test("assertion error", () => { pm.expect(caught instanceof Error).to.equal(true); pm.expect(caught.name).to.equal("AssertionError"); });
      pm.test("kinds", () => { pm.expect(new Date(0)).to.be.a("date"); pm.expect(/a/).to.be.a("regexp"); pm.expect(new TypeError("t")).to.be.an("error"); pm.expect(new Date(5)).to.eql(new Date(5)); });
      pm.test("throw", () => { pm.expect(() => { throw new TypeError("bad"); }).to.throw(TypeError); pm.expect(() => JSON.parse("{")).to.throw(SyntaxError); pm.expect(() => atob("*")).to.throw(Error); });
      pm.test("names of Object.prototype's properties", () => {
        pm.variables.set("constructor", "c"); pm.variables.set("toString", "t");
        pm.expect([pm.variables.get("constructor"), pm.variables.get("toString"), pm.variables.get("valueOf")]).to.eql(["c", "t", undefined]);
      });
      tests["toString"] = true;
      console.log(new Error("boom"));
      `,
      input(),
    );
    assert.equal(run.failure, undefined, JSON.stringify(run.failure));
    for (const t of run.output!.tests) assert.equal(t.passed, true, JSON.stringify(t));
    assert.ok(run.output!.tests.some((t) => t.name === 'toString'));
    assert.deepEqual(run.output!.variables, { constructor: 'c', toString: 't' });
    assert.deepEqual(run.logs, ['Error: boom']);
  });
});
