import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionsHost, runNotebook, type CellResult, type HostApprovalRequest, type NotebookHost, type RunOptions } from '../../../src/notebook/api';

const FILE = 'api.awb.md';

function notebook(...cells: Array<[string, string]>): string {
  return cells.map(([info, body], i) => `Cell ${i + 1}.\n\n\`\`\`${info}\n${body}\n\`\`\`\n`).join('\n');
}

/** `GET {{baseUrl}}/pets`: a URL that starts with a vars value (an imported OpenAPI document's servers). */
describe('an http cell URL that starts with a vars variable', function () {
  this.timeout(20_000);
  let server: Server;
  let base = '';
  let host = '';
  let paths: string[];

  before(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ url: `${base}/other`, path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    base = `http://${host}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    paths = [];
  });

  function approving(env: Record<string, string> = {}) {
    const asked: HostApprovalRequest[] = [];
    const inner = connectionsHost({ connections: [], key: () => undefined, env, envPolicy: { allowed: Object.keys(env), credentials: new Map() } });
    const h: NotebookHost = {
      ...inner,
      approveHost: (r) => {
        asked.push(r);
        return Promise.resolve(true);
      },
    };
    return { host: h, asked };
  }

  async function run(text: string, h: NotebookHost, extra: Partial<RunOptions> = {}): Promise<CellResult[]> {
    return (await runNotebook(text, { host: h, file: FILE, baseDir: '.', ...extra })).results;
  }

  it('is sent to the host of the vars value of the active environment, after that host is approved', async () => {
    const text = notebook(
      ['vars', 'baseUrl = https://api.example.invalid/v1'],
      ['vars env=local', `baseUrl = ${base}/v1/`],
      ['http name=pets', 'GET {{baseUrl}}/pets?limit=2\n\n?? status == 200'],
    );
    const { host: h, asked } = approving();
    const results = await run(text, h, { environment: 'local' });
    assert.equal(results[2].ok, true, JSON.stringify(results[2]));
    assert.deepEqual(paths, ['/v1/pets?limit=2']);
    assert.deepEqual(
      asked.map((a) => a.host),
      [host],
    );
    assert.equal(results[2].request?.url, `${base}/v1/pets?limit=2`);
  });

  it('is refused when the variable comes from an answer, {{$env}}, a --var or no vars cell: nothing is sent, nothing approved', async () => {
    const { host: h, asked } = approving({ API_BASE: base });
    const results = await run(
      notebook(
        ['http name=first', `GET ${base}/first`],
        ['http', 'GET {{first.json.url}}/x'],
        ['http', 'GET {{$env API_BASE}}/x'],
        ['http', 'GET {{fromCli}}/x'],
        ['vars', 'relative = /just/a/path'],
        ['http', 'GET {{relative}}/x'],
      ),
      h,
      { variables: { fromCli: base } },
    );
    assert.equal(results[0].ok, true, JSON.stringify(results[0]));
    assert.match(results[1].error ?? '', /:10: an http cell needs an absolute URL .*not "\{\{first\.json\.url\}\}\/x"/);
    assert.match(results[2].error ?? '', /:16: an http cell needs an absolute URL .*not "\{\{\$env API_BASE\}\}\/x"/);
    assert.match(
      results[3].error ?? '',
      /:22: \{\{fromCli\}\} starts this http cell's URL but no vars cell of the notebook \(for this environment\) defines it/,
    );
    assert.match(results[5].error ?? '', /:34: \{\{relative\}\} starts this http cell's URL, so its value must be an absolute http\(s\) URL written out/);
    assert.deepEqual(paths, ['/first']);
    assert.equal(asked.length, 1);
  });

  it("the CLI's host list still applies to the host the vars value names", async () => {
    const cli = connectionsHost({ connections: [], key: () => undefined });
    const [, r] = await run(notebook(['vars', `baseUrl = ${base}`], ['http', 'GET {{baseUrl}}/x']), cli);
    assert.match(r.error ?? '', new RegExp(`not sent: ${host} is not an allowed host: run with --allow-host ${host}`));
    assert.deepEqual(paths, []);
  });
});
