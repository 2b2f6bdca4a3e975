// A run that cannot finish must never exit 0. A LISTEN cell whose realtime server cannot be reached
// used to leave its subscription unsettled behind unref'd retry timers: the event loop emptied,
// Node exited 0 with no summary line, and CI went green with the server down.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { assertBuilt, lastLine, runCli, tempDir, write } from './cliKit';

/** A port that was just free: nothing listens on it, so a connection is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const LISTEN = '# t\n\n```realtime name=updates\nLISTEN my-channel 2s\n```\n';

describe('CLI: a run that cannot finish', function () {
  this.timeout(40_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  async function runAgainst(host: string, port: number, label: string) {
    const connections = write(
      dir,
      `${label}.json`,
      JSON.stringify({ realtime: [{ name: 'Down', appId: '1', key: 'app-key', host, port, useTLS: false, keyEnv: 'RT_SECRET' }] }),
    );
    const notebook = write(dir, `${label}.awb.md`, LISTEN);
    return runCli(['run', notebook, '--connections', connections], { cwd: dir, env: { RT_SECRET: 'not-used-secret' } });
  }

  it('LISTEN on a refused port or an unknown host: the cell fails naming the server and why, exit 1 with the summary', async () => {
    const [refused, unknown] = await Promise.all([runAgainst('127.0.0.1', await closedPort(), 'refused'), runAgainst('no-such-host.invalid', 443, 'unknown')]);
    for (const [r, why] of [
      [refused, /ECONNREFUSED/],
      [unknown, /ENOTFOUND|EAI_AGAIN/],
    ] as const) {
      const all = r.stdout + r.stderr;
      assert.equal(r.code, 1, all);
      assert.match(all, /✗ updates|updates.*line 3|line 3/);
      assert.match(all, /Could not connect to the realtime server ws:\/\/\S+ within 10 s/);
      assert.match(all, why);
      assert.doesNotMatch(all, /\(200,/, 'a listener that never subscribed shows no 200');
      assert.equal(lastLine(r.stdout), '0 passed, 1 failed');
    }
  });
});
