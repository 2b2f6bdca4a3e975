// The built CLI on a connection whose bearer token comes from a command ("tokenCommand" in the
// connections file): the command runs once for the whole run, its token goes out as
// Authorization: Bearer and never into the output; a failing command stops the run before any
// request, exit 2, with the command's own message.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const TOKEN = 'tok-from-command-0123456789';
const NOTEBOOK =
  '# token\n\n```llm name=one\nGET /models\n\n?? status == 200\n```\n\n' +
  '```llm name=two\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "m", "messages": []}\n\n?? status == 200\n```\n';

describe('CLI: tokenCommand connections', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Server;
  let base: string;
  let seen: string[];
  /** The token the server takes; undefined: any. */
  let accepted: string | undefined;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      req.resume();
      res.setHeader('content-type', 'application/json');
      if (accepted !== undefined && req.headers.authorization !== `Bearer ${accepted}`) {
        res.statusCode = 401;
        res.end('{"error":{"message":"Invalid token","type":"invalid_request_error"}}');
        return;
      }
      res.end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  beforeEach(() => {
    seen = [];
    accepted = undefined;
  });
  after(() => server.close());

  function connections(name: string, tokenCommand: string): string {
    return write(dir, `${name}.json`, JSON.stringify({ llm: [{ name: 'Token', baseUrl: base, tokenCommand }] }));
  }

  it('two cells send Authorization: Bearer <the token>, the command run once, the token never printed', async () => {
    const runs = path.join(dir, 'runs.txt');
    // A stand-in for `az account get-access-token … -o tsv`: counts its runs, prints the token.
    const script = write(dir, 'token.js', `require('fs').appendFileSync(${JSON.stringify(runs)}, 'run\\n'); console.log(${JSON.stringify(TOKEN)});`);
    const conns = connections('ok', `"${process.execPath}" "${script}"`);
    const nb = write(dir, 'token.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', conns, '--reporter', 'json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(seen, [`GET /v1/models Bearer ${TOKEN}`, `POST /v1/chat/completions Bearer ${TOKEN}`]);
    assert.equal(readFileSync(runs, 'utf8'), 'run\n', 'the command ran once');
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(TOKEN));
  });

  it('a token refused (401) before its stated expiry is fetched again once, and the cell goes on with the new one', async () => {
    const runs = path.join(dir, 'renew-runs.txt');
    // Prints tok-1, then tok-2: the server has revoked tok-1 although it claimed an hour left.
    const script = write(
      dir,
      'renew.js',
      `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(runs)}, 'run\\n');` +
        `const n = fs.readFileSync(${JSON.stringify(runs)}, 'utf8').split('\\n').length - 1;` +
        `console.log(JSON.stringify({ accessToken: 'tok-' + n, expires_in: 3600 }));`,
    );
    accepted = 'tok-2';
    const conns = connections('renew', `"${process.execPath}" "${script}"`);
    const r = await runCli(['run', write(dir, 'renew.awb.md', NOTEBOOK), '--connections', conns, '--reporter', 'json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(seen, ['GET /v1/models Bearer tok-1', 'GET /v1/models Bearer tok-2', 'POST /v1/chat/completions Bearer tok-2']);
    assert.equal(readFileSync(runs, 'utf8'), 'run\nrun\n', 'the command ran again once');
  });

  it('a token that is refused again is reported as the 401 it is, after one renewal, not retried further', async () => {
    const script = write(dir, 'never.js', `console.log('tok-never-accepted')`);
    accepted = 'something else';
    const conns = connections('never', `"${process.execPath}" "${script}"`);
    const r = await runCli(['run', write(dir, 'never.awb.md', NOTEBOOK), '--connections', conns], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /401/);
    assert.match(r.stdout, /Invalid token/);
    // Two cells, each sent twice: the refused token, then the one fetched after it.
    assert.equal(seen.length, 4, seen.join('\n'));
  });

  it('a stored key refused (401) is not sent again', async () => {
    accepted = 'the-right-key';
    const conns = write(dir, 'key.json', JSON.stringify({ llm: [{ name: 'Key', baseUrl: base, keyEnv: 'AWB_TEST_WRONG_KEY' }] }));
    const nb = write(dir, 'key.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', conns], { cwd: dir, env: { AWB_TEST_WRONG_KEY: 'wrong-key-123' } });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(seen.length, 2, seen.join('\n'));
  });

  it('a failing command: exit 2 with its own message, nothing sent', async () => {
    const script = write(dir, 'fail.js', `console.error("ERROR: Please run 'az login' to setup account."); process.exit(1);`);
    const conns = connections('fail', `"${process.execPath}" "${script}"`);
    const nb = write(dir, 'fail.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', conns], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /"Token" gets its token from the token command .*fail\.js.*failed.*exit 1.*Please run 'az login' to setup account\./s);
    assert.match(r.stderr, /nothing was sent/);
    assert.deepEqual(seen, []);
  });

  it('keyEnv and tokenCommand on one connection: refused, naming both', async () => {
    const conns = write(dir, 'both.json', JSON.stringify({ llm: [{ name: 'Both', baseUrl: base, tokenCommand: 'x', keyEnv: 'X' }] }));
    const r = await runCli(['run', write(dir, 'both.awb.md', NOTEBOOK), '--connections', conns], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /either "keyEnv" or "tokenCommand"/);
    assert.deepEqual(seen, []);
  });
});
