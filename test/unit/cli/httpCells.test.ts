import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseCliArgs } from '../../../src/cli/args';
import { assertBuilt, lastLine, runCli, tempDir, write } from './cliKit';

const TOKEN = 'cli-env-token-0123456789abcdef';
const SECRET = 'cli-secret-value-0123456789';

describe('CLI: ```http cells (--allow-host, "hosts", $env, $secret, files)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Server;
  let host = '';
  let seen: Array<{ url: string; auth?: string; key?: string; type?: string; body: string }>;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          url: req.url ?? '',
          auth: req.headers.authorization,
          key: req.headers['x-api-key'] as string | undefined,
          type: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('latin1'),
        });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ echoed: req.headers.authorization ?? null }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    seen = [];
  });

  const cell = (body: string) => `\`\`\`http name=items\n${body}\n\`\`\`\n`;

  it('a host that is not allowed stops the run with exit 2 before anything is sent, naming the host and how to allow it', async () => {
    const nb = write(dir, 'denied.awb.md', cell(`GET http://${host}/items\n\n?? status == 200`));
    const r = await runCli(['run', nb], { cwd: dir });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, new RegExp(`denied\\.awb\\.md:2: this http cell sends to ${host}, which is not allowed: run with --allow-host ${host}`));
    assert.equal(seen.length, 0);
  });

  it("--allow-host runs it with the environment's $env and AWB_SECRET_ $secret; neither value is printed", async () => {
    const nb = write(
      dir,
      'allowed.awb.md',
      cell(
        `POST http://${host}/items\nAuthorization: Bearer {{$env ITEMS_TOKEN}}\nX-Api-Key: {{$secret items-key}}\nContent-Type: application/json\n\n{"a": 1}\n\n?? status == 200\n?? json.echoed == Bearer {{$env ITEMS_TOKEN}}`,
      ),
    );
    const r = await runCli(['run', nb, '--allow-host', host, '--allow-env', 'ITEMS_TOKEN', '--output-failed', '--reporter', 'json'], {
      cwd: dir,
      env: { ITEMS_TOKEN: TOKEN, AWB_SECRET_ITEMS_KEY: SECRET },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      seen.map((s) => [s.url, s.auth, s.key]),
      [['/items', `Bearer ${TOKEN}`, SECRET]],
    );
    assert.ok(!(r.stdout + r.stderr).includes(TOKEN) && !(r.stdout + r.stderr).includes(SECRET));
  });

  it('a missing AWB_SECRET_ or $env variable is exit 2, saying which variable to set', async () => {
    const nb = write(dir, 'nosecret.awb.md', cell(`GET http://${host}/items\nX-Api-Key: {{$secret items-key}}\nAuthorization: {{$env NOPE_TOKEN}}`));
    const r = await runCli(['run', nb, '--allow-host', host, '--allow-env', 'NOPE_TOKEN'], {
      cwd: dir,
      env: { AWB_SECRET_ITEMS_KEY: undefined, NOPE_TOKEN: undefined },
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /nosecret\.awb\.md:3: \{\{\$secret items-key\}\} is read from the environment variable AWB_SECRET_ITEMS_KEY, which is not set/);
    assert.match(r.stderr, /nosecret\.awb\.md:4: \{\{\$env NOPE_TOKEN\}\}: the environment variable NOPE_TOKEN is not set/);
    assert.equal(seen.length, 0);
  });

  it('"hosts" in the connections file allows a host; a multipart body sends the file next to the notebook', async () => {
    const sub = path.join(dir, 'upload');
    mkdirSync(sub, { recursive: true });
    writeFileSync(path.join(sub, 'sample.bin'), Buffer.from([0, 1, 2, 0xff]));
    const conns = write(dir, 'hosts.json', JSON.stringify({ hosts: [host] }));
    const nb = write(
      sub,
      'upload.awb.md',
      cell(
        `POST http://${host}/upload\nContent-Type: multipart/form-data; boundary=XB\n\n--XB\nContent-Disposition: form-data; name="file"; filename="sample.bin"\n\n< ./sample.bin\n--XB--\n\n?? status == 200`,
      ),
    );
    const r = await runCli(['run', nb, '--connections', conns], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(lastLine(r.stdout), '1 passed, 0 failed');
    assert.equal(seen[0].body, `--XB\r\nContent-Disposition: form-data; name="file"; filename="sample.bin"\r\n\r\n\x00\x01\x02\xff\r\n--XB--`);
  });

  it('--allow-host and "hosts" take a host, not a URL', async () => {
    assert.throws(() => parseCliArgs(['run', 'x.awb.md', '--allow-host', 'https://api.example.com/v1']), /--allow-host takes a host name, or host:port/);
    assert.deepEqual(
      (parseCliArgs(['run', 'x.awb.md', '--allow-host', 'api.example.com', '--allow-host', '[::1]:8080']) as { allowHosts: string[] }).allowHosts,
      ['api.example.com', '[::1]:8080'],
    );
    const conns = write(dir, 'badhosts.json', JSON.stringify({ hosts: ['https://api.example.com'] }));
    const nb = write(dir, 'any.awb.md', cell('GET https://api.example.com/x'));
    const r = await runCli(['run', nb, '--connections', conns], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /badhosts\.json: .*must be a host name, or host:port/);
  });

  it("a connection's key never goes out through {{$env}}: its keyEnv, the sandbox's key, and a variable not allowed stop the run (exit 2); nothing is sent", async () => {
    const conns = write(
      dir,
      'keyed.json',
      JSON.stringify({ llm: [{ name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' }], hosts: [host] }),
    );
    const nb = (name: string, variable: string) =>
      write(dir, name, cell(`POST http://${host}/items\nContent-Type: application/json\n\n{"v": "{{$env ${variable}}}"}`));
    const keyed = await runCli(['run', nb('keyed.awb.md', 'OPENAI_API_KEY'), '--connections', conns, '--allow-env', 'OPENAI_API_KEY'], {
      cwd: dir,
      env: { OPENAI_API_KEY: TOKEN },
    });
    assert.equal(keyed.code, 2, keyed.stdout + keyed.stderr);
    assert.match(
      keyed.stderr,
      /keyed\.awb\.md:5: \{\{\$env OPENAI_API_KEY\}\}: the environment variable OPENAI_API_KEY holds the key of the llm connection "OpenAI", which goes only to that connection's own requests/,
    );
    const sandboxKey = await runCli(['run', nb('sandboxkey.awb.md', 'SANDBOX_LLM_KEY'), '--sandbox', '--allow-host', host, '--allow-env', 'SANDBOX_LLM_KEY'], {
      cwd: dir,
      env: { SANDBOX_LLM_KEY: TOKEN },
    });
    assert.equal(sandboxKey.code, 2, sandboxKey.stdout + sandboxKey.stderr);
    assert.match(sandboxKey.stderr, /SANDBOX_LLM_KEY holds the key of the sandbox \(--sandbox\)/);
    const notAllowed = await runCli(['run', nb('notallowed.awb.md', 'HOME'), '--allow-host', host], { cwd: dir });
    assert.equal(notAllowed.code, 2);
    assert.match(
      notAllowed.stderr,
      /the environment variable HOME is not one this run may read: allow it with --allow-env HOME, or add it to "env" in the --connections file/,
    );
    // Another name holding the same value as the key: refused by value, when the cell runs.
    const alias = await runCli(['run', nb('alias.awb.md', 'ALIAS'), '--connections', conns, '--allow-env', 'ALIAS'], {
      cwd: dir,
      env: { OPENAI_API_KEY: TOKEN, ALIAS: TOKEN },
    });
    assert.equal(alias.code, 1, alias.stdout + alias.stderr);
    assert.match(alias.stdout, /\{\{\$env ALIAS\}\}: the environment variable ALIAS holds the key of the llm connection "OpenAI"/);
    assert.ok(!(keyed.stdout + keyed.stderr + sandboxKey.stderr + alias.stdout + alias.stderr).includes(TOKEN));
    assert.equal(seen.length, 0);
  });
});
