import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { ApiError, isApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions } from '../../../src/core/http';
import { DEFAULT_RETRY } from '../../../src/core/retry';
import { describeIssues, validate } from '../../../src/core/validate';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf } from '../helpers/util';

const PROXY_502 = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>`;

const Models = z.object({ object: z.literal('list'), data: z.array(z.object({ id: z.string() })) });

describe('core/http: errors a user can act on', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  function client(extra: Partial<HttpClientOptions> = {}): HttpClient {
    return new HttpClient({
      service: 'OpenAI',
      baseUrl: server.url('/v1'),
      auth: { placement: 'none' },
      clock: ManualClock.instant(),
      retry: { ...DEFAULT_RETRY, maxRetries: 0 },
      ...extra,
    });
  }

  it('an HTML 502 from a proxy: status, request id and a readable snippet in describe()', async () => {
    server.script({ status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'req_proxy_1' }, body: PROXY_502 });
    const err = await apiErrorOf(client().json({ path: 'models', schema: Models }));
    assert.equal(err.kind, 'http');
    assert.equal(err.status, 502);
    assert.equal(err.requestId, 'req_proxy_1');
    const line = err.describe();
    assert.match(line, /^OpenAI 502: /);
    assert.match(line, /502 Bad Gateway/);
    assert.match(line, /\(request id req_proxy_1\)$/);
    assert.ok(!line.includes('\n'), 'one line for a notification');
  });

  it('the Azure request id header (apim-request-id) is picked up too', async () => {
    server.script({ status: 502, headers: { 'apim-request-id': '6a1b-azure' }, body: PROXY_502 });
    const err = await apiErrorOf(client().json({ path: 'models' }));
    assert.equal(err.requestId, '6a1b-azure');
    assert.match(err.describe(), /\(request id 6a1b-azure\)$/);
  });

  it('a 200 JSON that does not match the schema: kind invalid-response, status, request id and where it differs', async () => {
    server.script({ headers: { 'x-request-id': 'req_bad_shape' }, body: { object: 'list', data: [{ id: 7 }] } });
    const err = await apiErrorOf(client().json({ path: 'models', schema: Models }));
    assert.equal(err.kind, 'invalid-response');
    assert.equal(err.status, 200);
    assert.equal(err.requestId, 'req_bad_shape');
    const line = err.describe();
    assert.match(line, /^OpenAI 200: unexpected response: /);
    assert.match(line, /data\.0\.id: expected string/);
    assert.match(line, /\(request id req_bad_shape\)$/);
  });

  it('a 200 that is not JSON at all: kind invalid-response with a snippet', async () => {
    server.script({ headers: { 'apim-request-id': 'apim-1' }, body: '<html>login page</html>' });
    const err = await apiErrorOf(client().json({ path: 'models', schema: Models }));
    assert.equal(err.kind, 'invalid-response');
    assert.equal(err.status, 200);
    assert.equal(err.requestId, 'apim-1');
    assert.match(err.describe(), /not JSON: <html>login page<\/html> \(request id apim-1\)$/);
  });

  it('a valid body is returned typed, with status, headers and request id', async () => {
    server.script({ headers: { 'x-request-id': 'req_ok' }, body: { object: 'list', data: [{ id: 'm1' }] } });
    const res = await client().json({ path: 'models', schema: Models });
    assert.deepEqual(
      res.data.data.map((m) => m.id),
      ['m1'],
    );
    assert.equal(res.status, 200);
    assert.equal(res.requestId, 'req_ok');
    assert.equal(res.headers['x-request-id'], 'req_ok');
  });

  it("the service's own error code and message come from parseError", async () => {
    server.script({
      status: 401,
      headers: { 'x-request-id': 'req_401' },
      body: { error: { message: 'Incorrect API key provided: sk-...ab.', type: 'invalid_request_error', code: 'invalid_api_key' } },
    });
    const c = client({
      parseError: (_s, body) => {
        const e = (body as { error: { code: string; message: string } }).error;
        return { code: e.code, message: e.message };
      },
    });
    const err = await apiErrorOf(c.json({ path: 'models' }));
    assert.equal(err.code, 'invalid_api_key');
    assert.equal(err.serviceMessage, 'Incorrect API key provided: sk-...ab.');
    assert.equal(err.describe(), 'OpenAI 401 invalid_api_key: Incorrect API key provided: sk-...ab. (request id req_401)');
  });

  it('a parseError that throws on an unexpected error body still yields an ApiError with the status', async () => {
    server.script({ status: 500, headers: { 'x-request-id': 'req_500' }, body: { weird: true } });
    const c = client({
      parseError: () => {
        throw new Error('unexpected shape');
      },
    });
    const err = await apiErrorOf(c.json({ path: 'models' }));
    assert.equal(err.status, 500);
    assert.equal(err.requestId, 'req_500');
    assert.match(err.describe(), /^OpenAI 500: HTTP 500 \(request id req_500\)$/);
  });

  it('an empty error body says so', async () => {
    server.script({ status: 503 });
    const err = await apiErrorOf(client().json({ path: 'models' }));
    assert.equal(err.status, 503);
    assert.match(err.message, /empty response body/);
  });

  it('custom request id headers replace the defaults', async () => {
    server.script({ status: 400, headers: { 'x-request-id': 'ignored', 'x-trace': 'trace-9' }, body: {} });
    const err = await apiErrorOf(client({ requestIdHeaders: ['x-trace'] }).json({ path: 'models' }));
    assert.equal(err.requestId, 'trace-9');
  });

  it('an empty 2xx body is fine when no schema is given (e.g. 204)', async () => {
    server.script({ status: 204 });
    const res = await client().json({ path: 'x', method: 'DELETE' });
    assert.equal(res.status, 204);
    assert.equal(res.data, undefined);
  });

  it('a connection that breaks half-way through a 200 body: kind network, with the status and request id that did arrive', async () => {
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_cut', 'content-length': '500' });
      res.write('{"object":"list","data":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await apiErrorOf(client().json({ path: 'models', schema: Models }));
    assert.equal(err.kind, 'network');
    assert.equal(err.status, 200);
    assert.equal(err.requestId, 'req_cut');
  });

  it('a body in several chunks, with a UTF-8 byte order mark and multi-byte text split across chunks, is read whole', async () => {
    const json = Buffer.from(`\ufeff{"object":"list","data":[{"id":"modèle-日本"}]}`, 'utf8');
    const cut = json.indexOf(Buffer.from('日')) + 1; // inside the three bytes of 日
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(json.subarray(0, cut));
      setTimeout(() => res.end(json.subarray(cut)), 10);
    });
    const res = await client().json({ path: 'models', schema: Models });
    assert.equal(res.data.data[0].id, 'modèle-日本');
  });

  it('a credentials provider that refuses with an auth ApiError: that error, unchanged and without a request', async () => {
    const refusal = new ApiError({ kind: 'auth', service: 'OpenAI', message: 'Origin not approved' });
    const c = client({ auth: { placement: 'bearer' }, credentials: async () => Promise.reject(refusal), retry: DEFAULT_RETRY });
    const err = await apiErrorOf(c.json({ path: 'models' }));
    assert.equal(err, refusal);
    assert.equal(server.count, 0);
  });
});

describe('core/errors and core/validate: the pieces', () => {
  it('describe() leaves out what is unknown', () => {
    assert.equal(new ApiError({ kind: 'network', service: 'Maps', message: 'Maps could not be reached' }).describe(), 'Maps could not be reached');
    assert.equal(
      new ApiError({ kind: 'network', service: 'Maps', code: 'ECONNRESET', message: 'Maps could not be reached: ECONNRESET socket hang up' }).describe(),
      'Maps could not be reached: ECONNRESET socket hang up',
      'neither the service nor the code twice',
    );
    const full = new ApiError({
      kind: 'http',
      service: 'Maps',
      message: 'm',
      status: 403,
      code: 'PERMISSION_DENIED',
      serviceMessage: 'API not enabled',
      requestId: 'r1',
    });
    assert.equal(full.describe(), 'Maps 403 PERMISSION_DENIED: API not enabled (request id r1)');
    assert.ok(isApiError(full));
    assert.ok(!isApiError(new Error('x')));
  });

  it('validate() describes up to three issues by path', () => {
    const v = validate(z.object({ a: z.string(), b: z.number(), c: z.boolean(), d: z.string() }), { a: 1, b: 'x', c: null, d: 2 });
    assert.equal(v.ok, false);
    if (!v.ok) assert.equal(v.problem, 'a: expected string; b: expected number; c: expected boolean; and 1 more');
    assert.equal(describeIssues([{ code: 'invalid_value', path: ['k'], values: ['x', 'y'] }]), 'k: expected one of "x", "y"');
  });
});
