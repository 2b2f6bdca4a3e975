// Every user-written pattern runs on a linear-time engine (src/core/userPattern.ts). Before, a
// notebook check `matches /(a+)+$/` against "aaaa…!" never returned (the CLI ignored --timeout and
// Ctrl-C), and the Inspector's `.*error.*` filter took seconds over 10k messages.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileUserPattern, parseSlashPattern, PatternError } from '../../../src/core/userPattern';
import { checkAssertion } from '../../../src/notebook/assertions';
import { parseNotebook } from '../../../src/notebook/api';
import { InspectorStore } from '../../../src/services/realtime/inspectorStore';

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
  });
});
