// Ctrl-C ends a CLI run, always (issue "Reliability, round 3", class 1): a check whose pattern
// backtracked for ever held the event loop, so SIGINT was never even handled. Patterns are bounded
// now, and a first Ctrl-C gives the run 1.5 s to stop cleanly before it quits (exit 130).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { assertBuilt, CLI, tempDir, write } from './cliKit';

describe('CLI: Ctrl-C', function () {
  this.timeout(40_000);

  it('during a LISTEN, after a check with a backtracking-prone pattern: the run stops and says so, exit non-zero', async () => {
    assertBuilt();
    const dir = tempDir();
    const notebook = write(
      dir,
      'n.awb.md',
      '# t\n\n```llm\nGET /v1/models\n\n?? text matches /(\\w+\\s?)*$/\n```\n\n```realtime name=updates\nLISTEN my-channel 60s\n```\n',
    );
    const child = spawn(process.execPath, [CLI, 'run', notebook, '--sandbox'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      // The model listing (with its check) has run: the LISTEN is under way.
      if (/✗|✓/.test(stdout) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.notEqual(code, 0, stdout);
    assert.match(stdout, /interrupted: stopping/);
  });
});
