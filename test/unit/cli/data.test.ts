import * as assert from 'node:assert/strict';
import { loadDataRows, parseCsv } from '../../../src/cli/data';
import { CliError } from '../../../src/cli/errors';
import { tempDir, write } from './cliKit';

describe('CLI --data rows', () => {
  it('reads RFC 4180 CSV: quotes, doubled quotes, commas and line breaks inside quotes, CRLF, BOM', () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"two\nlines",\r\n\r\nlast,row';
    assert.deepEqual(
      parseCsv(text).map((r) => [r.line, r.fields]),
      [
        [1, ['a', 'b']],
        [2, ['x, y', 'say "hi"']],
        [3, ['two\nlines', '']],
        [6, ['last', 'row']],
      ],
    );
  });

  it('an unclosed quote, or a row with the wrong number of fields, is reported with file:line', () => {
    const dir = tempDir();
    const unclosed = write(dir, 'u.csv', 'a,b\n"x,y\n');
    assert.throws(
      () => loadDataRows(unclosed),
      (e: unknown) => e instanceof CliError && /u\.csv: line 2: a quoted field is not closed/.test(e.message),
    );
    const short = write(dir, 's.csv', 'a,b\n1,2\n3\n');
    assert.throws(
      () => loadDataRows(short),
      (e: unknown) => e instanceof CliError && /s\.csv:3: 1 fields, but the header has 2/.test(e.message),
    );
  });

  it('JSON rows: values become strings; nested values are refused', () => {
    const dir = tempDir();
    assert.deepEqual(loadDataRows(write(dir, 'r.json', '[{"a": 1, "b": true, "c": null, "d": "x"}]')), [{ a: '1', b: 'true', c: '', d: 'x' }]);
    assert.throws(() => loadDataRows(write(dir, 'n.json', '[{"a": {"b": 1}}]')), CliError);
    assert.throws(() => loadDataRows(write(dir, 'bad-name.json', '[{"a b": 1}]')), /cannot be a variable name/);
  });
});
