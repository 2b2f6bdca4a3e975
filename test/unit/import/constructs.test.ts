// What real files hold and the importer once refused or dropped: each construct imports, what
// cannot be converted stays an `http` block with the reason, and no key reaches a cell or a note.
import * as assert from 'node:assert/strict';
import {
  cellToCurl,
  exportHttpFile,
  ImportError,
  importCurl,
  importHttpFile,
  importPostman,
  notebookProblems,
  parseNotebook,
  type ImportResult,
} from '../../../src/notebook/api';

const OPENAI_KEY = 'sk-proj-ConstructsTestKey0123456789abcdef';
const MAPS_KEY = 'AIzaSyConstructsTestKey0123456789abcdef';

/** The service and vars cells (`http` cells, whether the engine reads them as cells or as Markdown, are matched on the text). */
function codeCells(text: string) {
  return parseNotebook(text).cells.filter((c) => c.kind === 'code' && c.language !== 'http');
}

/** The `http` fences as the importer writes them (the agreed runnable-cell form). */
function httpFences(text: string): Array<{ info: string; body: string }> {
  return [...text.matchAll(/^(`{3,})(http[^\n]*)\n([^]*?)\n\1$/gm)].map((m) => ({ info: m[2], body: m[3] }));
}

/** The requests import kept (not cells): fenced inside the quote that says why, so they never run. */
function keptBlocks(text: string): string[] {
  return [...text.matchAll(/^> (`{3,})http\n((?:>.*\n)*?)> \1$/gm)].map((m) => m[2].replace(/^> ?/gm, '').replace(/\n$/, ''));
}

function assertNoKey(result: ImportResult, ...keys: string[]): void {
  for (const key of keys) {
    assert.ok(!result.text.includes(key), `a key reached the notebook:\n${result.text}`);
    assert.ok(!result.report.join('\n').includes(key), `a key reached the report:\n${result.report.join('\n')}`);
  }
}

const postman = (items: unknown[]) =>
  JSON.stringify({ info: { name: 'n', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: items });

describe('import: cURL as pasted from docs and scripts', () => {
  it('a pipe after the command (| jq .) is left out and said so; the request is the llm cell', () => {
    const r = importCurl('curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY" | jq .');
    assert.equal(codeCells(r.text)[0].value, 'GET /models');
    assert.ok(
      r.report.some((l) => /\| and what follows it \(line 1\)/.test(l)),
      r.report.join('\n'),
    );
    assert.deepEqual(r.secrets, []);
  });

  it('redirections (> out.json, 2>&1) and a wrapper command (time, proxychains) before curl', () => {
    for (const cmd of [
      'time curl https://api.openai.com/v1/models > models.json',
      'proxychains curl https://api.openai.com/v1/models 2>&1',
      'OPENAI_LOG=debug curl https://api.openai.com/v1/models && echo done',
    ]) {
      const r = importCurl(cmd);
      assert.equal(codeCells(r.text)[0].value, 'GET /models', cmd);
    }
    assert.ok(importCurl('time curl https://api.openai.com/v1/models').report.some((l) => /time \(the command around curl\)/.test(l)));
  });

  it('bundled short options: -vH "…" takes the header, -sSL are flags, -XPOST the method', () => {
    const r = importCurl(`curl -sSL -vH "Accept: application/json" -XPOST https://api.openai.com/v1/chat/completions -d '{"model":"m"}'`);
    assert.equal(codeCells(r.text)[0].value, 'POST /chat/completions\nAccept: application/json\nContent-Type: application/json\n\n{"model":"m"}');
  });

  it("comment lines before and after, and Google's snippet files with # [START …] markers", () => {
    const snippet = `# [START maps_http_places_text_search]\n# Search for places\ncurl -X POST 'https://places.googleapis.com/v1/places:searchText' \\\n  -H 'X-Goog-Api-Key: ${MAPS_KEY}' -d '{"textQuery": "Lisbon"}'\n# [END maps_http_places_text_search]\n`;
    const r = importCurl(snippet);
    assert.equal(codeCells(r.text)[0].language, 'maps');
    assert.equal(r.secrets[0].value, MAPS_KEY);
    assertNoKey(r, MAPS_KEY);
  });

  it('-F/--form: a multipart body in the agreed form (text parts, file parts reading < ./path)', () => {
    const r = importCurl(
      'curl https://api.openai.com/v1/audio/transcriptions -H "Authorization: Bearer $OPENAI_API_KEY" -H "Content-Type: multipart/form-data" -F file="@sample.wav" --form model=whisper-1',
    );
    assert.equal(
      codeCells(r.text)[0].value,
      [
        'POST /audio/transcriptions',
        'Content-Type: multipart/form-data; boundary=----AwbBoundary',
        '',
        '------AwbBoundary',
        'Content-Disposition: form-data; name="file"; filename="sample.wav"',
        'Content-Type: audio/wav',
        '',
        '< ./sample.wav',
        '------AwbBoundary',
        'Content-Disposition: form-data; name="model"',
        '',
        'whisper-1',
        '------AwbBoundary--',
      ].join('\n'),
    );
  });

  it('lines whose backslashes were lost in a copy (each starts with an option) and cmd.exe ^ continuations are one command; a second command is still refused', () => {
    const lost = importCurl(
      `curl https://api.openai.com/v1/chat/completions\n  -H "Authorization: Bearer $OPENAI_API_KEY"\n  -H "Content-Type: application/json"\n  -d '{"model": "gpt-4o-mini", "messages": []}'\n`,
    );
    assert.equal(codeCells(lost.text)[0].value, 'POST /chat/completions\nContent-Type: application/json\n\n{"model": "gpt-4o-mini", "messages": []}');
    const caret = importCurl(`curl https://api.openai.com/v1/models ^\r\n  -H "Authorization: Bearer %OPENAI_API_KEY%"\r\n`);
    assert.equal(codeCells(caret.text)[0].value, 'GET /models');
    assert.throws(() => importCurl('curl https://api.openai.com/v1/models\necho done\n'), /more than one command/);
  });

  it('a command that is not curl at all is still an ImportError (exit 2)', () => {
    assert.throws(() => importCurl('# just a comment\nwget https://x'), ImportError);
  });
});

describe('import: .http files of REST Client, httpYac and IntelliJ', () => {
  it('QUERY (a token method, which no cell sends): kept as an http block with the reason, any host; the rest imports', () => {
    const r = importHttpFile(
      'QUERY https://api.example.com/contacts\nContent-Type: application/json\n\n{"name": "Ada"}\n\n###\nQUERY https://api.openai.com/v1/models\n\n###\nGET https://api.openai.com/v1/files\n',
    );
    assert.deepEqual(keptBlocks(r.text), [
      'QUERY https://api.example.com/contacts\nContent-Type: application/json\n\n{"name": "Ada"}',
      'QUERY https://api.openai.com/v1/models',
    ]);
    assert.deepEqual(httpFences(r.text), []);
    assert.equal(codeCells(r.text)[0].value, 'GET /files');
    assert.match(r.text, /Not imported as a cell:\*\* QUERY is not a method a cell sends/);
    assert.ok(r.report.includes('line 7: kept as an http block: QUERY is not a method an llm cell sends (GET, POST, PUT, PATCH, DELETE)'), r.report.join('\n'));
  });

  it('GraphQL (X-REQUEST-TYPE: GraphQL) becomes the JSON body the server receives, httpYac fragments included', () => {
    const rest = importHttpFile(
      'POST https://api.github.com/graphql\nX-REQUEST-TYPE: GraphQL\n\nquery ($n: String!) {\n  repository(name: $n) { name }\n}\n\n{"n": "x"}\n',
    );
    const body = httpFences(rest.text)[0].body;
    assert.doesNotMatch(body, /X-REQUEST-TYPE/i);
    assert.deepEqual(JSON.parse(body.split('\n\n')[1]), { query: 'query ($n: String!) {\n  repository(name: $n) { name }\n}', variables: { n: 'x' } });
    const yac = importHttpFile(
      'fragment Parts on Repository {\n  description\n}\n\n###\nPOST https://api.github.com/graphql\n\nquery {\n  repository(name: "x") { ...Parts }\n}\n',
    );
    assert.match(
      (JSON.parse(httpFences(yac.text)[0].body.split('\n\n')[1]) as { query: string }).query,
      /\.\.\.Parts[^]*fragment Parts on Repository \{\n {2}description\n\}$/,
    );
  });

  it('httpYac <@ file straight after the headers: kept as an http block naming the file', () => {
    const r = importHttpFile(
      'POST https://api.openai.com/v1/chat/completions\nContent-Type: application/json\n<@ ./chat.json\n\n###\nGET https://api.openai.com/v1/models\n',
    );
    assert.match(r.text, /the body is read from a file \(<@ \.\/chat\.json\)/);
    assert.equal(codeCells(r.text)[0].value, 'GET /models');
  });

  it('IntelliJ requests without ### separators: each request line starts a request', () => {
    const r = importHttpFile(
      'GET https://api.openai.com/v1/models\n\nPOST https://api.openai.com/v1/chat/completions\nContent-Type: application/json\n\n{"model": "m"}\n\nGET https://api.openai.com/v1/files\n',
    );
    assert.deepEqual(
      codeCells(r.text).map((c) => c.value.split('\n')[0]),
      ['GET /models', 'POST /chat/completions', 'GET /files'],
    );
    assert.equal(codeCells(r.text)[1].value, 'POST /chat/completions\nContent-Type: application/json\n\n{"model": "m"}');
  });

  it('> {% %} response handlers: the request is a cell that carries the handler, which runs', () => {
    const r = importHttpFile('GET https://api.openai.com/v1/models\n\n> {%\n  client.global.set("id", response.body.data[0].id);\n%}\n');
    assert.equal(codeCells(r.text)[0].value, 'GET /models\n\n> {%\n  client.global.set("id", response.body.data[0].id);\n%}');
    assert.doesNotMatch(r.text, /not run|do not run/);
  });

  it('< {% %} pre-request script: the request is a cell with the script above its request line; the rest imports', () => {
    const r = importHttpFile(
      '< {%\n  request.variables.set("n", "1");\n%}\nGET https://api.openai.com/v1/models/{{n}}\n\n###\nGET https://api.openai.com/v1/files\n',
    );
    assert.deepEqual(keptBlocks(r.text), []);
    assert.equal(codeCells(r.text)[0].value, '< {%\n  request.variables.set("n", "1");\n%}\nGET /models/{{n}}');
    assert.equal(codeCells(r.text)[1].value, 'GET /files');
  });

  it('a cURL command pasted into a .http file: an http block with a note (key removed); the rest imports', () => {
    const r = importHttpFile(
      `curl https://api.openai.com/v1/models \\\n  -H "Authorization: Bearer ${OPENAI_KEY}"\n\n###\nGET https://api.openai.com/v1/files\n`,
    );
    assert.match(r.text, /a cURL command pasted into the \.http file/);
    assert.deepEqual(keptBlocks(r.text), ['GET https://api.openai.com/v1/models']);
    assert.equal(codeCells(r.text)[0].value, 'GET /files');
    assert.equal(r.secrets[0].value, OPENAI_KEY);
    assertNoKey(r, OPENAI_KEY);
  });

  it('a .http multipart body is carried over as written, file parts reading < ./path', () => {
    const body = '--B\nContent-Disposition: form-data; name="file"; filename="a.wav"\nContent-Type: audio/wav\n\n< ./a.wav\n--B--';
    const r = importHttpFile(`POST https://api.openai.com/v1/audio/transcriptions\nContent-Type: multipart/form-data; boundary=B\n\n${body}\n`);
    assert.equal(codeCells(r.text)[0].value, `POST /audio/transcriptions\nContent-Type: multipart/form-data; boundary=B\n\n${body}`);
  });
});

describe('import: Postman collections', () => {
  it('"query": [{"key": null, "value": null}] (Postman writes it for &&) is skipped, not a zod error', () => {
    const text =
      '{"info":{"name":"n","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},"item":[{"name":"models","request":{"method":"GET","url":{"raw":"https://api.openai.com/v1/models?&a=1","protocol":"https","host":["api","openai","com"],"path":["v1","models"],"query":[{"key":null,"value":null},{"key":"a","value":"1"}]}}}]}';
    assert.equal(codeCells(importPostman(text).text)[0].value, 'GET /models?a=1');
  });

  it('spaces in a URL (Postman sends them encoded) become %20: the notebook parses and the cell runs, variables kept', () => {
    const r = importPostman(
      postman([
        { name: 'route', request: { method: 'GET', url: 'https://maps.googleapis.com/maps/api/directions/json?origin=itaborai rj&destination={{to}}' } },
        { name: 'own', request: { method: 'GET', url: 'https://api.example.com/search?q=two words' } },
      ]),
    );
    assert.deepEqual(notebookProblems(parseNotebook(r.text).cells), []);
    assert.equal(codeCells(r.text)[0].value.split('\n')[0], 'GET /maps/api/directions/json?origin=itaborai%20rj&destination={{to}}');
    assert.equal(httpFences(r.text)[0].body.split('\n')[0], 'GET https://api.example.com/search?q=two%20words');
  });

  it('a body with "disabled": true is dropped like disabled headers, and said so', () => {
    const r = importPostman(
      postman([{ name: 'd', request: { method: 'POST', body: { mode: 'raw', raw: '{"x":1}', disabled: true }, url: 'https://api.openai.com/v1/models' } }]),
    );
    assert.equal(codeCells(r.text)[0].value, 'POST /models');
    assert.ok(r.report.includes('"d": the raw body is disabled in Postman: not carried over'));
  });

  it('a v1 collection: "export it as v2.1", not a zod path', () => {
    const v1 = JSON.stringify({
      id: 'x',
      name: 'old',
      order: [],
      folders: [],
      requests: [{ id: 'r', method: 'GET', url: 'https://api.openai.com/v1/models' }],
    });
    assert.throws(() => importPostman(v1, { source: 'old.json' }), {
      message: 'old.json: collection format: Postman collection v1 is not supported: export it as v2.1 from Postman',
    });
  });

  it('path variables (/models/:model_id with url.variable) become {{model_id}} and a vars entry', () => {
    const r = importPostman(
      postman([
        { name: 'm', request: { method: 'GET', url: { raw: 'https://api.openai.com/v1/models/:model_id', variable: [{ key: 'model_id', value: 'gpt-4o' }] } } },
      ]),
    );
    const [vars, cell] = codeCells(r.text);
    assert.equal(vars.value, 'model_id = gpt-4o');
    assert.equal(cell.value, 'GET /models/{{model_id}}');
    assert.doesNotMatch(r.text, /:model_id/);
  });

  it('formdata (text and file entries) → the agreed multipart body; disabled entries left out', () => {
    const r = importPostman(
      postman([
        {
          name: 'upload',
          request: {
            method: 'POST',
            body: {
              mode: 'formdata',
              formdata: [
                { key: 'model', value: 'whisper-1', type: 'text' },
                { key: 'file', type: 'file', src: 'audio/sample.mp3' },
                { key: 'off', value: 'x', type: 'text', disabled: true },
              ],
            },
            url: 'https://api.openai.com/v1/audio/transcriptions',
          },
        },
      ]),
    );
    assert.match(
      codeCells(r.text)[0].value,
      /boundary=----AwbBoundary\n\n------AwbBoundary\nContent-Disposition: form-data; name="model"\n\nwhisper-1\n------AwbBoundary\nContent-Disposition: form-data; name="file"; filename="sample\.mp3"\nContent-Type: audio\/mpeg\n\n< \.\/audio\/sample\.mp3\n------AwbBoundary--$/,
    );
    assert.doesNotMatch(r.text, /name="off"/);
  });

  it('a request named after its URL (…?key=AIza…): the key is masked in the heading, the cell name and every note', () => {
    const url = `https://maps.googleapis.com/maps/api/geocode/json?address=Lisbon&key=${MAPS_KEY}`;
    const r = importPostman(postman([{ name: url, request: { method: 'GET', url } }]));
    assertNoKey(r, MAPS_KEY);
    assert.ok(
      r.report.some((l) => l.includes('key=***')),
      r.report.join('\n'),
    );
    assert.equal(r.secrets[0].value, MAPS_KEY);
  });
});

describe('import: keys, signatures and placeholders', () => {
  it("credentials in the URL's userinfo are taken out (offered to store); the host is kept whole", () => {
    const r = importCurl('curl https://admin:hunter2@api.openai.com/v1/models');
    assert.equal(codeCells(r.text)[0].value, 'GET /models');
    assert.deepEqual(r.secrets, [{ service: 'llm', origin: 'https://api.openai.com', userinfo: true, value: 'admin:hunter2' }]);
    assertNoKey(r, 'hunter2');
    // A host of no service: an http cell sending them as Basic auth read from a stored secret.
    const other = importHttpFile('GET https://admin:hunter2@status.example.com/x\n');
    assert.equal(httpFences(other.text)[0].body, 'GET https://status.example.com/x\nAuthorization: Basic {{$secret status_example_com_userinfo}}');
    assert.equal(other.secrets[0].value, Buffer.from('admin:hunter2').toString('base64'));
  });

  it('a user or password holding "@" (as URLs allow up to the last @): all of it is taken out, the host kept, and it is masked in kept scripts too', () => {
    const r = importPostman(
      postman([
        {
          name: 'auth',
          event: [{ listen: 'test', script: { exec: ["pm.expect(h).to.equal('Basic ' + btoa('us@r:s3cr@t-pa55'));"] } }],
          request: { method: 'GET', url: 'https://us@r:s3cr@t-pa55@echo.example.com/get' },
        },
      ]),
    );
    assert.equal(httpFences(r.text)[0].body.split('\n')[0], 'GET https://echo.example.com/get');
    assert.equal(r.secrets[0].value, Buffer.from('us@r:s3cr@t-pa55').toString('base64'));
    assertNoKey(r, 's3cr@t-pa55');
  });

  it('signatures (auth_signature, X-Pusher-Signature) are dropped and offered to store as a key', () => {
    const sig = 'c0ffee0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
    const r = importHttpFile(
      `POST https://api-eu.pusher.com/apps/3/events?auth_signature=${sig}\nX-Pusher-Signature: ${sig}\n\n{"name":"e","channel":"c","data":"{}"}\n`,
    );
    assert.equal(codeCells(r.text)[0].value, 'PUBLISH c e\n{}');
    assert.deepEqual(
      r.secrets.map((s) => s.header ?? s.param),
      ['X-Pusher-Signature'],
    );
    assert.ok(r.report.some((l) => /X-Pusher-Signature header was removed \(a signature/.test(l)));
    assertNoKey(r, sig);
  });

  it('placeholders are not keys: [apiKeyChatGPT], your-api-key-here, <API_KEY>, {{token}}, $VAR, Basic-auth variables', () => {
    for (const value of [
      'Bearer [apiKeyChatGPT]',
      'Bearer your-api-key-here',
      'Bearer <API_KEY>',
      'Bearer {{token}}',
      'Bearer $OPENAI_API_KEY',
      'Basic {{user}}:{{password}}',
    ]) {
      const r = importHttpFile(`GET https://api.openai.com/v1/models\nAuthorization: ${value}\n`);
      assert.deepEqual(r.secrets, [], value);
    }
    assert.deepEqual(importCurl('curl -u "$API_USER:$API_PASSWORD" https://api.openai.com/v1/models').secrets, []);
    const postmanBasic = importPostman(
      postman([
        {
          name: 'b',
          request: {
            auth: {
              type: 'basic',
              basic: [
                { key: 'username', value: '{{user}}' },
                { key: 'password', value: '{{password}}' },
              ],
            },
            method: 'GET',
            url: 'https://status.example.com/x',
          },
        },
      ]),
    );
    assert.deepEqual(postmanBasic.secrets, []);
  });

  it('an http cell keeps a key by reference: $VAR → {{$env VAR}}, a pasted key → {{$secret name}} (offered to store)', () => {
    const env = importCurl('curl https://status.example.com/x -H "X-Api-Key: $STATUS_KEY"');
    assert.equal(httpFences(env.text)[0].body, 'GET https://status.example.com/x\nX-Api-Key: {{$env STATUS_KEY}}');
    const pasted = importCurl(`curl https://status.example.com/x -H "Authorization: Bearer ${OPENAI_KEY}"`);
    assert.equal(httpFences(pasted.text)[0].body, 'GET https://status.example.com/x\nAuthorization: Bearer {{$secret status_example_com_authorization}}');
    assert.equal(pasted.secrets[0].secretName, 'status_example_com_authorization');
    // A placeholder would be sent as written, and a key header must be a reference: a secret the editor asks for once.
    const placeholder = importCurl('curl https://status.example.com/x -H "Authorization: Bearer <API_KEY>"');
    assert.equal(httpFences(placeholder.text)[0].body, 'GET https://status.example.com/x\nAuthorization: Bearer {{$secret status_example_com_authorization}}');
    assert.deepEqual(placeholder.secrets, []);
    // REST Client's {{$processEnv X}} (what export writes) and httpYac's {{$dotenv X}} are the notebook's {{$env X}}.
    const rest = importHttpFile('GET https://status.example.com/x\nX-Api-Key: {{$processEnv STATUS_KEY}}\nX-Other: {{$dotenv OTHER}}\n');
    assert.equal(httpFences(rest.text)[0].body, 'GET https://status.example.com/x\nX-Api-Key: {{$env STATUS_KEY}}\nX-Other: {{$env OTHER}}');
    assert.ok(!rest.report.some((l) => /system variables/.test(l)), rest.report.join('\n'));
    assertNoKey(pasted, OPENAI_KEY);
  });
});

describe('import: which connection a request belongs to', () => {
  const connections = [
    { service: 'llm' as const, baseUrl: 'https://api.openai.com/v1', name: 'OpenAI' },
    { service: 'llm' as const, baseUrl: 'http://localhost:11434/v1', name: 'Ollama' },
  ];

  it('a request to the second connection\'s origin names it: connection="Ollama"', () => {
    const r = importHttpFile(
      '### local model\nPOST http://localhost:11434/v1/chat/completions\nContent-Type: application/json\n\n{"model": "llama3", "messages": [{"role": "user", "content": "hi"}]}\n',
      { connections },
    );
    assert.match(r.text, /```llm connection=Ollama\nPOST \/chat\/completions\n/);
    const first = importCurl('curl https://api.openai.com/v1/models', { connections });
    assert.equal(codeCells(first.text)[0].metadata.attributes?.connection, 'OpenAI');
  });

  it('a known service host that no connection has keeps its absolute URL in the service cell (never sent elsewhere)', () => {
    const r = importCurl('curl https://api.openai.com/v1/models', { connections: [connections[1]] });
    const [cell] = codeCells(r.text);
    assert.equal(cell.language, 'llm');
    assert.equal(cell.value, 'GET https://api.openai.com/v1/models');
    assert.ok(r.report.some((l) => /no llm connection is for api\.openai\.com: the cell keeps the absolute URL/.test(l)));
  });

  it('a host of no service becomes a runnable http cell with its absolute URL', () => {
    const r = importCurl('curl https://httpbin.org/get?x=1', { connections });
    assert.equal(codeCells(r.text).length, 0);
    assert.deepEqual(httpFences(r.text), [{ info: 'http', body: 'GET https://httpbin.org/get?x=1' }]);
  });
});

describe('export: http cells and blocks stay requests; cURL without URL-encoded variables', () => {
  it('.http export writes http cells and the blocks import kept as requests, not comments', () => {
    const nb =
      '# t\n\n```http name=status\nGET https://status.example.com/x\nX-Api-Key: {{$env STATUS_KEY}}\n\n?? status == 200\n```\n\n> **Not imported as a cell:** why. Kept:\n>\n> ```http\n> QUERY https://api.example.com/x\n> ```\n';
    const http = exportHttpFile(nb);
    assert.match(
      http,
      /# Checks in the notebook \(read back by the importer\):\n# \?\? status == 200\n# @name status\nGET https:\/\/status\.example\.com\/x\nX-Api-Key: \{\{\$processEnv STATUS_KEY\}\}/,
    );
    assert.match(http, /\n###\n\n# > \*\*Not imported as a cell:\*\* why\. Kept:\n# >\nQUERY https:\/\/api\.example\.com\/x\n$/);
  });

  it("a cell of a named connection is exported to that connection's host; an unknown one is said in a comment", () => {
    const nb = '```llm connection=Ollama\nGET /models\n```\n';
    const ollama = { baseUrl: 'http://localhost:11434/v1', auth: { placement: 'none' as const } };
    assert.match(exportHttpFile(nb, { connections: new Map([['llm:Ollama', ollama]]) }), /^GET http:\/\/localhost:11434\/v1\/models$/m);
    assert.match(
      exportHttpFile(nb),
      /^# The cell runs on the connection "Ollama", not known here \(export with --connections\): written for https:\/\/api\.openai\.com\/v1\nGET https:\/\/api\.openai\.com\/v1\/models/m,
    );
    assert.match(cellToCurl(parseNotebook(nb).cells[0], { connections: new Map([['llm:Ollama', ollama]]) })!, /^curl 'http:\/\/localhost:11434\/v1\/models'$/m);
  });

  it('cURL export: notebook variables as values, other references as shell variables, never %7B%7B…%7D%7D', () => {
    const [cell] = parseNotebook('```llm\nGET /models/{{model_id}}?user={{user_id}}\n```\n').cells;
    const vars = new Map([['model_id', 'gpt-4o']]);
    const curl = cellToCurl(cell, {}, vars)!;
    assert.match(curl, /^curl 'https:\/\/api\.openai\.com\/v1\/models\/gpt-4o\?user='"\$\{USER_ID\}" \\$/m);
    assert.doesNotMatch(cellToCurl(cell)!, /%7B/);
    assert.match(cellToCurl(cell)!, /'https:\/\/api\.openai\.com\/v1\/models\/'"\$\{MODEL_ID\}"'\?user='"\$\{USER_ID\}"/);
  });
});
