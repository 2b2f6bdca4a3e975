// Every user-written pattern runs on a linear-time engine (src/core/userPattern.ts). Before, a
// notebook check `matches /(a+)+$/` against "aaaa…!" never returned (the CLI ignored --timeout and
// Ctrl-C), and the Inspector's `.*error.*` filter took seconds over 10k messages.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileUserPattern, parseSlashPattern, PatternError } from '../../../src/core/userPattern';
import { checkAssertion } from '../../../src/notebook/assertions';
import { parseNotebook } from '../../../src/notebook/api';
import { InspectorStore } from '../../../src/services/realtime/inspectorStore';
import { checkSchema } from '../../../src/services/llm/jsonSchema';

describe('user-written patterns are bounded', () => {
  it('catastrophic patterns finish on long input (they never returned with JavaScript RegExp)', () => {
    const evil = `${'a'.repeat(100_000)}!`;
    assert.equal(compileUserPattern('(a+)+$').test(evil), false);
    assert.equal(compileUserPattern('(a|aa)+$').test(evil), false);
    assert.equal(compileUserPattern('^(\\w+\\s?)*$').test(`${'word '.repeat(20_000)}!`), false);
    assert.equal(compileUserPattern('.*error.*', 'i').test(`${'x'.repeat(1_000_000)} ERROR`), true);
  });

  it('backreferences and lookaround are refused with a message naming the pattern', () => {
    for (const src of ['(a)\\1', '(?=a)b', '(?!a)b', '(?<=a)b']) {
      assert.throws(
        () => compileUserPattern(src),
        (e: unknown) => e instanceof PatternError && e.message.startsWith(`/${src}/ cannot be used`) && /backreferences and lookaround/.test(e.message),
      );
    }
    assert.throws(() => compileUserPattern('(a'), /\/\(a\/ cannot be used: missing closing \)/);
    assert.throws(() => compileUserPattern('a', 'x'), /unknown flag x/);
  });

  it('answers as JavaScript RegExp does for the patterns people write (property)', () => {
    const patterns = [
      'error',
      '.*error.*',
      '^ok',
      'done$',
      '"status":"ship+ed"',
      '[0-9]{3}-[0-9]{4}',
      'a.c',
      '(foo|bar)baz',
      '\\d+\\.\\d+',
      'x*',
      '.*',
      '\\.*$',
      'é+',
    ];
    const alphabet = fc.constantFrom('a', 'b', 'c', 'e', 'r', 'o', 'x', '.', '1', '2', '3', '-', '"', ':', 's', 't', 'é', '\n', ' ');
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.constantFrom('', 'i', 'm', 's'), fc.array(alphabet, { maxLength: 40 }), (src, flags, chars) => {
        const text = chars.join('') + (chars.length % 3 === 0 ? 'error' : '');
        assert.equal(compileUserPattern(src, flags).test(text), new RegExp(src, flags).test(text), `/${src}/${flags} on ${JSON.stringify(text)}`);
      }),
      { numRuns: 2_000 },
    );
  });

  it('parses /re/flags as checks write them', () => {
    assert.deepEqual(parseSlashPattern('/a\\/b/i'), { source: 'a\\/b', flags: 'i' });
    assert.equal(parseSlashPattern('abc'), undefined);
  });

  it('a notebook check: a refused pattern is marked at its line; one made by {{variables}} fails saying why', () => {
    const nb = parseNotebook('# t\n\n```llm\nGET /v1/models\n?? text matches /(a)\\1/\n```\n', 'x.awb.md');
    assert.equal(nb.problems.length, 1);
    assert.equal(nb.problems[0].line, 5);
    assert.match(nb.problems[0].message, /cannot be used: backreferences/);
    const spec = { source: '?? text matches {{p}}', line: 5, subject: { kind: 'text' as const }, operator: 'matches' as const, value: '{{p}}' };
    const r = checkAssertion(spec, '/(?=a)b/', { response: { text: 'ab' } as never });
    assert.equal(r.passed, false);
    assert.match(r.expected, /\/\(\?=a\)b\/ cannot be used/);
    const slow = checkAssertion({ ...spec, value: '/(a+)+$/' }, '/(a+)+$/', { response: { text: `${'a'.repeat(50_000)}!` } as never });
    assert.equal(slow.passed, false);
  });

  it("the Realtime Inspector's filter uses it: a catastrophic pattern filters, a backreference is refused", () => {
    const store = new InspectorStore(1_000);
    assert.deepEqual(store.setFilter({ channel: '', event: '', regex: '(a+)+$' }), { ok: true });
    const refused = store.setFilter({ channel: '', event: '', regex: '(a)\\1' });
    assert.equal(refused.ok, false);
    // A large pattern and a message too long for it to search in bounded time: filtered out, the stream goes on.
    assert.deepEqual(store.setFilter({ channel: '', event: '', regex: '[ab]{1,1000}[ab]{1,1000}c' }), { ok: true });
    store.add({ connection: 'c', channel: 'orders', event: 'update', data: `${'ab'.repeat(10_000)}c` });
    store.add({ connection: 'c', channel: 'orders', event: 'update', data: 'abc' });
    assert.equal(store.counts().shown, 1);
  });

  // Issue 37, item 11: RE2 is linear in the text, but also in the program, and counted repetitions
  // are written out: sixty `[ab]{1,1000}` and a `c` (a 120,000-instruction program) took 1 s to
  // compile and 73 s to search a 4 KB answer, past --timeout and Ctrl-C.
  const flat = `${'[ab]{1,1000}'.repeat(60)}c`;
  const answer4k = `${'ab'.repeat(2_000)}xc`;

  it('a pattern whose counted repetitions expand too far is refused at once, saying so', () => {
    const started = performance.now();
    assert.throws(
      () => compileUserPattern(flat),
      (e: unknown) =>
        e instanceof PatternError && /pattern too large: its counted repetitions expand to 119,9\d\d instructions \(limit 5,000\)/.test(e.message),
    );
    assert.ok(performance.now() - started < 500, `refused in ${Math.round(performance.now() - started)} ms`);
    // Nested counts multiply; {n,} and * cost their body once or n times, as RE2 compiles them.
    assert.throws(() => compileUserPattern('(x{1,100}){1,10}'.repeat(3)), /expand to 6,057 instructions/);
    assert.doesNotThrow(() => compileUserPattern('.{0,1000}"id":[^,]{1,1000}').test(answer4k));
    assert.doesNotThrow(() => compileUserPattern('a{2,}b*(?i:c)+\\Q{1,9999}\\E[{}]{3}x{1,'));
  });

  it('a large pattern against a long answer is refused before searching; ordinary patterns search megabytes', () => {
    const big = compileUserPattern('[ab]{1,1000}[ab]{1,1000}c');
    assert.equal(big.test(`${'ab'.repeat(2_000)}c`), true);
    const long = `${'ab'.repeat(500_000)}xc`;
    const started = performance.now();
    assert.throws(
      () => big.test(long),
      /searching 1,000,002 characters with a pattern of 3,999 instructions could take .* steps \(limit 40,000,000\); check a smaller part/,
    );
    assert.ok(performance.now() - started < 500);
    const json = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i.toString(16).padStart(32, '0'), status: 'shipped' })));
    const t0 = performance.now();
    assert.equal(compileUserPattern('"id":"[0-9a-f]{32}","status":"error"').test(json), false);
    assert.equal(compileUserPattern('"status":"(error|fail(ed)?)"', 'i').test(json), false);
    assert.equal(compileUserPattern('[a-z]{1,100}q').test(json), false);
    assert.ok(performance.now() - t0 < 1_000, `ordinary patterns over ${json.length} characters took ${Math.round(performance.now() - t0)} ms`);
  });

  it('a notebook check with that pattern is marked at its line; made by {{variables}} it fails saying why, at once', () => {
    const nb = parseNotebook(`# t\n\n\`\`\`llm\nGET /v1/models\n?? text matches /${flat}/\n\`\`\`\n`, 'x.awb.md');
    assert.equal(nb.problems.length, 1);
    assert.equal(nb.problems[0].line, 5);
    assert.match(nb.problems[0].message, /pattern too large/);
    const spec = { source: '?? text matches {{p}}', line: 5, subject: { kind: 'text' as const }, operator: 'matches' as const, value: '{{p}}' };
    const started = performance.now();
    const r = checkAssertion(spec, `/${flat}/`, { response: { text: answer4k } as never });
    assert.equal(r.passed, false);
    assert.match(r.expected, /pattern too large/);
    assert.ok(performance.now() - started < 500);
  });

  it('a JSON Schema pattern too large for a long string reports a problem instead of throwing', async () => {
    const check = await checkSchema(JSON.stringify({ type: 'string', pattern: '[ab]{1,1000}[ab]{1,1000}c' }));
    assert.ok(check.ok);
    assert.deepEqual(check.validate('abc'), []);
    const problems = check.validate(`${'ab'.repeat(10_000)}c`);
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /searching 20,001 characters with a pattern of 3,999 instructions/);
  });
});
