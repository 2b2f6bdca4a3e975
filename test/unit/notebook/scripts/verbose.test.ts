import * as assert from 'node:assert/strict';
import { parseCliArgs } from '../../../../src/cli/args';
import { cellLines } from '../../../../src/cli/reporters/pretty';
import type { CellResult } from '../../../../src/notebook/api';

const cell = (ok: boolean): CellResult => ({
  file: 'a.awb.md',
  cellIndex: 0,
  line: 1,
  name: 'login',
  service: 'http',
  startedAt: new Date(0).toISOString(),
  ok,
  assertions: [],
  durationMs: 3,
  logs: ['token stored', 'two\nlines'],
});

describe('CLI --verbose: what scripts logged', () => {
  it('is printed under each cell, passed or failed, only with --verbose', () => {
    for (const ok of [true, false]) {
      assert.deepEqual(
        cellLines(cell(ok), { outputFailed: false, verbose: true }).filter((l) => l.includes('log:')),
        ['    log: token stored', '    log: two', '    log: lines'],
      );
      assert.deepEqual(
        cellLines(cell(ok), { outputFailed: false }).filter((l) => l.includes('log:')),
        [],
      );
    }
  });

  it('run takes --verbose', () => {
    const args = parseCliArgs(['run', 'a.awb.md', '--verbose']);
    assert.equal(args.command === 'run' && args.verbose, true);
  });
});
