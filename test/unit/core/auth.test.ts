import * as assert from 'node:assert/strict';
import { applyAuth, originOf, type AuthPlacement } from '../../../src/core/auth';
import { HttpClient } from '../../../src/core/http';
import { FaultServer } from '../helpers/faultServer';

const KEY = 'k-test-0123456789';

describe('core/auth: where the key goes on the wire', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  async function send(auth: AuthPlacement, key: string | undefined) {
    const client = new HttpClient({ service: 'Test', baseUrl: server.url('/v1'), auth, credentials: () => Promise.resolve(key) });
    await client.json({ path: 'models', query: { limit: 5 } });
    assert.equal(server.count, 1);
    return server.requests[0];
  }

  it('bearer: Authorization: Bearer <key>, nothing in the URL', async () => {
    const got = await send({ placement: 'bearer' }, KEY);
    assert.equal(got.headers.authorization, `Bearer ${KEY}`);
    assert.equal(got.url, '/v1/models?limit=5');
  });

  it('header api-key (Azure): the key in `api-key`, no Authorization', async () => {
    const got = await send({ placement: 'header', name: 'api-key' }, KEY);
    assert.equal(got.headers['api-key'], KEY);
    assert.equal(got.headers.authorization, undefined);
    assert.equal(got.url, '/v1/models?limit=5');
  });

  it('header X-Goog-Api-Key (Google): the key in that header', async () => {
    const got = await send({ placement: 'header', name: 'X-Goog-Api-Key' }, KEY);
    assert.equal(got.headers['x-goog-api-key'], KEY);
    assert.equal(got.headers.authorization, undefined);
    assert.equal(got.url, '/v1/models?limit=5');
  });

  it('query key=: the key as a query parameter next to the others, no auth header', async () => {
    const got = await send({ placement: 'query', name: 'key' }, KEY);
    const url = new URL(got.url, 'http://x');
    assert.equal(url.pathname, '/v1/models');
    assert.equal(url.searchParams.get('key'), KEY);
    assert.equal(url.searchParams.get('limit'), '5');
    assert.equal(got.headers.authorization, undefined);
    assert.equal(got.headers['x-goog-api-key'], undefined);
  });

  it('none: the key is not sent anywhere even when one is available', async () => {
    const got = await send({ placement: 'none' }, KEY);
    assert.ok(!JSON.stringify(got).includes(KEY), 'key must not reach the server');
  });

  it('no stored key: the request goes out without credentials', async () => {
    const got = await send({ placement: 'bearer' }, undefined);
    assert.equal(got.headers.authorization, undefined);
  });

  it('the credentials callback sees the exact URL that is requested (for origin approval)', async () => {
    const seen: string[] = [];
    const client = new HttpClient({
      service: 'Test',
      baseUrl: server.url('/openai/v1/'),
      auth: { placement: 'bearer' },
      credentials: (url) => {
        seen.push(url.toString());
        return Promise.resolve(KEY);
      },
    });
    await client.json({ path: '/chat/completions', body: { a: 1 } });
    assert.deepEqual(seen, [server.url('/openai/v1/chat/completions')]);
    assert.equal(server.requests[0].url, '/openai/v1/chat/completions');
    assert.equal(server.requests[0].method, 'POST');
    assert.equal(server.requests[0].headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(server.requests[0].body), { a: 1 });
  });

  it('paths with a colon (Google custom methods) stay paths under the base URL', async () => {
    const places = new HttpClient({
      service: 'Maps',
      baseUrl: server.url('/v1'),
      auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      credentials: () => Promise.resolve(KEY),
    });
    await places.json({ path: 'places:searchText', body: { textQuery: 'x' } });
    const root = new HttpClient({ service: 'Maps', baseUrl: server.url(), auth: { placement: 'query', name: 'key' }, credentials: () => Promise.resolve(KEY) });
    await root.json({ path: '/v1:validateAddress', body: {} });
    await root.json({ path: 'directions/v2:computeRoutes', body: {} });
    assert.deepEqual(
      server.requests.map((r) => new URL(r.url, 'http://x').pathname),
      ['/v1/places:searchText', '/v1:validateAddress', '/directions/v2:computeRoutes'],
    );
  });

  it('default headers and per-request headers are sent; the auth header wins over a stale one', async () => {
    const client = new HttpClient({
      service: 'Test',
      baseUrl: server.url(),
      auth: { placement: 'bearer' },
      credentials: () => Promise.resolve(KEY),
      defaultHeaders: { 'x-client': 'workbench' },
    });
    await client.json({ path: 'x', headers: { 'x-extra': '1', authorization: 'Bearer stale' } });
    const h = server.requests[0].headers;
    assert.equal(h['x-client'], 'workbench');
    assert.equal(h['x-extra'], '1');
    assert.equal(h.authorization, `Bearer ${KEY}`);
  });
});

describe('core/auth: applyAuth and originOf', () => {
  it('does not modify the URL or headers it is given', () => {
    const url = new URL('https://h.example/v1/x?a=1');
    const headers = { accept: 'application/json' };
    const out = applyAuth({ placement: 'query', name: 'key' }, KEY, url, headers);
    assert.equal(url.toString(), 'https://h.example/v1/x?a=1');
    assert.equal(out.url.searchParams.get('key'), KEY);
    const out2 = applyAuth({ placement: 'header', name: 'Api-Key' }, KEY, url, headers);
    assert.deepEqual(headers, { accept: 'application/json' });
    assert.equal(out2.headers['api-key'], KEY);
  });

  it('originOf gives scheme://host[:port], the unit a key is approved for', () => {
    assert.equal(originOf('https://api.openai.com/v1/models'), 'https://api.openai.com');
    assert.equal(originOf(new URL('http://127.0.0.1:8787/v1')), 'http://127.0.0.1:8787');
    assert.equal(originOf('https://x.example:443/a'), 'https://x.example');
  });
});
