import * as assert from 'node:assert/strict';
import type { CellResult } from '../../../src/notebook/api';
import { REPORT_BODY_CHARS, trimResult } from '../../../src/cli/reporters/types';

describe('reports keep each result small', () => {
  it("a model's answer is cut like the body, so a long answer is not kept (and printed in the HTML report) whole", () => {
    const answer = 'x'.repeat(REPORT_BODY_CHARS + 500);
    const r: CellResult = {
      file: 'a.awb.md',
      cellIndex: 0,
      line: 1,
      service: 'llm',
      startedAt: '',
      ok: true,
      assertions: [],
      durationMs: 1,
      llm: { model: 'gpt-4o-mini', answer, tokens: { prompt: 1, completion: 2, total: 3 } },
    };
    const kept = trimResult(r);
    assert.equal(kept.llm?.answer, `${'x'.repeat(REPORT_BODY_CHARS)}… (500 more characters not shown)`);
    assert.deepEqual(kept.llm?.tokens, { prompt: 1, completion: 2, total: 3 });
    assert.equal(r.llm?.answer, answer, 'the original is left as it was');
  });
});
