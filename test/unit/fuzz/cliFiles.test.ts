import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { loadConnectionsFile } from '../../../src/cli/connectionsFile';
import { loadDataRows, parseCsv } from '../../../src/cli/data';
import { CliError } from '../../../src/cli/errors';
import { check, hostileText } from './fuzzKit';

/** Runs `load`; it may only return or throw CliError, whose message names the file. */
function loadOrCliError<T>(file: string, load: () => T): T | CliError {
  try {
    return load();
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    assert.ok(e.message.includes(file), `the error names the file: ${e.message}`);
    return e;
  }
}

/** A key someone wrongly put in the file: refused, and never repeated in the error. */
const KEY_VALUE = 'sk-fuzz-do-not-echo-0123456789';

/** A CSV field written the way a spreadsheet would: quoted when it must be. */
function csvField(f: string): string {
  // A leading BOM would be read as the file's byte order mark: quoted, it is data.
  return /[",\r\n]/.test(f) || f.startsWith('"') || f.startsWith('\uFEFF') ? `"${f.replace(/"/g, '""')}"` : f;
}

const connectionEntry = fc.record(
  {
    name: fc.oneof(fc.string(), fc.constantFrom('Work', 'Sandbox'), fc.jsonValue()),
    baseUrl: fc.oneof(fc.webUrl(), fc.string(), fc.jsonValue()),
    keyEnv: fc.oneof(fc.constantFrom('OPENAI_KEY', 'lower_case', '1BAD', 'has space'), fc.string()),
    apiKey: fc.constant(KEY_VALUE),
    secret: fc.constant(KEY_VALUE),
    appId: fc.string(),
    cluster: fc.string(),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const connectionsText = fc.oneof(
  fc
    .record(
      {
        llm: fc.array(connectionEntry, { maxLength: 3 }),
        maps: fc.array(connectionEntry, { maxLength: 2 }),
        realtime: fc.array(connectionEntry, { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o)),
  fc.json(),
  hostileText,
);

describe('fuzz: the CLI connections file and CSV/JSON data (src/cli)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'awb-fuzz-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loadConnectionsFile only returns connections or throws CliError naming the file, never with a key value in it', () => {
    const file = path.join(dir, 'connections.json');
    check('cli connections file', connectionsText, 300, (text) => {
      writeFileSync(file, text);
      const out = loadOrCliError(file, () => loadConnectionsFile(file));
      if (out instanceof CliError) {
        assert.ok(!out.message.includes(KEY_VALUE), out.message);
        return;
      }
      assert.ok(!text.includes(KEY_VALUE), 'a file with a key in it is refused');
      for (const c of out.connections) assert.ok(typeof c.name === 'string' && c.name.length > 0);
      for (const env of out.keyEnv.values()) assert.match(env, /^[A-Za-z_][A-Za-z0-9_]*$/);
    });
  });

  it('parseCsv reads back any table a spreadsheet writes (quotes, commas, line breaks, CRLF, BOM)', () => {
    const field = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('"', '""', ',', '\n', '\r\n', 'a "b" c', ' ', '\uFEFF'),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    );
    const table = fc.record({
      rows: fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
      eol: fc.constantFrom('\n', '\r\n'),
      bom: fc.boolean(),
      trailing: fc.boolean(),
    });
    check('cli csv round trip', table, 500, ({ rows, eol, bom, trailing }) => {
      const width = rows[0].length;
      const fixed = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? 'x')).map((r) => (r.length === 1 && r[0] === '' ? ['x'] : r));
      const text = (bom ? '\uFEFF' : '') + fixed.map((r) => r.map(csvField).join(',')).join(eol) + (trailing ? eol : '');
      assert.deepEqual(
        parseCsv(text).map((r) => r.fields),
        fixed,
      );
    });
  });

  it('parseCsv and loadDataRows never throw anything but their documented errors on hostile text', () => {
    const csv = path.join(dir, 'data.csv');
    const json = path.join(dir, 'data.json');
    const text = fc.oneof(
      hostileText,
      fc.array(fc.constantFrom('a', ',', '"', '\n', '\r', '""', 'x,y', 'name'), { maxLength: 40 }).map((p) => p.join('')),
      fc.json(),
    );
    check('cli data files', text, 250, (t) => {
      try {
        const records = parseCsv(t);
        for (const r of records) assert.ok(r.line >= 1 && r.fields.length >= 1);
      } catch (e) {
        assert.ok(e instanceof Error && /^line \d+: a quoted field is not closed$/.test(e.message), String(e));
      }
      for (const file of [csv, json]) {
        writeFileSync(file, t);
        const rows = loadOrCliError(file, () => loadDataRows(file));
        if (rows instanceof CliError) continue;
        assert.ok(rows.length > 0);
        for (const row of rows) for (const [k, v] of Object.entries(row)) assert.ok(/^[A-Za-z_][\w-]*$/.test(k) && typeof v === 'string');
      }
    });
  });
});
