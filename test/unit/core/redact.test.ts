import * as assert from 'node:assert/strict';
import type { AuthPlacement } from '../../../src/core/auth';
import { HttpClient, type RequestLogEntry } from '../../../src/core/http';
import { MASK, Redactor } from '../../../src/core/redact';
import { DEFAULT_RETRY } from '../../../src/core/retry';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { apiErrorOf, drain } from '../helpers/util';

describe('core/redact: Redactor', () => {
  it('masks a secret added after earlier lines, the longer of two overlapping secrets whole, and stops after removal', () => {
    const r = new Redactor();
    assert.equal(r.text('key abcdef-123 here'), 'key abcdef-123 here');
    r.addSecret('abcdef');
    assert.equal(r.text('key abcdef-123 here'), `key ${MASK}-123 here`);
    r.addSecret('abcdef-123');
    assert.equal(r.text('key abcdef-123 here'), `key ${MASK} here`);
    r.removeSecret('abcdef-123');
    r.removeSecret('abcdef');
    assert.equal(r.text('key abcdef-123 here'), 'key abcdef-123 here');
  });

  it('still masks bearer tokens, key-like query parameters and JSON secret fields in any mix of them', () => {
    const r = new Redactor();
    assert.equal(
      r.text('BEARER tok.en-1 then ?x=1&api_key=zzz&b=2 and {"secret": "s3"}'),
      `BEARER ${MASK} then ?x=1&api_key=${MASK}&b=2 and {"secret": "${MASK}"}`,
    );
    assert.equal(r.text('plain text, nothing to mask'), 'plain text, nothing to mask');
  });

  it('masks a member or parameter named like a key in any casing of each secret word, and leaves an answer with none unchanged', () => {
    // The name patterns only run on a text where a secret word appears (mayHoldSecretName): each
    // spelling here must still reach them, as a JSON member and as a query parameter.
    const names = [
      'client_secret',
      'X-Auth-Token',
      'APIKEY',
      'accessToken',
      'Proxy-Authorization',
      'db_PASSWD',
      'pwd',
      'Passphrase',
      'x-hub-signature',
      'sig',
      'saml_assertion',
      'code_verifier',
      'SessionCookie',
    ];
    const r = new Redactor();
    for (const name of names) {
      assert.equal(r.text(`{"${name}": "v4lue"}`), `{"${name}": "${MASK}"}`, name);
      assert.equal(r.text(`?a=1&${name}=v4lue`), `?a=1&${name}=${MASK}`, name);
    }
    const models = JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1, owned_by: 'system' }] });
    assert.equal(r.text(models), models);
  });

  it('masks auth headers whatever their case, and keeps the others', () => {
    const r = new Redactor();
    const out = r.headers({
      Authorization: 'Bearer sk-live-abc',
      'api-key': 'azure-key-123',
      'X-Goog-Api-Key': 'AIzaSyExample',
      'x-pusher-signature': 'deadbeef',
      'content-type': 'application/json',
      'x-request-id': 'req_1',
      accept: undefined,
    });
    assert.deepEqual(out, {
      Authorization: MASK,
      'api-key': MASK,
      'X-Goog-Api-Key': MASK,
      'x-pusher-signature': MASK,
      'content-type': 'application/json',
      'x-request-id': 'req_1',
    });
  });

  it('masks key= and auth_signature= in URLs, keeps the rest of the URL readable', () => {
    const r = new Redactor();
    const u = r.url('https://maps.example/v4/geocode/address?address=Main+St&key=AIzaSecret123&region=us');
    assert.ok(!u.includes('AIzaSecret123'));
    assert.match(u, /key=\*\*\*/);
    assert.match(u, /address=Main\+St/);
    assert.match(u, /region=us/);
    const signed = r.url('http://127.0.0.1:8789/apps/1/channels?auth_key=278d&auth_timestamp=1353088179&auth_version=1.0&auth_signature=da454824c97ba181');
    assert.ok(!signed.includes('da454824c97ba181'));
    assert.match(signed, /auth_signature=\*\*\*/);
    assert.match(signed, /auth_timestamp=1353088179/);
    assert.ok(!r.url('https://user:hunter2pass@h.example/x').includes('hunter2pass'));
  });

  it('masks bearer tokens and key-like parameters inside free text', () => {
    const r = new Redactor();
    const line = r.text('curl -H "Authorization: Bearer sk-proj-abc.DEF_123" "https://h/x?a=1&key=AIzaXYZ&auth_signature=abcd"');
    assert.ok(!line.includes('sk-proj-abc.DEF_123'));
    assert.ok(!line.includes('AIzaXYZ'));
    assert.ok(!line.includes('abcd"'));
    assert.match(line, /Bearer \*\*\*/);
    assert.match(line, /a=1/);
    assert.equal(r.text('{"auth":"278d:5f3e","channel":"private-x"}'), '{"auth":"***","channel":"private-x"}');
  });

  it('masks registered secret values anywhere, including a secret that contains another', () => {
    const r = new Redactor();
    r.addSecret('abcdef');
    r.addSecret('abcdef-123456');
    const out = r.text('short=abcdef long=abcdef-123456 again:abcdef-123456!');
    assert.equal(out, `short=${MASK} long=${MASK} again:${MASK}!`);
    assert.ok(!out.includes('123456'), 'no tail of the longer secret may remain');
  });

  it('registration order does not matter for nested secrets', () => {
    const r = new Redactor();
    r.addSecret('abcdef-123456');
    r.addSecret('abcdef');
    assert.equal(r.text('x abcdef-123456 y'), `x ${MASK} y`);
  });

  it('secrets are masked in URLs and header values too; removed secrets are shown again', () => {
    const r = new Redactor();
    r.addSecret('app-secret-777');
    assert.ok(!r.url('http://h/p?note=app-secret-777').includes('app-secret-777'));
    assert.deepEqual(r.headers({ 'x-custom': 'v=app-secret-777' }), { 'x-custom': `v=${MASK}` });
    r.removeSecret('app-secret-777');
    assert.equal(r.text('app-secret-777'), 'app-secret-777');
  });

  it('very short values are not treated as secrets (they would garble every line)', () => {
    const r = new Redactor();
    r.addSecret('a');
    r.addSecret('');
    r.addSecret(undefined);
    assert.equal(r.text('a banana'), 'a banana');
  });
});

describe('core/http: the request log never contains the key', () => {
  const KEY = 'sk-LEAKCHECK-5f1e2d3c4b';
  const placements: { name: string; auth: AuthPlacement }[] = [
    { name: 'bearer', auth: { placement: 'bearer' } },
    { name: 'header api-key', auth: { placement: 'header', name: 'api-key' } },
    { name: 'header X-Goog-Api-Key', auth: { placement: 'header', name: 'X-Goog-Api-Key' } },
    { name: 'query key', auth: { placement: 'query', name: 'key' } },
    { name: 'query subscription-key (Azure API Management)', auth: { placement: 'query', name: 'subscription-key' } },
    { name: 'none', auth: { placement: 'none' } },
  ];

  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  for (const { name, auth } of placements) {
    it(`${name}: success, retry, HTTP error, bad body, timeout, reset and stream entries are all clean`, async () => {
      const entries: RequestLogEntry[] = [];
      const c = new HttpClient({
        service: 'S',
        baseUrl: server.url('/v1'),
        auth,
        credentials: () => Promise.resolve(KEY),
        clock: ManualClock.instant(),
        log: (e) => entries.push(e),
        retry: { ...DEFAULT_RETRY, maxRetries: 1 },
      });
      server.script(
        { body: { ok: true } }, // success
        { status: 503 }, // retried …
        { body: {} }, // … then fine
        { status: 401, body: { error: { message: 'bad key' } } },
        { body: 'not json' },
        { hang: true },
        { hang: true }, // the timeout's retry
        { reset: true },
        { reset: true }, // the reset's retry
        { body: 'streamed' },
      );
      await c.json({ path: 'a', query: { q: 'x' } });
      await c.json({ path: 'b' });
      await apiErrorOf(c.json({ path: 'c' }));
      await apiErrorOf(c.json({ path: 'd' }));
      assert.equal((await apiErrorOf(c.json({ path: 'e', timeoutMs: 50 }))).kind, 'timeout');
      assert.equal((await apiErrorOf(c.json({ path: 'f' }))).kind, 'network');
      await drain((await c.stream({ path: 'g' })).body);

      assert.equal(server.count, 10);
      assert.equal(entries.length, 10, 'one log entry per attempt');
      const logged = JSON.stringify(entries);
      assert.ok(!logged.includes(KEY), `the key leaked into the log: ${logged}`);
      if (auth.placement === 'query') {
        assert.ok(
          server.requests.every((r) => r.url.includes(KEY)),
          'the key did go on the wire',
        );
        assert.ok(
          entries.every((e) => e.url.includes(`${auth.name}=${MASK}`)),
          'the log shows where the key went',
        );
      }
    });
  }

  it('a service that echoes the key in its error: describe() is clean once the key is registered with the redactor', async () => {
    const redactor = new Redactor();
    redactor.addSecret(KEY);
    server.script({ status: 401, headers: { 'content-type': 'text/plain' }, body: `Invalid key ${KEY}` });
    const c = new HttpClient({ service: 'S', baseUrl: server.url(), auth: { placement: 'bearer' }, credentials: () => Promise.resolve(KEY), redactor });
    const err = await apiErrorOf(c.json({ path: 'x' }));
    assert.ok(!err.describe().includes(KEY));
    assert.ok(!err.message.includes(KEY));
    assert.match(err.describe(), /Invalid key \*\*\*/);
  });
});
