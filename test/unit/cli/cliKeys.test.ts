// The command-line runner's keys, through dist/cli.js as CI runs it: where they come from (--connections,
// variables), where they may go (only their connection's origin), and that none is ever printed.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { assertBuilt, assertNoStack, countingServer, lastLine, MODELS, read, runCli, SEARCH, tempDir, write } from './cliKit';

describe('CLI (dist/cli.js run): keys', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    assertBuilt();
    dir = tempDir();
  });

  it('encryptionMasterKeyEnv: encrypted channels work with the key from the variable (never printed); unset or not a key: exit 2 naming the variable', async () => {
    const { startSandbox } = await import('../../../src/sandbox/host');
    const rt = { appId: '515151', key: 'cliencryptedkey', secret: 'cli-encrypted-app-secret-0123' };
    const sandbox = await startSandbox({ port: 0, realtime: { ...rt, demo: false } });
    const master = Buffer.from('cli-encryption-master-key-32-by!').toString('base64');
    try {
      const conns = write(
        dir,
        'conns-encrypted.json',
        JSON.stringify({
          realtime: [
            {
              name: 'RT',
              appId: rt.appId,
              key: rt.key,
              host: sandbox.info.realtime.host,
              port: sandbox.info.realtime.port,
              useTLS: false,
              keyEnv: 'AWB_RT_SECRET',
              encryptionMasterKeyEnv: 'AWB_RT_MASTER',
            },
          ],
        }),
      );
      // A cache channel hands the last event to a later subscriber, so the cells can run one after the other.
      const nb = write(
        dir,
        'encrypted.awb.md',
        '```realtime name=pub\nPUBLISH private-encrypted-cache-cli sealed\n{"plan": "dawn"}\n\n?? status == 200\n```\n\n```realtime name=listen\nLISTEN private-encrypted-cache-cli 1500ms\n\n?? count == 1\n?? json[0].decrypted == true\n?? json[0].data.plan == dawn\n```\n',
      );
      const ok = await runCli(['run', nb, '--connections', conns, '--reporter', 'json', '--output-failed'], {
        cwd: dir,
        env: { AWB_RT_SECRET: rt.secret, AWB_RT_MASTER: master },
      });
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.ok(!(ok.stdout + ok.stderr).includes(master), 'the master key is never printed');
      const unset = await runCli(['run', nb, '--connections', conns], { cwd: dir, env: { AWB_RT_SECRET: rt.secret, AWB_RT_MASTER: undefined } });
      assert.equal(unset.code, 2);
      assert.match(unset.stderr, /encryption master key of the realtime connection "RT" is read from the environment variable AWB_RT_MASTER, which is not set/);
      const notAKey = await runCli(['run', nb, '--connections', conns], { cwd: dir, env: { AWB_RT_SECRET: rt.secret, AWB_RT_MASTER: 'c2hvcnRrZXlzaG9ydA==' } });
      assert.equal(notAKey.code, 2);
      assert.match(notAKey.stderr, /AWB_RT_MASTER .*must decode to 32 bytes/);
      assert.doesNotMatch(notAKey.stderr, /c2hvcnRrZXlzaG9ydA==/);
      assertNoStack(notAKey.stderr);
    } finally {
      await sandbox.close();
    }
  });

  it('a connections file with a bad field or a key in it: exit 2 naming the file and the field', async () => {
    const bad = write(
      dir,
      'conns-bad.json',
      JSON.stringify({
        llm: [{ name: 'Work', baseUrl: 'ftp://x', keyEnv: 'K' }],
        maps: [{ name: 'M', baseUrl: 'https://m.example', apiKey: 'AIzaInTheFile' }],
      }),
    );
    const nb = write(dir, 'any.awb.md', MODELS('m'));
    const r = await runCli(['run', nb, '--connections', bad], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /conns-bad\.json: llm\[0\] \("Work"\)\.baseUrl: must be an http\(s\) URL/);
    assert.match(r.stderr, /conns-bad\.json: maps\[0\] \("M"\)\.apiKey: keys never go in this file/);
    assert.doesNotMatch(r.stderr, /AIzaInTheFile/);
  });

  it('a key goes only to its connection: an absolute URL or a variable naming another origin is refused before anything is sent', async () => {
    const foreign = await countingServer();
    try {
      const nb = write(
        dir,
        'foreign.awb.md',
        `\`\`\`llm name=absolute\nGET ${foreign.url}/v1/models\n\n?? status == 200\n\`\`\`\n\n\`\`\`llm name=byVariable\nGET {{target}}/v1/models\n\n?? status == 200\n\`\`\`\n`,
      );
      const r = await runCli(['run', nb, '--sandbox', '--var', `target=${foreign.url}`], { cwd: dir });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /✗ absolute/);
      assert.match(r.stdout, /✗ byVariable/);
      assert.match(r.stdout, /This request goes to 127\.0\.0\.1:\d+; no LLM connection has that host/);
      assert.equal(lastLine(r.stdout), '0 passed, 2 failed');
      assert.equal(foreign.hits(), 0, 'the foreign listener received a request');
    } finally {
      foreign.server.close();
    }
  });

  it('--connections: keys come from the named variables, the first connection is the default, connection= picks another', async () => {
    let seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization}`);
      res.setHeader('content-type', 'application/json');
      res.end('{"object":"list","data":[]}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const conns = write(
        dir,
        'conns.json',
        JSON.stringify({
          llm: [
            { name: 'A', baseUrl: `${base}/a`, keyEnv: 'AWB_KEY_A' },
            { name: 'B', baseUrl: `${base}/b`, keyEnv: 'AWB_KEY_B' },
          ],
        }),
      );
      const nb = write(
        dir,
        'two.awb.md',
        '```llm name=first\nGET /models\n\n?? json.object == list\n```\n\n```llm name=second connection=B\nGET /models\n```\n',
      );
      seen = [];
      const r = await runCli(['run', nb, '--connections', conns, '--reporter', 'json'], {
        cwd: dir,
        env: { AWB_KEY_A: 'key-a-123456', AWB_KEY_B: 'key-b-123456' },
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.deepEqual(seen, ['/a/models Bearer key-a-123456', '/b/models Bearer key-b-123456']);
      assert.doesNotMatch(r.stdout + r.stderr, /key-[ab]-123456/);
    } finally {
      server.close();
    }
  });

  it('no key, signature or secret in any output (pretty with --output-failed, json, junit), also for failed cells', async () => {
    const secrets = {
      SANDBOX_LLM_KEY: 'sk-cli-secret-llm-0123456789',
      SANDBOX_MAPS_KEY: 'AIzaCliSecretMaps0123456789',
      SANDBOX_REALTIME_SECRET: 'cli-realtime-secret-0123456789',
    };
    const nb = write(
      dir,
      'secrets.awb.md',
      MODELS('models', '?? status == 500') +
        SEARCH('place', 'Lisbon', '?? text contains nothing-like-this') +
        '```realtime name=pub\nPUBLISH cli-test greeting\n{"hello": "world"}\n\n?? status == 201\n```\n',
    );
    const outputs: string[] = [];
    for (const reporter of ['pretty', 'json', 'junit']) {
      const out = path.join(dir, `secrets.${reporter}`);
      const r = await runCli(['run', nb, '--sandbox', '--output-failed', '--reporter', reporter, '--out', out], { cwd: dir, env: secrets });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      outputs.push(r.stdout, r.stderr, read(out));
    }
    const all = outputs.join('\n');
    assert.match(all, /✗ pub/);
    assert.match(all, /auth_signature=\*\*\*/, 'the signed publish request is in the --output-failed exchange, masked');
    for (const [name, value] of Object.entries(secrets)) assert.ok(!all.includes(value), `${name} appears in an output`);
  });
});
