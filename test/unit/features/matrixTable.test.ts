// The checks × models table of Run with Models: it fits the editor beside the notebook (check names
// shortened), and the CLI's table keeps its names up to 70 characters.
import * as assert from 'node:assert/strict';
import { matrixTable } from '../../../src/features/notebook/matrixTable';
import type { NotebookRunView } from '../../../src/features/notebook/checkRows';
import type { CellResult } from '../../../src/notebook/api';

const LONG = `judge: ${'recommends a quiet café near the river with good coffee and '.repeat(2)}`;

function run(model: string): NotebookRunView {
  const cell = {
    name: 'suggest',
    service: 'llm',
    line: 3,
    ok: true,
    durationMs: 12.5,
    assertions: [{ source: `?? ${LONG}`, line: 5, passed: true, expected: 'pass', actual: 'pass' }],
  } as unknown as CellResult;
  return { file: 'models.awb.md', name: `models.awb.md [model=${model}]`, matrix: { model }, cells: [cell] };
}

describe('features/notebook/matrixTable: checks × models', () => {
  const suites = ['sandbox-chat', 'gpt-4o-mini', 'gpt-4.1-mini-2025-04-14', 'sandbox-chat-mini'].map(run);

  it('fits the width it is given, the check names shortened with …', () => {
    const lines = matrixTable({ suites }, { maxWidth: 100 });
    for (const l of lines) assert.ok(Array.from(l).length <= 100, `${Array.from(l).length}: ${l}`);
    assert.ok(lines.some((l) => l.startsWith('suggest › judge: recommends') && l.includes('…')));
  });

  it('without a width (the CLI), names are kept up to 70 characters', () => {
    const lines = matrixTable({ suites });
    const row = lines.find((l) => l.startsWith('suggest › '));
    assert.ok(row);
    assert.equal(row.indexOf('…'), 69);
  });
});
