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

  before(async () => {
    assertBuilt();
    dir = tempDir();
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  beforeEach(() => (seen = []));
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
