import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { assertBuilt, lastLine, read, runCli, tempDir, write } from './cliKit';

const MODELS = (name: string, check = '?? status == 200') => `\`\`\`llm name=${name}\nGET /models\n\n${check}\n\`\`\`\n`;
const SEARCH = (name: string, query: string, ...checks: string[]) =>
  `\`\`\`maps name=${name}\nPOST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName\n\n{"textQuery": "${query}"}\n\n${['?? status == 200', ...checks].join('\n')}\n\`\`\`\n`;

/** A local listener that counts what reaches it: the "foreign origin" a key must never go to. */
async function countingServer(respond?: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; hits: () => number; server: Server }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    if (respond) respond(res);
    else res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, server };
}

function assertNoStack(text: string): void {
  assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `a stack trace was printed:\n${text}`);
}

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

  it('--reporter junit: well-formed XML, a testsuite per notebook, a testcase per check named <cell> › <check>, escaped text', async () => {
    const nb = write(dir, 'junit.awb.md', MODELS('models') + SEARCH('place', 'Lisbon', '?? json.places[0].displayName.text == <a & "b\'s">'));
    const out = path.join(dir, 'report.xml');
    const r = await runCli(['run', nb, '--sandbox', '--reporter', 'junit', '--out', out], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const xml = read(out);
    assertWellFormedXml(xml);
    assert.match(xml, /<testsuite name="[^"]*junit\.awb\.md" tests="3" failures="1"/);
    assert.deepEqual(
      [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]),
      ['models › status == 200', 'place › status == 200', 'place › json.places[0].displayName.text == &lt;a &amp; &quot;b&apos;s&quot;&gt;'],
    );
    assert.match(xml, /expected: == &lt;a &amp; &quot;b&apos;s&quot;&gt;/);
    assert.equal(lastLine(r.stdout), '1 passed, 1 failed');
  });

  it('--reporter junit: test names are the same from run to run (no sandbox app id in an unnamed realtime cell)', async () => {
    const nb = write(dir, 'stable.awb.md', '```realtime\nPUBLISH stable-names hello\n{"n": 1}\n\n?? status == 200\n```\n');
    const names = async (run: number) => {
      const out = path.join(dir, `stable-${run}.xml`);
      const r = await runCli(['run', nb, '--sandbox', '--reporter', 'junit', '--out', out], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      return [...read(out).matchAll(/<testcase name="([^"]*)"/g)].map((m) => m[1]);
    };
    const first = await names(1);
    assert.deepEqual(first, ['POST /apps/{appId}/events (line 1) › status == 200']);
    assert.deepEqual(await names(2), first);
  });

  it('--data rows (CSV with quoted fields, and JSON): one run per row, each reported on its own', async () => {
    const nb = write(dir, 'rows.awb.md', SEARCH('place', '{{city}}', '?? json.places[0].displayName.text contains {{city}}', '?? text contains {{city}}'));
    const csv = write(dir, 'rows.csv', 'city,note\r\nLisbon,"plain"\r\n"Porto","with, a comma and ""quotes"""\r\n');
    const r = await runCli(['run', nb, '--sandbox', '--data', csv], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /rows\.awb\.md \[row 1\]/);
    assert.match(r.stdout, /rows\.awb\.md \[row 2\]/);
    assert.equal(lastLine(r.stdout), '2 passed, 0 failed');

    const json = write(dir, 'rows.json', JSON.stringify([{ city: 'Madrid' }, { city: 'Nowhereville' }]));
    const j = await runCli(['run', nb, '--sandbox', '--data', json, '--reporter', 'json'], { cwd: dir });
    assert.equal(j.code, 1);
    const report = JSON.parse(j.stdout) as { passed: number; failed: number; suites: Array<{ row: number; ok: boolean }> };
    assert.deepEqual(
      report.suites.map((s) => [s.row, s.ok]),
      [
        [1, true],
        [2, false],
      ],
    );
  });

  it('--var wins over vars cells; --env applies the vars cells of that environment', async () => {
    const nb = write(
      dir,
      'env.awb.md',
      '```vars\ncity = Lisbon\n```\n\n```vars env=staging\ncity = Porto\n```\n\n' +
        SEARCH('place', '{{city}}', '?? json.places[0].displayName.text == {{expected}}'),
    );
    const plain = await runCli(['run', nb, '--sandbox', '--var', 'expected=Lisbon'], { cwd: dir });
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    const staging = await runCli(['run', nb, '--sandbox', '--env', 'staging', '--var', 'expected=Porto'], { cwd: dir });
    assert.equal(staging.code, 0, staging.stdout + staging.stderr);
    const overridden = await runCli(['run', nb, '--sandbox', '--env', 'staging', '--var', 'city=Madrid', '--var', 'expected=Madrid'], { cwd: dir });
    assert.equal(overridden.code, 0, overridden.stdout + overridden.stderr);
    const wrong = await runCli(['run', nb, '--sandbox', '--var', 'expected=Porto'], { cwd: dir });
    assert.equal(wrong.code, 1);
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

  it('a 100 MB answer is counted, not kept: the report stays small and memory bounded', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const big = await countingServer((res) => {
      res.setHeader('content-type', 'text/plain');
      let sent = 0;
      const pump = () => {
        while (sent < 100) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const conns = write(dir, 'conns-big.json', JSON.stringify({ llm: [{ name: 'Big', baseUrl: big.url }] }));
      const nb = write(dir, 'big.awb.md', '```llm name=big\nGET /huge\n\n?? status == 200\n?? text contains xxx\n```\n');
      const out = path.join(dir, 'big.json');
      const r = await runCli(['run', nb, '--connections', conns, '--reporter', 'json', '--out', out], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const report = read(out);
      assert.ok(report.length < 64 * 1024, `report is ${report.length} bytes`);
      const cell = (JSON.parse(report) as { suites: Array<{ cells: Array<{ response: { size: number; truncated: boolean } }> }> }).suites[0].cells[0];
      assert.equal(cell.response.size, 100 * 1024 * 1024);
      assert.equal(cell.response.truncated, true);
      if (r.peakKiB) assert.ok(r.peakKiB < 200 * 1024, `peak memory ${Math.round(r.peakKiB / 1024)} MiB`);
    } finally {
      big.server.close();
    }
  });

  it('--parallel runs notebooks side by side; --bail stops at the first failed cell', async () => {
    const sub = path.join(dir, 'many');
    (await import('node:fs')).mkdirSync(sub);
    write(sub, 'a.awb.md', MODELS('a1') + MODELS('a2'));
    write(sub, 'b.awb.md', SEARCH('b1', 'Lisbon'));
    write(sub, 'c.awb.md', MODELS('c1'));
    const par = await runCli(['run', sub, '--sandbox', '--parallel', '3'], { cwd: dir });
    assert.equal(par.code, 0, par.stdout + par.stderr);
    assert.equal(lastLine(par.stdout), '4 passed, 0 failed');

    const nb = write(dir, 'bail.awb.md', MODELS('first', '?? status == 404') + MODELS('second', '?? status == 404') + MODELS('third'));
    const bail = await runCli(['run', nb, '--sandbox', '--bail'], { cwd: dir });
    assert.equal(bail.code, 1);
    assert.match(bail.stdout, /✗ first/);
    assert.doesNotMatch(bail.stdout, /second|third/);
    assert.equal(lastLine(bail.stdout), '0 passed, 1 failed');
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

/** Enough of XML 1.0 to catch what a hand-written report gets wrong: nesting, entities, raw < or &. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let pos = 0;
  let roots = 0;
  while (pos < body.length) {
    token.lastIndex = pos;
    const m = token.exec(body);
    assert.ok(m, `malformed XML at ${pos}: ${body.slice(pos, pos + 60)}`);
    const [, close, name, attrs, selfClose, text] = m;
    const checkEntities = (s: string) => assert.doesNotMatch(s, /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i, `bad entity in ${s}`);
    if (text !== undefined) {
      checkEntities(text);
      if (stack.length === 0) assert.match(text, /^\s*$/, 'text outside the root');
    } else if (close) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else {
      checkEntities(attrs);
      if (stack.length === 0) roots++;
      if (!selfClose) stack.push(name);
    }
    pos = token.lastIndex;
  }
  assert.deepEqual(stack, [], 'unclosed elements');
  assert.equal(roots, 1, 'one root element');
}
