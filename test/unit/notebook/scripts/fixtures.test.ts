import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/host';
import { connectionsHost, importHttpFile, importPostman, runNotebook, sandboxConnections, type CellResult } from '../../../../src/notebook/api';

const fixture = (name: string) => readFileSync(path.resolve('test/unit/notebook/scripts/fixtures', name), 'utf8');

describe('collections and .http files with scripts run green from import against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: 'sk-sandbox-scripts-key-0123456789', mapsKey: 'AIzaSandboxScriptsKey0123456789', llm: { tokenRate: 0 } });
  });
  after(() => sandbox.close());

  async function run(text: string): Promise<CellResult[]> {
    const { connections, key } = sandboxConnections(sandbox.info);
    const report = await runNotebook(text, { host: connectionsHost({ connections, key }), file: 'imported.awb.md' });
    assert.deepEqual(report.problems, []);
    for (const r of report.results) assert.equal(r.ok, true, JSON.stringify({ error: r.error, failed: r.assertions.filter((a) => !a.passed) }));
    return report.results;
  }

  it('Postman: a test script stores the model the next request sends; a crypto-js HMAC pre-request header; every pm.expect chain', async () => {
    const results = await run(importPostman(fixture('chained.postman_collection.json')).text);
    assert.deepEqual(
      results.map((r) => r.assertions.map((a) => a.source)),
      [
        ['answered 2xx', 'status 200'],
        [
          'answered 2xx',
          'eql',
          'equal',
          'include',
          'have.property',
          'be.a / an',
          'above / below',
          'oneOf',
          'match',
          'to.be.ok',
          'not',
          'legacy: body mentions the model',
        ],
      ],
    );
    // The HMAC header the pre-request script added was sent; as a signature it is masked in the record.
    assert.equal(results[1].request?.headers['x-body-signature'], '***');
    assert.match(results[1].request?.body ?? '', /"model": "[^{]/);
  });

  it('.http: IntelliJ handlers with client.global.set chain two requests; client.test checks and client.log lines', async () => {
    const results = await run(importHttpFile(fixture('handlers.http')).text);
    assert.deepEqual(
      results.map((r) => r.assertions.map((a) => [a.source, a.passed])),
      [[['listed', true]], [['answered by the kept model', true]]],
    );
    assert.match(results[1].logs?.[0] ?? '', /^answered: \d+ characters$/);
  });
});
