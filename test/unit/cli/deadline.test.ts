// --timeout is the whole cell's deadline, streams included (issue "Reliability, round 3", class 4):
// a streamed answer whose server sends only keep-alive comments never goes silent, so the idle
// timeout never fired and the cell ran until the 15-minute stream deadline.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertBuilt, lastLine, runCli, tempDir, write } from './cliKit';

describe('CLI: --timeout holds for a stream that never ends', function () {
  this.timeout(30_000);
  let server: Server;
  let port: number;

  before(async () => {
    assertBuilt();
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_keepalive' });
      res.write(': connected\n\n');
      const beat = setInterval(() => res.write(': keep-alive\n\n'), 100);
      res.on('close', () => clearInterval(beat));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('a streamed answer of keep-alive comments fails at --timeout, saying it was the deadline', async () => {
    const dir = tempDir();
    const connections = write(dir, 'c.json', JSON.stringify({ llm: [{ name: 'Dripping', baseUrl: `http://127.0.0.1:${port}/v1`, keyEnv: 'DRIP_KEY' }] }));
    const notebook = write(
      dir,
      'n.awb.md',
      '# t\n\n```llm name=chat\nPOST /v1/chat/completions\n\n{"model": "m", "stream": true, "messages": [{"role": "user", "content": "hi"}]}\n```\n',
    );
    const r = await runCli(['run', notebook, '--connections', connections, '--timeout', '1500'], {
      cwd: dir,
      env: { DRIP_KEY: 'drip-key-0123456789' },
      timeoutMs: 25_000,
    });
    const all = r.stdout + r.stderr;
    assert.equal(r.code, 1, all);
    assert.match(all, /stream did not finish within its deadline of 1\.5 s/);
    assert.equal(lastLine(r.stdout), '0 passed, 1 failed');
  });
});
