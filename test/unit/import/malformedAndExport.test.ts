import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cellToCurl, exportHttpFile, ImportError, importCurl, importHttpFile, importPostman, parseNotebook } from '../../../src/notebook/api';
import { repoRoot } from '../helpers/sandboxProcess';
import { POSTMAN_COLLECTION } from './samples';

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportError) return e;
    throw e;
  }
  assert.fail('no ImportError');
}

describe('import: malformed input is a clear error naming the line or field', () => {
  it('cURL: an unterminated quote names the line it opened on', () => {
    const e = importError(() => importCurl(`curl https://api.openai.com/v1/models \\\n  -H 'Accept: application/json`, { source: 'stdin' }));
    assert.equal(e.message, 'stdin: line 2: the single quote opened here is never closed');
    assert.match(importError(() => importCurl('curl -d "{\\"a\\": 1} https://x')).message, /line 1: the double quote/);
  });

  it('cURL: no URL, something that is not curl; an unknown option is reported and a body from a file kept as a block, not fatal', () => {
    assert.match(importError(() => importCurl('curl -X POST')).message, /has no URL/);
    const unknown = importCurl('curl --frobnicate https://api.openai.com/v1/models');
    assert.equal(parseNotebook(unknown.text).cells[0].value, 'GET /models');
    assert.ok(unknown.report.includes('not carried over from the curl command: --frobnicate (not known to the importer)'), unknown.report.join('\n'));
    // A body read from a file: the request kept as an http block naming the file, not an error.
    const fromFile = importCurl('curl -d @body.json https://api.openai.com/v1/chat/completions');
    assert.match(fromFile.text, /the body is read from the file body\.json \(-d @body\.json\)/);
    assert.match(
      fromFile.text,
      /> ```http\n> POST https:\/\/api\.openai\.com\/v1\/chat\/completions\n> Content-Type: application\/x-www-form-urlencoded\n>\n> < body\.json\n> ```/,
    );
    assert.match(importError(() => importCurl('wget https://api.openai.com/v1/models')).message, /starts with "curl", not "wget"/);
  });

  it("cURL: both quoting styles, $'…', -G, -u and continuation lines", () => {
    const r = importCurl(
      `curl -G https://places.googleapis.com/v1/places/ChIJ123 \\\n  -d "languageCode=pt" --data-urlencode 'regionCode=PT' \\\n  -H $'X-Goog-FieldMask: id,displayName' -u "user:hunter2-password"`,
    );
    assert.equal(parseNotebook(r.text).cells[0].value, 'GET /v1/places/ChIJ123?languageCode=pt&regionCode=PT\nX-Goog-FieldMask: id,displayName');
    assert.equal(r.secrets[0].header, 'Authorization');
    assert.ok(!r.text.includes('hunter2'));
  });

  it('.http: a line that is no request names its line', () => {
    const e = importError(() => importHttpFile('@a = 1\n\n###\nthis is not a request\n', { source: 'x.http' }));
    assert.equal(e.message, 'x.http: line 4: "this is not a request" is not a request line: write METHOD URL, e.g. "GET https://api.openai.com/v1/models"');
    // One unreadable request in a file of requests is kept as a block with the reason; the file still imports.
    const header = importHttpFile('GET https://api.openai.com/v1/models\nnot a header\n');
    assert.match(
      header.text,
      /> \*\*Not imported as a cell:\*\* line 2: "not a header" is not a header line \(Name: value\)\. Kept as written \(keys removed\):\n>\n> ```http\n> GET https:\/\/api\.openai\.com\/v1\/models\n>\n> not a header\n> ```/,
    );
    assert.ok(header.report.includes('line 1: kept as an http block: line 2: "not a header" is not a header line (Name: value)'), header.report.join('\n'));
  });

  it('Postman: invalid JSON, an unknown schema, a wrong field: each named', () => {
    assert.match(importError(() => importPostman('{"info": ', { source: 'c.json' })).message, /^c\.json: JSON: /);
    const v1 = JSON.parse(POSTMAN_COLLECTION) as { info: { schema: string } };
    v1.info.schema = 'https://schema.getpostman.com/json/collection/v1.0.0/collection.json';
    assert.match(importError(() => importPostman(JSON.stringify(v1))).message, /field info\.schema: ".*v1\.0\.0.*" is not a Postman collection v2\.1/);
    const bad = JSON.parse(POSTMAN_COLLECTION) as { item: Array<{ item: Array<{ request: unknown }> }> };
    bad.item[0].item[1].request = { method: 'POST', header: 'x', url: 42 };
    // One unreadable request: a note naming the field; the rest of the collection imports.
    const one = importPostman(JSON.stringify(bad));
    assert.match(one.text, /> \*\*Not imported as a cell:\*\* the request "Chat" could not be read \(field item\[0\]\.item\[1\]\.request: /);
    assert.equal(parseNotebook(one.text).cells.filter((c) => c.kind === 'code' && c.language !== 'vars').length, 2);
    assert.match(importError(() => importPostman('{"item": []}')).message, /field info/);
  });
});

describe('export: a notebook as .http, a cell as cURL; keys as references', () => {
  const tour = readFileSync(path.join(repoRoot(), 'examples', 'sandbox-tour.awb.md'), 'utf8');

  it('the sandbox tour as REST Client text: variables, names, keys from the environment, references converted', () => {
    const http = exportHttpFile(tour);
    assert.match(http, /^@city = Lisbon\n@question = What should I see in\n/);
    assert.match(http, /# @name models\nGET https:\/\/api\.openai\.com\/v1\/models\nAuthorization: Bearer \{\{\$processEnv OPENAI_API_KEY\}\}\n/);
    assert.match(http, /"model": "\{\{models\.response\.body\.\$\.data\[0\]\.id\}\}"/);
    assert.match(
      http,
      /POST https:\/\/routes\.googleapis\.com\/directions\/v2:computeRoutes\nX-Goog-FieldMask: routes\.distanceMeters,routes\.duration,routes\.polyline\.encodedPolyline\nX-Goog-Api-Key: \{\{\$processEnv GOOGLE_MAPS_API_KEY\}\}/,
    );
    assert.match(http, /# realtime cell \d+ has no \.http form/);
    assert.match(exportHttpFile('```maps\ncurl https://example.com\n```\n'), /^# maps cell 1 is not a request yet:\n# curl https:\/\/example\.com\n$/);
    // And back: the same requests, names and references.
    const back = importHttpFile(http);
    const code = parseNotebook(back.text).cells.filter((c) => c.kind === 'code');
    assert.deepEqual(
      code.map((c) => c.metadata.attributes?.name ?? c.language),
      ['vars', 'models', 'chat', 'place', 'route'],
    );
    assert.match(code[2].value, /\{\{models\.json\.data\[0\]\.id\}\}/);
    // The checks travel as comments before the request (after the body they would be sent) and come back.
    assert.match(http, /# \?\? status == 200\n# \?\? json\.object == list\n[^]*?# @name models\n/);
    assert.match(code[1].value, /^GET \/models\n\n\?\? status == 200\n\?\? json\.object == list/);
    assert.deepEqual(back.secrets, []);
  });

  it('a cell as cURL with $OPENAI_API_KEY, and back to the same cell', () => {
    const chat = parseNotebook(tour).cells.find((c) => c.metadata.attributes?.name === 'chat')!;
    // Without the notebook's variables every {{…}} is a shell variable the user sets.
    const curl = cellToCurl(chat)!;
    assert.match(curl, /^curl 'https:\/\/api\.openai\.com\/v1\/chat\/completions' \\\n/);
    assert.match(curl, /-H "Authorization: Bearer \$OPENAI_API_KEY"/);
    assert.match(curl, /"content": "'"\$\{QUESTION\}"' '"\$\{CITY\}"'\?"/);
    const again = parseNotebook(importCurl(curl).text).cells[0];
    const asShell = chat.value
      .replace(/\{\{(\w+)\}\}/g, (_w, n: string) => `\${${n.toUpperCase()}}`)
      .replace('{{models.json.data[0].id}}', '${MODELS_JSON_DATA_0_ID}');
    assert.equal(again.value.split('\n\n?? ')[0], asShell.split('\n\n?? ')[0]);
    const place = parseNotebook(tour).cells.find((c) => c.metadata.attributes?.name === 'place')!;
    assert.match(cellToCurl(place)!, /'https:\/\/places\.googleapis\.com\/v1\/places:searchText'[\s\S]*-H "X-Goog-Api-Key: \$GOOGLE_MAPS_API_KEY"/);
  });
});
