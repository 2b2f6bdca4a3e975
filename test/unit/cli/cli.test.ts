// The command-line runner's basics, through dist/cli.js as CI runs it: exit codes, what a passing
// and a failing run print, and the errors that stop a run before anything is sent.
// (Keys and secrets: cliKeys.test.ts; reports, data rows, parallel runs: cliReports.test.ts. One
// file each so that mocha's parallel workers share them: together they took ~500 s in one worker.)
import * as assert from 'node:assert/strict';
import { assertBuilt, assertNoStack, countingServer, lastLine, MODELS, runCli, SEARCH, tempDir, write } from './cliKit';

describe('CLI (dist/cli.js run)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('passes a notebook whose cells all hold: exit 0, one line per cell, "N passed, 0 failed" last', async () => {
    const nb = write(
      dir,
      'ok.awb.md',
      `# ok\n\n\`\`\`vars\ncity = Lisbon\n\`\`\`\n\n${MODELS('models')}\n${SEARCH('place', '{{city}}', '?? json.places[0].displayName.text contains {{city}}')}`,
    );
    const r = await runCli(['run', nb, '--sandbox'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /✓ models/);
    assert.match(r.stdout, /✓ place/);
    assert.equal(lastLine(r.stdout), '2 passed, 0 failed');
  });

  it('a failing assertion: exit 1, the assertion with expected and actual, the request id', async () => {
    const nb = write(dir, 'fail.awb.md', MODELS('models', '?? status == 201') + SEARCH('place', 'Lisbon'));
    const r = await runCli(['run', nb, '--sandbox'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✗ models/);
    assert.match(r.stdout, /\?\? status == 201/);
    assert.match(r.stdout, /expected: == 201/);
    assert.match(r.stdout, /actual: +200/);
    assert.match(r.stdout, /request id: \S+/);
    assert.equal(lastLine(r.stdout), '1 passed, 1 failed');
  });

  it('a malformed notebook: exit 2 naming file:line, nothing run, no stack trace', async () => {
    const nb = write(dir, 'bad.awb.md', '# bad\n\n```llm\nFETCH /models\n```\n');
    const r = await runCli(['run', nb, '--sandbox'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`${nb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: `));
    assert.equal(r.stdout, '');
    assertNoStack(r.stderr);
  });

  it('an unknown connection name: exit 2 naming file:line and the names there are', async () => {
    const nb = write(dir, 'unknown.awb.md', '```llm connection=Nope\nGET /models\n```\n');
    const r = await runCli(['run', nb, '--sandbox'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown\.awb\.md:1: no llm connection is named "Nope" \(there are: "Local Sandbox"\)/);
  });

  it('a key variable that is not set: exit 2 naming the variable, nothing sent', async () => {
    const target = await countingServer();
    try {
      const conns = write(dir, 'conns-missing.json', JSON.stringify({ llm: [{ name: 'Work', baseUrl: `${target.url}/v1`, keyEnv: 'AWB_TEST_MISSING_KEY' }] }));
      const nb = write(dir, 'work.awb.md', '```llm connection=Work\nGET /models\n```\n');
      const r = await runCli(['run', nb, '--connections', conns], { cwd: dir, env: { AWB_TEST_MISSING_KEY: undefined } });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /AWB_TEST_MISSING_KEY/);
      assertNoStack(r.stderr);
      assert.equal(target.hits(), 0);
    } finally {
      target.server.close();
    }
  });

  it('--help, --version and a wrong option', async () => {
    const help = await runCli(['--help'], { cwd: dir });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: api-workbench run/);
    const version = await runCli(['--version'], { cwd: dir });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const wrong = await runCli(['run', 'x.awb.md', '--frobnicate'], { cwd: dir });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--frobnicate/);
    assertNoStack(wrong.stderr);
  });
});
