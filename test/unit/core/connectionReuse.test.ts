// Consecutive requests to one host share one connection: a run of cells, a list then its details.
// Each new connection to a real API is a TCP and TLS handshake before the request can go.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { HttpClient } from '../../../src/core/http';
import { DEFAULT_RETRY } from '../../../src/core/retry';

describe('Connection reuse', () => {
  let server: http.Server;
  let connections = 0;
  let baseUrl = '';
  let agent: Agent;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.endsWith('/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"n":1}\n\n');
        res.end('data: [DONE]\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  beforeEach(() => {
    connections = 0;
    agent = new Agent();
  });

  afterEach(() => agent.close());

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function client(): HttpClient {
    return new HttpClient({ service: 'Test', baseUrl, auth: { placement: 'none' }, retry: { ...DEFAULT_RETRY, maxRetries: 0 }, dispatcher: agent });
  }

  it('sends JSON requests one after another over one connection', async () => {
    const c = client();
    for (let i = 0; i < 5; i++) assert.equal((await c.json<{ ok: boolean }>({ path: 'models' })).data.ok, true);
    assert.equal(connections, 1);
  });

  it('sends the next request over the same connection once a streamed answer has been read to its end', async () => {
    const c = client();
    for (let i = 0; i < 3; i++) {
      const res = await c.stream({ path: 'stream', body: {} });
      let text = '';
      for await (const chunk of res.body) text += Buffer.from(chunk).toString('utf8');
      assert.match(text, /\[DONE\]/);
    }
    await c.json({ path: 'models' });
    assert.equal(connections, 1);
  });
});
