import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpConnectionFromSetting, type HttpConnection } from '../../../src/core/connections';
import { connectionsHost, runNotebook, type CellResult, type HostApprovalRequest, type NotebookHost, type RunOptions } from '../../../src/notebook/api';

const FILE = 'api.awb.md';
const SECRET = 'ghp_notebook-secret-0123456789';
const ENV_TOKEN = 'env-token-abcdef-0123456789';

function notebook(...cells: Array<[string, string]>): string {
  return cells.map(([info, body], i) => `Cell ${i + 1}.\n\n\`\`\`${info}\n${body}\n\`\`\`\n`).join('\n');
}

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in for "any API": records what arrives, answers JSON. */
describe('http cells, service cells that keep their host, multipart bodies', function () {
  this.timeout(20_000);
  let server: Server;
  let base = '';
  let host = '';
  let received: Received[];
  let dir: string;

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, path: req.url, auth: req.headers.authorization ?? null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    host = `127.0.0.1:${port}`;
    base = `http://${host}`;
    dir = mkdtempSync(path.join(tmpdir(), 'awb-http-cells-'));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received = [];
  });

  function localLlm(name: string, baseUrl: string): HttpConnection {
    const c = httpConnectionFromSetting('llm', { name, baseUrl, auth: { placement: 'none' } });
    if (typeof c === 'string') throw new Error(c);
    return c;
  }

  /** A host that approves what `approve` says and records each question. */
  function hostWith(opts: { approve?: (r: HostApprovalRequest) => true | string; env?: Record<string, string>; connections?: HttpConnection[] } = {}) {
    const asked: HostApprovalRequest[] = [];
    const envPolicy = { allowed: [...Object.keys(opts.env ?? {}), 'NO_SUCH_TOKEN'], credentials: new Map<string, string>() };
    const inner = connectionsHost({ connections: opts.connections ?? [], key: () => undefined, env: opts.env, envPolicy });
    const h: NotebookHost = {
      ...inner,
      approveHost: (r) => {
        asked.push(r);
        return Promise.resolve(opts.approve ? opts.approve(r) : true);
      },
    };
    return { host: h, asked };
  }

  async function run(text: string, h: NotebookHost, extra: Partial<RunOptions> = {}): Promise<CellResult[]> {
    return (await runNotebook(text, { host: h, file: FILE, baseDir: dir, ...extra })).results;
  }

  describe('a service cell keeps the host of its absolute URL', () => {
    it('refused before anything is sent, naming the host and the connection it needs; never moved to the connection host', async () => {
      const { host: h } = hostWith({ connections: [localLlm('Local', `${base}/v1`)] });
      const [r] = await run(notebook(['llm', 'POST https://api.openai.com/v1/chat/completions\n\n{"model": "gpt-4o"}']), h);
      assert.equal(
        r.error,
        `${FILE}:4: This request goes to api.openai.com; no LLM connection has that host: add one (API Workbench: Connect…) or name one with connection="…". Nothing was sent.`,
      );
      assert.deepEqual(r.needsConnection, { service: 'llm', host: 'api.openai.com' });
      assert.equal(r.request, undefined);
      assert.equal(received.length, 0);
    });

    it('when another connection has the host, the refusal names it; named, the cell runs there', async () => {
      const other = `http://localhost:${host.split(':')[1]}`;
      const { host: h } = hostWith({ connections: [localLlm('Local', `${base}/v1`), localLlm('Work', `${other}/v1`)] });
      const [refused, named] = await run(
        notebook(['llm', `GET ${other}/v1/models`], ['llm connection="Work"', `GET ${other}/v1/models\n\n?? status == 200`]),
        h,
      );
      assert.match(
        refused.error ?? '',
        /This request goes to localhost:\d+, a host of the LLM connection "Work", not of "Local": name it with connection="Work"/,
      );
      assert.equal(refused.needsConnection, undefined, 'a connection exists: nothing to add');
      assert.equal(named.ok, true, JSON.stringify(named));
      assert.deepEqual(
        received.map((x) => [x.url, x.headers.host]),
        [['/v1/models', `localhost:${host.split(':')[1]}`]],
      );
    });

    it('with no connection of the service at all, the refusal still names the host', async () => {
      const { host: h } = hostWith();
      const [r] = await run(notebook(['maps', 'POST https://places.googleapis.com/v1/places:searchText\n\n{}']), h);
      assert.match(r.error ?? '', /This request goes to places\.googleapis\.com; no maps connection is set up: add one \(API Workbench: Connect…\)/);
      assert.deepEqual(r.needsConnection, { service: 'maps', host: 'places.googleapis.com' });
    });
  });

  describe('http cells', () => {
    it('run against any API with their own headers and no stored key; $env and $secret fill in and are redacted everywhere', async () => {
      const { host: h, asked } = hostWith({ env: { GH_TOKEN: ENV_TOKEN, AWB_SECRET_GITHUB: SECRET } });
      const text = notebook(
        ['vars', 'repo = awb'],
        [
          'http name=list',
          `GET ${base}/repos/{{repo}}/issues?state=open\nAuthorization: Bearer {{$processEnv GH_TOKEN}}\nAccept: application/vnd.github+json\n\n?? status == 200\n?? json.auth == Bearer {{$env GH_TOKEN}}`,
        ],
        ['http', `POST ${base}/repos/{{list.json.ok}}\nX-Api-Key: {{$secret github}}\nContent-Type: application/json\n\n{"token": "{{$secret github}}"}`],
      );
      const [, list, post] = await run(text, h);
      assert.equal(list.ok, true, JSON.stringify(list));
      assert.equal(post.ok, true, JSON.stringify(post));
      assert.equal(list.connection, undefined);
      assert.deepEqual(
        received.map((x) => [x.method, x.url, x.headers.authorization, x.headers['x-api-key'], x.headers.accept]),
        [
          ['GET', '/repos/awb/issues?state=open', `Bearer ${ENV_TOKEN}`, undefined, 'application/vnd.github+json'],
          ['POST', '/repos/true', undefined, SECRET, 'application/json'],
        ],
      );
      assert.equal(received[1].body.toString(), `{"token": "${SECRET}"}`);
      assert.deepEqual(
        asked.map((a) => [a.host, a.origin, a.credentials]),
        [
          // REST Client's {{$processEnv NAME}} is the same variable as {{$env NAME}}.
          [host, base, ['{{$processEnv GH_TOKEN}}', '{{$env GH_TOKEN}}']],
          [host, base, ['{{$secret github}}']],
        ],
      );
      const everything = JSON.stringify([list, post]);
      assert.ok(!everything.includes(SECRET) && !everything.includes(ENV_TOKEN), everything);
      assert.match(list.request?.headers.authorization ?? '', /\*\*\*/);
    });

    it('a refused host sends nothing and asks for no secret; loopback needs approval like any host', async () => {
      let secretsAsked = 0;
      const { host: inner, asked } = hostWith({ approve: (r) => `not sent: you did not allow ${r.host}` });
      const h: NotebookHost = { ...inner, secret: () => Promise.resolve(String(++secretsAsked)) };
      const [r] = await run(notebook(['http', `GET ${base}/x\nAuthorization: {{$secret api}}`]), h);
      assert.equal(r.error, `${FILE}:4: not sent: you did not allow ${host}`);
      assert.equal(asked.length, 1);
      assert.equal(secretsAsked, 0);
      // The CLI's host: only listed hosts, and 127.0.0.1 is not listed.
      const cli = connectionsHost({ connections: [], key: () => undefined });
      const [c] = await run(notebook(['http', `GET ${base}/x`]), cli);
      assert.equal(
        c.error,
        `${FILE}:4: not sent: ${host} is not an allowed host: run with --allow-host ${host}, or add it to "hosts" in the --connections file`,
      );
      const allowed = connectionsHost({ connections: [], key: () => undefined, allowedHosts: ['127.0.0.1'] });
      const [ok] = await run(notebook(['http', `GET ${base}/x\n\n?? status == 200`]), allowed);
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.equal(received.length, 1);
    });

    it('an unset $env or missing $secret fails at its line, saying how to provide it; nothing is sent', async () => {
      const { host: h } = hostWith({ env: {} });
      const [env, secret] = await run(
        notebook(['http', `GET ${base}/x\nAuthorization: Bearer {{$env NO_SUCH_TOKEN}}`], ['http', `GET ${base}/x\n\n{"a": "{{$secret my-key}}"}`]),
        h,
      );
      assert.match(env.error ?? '', /^api\.awb\.md:5: \{\{\$env NO_SUCH_TOKEN\}\}: the environment variable NO_SUCH_TOKEN is not set/);
      assert.equal(secret.error, `${FILE}:13: {{$secret my-key}}: set the environment variable AWB_SECRET_MY_KEY to the secret "my-key"`);
      assert.equal(received.length, 0);
    });

    it('a key written out in an http cell, a relative URL or a variable host is a problem of the cell; $env is for http cells only', async () => {
      const { host: h } = hostWith({ env: { GH_TOKEN: ENV_TOKEN }, connections: [localLlm('Local', `${base}/v1`)] });
      const [literal, relative, varHost, llmEnv] = await run(
        notebook(
          ['http', `GET ${base}/x\nAuthorization: Bearer sk-written-out-0123456789`],
          ['http', 'GET /x'],
          ['http', 'GET https://{{where}}/x'],
          ['llm', 'GET /models?t={{$env GH_TOKEN}}'],
        ),
        h,
      );
      assert.match(literal.error ?? '', /:5: the Authorization header cannot be set here: keys never go in a notebook: write \{\{\$secret name\}\}/);
      assert.match(
        relative.error ?? '',
        /:11: an http cell needs an absolute URL \(e\.g\. GET https:\/\/api\.example\.com\/items, or GET \{\{baseUrl\}\}\/items with baseUrl in a vars cell\), not "\/x"/,
      );
      assert.match(varHost.error ?? '', /:17: a variable cannot choose the host/);
      assert.match(llmEnv.error ?? '', /\{\{\$env GH_TOKEN\}\} works in http cells only/);
      assert.equal(received.length, 0);
    });
  });

  describe('multipart bodies and files', () => {
    const WAV = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x0d, 0x0a, 0x80, 0x7f]);
    const multipart = (file: string) =>
      [
        'Content-Type: multipart/form-data; boundary=----AwbBoundary',
        '',
        '------AwbBoundary',
        'Content-Disposition: form-data; name="model"',
        '',
        'whisper-1',
        '------AwbBoundary',
        'Content-Disposition: form-data; name="file"; filename="sample.wav"',
        'Content-Type: audio/wav',
        '',
        `< ${file}`,
        '------AwbBoundary--',
      ].join('\n');

    before(() => {
      mkdirSync(path.join(dir, 'audio'), { recursive: true });
      writeFileSync(path.join(dir, 'audio', 'sample.wav'), WAV);
      writeFileSync(path.join(dir, 'body.json'), '{"from": "file"}');
    });

    async function partsOf(r: Received): Promise<FormData> {
      return new Request(`${base}${r.url}`, {
        method: r.method,
        headers: { 'content-type': String(r.headers['content-type']) },
        body: new Uint8Array(r.body),
      }).formData();
    }

    it('an llm cell and an http cell send the file bytes as a part, with CRLF line ends; the record shows the file, not its bytes', async () => {
      const { host: h } = hostWith({ connections: [localLlm('Local', `${base}/v1`)] });
      const [llm, http] = await run(
        notebook(
          ['llm', `POST /audio/transcriptions\n${multipart('./audio/sample.wav')}\n\n?? status == 200`],
          ['http', `POST ${base}/upload\n${multipart('audio/sample.wav')}`],
        ),
        h,
      );
      assert.equal(llm.ok, true, JSON.stringify(llm));
      assert.equal(http.ok, true, JSON.stringify(http));
      assert.equal(received[0].url, '/v1/audio/transcriptions');
      for (const r of received) {
        const form = await partsOf(r);
        assert.equal(form.get('model'), 'whisper-1');
        const file = form.get('file') as File;
        assert.equal(file.name, 'sample.wav');
        assert.equal(file.type, 'audio/wav');
        assert.deepEqual(Buffer.from(await file.arrayBuffer()), WAV);
        assert.ok(r.body.includes('\r\nwhisper-1\r\n------AwbBoundary\r\n'), 'lines joined with CRLF');
      }
      assert.match(llm.request?.body ?? '', /^< \.\/audio\/sample\.wav \(10 bytes\)$/m);
    });

    it('a missing file fails at its line and nothing is sent; a file outside the notebook folder is refused; an untitled notebook cannot include', async () => {
      const { host: h } = hostWith();
      const text = notebook(
        ['http', `POST ${base}/upload\n${multipart('./audio/missing.wav')}`],
        ['http', `POST ${base}/upload\n${multipart('../secret.txt')}`],
      );
      const [missing, outside] = await run(text, h);
      assert.match(missing.error ?? '', /^api\.awb\.md:15: "< \.\/audio\/missing\.wav": no such file in .*; nothing was sent$/);
      assert.match(outside.error ?? '', /^api\.awb\.md:33: "< \.\.\/secret\.txt": only files in the notebook's folder \(or below\) can be sent/);
      const [untitled] = await run(text, h, { baseDir: undefined });
      assert.match(untitled.error ?? '', /save the notebook first/);
      assert.equal(received.length, 0);
    });

    it('a body that is only "< ./file" is that file', async () => {
      const { host: h } = hostWith();
      const [r] = await run(notebook(['http', `POST ${base}/json\nContent-Type: application/json\n\n< ./body.json\n\n?? status == 200`]), h);
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(received[0].body.toString(), '{"from": "file"}');
    });
  });
});
