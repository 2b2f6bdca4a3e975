// The hand-written SDK code is laid out as its formatter would leave it: black for Python, prettier's
// defaults for JavaScript (a user's project formats it with no change).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { cellCode, languagesForCell } from '../../../src/features/codegen';
import { notebookVariables, parseNotebook } from '../../../src/notebook/api';
import { repoRoot } from '../helpers/sandboxProcess';
import { PYTHON, missingToolchain } from './toolchains';

function sdkCells(): Array<{ name: string; python: Promise<string>; javascript: Promise<string> }> {
  const text = readFileSync(path.join(repoRoot(), 'examples', 'prompt-evals.awb.md'), 'utf8');
  const { cells } = parseNotebook(text);
  const vars = notebookVariables(cells);
  const opts = { vars, targets: { llm: { baseUrl: 'http://127.0.0.1:8080/v1', auth: { placement: 'bearer' as const } } } };
  // A streamed Responses request (the playground's, copied): its events are read in a loop.
  const streamedResponses = {
    kind: 'code' as const,
    language: 'llm',
    value: 'POST /responses\nContent-Type: application/json\n\n{"model": "m", "input": "Hi", "stream": true}',
    metadata: { attributes: { name: 'streamedResponses' } },
  };
  return [...cells, streamedResponses]
    .filter((c) => languagesForCell(c, opts).includes('python-sdk'))
    .map((c) => ({ name: c.metadata.attributes?.name ?? '?', python: cellCode(c, 'python-sdk', opts), javascript: cellCode(c, 'javascript-sdk', opts) }));
}

describe('Copy as Code: SDK code as its formatter leaves it', function () {
  this.timeout(60_000);

  it('JavaScript: prettier (defaults) changes nothing', async () => {
    for (const cell of sdkCells()) {
      const code = await cell.javascript;
      assert.equal(await prettier.format(code, { parser: 'babel' }), code, `${cell.name} as javascript-sdk`);
    }
  });

  it('Python: black changes nothing', async function () {
    const missing = missingToolchain('black');
    if (missing) this.skip();
    for (const cell of sdkCells()) {
      const code = await cell.python;
      const r = spawnSync(PYTHON, ['-m', 'black', '--quiet', '-'], { input: code, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, code, `${cell.name} as python-sdk`);
    }
  });
});
