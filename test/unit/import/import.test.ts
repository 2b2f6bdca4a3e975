import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import {
  connectionsHost,
  importCurl,
  importHttpFile,
  importPostman,
  parseNotebook,
  runNotebook,
  sandboxConnections,
  type CellResult,
  type ImportResult,
} from '../../../src/notebook/api';
import {
  ALL_SECRETS,
  GOOGLE_KEY,
  OPENAI_CHAT_CURL,
  OPENAI_CHAT_CURL_WITH_KEY,
  OPENAI_KEY,
  PLACES_TEXT_SEARCH_CURL,
  POSTMAN_COLLECTION,
  POSTMAN_TOKEN,
  PUSHER_PUBLISH_CURL,
  PUSHER_SIGNATURE,
  REST_CLIENT_FILE,
  ROUTES_CURL,
} from './samples';

/** The notebook parses without a problem and holds none of the keys (nor does the report). */
function assertClean(result: ImportResult): void {
  const problems = parseNotebook(result.text).problems;
  assert.deepEqual(problems, [], `${result.text}\n${JSON.stringify(problems)}`);
  for (const secret of ALL_SECRETS) {
    assert.ok(!result.text.includes(secret), `a key reached the notebook:\n${result.text}`);
    assert.ok(!result.report.join('\n').includes(secret), `a key reached the report: ${result.report.join('\n')}`);
  }
}

function codeCells(text: string) {
  return parseNotebook(text).cells.filter((c) => c.kind === 'code');
}

describe('import: cURL, .http and Postman into notebooks that run against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({
      port: 0,
      llmKey: 'sk-sandbox-import-key-0123456789',
      mapsKey: 'AIzaSandboxImportKey0123456789',
      llm: { tokenRate: 0 },
      realtime: { appId: '777', key: 'importpublickey', secret: 'import-app-secret-0123456789', demo: false },
    });
  });
  after(async () => {
    await sandbox.close();
  });

  /** Runs the imported notebook on the sandbox's connections: the cells' relative paths go to the sandbox. */
  async function run(text: string): Promise<CellResult[]> {
    const { connections, key } = sandboxConnections(sandbox.info);
    const report = await runNotebook(text, { host: connectionsHost({ connections, key }), file: 'imported.awb.md' });
    assert.deepEqual(report.problems, []);
    return report.results;
  }

  function assertAllPassed(results: CellResult[], count: number): void {
    assert.equal(results.length, count);
    for (const r of results)
      assert.equal(r.ok, true, JSON.stringify({ error: r.error, status: r.response?.status, body: r.response?.text.slice(0, 300), request: r.request }));
  }

  it('OpenAI docs chat completion: an llm cell POST /chat/completions, key variable dropped, runs', async () => {
    const result = importCurl(OPENAI_CHAT_CURL);
    assertClean(result);
    const [cell] = codeCells(result.text);
    assert.equal(cell.language, 'llm');
    assert.match(cell.value, /^POST \/chat\/completions\nContent-Type: application\/json\n\n\{\n {2}"model": "gpt-4o",/);
    assert.doesNotMatch(result.text, /Authorization/i);
    // $OPENAI_API_KEY names a key; nothing to store.
    assert.deepEqual(result.secrets, []);
    assert.ok(result.report.some((l) => /Authorization header was removed/.test(l)));
    // The sandbox serves its own model: the only edit a user would make to run it there.
    assertAllPassed(await run(result.text.replace('gpt-4o', 'sandbox-chat')), 1);
  });

  it('a pasted OpenAI key comes back separately with its service, origin and header', () => {
    const result = importCurl(OPENAI_CHAT_CURL_WITH_KEY);
    assertClean(result);
    assert.deepEqual(result.secrets, [{ service: 'llm', origin: 'https://api.openai.com', header: 'Authorization', value: OPENAI_KEY }]);
  });

  it('Google Places text search: a maps cell with the Google path and field mask, key separate, runs', async () => {
    const result = importCurl(PLACES_TEXT_SEARCH_CURL);
    assertClean(result);
    const [cell] = codeCells(result.text);
    assert.equal(cell.language, 'maps');
    assert.match(cell.value, /^POST \/v1\/places:searchText\n/);
    assert.match(cell.value, /X-Goog-FieldMask: places.displayName,places.formattedAddress,places.priceLevel/);
    assert.deepEqual(result.secrets, [{ service: 'maps', origin: 'https://places.googleapis.com', header: 'X-Goog-Api-Key', value: GOOGLE_KEY }]);
    const [res] = await run(result.text);
    assertAllPassed([res], 1);
    assert.equal(res.response?.status, 200);
  });

  it('Google Routes with ?key= in the URL: the parameter is taken out, the route runs', async () => {
    const result = importCurl(ROUTES_CURL);
    assertClean(result);
    const [cell] = codeCells(result.text);
    assert.match(cell.value, /^POST \/directions\/v2:computeRoutes\n/);
    assert.deepEqual(result.secrets, [{ service: 'maps', origin: 'https://routes.googleapis.com', param: 'key', value: GOOGLE_KEY }]);
    const [res] = await run(`${result.text.replace('\n```\n', '\n\n?? status == 200\n?? json.routes[0].distanceMeters > 100000\n```\n')}`);
    assertAllPassed([res], 1);
    assert.equal(res.assertions.length, 2);
  });

  it('Pusher REST publish: a realtime PUBLISH cell with the event data; signature dropped; publishes on the sandbox', async () => {
    const result = importCurl(PUSHER_PUBLISH_CURL);
    assertClean(result);
    const [cell] = codeCells(result.text);
    assert.equal(cell.language, 'realtime');
    assert.equal(cell.value, 'PUBLISH my-channel my-event\n{"message":"hello world"}');
    assert.deepEqual(result.secrets, [{ service: 'realtime', origin: 'https://api-eu.pusher.com', param: 'auth_signature', value: PUSHER_SIGNATURE }]);
    assert.doesNotMatch(result.text, /auth_key|278d425bdf160c739803/);
    const [res] = await run(result.text);
    assertAllPassed([res], 1);
    assert.equal(res.response?.status, 200);
  });

  it('a host of a known connection (the sandbox itself) becomes a cell of that service', async () => {
    const result = importCurl(`curl ${sandbox.info.llm.baseUrl}/models`, { connections: [{ service: 'llm', baseUrl: sandbox.info.llm.baseUrl }] });
    assertClean(result);
    assert.equal(codeCells(result.text)[0].value, 'GET /models');
    assertAllPassed(await run(result.text), 1);
    // Without the connection, /v1/models is still OpenAI's path (any OpenAI-compatible server answers it):
    // an llm cell keeping the absolute URL, and the report asks for a connection to that host.
    const unknown = importCurl(`curl ${sandbox.info.llm.baseUrl}/models`);
    assert.deepEqual(
      codeCells(unknown.text).map((c) => c.language),
      ['llm'],
    );
    assert.equal(unknown.text, `\`\`\`llm\nGET ${sandbox.info.llm.baseUrl}/models\n\`\`\`\n`);
    assert.ok(unknown.report.some((l) => /no llm connection is for 127\.0\.0\.1:\d+/.test(l)));
  });

  it('.http (REST Client): vars cell, names, {{models.json…}} reference, comments as Markdown, the outside host kept; runs', async () => {
    const result = importHttpFile(REST_CLIENT_FILE, { source: 'requests.http' });
    assertClean(result);
    const cells = parseNotebook(result.text).cells;
    const code = cells.filter((c) => c.kind === 'code');
    assert.deepEqual(
      code.map((c) => [c.language, c.metadata.attributes?.name]),
      [
        ['vars', undefined],
        ['llm', 'models'],
        ['llm', undefined],
        ['maps', 'place'],
        ['http', undefined],
      ],
    );
    assert.equal(code[0].value, 'baseUrl = https://api.openai.com/v1\ncity = Lisbon');
    assert.equal(code[1].value, 'GET /models');
    assert.match(code[2].value, /"model": "\{\{models\.json\.data\[0\]\.id\}\}"/);
    assert.match(code[2].value, /What should I see in \{\{city\}\}\?/);
    assert.match(result.text, /Ask the first model about the city/);
    assert.match(result.text, /## Find the city/);
    // The outside host is a runnable http cell; its key is read from a secret the user stores under the name given.
    assert.match(result.text, /```http\nGET https:\/\/httpbin\.org\/anything\?key=\{\{\$secret httpbin_org_key\}\}\nAccept: application\/json\n```/);
    assert.ok(result.report.some((l) => /httpbin\.org is not a host/.test(l)));
    assert.deepEqual(
      result.secrets.map((s) => [s.service, s.origin, s.header ?? s.param, s.variable]),
      [
        ['llm', 'https://api.openai.com', 'Authorization', 'token'],
        ['maps', 'https://places.googleapis.com', 'X-Goog-Api-Key', undefined],
        [undefined, 'https://httpbin.org', 'key', undefined],
      ],
    );
    assert.equal(result.secrets[2].secretName, 'httpbin_org_key');
    const results = await run(result.text);
    // The outside host's http cell is not sent: no host is allowed here.
    assert.match(results.find((r) => r.service === 'http')?.error ?? '', /httpbin\.org is not an allowed host/);
    assertAllPassed(
      results.filter((r) => r.service !== 'http'),
      4,
    );
    assert.match(results[2].request?.body ?? '', /"model": "sandbox-chat"/);
  });

  it('Postman v2.1: folder heading, variables, bearer and apikey auth taken out, the test script in its cell; runs', async () => {
    const result = importPostman(POSTMAN_COLLECTION);
    assertClean(result);
    assert.match(result.text, /^# Workbench sample\n/);
    assert.match(result.text, /\n## Language model\n/);
    assert.match(result.text, /\n### List models\n/);
    assert.match(result.text, /```llm name=List_models\nGET \/models\n\n> \{%\n[^`]*pm\.response\.to\.have\.status\(200\);[^`]*\n%\}\n```/);
    const code = codeCells(result.text);
    assert.deepEqual(
      code.map((c) => [c.language, c.metadata.attributes?.name, c.value.split('\n')[0]]),
      [
        ['vars', undefined, 'baseUrl = https://api.openai.com/v1'],
        ['llm', 'List_models', 'GET /models'],
        ['llm', 'Chat', 'POST /chat/completions'],
        ['maps', 'Places_search', 'POST /v1/places:searchText'],
      ],
    );
    assert.equal(code[0].value, 'baseUrl = https://api.openai.com/v1\nquestion = Hello there');
    assert.deepEqual(
      result.secrets.map((s) => [s.service, s.header, s.variable, s.value]),
      [
        ['llm', 'Authorization', 'openaiToken', POSTMAN_TOKEN],
        ['maps', 'X-Goog-Api-Key', undefined, GOOGLE_KEY],
      ],
    );
    assert.doesNotMatch(result.text, /not run|do not run/);
    assertAllPassed(await run(result.text), 4);
  });
});
