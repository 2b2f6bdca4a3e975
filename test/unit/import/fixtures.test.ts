// `api-workbench import` over files as users have them (fixtures/: REST Client, httpYac and
// IntelliJ `.http` files, Postman v2.1 and v1 collections, cURL snippets): exit 0 with every
// request kept, what could not be converted named on stderr, no key anywhere; then the round trip
// `.http → notebook → .http` keeps every request.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parseNotebook } from '../../../src/notebook/api';
import { assertBuilt, read, runCli, tempDir, write } from '../cli/cliKit';
import { repoRoot } from '../helpers/sandboxProcess';

const FIXTURES = path.join(repoRoot(), 'test', 'unit', 'import', 'fixtures');
/** Every key-like value the fixtures hold: none may reach a notebook or stderr. */
const FIXTURE_KEYS = [
  'pasted-key-0123456789abcdef',
  'AIzaSyFixtureKey0123456789abcdefghij',
  '0f3a6c4e9b2d71e85a1c3f9b7d2e4a6c8b0d1e3f5a7c9e1b3d5f7a9c1e3b5d7f',
];

async function importFixture(name: string, extra: string[] = []): Promise<{ dir: string; notebook: string; stderr: string }> {
  const dir = tempDir();
  copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
  const r = await runCli(['import', name, '-o', 'out.awb.md', ...extra], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  const notebook = read(path.join(dir, 'out.awb.md'));
  assert.deepEqual(parseNotebook(notebook).problems, []);
  for (const key of FIXTURE_KEYS) {
    assert.ok(!notebook.includes(key), `a key reached the notebook:\n${notebook}`);
    assert.ok(!r.stderr.includes(key), `a key reached stderr:\n${r.stderr}`);
  }
  return { dir, notebook, stderr: r.stderr };
}

/** The service and vars cells (`http` cells are matched on the text, whether the engine reads them as cells or as Markdown). */
const code = (notebook: string) => parseNotebook(notebook).cells.filter((c) => c.kind === 'code' && c.language !== 'http');

/** Request lines of a `.http` text (comments and bodies aside): what a round trip must keep. */
function requestLines(http: string): string[] {
  return http.split('\n').filter((l) => /^[A-Z][A-Z0-9_-]*\s+(https?:\/\/|\{\{)\S*$/.test(l));
}

describe('CLI: api-workbench import over real-world fixture files', function () {
  this.timeout(60_000);
  before(assertBuilt);

  it('REST Client: QUERY, GraphQL, multipart and userinfo convert; a pasted cURL command is kept as a block, said on stderr', async () => {
    const { notebook, stderr } = await importFixture('rest-client.http');
    assert.match(notebook, /```llm name=models\nGET \/models\n```/);
    assert.match(notebook, /QUERY is not a method a cell sends[^]*> ```http\n> QUERY \{\{host\}\}\/contacts\n> Content-Type: \{\{contentType\}\}\n/);
    assert.match(notebook, /```http\nPOST https:\/\/api\.github\.com\/graphql\n[^`]*"query": "query \(\$name: String!/);
    assert.match(
      notebook,
      /```llm\nPOST \/audio\/transcriptions\nContent-Type: multipart\/form-data; boundary=----WebKitFormBoundary\n[^`]*< \.\/sample\.wav\n/,
    );
    assert.match(notebook, /```http\nGET https:\/\/api\.example\.com\/admin\/stats\n```/);
    assert.match(stderr, /line 54: kept as an http block: a cURL command pasted into the \.http file/);
    assert.match(stderr, /a key \(https:\/\/api\.example\.com\) was found in the X-Api-Key header: not written into the notebook/);
    // Placeholders ([apiKeyGitHub], your-api-key-here, <API_KEY>, {{password}}) are not keys.
    assert.equal(stderr.match(/^a key /gm)?.length, 1, stderr);
  });

  it('httpYac: fragments spread into the GraphQL body; a file body kept as a block with the reason; a pre-request script in its cell', async () => {
    const { notebook, stderr } = await importFixture('httpyac.http');
    assert.match(notebook, /```http name=repo\nPOST https:\/\/api\.github\.com\/graphql\n[^`]*fragment RepoParts on Repository/);
    assert.match(stderr, /line 24: kept as an http block: the body is read from a file \(<@ \.\/body\.json\)/);
    assert.doesNotMatch(stderr, /line 32: kept as an http block/);
    assert.match(notebook, /```http\nGET https:\/\/api\.example\.com\/status\n\n\?\? status == 200\n```/);
  });

  it('IntelliJ: three requests without ###, the response handler in its cell, the signature offered as a secret', async () => {
    const { notebook, stderr } = await importFixture('intellij.http');
    assert.equal((notebook.match(/^```http$/gm) ?? []).length, 3);
    assert.match(notebook, /X-Pusher-Signature: \{\{\$secret api_example_com_x_pusher_signature\}\}/);
    assert.doesNotMatch(notebook, /not run|do not run/);
    assert.match(stderr, /found in the X-Pusher-Signature header: not written into the notebook; store it as the secret "api_example_com_x_pusher_signature"/);
  });

  it('Postman v2.1: null query pairs, path variables, formdata, a disabled body, a name holding a key (masked), Basic-auth variables', async () => {
    const { notebook, stderr } = await importFixture('postman-v21.json');
    const cells = code(notebook);
    assert.equal(cells[0].value, 'baseUrl = https://api.openai.com/v1\nmodel_id = gpt-4o-mini');
    assert.deepEqual(
      cells.slice(1).map((c) => c.value.split('\n')[0]),
      // The classic geocoder is a maps cell too: maps connections serve /maps/api/… (its key taken out).
      ['GET /models?limit=5', 'GET /models/{{model_id}}', 'POST /audio/transcriptions', 'DELETE /files/file-abc', 'GET /maps/api/geocode/json?address=Lisbon'],
    );
    assert.match(cells[3].value, /name="file"; filename="sample\.wav"\nContent-Type: audio\/wav\n\n< \.\/sample\.wav\n/);
    assert.doesNotMatch(notebook, /stale|name="old"/);
    assert.match(notebook, /## https:\/\/maps\.googleapis\.com\/maps\/api\/geocode\/json\?address=Lisbon&key=\*\*\*/);
    assert.match(stderr, /"Delete with a leftover body": the raw body is disabled in Postman: not carried over/);
    assert.match(stderr, /key=\*\*\*/);
    assert.equal(stderr.match(/^a key /gm)?.length, 1, stderr);
  });

  it('Postman v1: exit 2 with "export it as v2.1", nothing written', async () => {
    const dir = tempDir();
    copyFileSync(path.join(FIXTURES, 'postman-v1.json'), path.join(dir, 'old.json'));
    const r = await runCli(['import', 'old.json', '-o', 'out.awb.md'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'api-workbench: old.json: collection format: Postman collection v1 is not supported: export it as v2.1 from Postman\n');
    assert.equal(existsSync(path.join(dir, 'out.awb.md')), false);
  });

  it("cURL snippets: Google's # [START …] file, a timed command piped to jq, a proxychains upload with -F", async () => {
    const google = await importFixture('google-snippet.sh');
    assert.match(google.notebook, /^```maps\nPOST \/v1\/places:searchText\n/);
    assert.doesNotMatch(google.stderr, /^a key /m);
    const piped = await importFixture('piped.sh');
    assert.equal(code(piped.notebook)[0].value, 'GET /models');
    assert.match(piped.stderr, /not carried over from the curl command: time \(the command around curl\), \| and what follows it \(line 3\)/);
    const upload = await importFixture('upload.sh');
    assert.match(code(upload.notebook)[0].value, /^POST \/audio\/transcriptions\nContent-Type: multipart\/form-data; boundary=----AwbBoundary\n\n/);
    assert.match(code(upload.notebook)[0].value, /filename="audio\.mp3"\nContent-Type: audio\/mpeg\n\n< \/path\/to\/file\/audio\.mp3\n/);
  });

  it('--connections with two llm connections: a request to the second one names it; one unreadable request still exits 0', async () => {
    const dir = tempDir();
    write(
      dir,
      'connections.json',
      JSON.stringify({
        llm: [
          { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
          { name: 'Ollama', baseUrl: 'http://localhost:11434/v1' },
        ],
      }),
    );
    write(
      dir,
      'local.http',
      '### local model\nPOST http://localhost:11434/v1/chat/completions\nContent-Type: application/json\n\n{"model": "llama3", "messages": [{"role": "user", "content": "hi"}]}\n\n### broken\nGET https://api.openai.com/v1/models\nthis is no header\n',
    );
    const r = await runCli(['import', 'local.http', '--connections', 'connections.json', '-o', 'out.awb.md'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const notebook = read(path.join(dir, 'out.awb.md'));
    assert.match(notebook, /```llm connection=Ollama\nPOST \/chat\/completions\n/);
    assert.match(r.stderr, /line 8: kept as an http block: line 9: "this is no header" is not a header line \(Name: value\)/);
    // And back out: the Ollama cell goes to Ollama's host, not to the first connection's.
    const back = await runCli(['export', 'out.awb.md', '--connections', 'connections.json'], { cwd: dir });
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /^POST http:\/\/localhost:11434\/v1\/chat\/completions$/m);
    assert.match(back.stdout, /^GET https:\/\/api\.openai\.com\/v1\/models$/m);
  });

  // How many requests each fixture holds (the pasted cURL command counts as one).
  const REQUESTS: Record<string, number> = { 'rest-client.http': 6, 'httpyac.http': 4, 'intellij.http': 3 };
  for (const [fixture, count] of Object.entries(REQUESTS)) {
    it(`round trip ${fixture} → notebook → .http keeps every request`, async () => {
      const { dir } = await importFixture(fixture);
      const original = { length: count };
      const first = await runCli(['export', 'out.awb.md', '-o', 'back.http'], { cwd: dir });
      assert.equal(first.code, 0, first.stderr);
      const back = read(path.join(dir, 'back.http'));
      assert.equal(requestLines(back).length, original.length, back);
      // And again: the exported file imports to the same requests.
      const again = await runCli(['import', 'back.http', '-o', 'again.awb.md'], { cwd: dir });
      assert.equal(again.code, 0, again.stderr);
      assert.equal((await runCli(['export', 'again.awb.md', '-o', 'again.http'], { cwd: dir })).code, 0);
      // (A block kept for its script is a cell the second time, its {{baseUrl}} filled in: the same request.)
      const filled = (lines: string[]) => lines.map((l) => l.replace('{{baseUrl}}', 'https://api.example.com'));
      assert.deepEqual(filled(requestLines(read(path.join(dir, 'again.http')))), filled(requestLines(back)));
    });
  }
});
