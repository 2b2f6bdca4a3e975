// --data: rows of variables, one run of each notebook per row. JSON (an array of flat objects) or
// CSV (RFC 4180: a header row, quoted fields with "" for a quote, line breaks inside quotes, CRLF
// or LF). A small parser of our own: the format is tiny and a dependency would add more than it saves.
import * as z from 'zod/mini';
import { once } from '../core/once';
import { describeIssues } from '../core/validate';
import { CliError } from './errors';
import { readTextFile } from './textFile';
import { errorText } from '../core/errors';
import { jsonErrorText } from '../core/quote';

export type DataRow = Record<string, string>;

const VARIABLE_NAME = /^[A-Za-z_][\w-]*$/;
const jsonRowsSchema = once(() => z.array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))));

export function loadDataRows(file: string): DataRow[] {
  const text = readTextFile(file, 'data file');
  const rows = /\.json$/i.test(file) ? jsonRows(file, text) : /\.csv$/i.test(file) ? csvRows(file, text) : undefined;
  if (!rows) throw new CliError(`${file}: --data takes a .json or .csv file`);
  if (rows.length === 0) throw new CliError(`${file}: the data file has no rows`);
  for (const name of new Set(rows.flatMap((r) => Object.keys(r)))) {
    if (!VARIABLE_NAME.test(name)) throw new CliError(`${file}: "${name}" cannot be a variable name: use letters, digits, _ and -`);
  }
  return rows;
}

function jsonRows(file: string, text: string): DataRow[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${jsonErrorText(e)})`);
  }
  const r = jsonRowsSchema().safeParse(raw);
  if (!r.success) throw new CliError(`${file}: ${describeIssues(r.error.issues)} (expected an array of objects with string, number or boolean values)`);
  return r.data.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? '' : String(v)])));
}

/** Every record of a CSV text as arrays of fields; `line` is where each record starts. */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record (a trailing newline, a gap between rows).
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += ch;
  }
  if (quoted) throw new Error(`line ${recordLine}: a quoted field is not closed`);
  if (field !== '' || fields.length) endRecord();
  return records;
}

function csvRows(file: string, text: string): DataRow[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (e) {
    throw new CliError(`${file}: ${errorText(e)}`);
  }
  const [header, ...rest] = records;
  if (!header) return [];
  const names = header.fields.map((f) => f.trim());
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new CliError(`${file}:${header.line}: the column "${n}" appears twice`);
    seen.add(n);
  }
  return rest.map((r) => {
    if (r.fields.length !== names.length) throw new CliError(`${file}:${r.line}: ${r.fields.length} fields, but the header has ${names.length}`);
    return Object.fromEntries(names.map((n, i) => [n, r.fields[i]]));
  });
}
