// Files as users' tools write them: Windows editors put a UTF-8 byte-order mark first, PowerShell's
// `>` writes UTF-16 LE, an empty or foreign file holds no cells, and a typo like 1e308 in a timeout
// is a setting no timer can hold. Each must run, or stop before sending anything with a message
// that names the file and what to do (exit 2), never "0 passed" with exit 0.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const NO_CELLS = '# Notes\n\nJust prose, no request cells.\n';
const MAPS = '# t\n\n```maps name=geo\nGET /maps/api/geocode/json?address=Eiffel+Tower\n```\n';

describe('CLI: input files as other tools write them', function () {
  this.timeout(30_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  function withBytes(name: string, bytes: Buffer): string {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  }

  it('a connections file with a UTF-8 byte-order mark is read, not rejected as bad JSON', async () => {
    const connections = withBytes(
      'bom.json',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ maps: [{ name: 'M', baseUrl: 'http://127.0.0.1:1' }] }))]),
    );
    const notebook = write(dir, 'bom.awb.md', MAPS);
    const r = await runCli(['run', notebook, '--connections', connections], { cwd: dir });
    // Nothing listens at the connection's address, so the cell runs and fails (exit 1): the file was read.
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /0 passed, 1 failed\n?$/);
  });

  it('a UTF-16 LE notebook with its BOM is decoded and its cells are found', async () => {
    const connections = write(dir, 'down.json', JSON.stringify({ maps: [{ name: 'M', baseUrl: 'http://127.0.0.1:1' }] }));
    const notebook = withBytes('utf16.awb.md', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(MAPS, 'utf16le')]));
    const r = await runCli(['run', notebook, '--connections', connections], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /0 passed, 1 failed\n?$/);
  });

  it('a notebook that is not UTF-8 stops with exit 2 naming the file', async () => {
    const notebook = withBytes('latin1.awb.md', Buffer.from('# caf\xe9\n\n```llm\nhi\n```\n', 'latin1'));
    const r = await runCli(['run', notebook], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /latin1\.awb\.md: the notebook is not UTF-8 text/);
  });

  it('a run with no request cells is exit 2 saying so, not "0 passed" and exit 0', async () => {
    const empty = write(dir, 'empty.awb.md', '');
    const prose = write(dir, 'prose.awb.md', NO_CELLS);
    const r = await runCli(['run', empty, prose], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /no request cells to run/);
    assert.doesNotMatch(r.stdout, /0 passed/);
  });

  it('a timeout of 1e308 in a connections file, or --timeout beyond an hour, is refused with its limit', async () => {
    const connections = write(dir, 'huge.json', JSON.stringify({ maps: [{ name: 'M', baseUrl: 'http://127.0.0.1:1', timeoutSeconds: 1e308 }] }));
    const notebook = write(dir, 'huge.awb.md', MAPS);
    const fromFile = await runCli(['run', notebook, '--connections', connections], { cwd: dir });
    assert.equal(fromFile.code, 2, fromFile.stdout + fromFile.stderr);
    assert.match(fromFile.stderr, /huge\.json/);
    assert.match(fromFile.stderr, /timeoutSeconds/);
    const fromFlag = await runCli(['run', notebook, '--timeout', '99999999999'], { cwd: dir });
    assert.equal(fromFlag.code, 2, fromFlag.stdout + fromFlag.stderr);
    assert.match(fromFlag.stderr, /--timeout takes a whole number from 1 to 3,600,000/);
  });

  it('a 2 MB check line is printed once, cut with a note, not twice whole', async () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    const notebook = write(dir, 'long.awb.md', `# t\n\n\`\`\`llm\nGET /v1/models\n\n?? text contains ${long}\n\`\`\`\n`);
    const r = await runCli(['run', notebook, '--sandbox'], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.ok(r.stdout.length < 64 * 1024, `${r.stdout.length} characters printed`);
    assert.match(r.stdout, /more characters not shown/);
    assert.match(r.stdout, /0 passed, 1 failed\n?$/);
  });

  it('a FIFO or a device given as --baseline, --data, --connections or a notebook is refused at once, exit 2 (no hang, no 8 GB)', async () => {
    const notebook = write(dir, 'special.awb.md', MAPS);
    const fifo = path.join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const cases: Array<[string[], RegExp]> = [
      [['run', notebook, '--sandbox', '--baseline', '/dev/zero'], /\/dev\/zero: cannot read the baseline report \(--baseline\): not a regular file/],
      [['run', notebook, '--sandbox', '--baseline', fifo], /pipe\.json: cannot read the baseline report \(--baseline\): not a regular file/],
      [['run', notebook, '--sandbox', '--data', fifo], /pipe\.json: cannot read the data file: not a regular file/],
      [['run', notebook, '--connections', fifo], /pipe\.json: cannot read the connections file: not a regular file/],
      [['run', fifo], /pipe\.json: cannot read the notebook: not a regular file/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { cwd: dir, timeoutMs: 15_000 });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
      assert.ok(r.peakKiB < 400_000, `${args.join(' ')} grew to ${r.peakKiB} KiB`);
    }
  });
});
