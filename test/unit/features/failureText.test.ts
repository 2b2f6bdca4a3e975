// How a failed check reads in JUnit and the CLI's report (features/notebook/checkRows failureText):
// a `??` check says what it expected and what came; a script's test (pm.test) has no expected
// value, so its failure is its own message, never "expected passes".
import assert from 'node:assert/strict';
import { failureText, type CheckRow } from '../../../src/features/notebook/checkRows';
import { SCRIPT_TEST_EXPECTED } from '../../../src/core/scriptTests';
import type { AssertionResult, CellResult } from '../../../src/notebook/api';

function row(assertion: AssertionResult): CheckRow {
  const cell = { name: 'login', ok: false, assertions: [assertion], response: { status: 200, requestId: 'req_1' } } as unknown as CellResult;
  return { cell, assertion } as unknown as CheckRow;
}

describe('failureText: the one line and the details of a failed check', () => {
  it('a script test: its name and its assertion message', () => {
    const f = failureText(
      row({ source: 'token is kept', line: 12, passed: false, expected: SCRIPT_TEST_EXPECTED, actual: 'expected undefined to be a string' }),
    );
    assert.equal(f.message, 'token is kept: expected undefined to be a string');
    assert.doesNotMatch(f.message + f.details, /expected passes|actual:/);
    assert.match(f.details, /token is kept \(script test, line 12\)\n {2}failed: expected undefined to be a string/);
    assert.match(f.details, /request id: req_1/);
  });

  it('a ?? check: expected and actual', () => {
    const f = failureText(row({ source: 'status == 201', line: 7, passed: false, expected: '201', actual: '200' }));
    assert.equal(f.message, 'status == 201: expected 201, actual 200');
    assert.match(f.details, /expected: 201\n {2}actual: {3}200/);
  });
});
