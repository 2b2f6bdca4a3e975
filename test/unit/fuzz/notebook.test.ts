import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyseCell, parseAssertion, parseDuration, parsePath } from '../../../src/notebook/cells';
import { parseNotebook, serializeNotebook } from '../../../src/notebook/format';
import { check, hostileText } from './fuzzKit';
import { HOSTILE_NOTEBOOKS } from './hostileNotebooks';

/** Lines that matter to the notebook format: fences of every kind (balanced or not), cell bodies, assertions. */
const notebookLine = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '```llm',
      '```maps name=a',
      '~~~realtime',
      '````vars',
      '```',
      '~~~',
      '````',
      '   ```',
      '    ```llm',
      '```json',
      '``` llm',
      '```llm name="unclosed',
      '```llm name=a name=a',
      '```maps bogus=1 =x',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'POST /v1/chat/completions',
      'GET /maps/api/geocode/json?address=x',
      'PUBLISH feed ev',
      'LISTEN feed 2s',
      '?? status == 200',
      '?? json.a[0].b == "x"',
      '?? header content-type contains json',
      '?? duration < 5s',
      'x = {{y}}',
      '{"a":',
      '# heading',
      '',
    ),
  },
  { weight: 2, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).map((s) => s.repeat(1000)) },
);
const notebookText = fc
  .record({ lines: fc.array(notebookLine, { maxLength: 30 }), eol: fc.constantFrom('\n', '\r\n', '\r') })
  .map(({ lines, eol }) => lines.join(eol));

function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

describe('fuzz: notebook files (src/notebook/format.ts, cells.ts)', () => {
  it('parseNotebook never throws on hostile text, every problem points at a line of the file and a cell, and the bytes round-trip', () => {
    check('notebook parse', fc.oneof(notebookText, hostileText), 400, (text) => {
      const nb = parseNotebook(text, 'fuzz.awb.md');
      const lines = lineCount(text);
      for (const p of nb.problems) {
        assert.ok(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines, `problem line ${p.line} of ${lines}: ${p.message}`);
        assert.ok(p.cellIndex === undefined || (p.cellIndex >= 0 && p.cellIndex < nb.cells.length), `cell ${p.cellIndex} of ${nb.cells.length}`);
        assert.ok(p.message.length > 0);
        assert.equal(p.file, 'fuzz.awb.md');
      }
      for (const c of nb.cells) assert.ok(c.kind === 'code' || c.kind === 'markup');
      assert.equal(serializeNotebook(nb), text);
      // The way VS Code hands cells back (JSON) keeps the bytes too.
      assert.equal(serializeNotebook(JSON.parse(JSON.stringify(nb)) as typeof nb), text);
    });
  });

  it('a huge single line (2 MB) and a file of only NULs or fences parse and write back byte for byte', () => {
    // How long each takes is a figure with a goal in `npm run bench` (notebook parser), not an assertion here.
    for (const text of HOSTILE_NOTEBOOKS) {
      const nb = parseNotebook(text);
      assert.equal(serializeNotebook(nb), text);
    }
  });

  it('cell parsing (analyseCell, assertions, paths, durations) never throws and problems stay inside the cell', () => {
    const cellLines = fc.array(
      fc.oneof(
        notebookLine,
        fc.string({ maxLength: 40 }).map((s) => `?? ${s}`),
      ),
      { maxLength: 12 },
    );
    check(
      'notebook cells',
      fc.tuple(fc.constantFrom('llm', 'maps', 'realtime', 'vars', 'json'), cellLines, fc.integer({ min: 1, max: 10_000 })),
      600,
      ([language, lines, fenceLine]) => {
        const value = lines.join('\n');
        const analysed = analyseCell({ kind: 'code', language, value, metadata: {} }, fenceLine);
        const count = lineCount(value);
        for (const p of analysed.problems) {
          // The fence line itself (language, attributes, an empty cell) or one of the cell's own lines.
          assert.ok(
            p.line >= fenceLine && p.line <= fenceLine + count,
            `problem at ${p.line}, fence ${fenceLine}, cell lines ${fenceLine + 1}..${fenceLine + count}`,
          );
          assert.ok(p.message.length > 0);
        }
      },
    );
    check('notebook assertion parts', fc.oneof(hostileText, fc.string({ maxLength: 60 })), 800, (text) => {
      const a = parseAssertion(text, 3);
      assert.ok(typeof a === 'string' ? a.length > 0 : typeof a === 'object');
      const p = parsePath(text);
      assert.ok(p === undefined || p.every((s) => typeof s === 'string' || Number.isInteger(s)));
      const d = parseDuration(text);
      assert.ok(d === undefined || (Number.isFinite(d) && d >= 0), `duration ${d} from ${JSON.stringify(text)}`);
    });
  });
});
