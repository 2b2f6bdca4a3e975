// `api-workbench run … | head`: the reader goes away after a few lines. The run used to end there
// with Node's "Unhandled 'error' event" (EPIPE) on stdout, in the middle of a cell; it goes on to
// its last cell and ends with its own exit code, which `set -o pipefail` reports.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { assertBuilt, CLI, countingServer, tempDir, write } from './cliKit';

describe('CLI: output to a pipe that closes', function () {
  this.timeout(40_000);

  it('runs every cell and exits 0 when the reader stops after the first line, with no error on stderr', async () => {
    assertBuilt();
    const dir = tempDir();
    const target = await countingServer();
    try {
      const cells = Array.from({ length: 8 }, (_, i) => `\`\`\`http name=item${i}\nGET ${target.url}/items/${i}\n\n?? status == 200\n\`\`\`\n`);
      const notebook = write(dir, 'n.awb.md', `# t\n\n${cells.join('\n')}`);
      const child = spawn(process.execPath, [CLI, 'run', notebook, '--allow-host', new URL(target.url).host], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CI: 'true' },
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      // As `head -1` does: read once, then close the pipe.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      assert.equal(stderr, '');
      assert.equal(code, 0);
      assert.equal(target.hits(), 8, 'the run stopped before its last cell');
    } finally {
      target.server.close();
    }
  });
});
