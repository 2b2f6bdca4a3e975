// An imported cell that names a real host (api.openai.com, places.googleapis.com) runs against
// another connection (the sandbox) once its request line is made relative to the service's API base.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpConnectionFromSetting, type HttpConnection } from '../../../src/core/connections';
import { connectionsHost, foreignTarget, runNotebook, withRelativeTarget, type NotebookCellData } from '../../../src/notebook/api';

const cell = (language: string, value: string): NotebookCellData => ({ kind: 'code', language, value, metadata: {} });

describe('an imported cell run against another connection', function () {
  this.timeout(20_000);
  let server: Server;
  let llm: HttpConnection;
  const received: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end('{"data": []}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const c = httpConnectionFromSetting('llm', {
      name: 'Local',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      auth: { placement: 'none' },
    });
    if (typeof c === 'string') throw new Error(c);
    llm = c;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds the real host and the path relative to the API base (llm under /v1, maps at the origin)', () => {
    const t = foreignTarget(cell('llm', '# list them\nGET https://api.openai.com/v1/models?limit={{n}}\n\n?? status == 200'), llm);
    assert.deepEqual(t && { host: t.host, relative: t.relative, line: t.line }, { host: 'api.openai.com', relative: '/models?limit={{n}}', line: 1 });
    const maps = foreignTarget(cell('maps', 'POST https://places.googleapis.com/v1/places:searchText\n\n{"textQuery": "Lyon"}'), undefined);
    assert.equal(maps?.relative, '/v1/places:searchText');
  });

  it('leaves alone what the connection serves, relative cells, and URLs outside the service’s API', () => {
    assert.equal(foreignTarget(cell('llm', `GET ${llm.baseUrl}/models`), llm), undefined);
    assert.equal(foreignTarget(cell('llm', 'GET /models'), llm), undefined);
    assert.equal(foreignTarget(cell('llm', 'GET https://example.com/status'), llm), undefined);
    // An OpenAI-compatible server's path (Ollama, vLLM, any /v1/models) is the service's API: offered.
    assert.equal(foreignTarget(cell('llm', 'GET https://example.com/v1/models'), llm)?.relative, '/models');
    assert.equal(foreignTarget(cell('http', 'GET https://api.openai.com/v1/models'), llm), undefined);
  });

  it('the rewritten cell is sent to the connection’s own host, where the absolute one was not sent', async () => {
    const text = 'GET https://api.openai.com/v1/models?limit=2\r\n\r\n?? status == 200';
    const host = connectionsHost({ connections: [llm], key: () => undefined });
    const run = (value: string) => runNotebook(`\`\`\`llm\n${value}\n\`\`\`\n`, { host, file: 'imported.awb.md' });
    const before = await run(text);
    assert.equal(before.results[0]?.ok, false);
    assert.deepEqual(received, [], 'the absolute URL is not sent with this connection');
    const t = foreignTarget(cell('llm', text), llm);
    assert.ok(t);
    const rewritten = withRelativeTarget(text, t);
    assert.equal(rewritten, 'GET /models?limit=2\r\n\r\n?? status == 200');
    const after = await run(rewritten);
    assert.equal(after.results[0]?.ok, true, after.results[0]?.error);
    assert.deepEqual(received, ['GET /v1/models?limit=2']);
  });
});
