import * as assert from 'node:assert/strict';
import { NotebookError, substitute, type VariableScope } from '../../../src/notebook/variables';

function scope(vars: Record<string, string>): VariableScope {
  return { file: 'v.awb.md', variables: new Map(Object.entries(vars)), cellNames: new Set(), result: () => undefined };
}

describe('notebook variables: {{name}} substitution', () => {
  it('replaces every reference, and an unknown one names its own line (LF, CRLF and CR breaks)', () => {
    assert.equal(substitute('a {{x}} b {{ y }}', 1, scope({ x: '1', y: '2' })), 'a 1 b 2');
    for (const nl of ['\n', '\r\n', '\r']) {
      const text = ['{{x}}', 'ok {{x}}', '', '{{x}} {{nope}}'].join(nl);
      assert.throws(
        () => substitute(text, 10, scope({ x: '1' })),
        (e: unknown) => e instanceof NotebookError && e.line === 13 && /unknown variable "nope"/.test(e.message),
      );
    }
  });

  it('100k references on 100k lines: each replaced, the last one located, in linear time', () => {
    const n = 100_000;
    const text = Array.from({ length: n }, (_, i) => `line ${i} {{v}}`).join('\n');
    const out = substitute(text, 1, scope({ v: 'x' }));
    assert.equal(out.split('\n').length, n);
    assert.ok(out.endsWith(`line ${n - 1} x`));
    assert.throws(
      () => substitute(`${text}\n{{missing}}`, 1, scope({ v: 'x' })),
      (e: unknown) => e instanceof NotebookError && e.line === n + 1,
    );
  });
});
