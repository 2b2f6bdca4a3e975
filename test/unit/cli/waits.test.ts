// A cell slowed by the service's rate limit says why: the server answers 429 with Retry-After, the
// request is sent again after it, and the CLI's line for the cell names the retry and the wait
// (the JSON report carries them as `waits`), instead of a bare "(1012 ms)" that reads like a slow
// service.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertBuilt, lastLine, runCli, tempDir, write } from './cliKit';

const NOTEBOOK = '# waits\n\n```llm name=models\nGET /models\n\n?? status == 200\n```\n';

describe('CLI: a cell that waited says why', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Server;
  let base: string;
  /** Statuses to answer, in order; then 200. */
  let script: number[];
  let seen: number;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    server = createServer((req, res) => {
      seen++;
      req.resume();
      const status = script.shift() ?? 200;
      res.setHeader('content-type', 'application/json');
      if (status === 429) {
        res.writeHead(429, { 'retry-after': '1' });
        res.end('{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}');
        return;
      }
      res.end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  beforeEach(() => {
    seen = 0;
  });
  after(() => server.close());

  function connections(): string {
    return write(dir, 'connections.json', JSON.stringify({ llm: [{ name: 'Limited', baseUrl: base, keyEnv: 'WAITS_KEY' }] }));
  }

  it('a 429 with Retry-After: the cell passes, and its line says it was sent again after waiting', async () => {
    script = [429];
    const nb = write(dir, 'limited.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', connections()], { cwd: dir, env: { WAITS_KEY: 'sk-waits-123456' } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(seen, 2);
    assert.match(r.stdout, /✓ models \(\d+ ms, after 1 retry \(429; waited 1\.00 s\)\)/);
    assert.equal(lastLine(r.stdout), '1 passed, 0 failed');

    script = [429];
    const json = await runCli(['run', nb, '--connections', connections(), '--reporter', 'json'], { cwd: dir, env: { WAITS_KEY: 'sk-waits-123456' } });
    const report = JSON.parse(json.stdout) as { suites: { cells: { waits?: unknown }[] }[] };
    assert.deepEqual(report.suites[0].cells[0].waits, { queuedMs: 0, retries: [{ status: 429, delayMs: 1000 }] });
  });

  it('a cell answered at once says nothing more than its time', async () => {
    script = [];
    const nb = write(dir, 'quick.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', connections()], { cwd: dir, env: { WAITS_KEY: 'sk-waits-123456' } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ models \(\d+ ms\)\n/);
  });
});
