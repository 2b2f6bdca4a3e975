// "Copy as cURL": the command line a user pastes into a terminal. Quoting is checked by a real shell
// (bash and dash parse the text and print the argv curl would get), the key never appears, and —
// when curl is installed — the copy sends the same request as the extension did.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import type { AuthPlacement } from '../../../src/core/auth';
import { keyEnvVar, shellQuote, toCurl, type CurlRequest } from '../../../src/core/curl';
import { HttpClient, type OutgoingRequest } from '../../../src/core/http';
import { Redactor } from '../../../src/core/redact';
import { FaultServer, type Received } from '../helpers/faultServer';

const KEY = 'sk-curl-test-0123456789abcdef';
const SHELL_TIMEOUT_MS = 10_000;

function run(shell: string, script: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      shell,
      ['-c', script],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: SHELL_TIMEOUT_MS, encoding: 'utf8' },
      (err, stdout, stderr) => (err ? reject(new Error(`${shell} failed: ${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** The argv a shell hands to curl for `text`, with curl replaced by a function that prints it. */
async function argvOf(text: string, env: Record<string, string> = {}, shell = 'bash'): Promise<string[]> {
  const out = await run(shell, `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${text}`, env);
  return out.split('\0').slice(0, -1);
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore', timeout: SHELL_TIMEOUT_MS });
    return true;
  } catch {
    return false;
  }
}

const req = (over: Partial<CurlRequest>): CurlRequest => ({
  method: 'POST',
  url: 'http://127.0.0.1:8787/v1/chat/completions',
  headers: { accept: 'application/json', 'content-type': 'application/json' },
  body: '{"model":"m"}',
  auth: { placement: 'bearer' },
  ...over,
});

describe('Copy as cURL: the formatter', () => {
  it("single-quotes words and writes an embedded quote as '\\''", () => {
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.equal(shellQuote(''), `''`);
  });

  for (const shell of ['bash', 'sh']) {
    it(`${shell} reads a body with quotes, $, backticks, ! and newlines byte for byte`, async () => {
      const body = JSON.stringify({ model: 'gpt', messages: [{ role: 'user', content: "Don't run `rm -rf $HOME` or $(id)!\nline 2 \\n 'x' \"y\"" }] });
      const argv = await argvOf(toCurl(req({ body }), { envVar: 'OPENAI_API_KEY' }), { OPENAI_API_KEY: KEY }, shell);
      assert.deepEqual(argv, [
        'http://127.0.0.1:8787/v1/chat/completions',
        '-H',
        'accept: application/json',
        '-H',
        'content-type: application/json',
        '-H',
        `Authorization: Bearer ${KEY}`,
        '--data-raw',
        body,
      ]);
    });
  }

  it('bearer: the key is "$OPENAI_API_KEY" in an Authorization header the shell expands', () => {
    const text = toCurl(req({}), { envVar: 'OPENAI_API_KEY' });
    assert.match(text, /-H "Authorization: Bearer \$OPENAI_API_KEY"/);
    assert.ok(text.startsWith(`curl 'http://127.0.0.1:8787/v1/chat/completions' \\\n  -H`), text);
  });

  it('header placement (Azure api-key): -H "api-key: $AZURE_OPENAI_API_KEY", any api-key value already there is dropped', async () => {
    const text = toCurl(req({ auth: { placement: 'header', name: 'api-key' }, headers: { 'api-key': 'stale', 'content-type': 'application/json' } }), {
      envVar: 'AZURE_OPENAI_API_KEY',
    });
    assert.match(text, /-H "api-key: \$AZURE_OPENAI_API_KEY"/);
    assert.doesNotMatch(text, /stale/);
    const argv = await argvOf(text, { AZURE_OPENAI_API_KEY: KEY });
    assert.deepEqual(
      argv.filter((a) => a.startsWith('api-key')),
      [`api-key: ${KEY}`],
    );
  });

  it('query placement: the rest of the URL single-quoted, then "?key=$GOOGLE_MAPS_API_KEY" in double quotes', async () => {
    const auth: AuthPlacement = { placement: 'query', name: 'key' };
    const bare = toCurl(req({ method: 'GET', body: undefined, url: 'https://maps.example.com/v4/geocode/address', auth }), { envVar: 'GOOGLE_MAPS_API_KEY' });
    assert.match(bare, /^curl 'https:\/\/maps\.example\.com\/v4\/geocode\/address'"\?key=\$GOOGLE_MAPS_API_KEY"/);
    const withQuery = toCurl(
      req({ method: 'GET', body: undefined, url: "https://maps.example.com/v4/geocode/address?address=O'Hare%20%26%20co&key=leaked", auth }),
      { envVar: 'GOOGLE_MAPS_API_KEY' },
    );
    assert.doesNotMatch(withQuery, /leaked/);
    const [url] = await argvOf(withQuery, { GOOGLE_MAPS_API_KEY: KEY });
    const u = new URL(url);
    assert.equal(u.searchParams.get('address'), "O'Hare & co");
    assert.deepEqual(u.searchParams.getAll('key'), [KEY]);
  });

  it('maps headers (X-Goog-FieldMask, X-Goog-Api-Key placement) and the method', async () => {
    const text = toCurl(
      req({
        url: 'http://127.0.0.1:8788/v1/places:searchText',
        headers: { 'X-Goog-FieldMask': 'places.id,places.displayName', 'content-type': 'application/json' },
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      }),
      { envVar: 'GOOGLE_MAPS_API_KEY' },
    );
    const argv = await argvOf(text, { GOOGLE_MAPS_API_KEY: KEY });
    assert.ok(argv.includes('X-Goog-FieldMask: places.id,places.displayName'));
    assert.ok(argv.includes(`X-Goog-Api-Key: ${KEY}`));
    assert.ok(!argv.includes('-X'), 'POST with a body needs no -X');
    const del = await argvOf(toCurl(req({ method: 'DELETE', body: undefined }), { envVar: 'OPENAI_API_KEY' }));
    assert.deepEqual(del.slice(1, 3), ['-X', 'DELETE']);
  });

  it('a header name the shell would expand inside double quotes is single-quoted instead', async () => {
    const text = toCurl(req({ auth: { placement: 'header', name: 'x-$weird!' } }), { envVar: 'OPENAI_API_KEY' });
    const argv = await argvOf(text, { OPENAI_API_KEY: KEY });
    assert.ok(argv.includes(`x-$weird!: ${KEY}`), argv.join(' | '));
  });

  it('streams (--no-buffer) when the request asks for server-sent events', () => {
    assert.match(toCurl(req({ headers: { accept: 'text/event-stream' } }), { envVar: 'OPENAI_API_KEY' }), /--no-buffer/);
    assert.doesNotMatch(toCurl(req({}), { envVar: 'OPENAI_API_KEY' }), /--no-buffer/);
  });

  it('never contains a known secret, even one that slipped into the URL, a header or the body', () => {
    const redactor = new Redactor();
    redactor.addSecret(KEY);
    const text = toCurl(
      req({
        url: `http://127.0.0.1:8787/v1/${KEY}/chat?note=${KEY}&key=${KEY}`,
        headers: { 'x-debug': `token ${KEY}`, authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ content: `my key is ${KEY}` }),
      }),
      { envVar: 'OPENAI_API_KEY', redactor },
    );
    assert.ok(!text.includes(KEY), text);
    assert.match(text, /"Authorization: Bearer \$OPENAI_API_KEY"/, 'the variable reference survives the guard');
  });

  it('the redactor guard keeps "?key=$VAR" intact (its own ?key= pattern would otherwise mask it)', () => {
    const redactor = new Redactor();
    redactor.addSecret(KEY);
    const text = toCurl(req({ method: 'GET', body: undefined, url: 'http://h/v1:validate', auth: { placement: 'query', name: 'key' } }), {
      envVar: 'GOOGLE_MAPS_API_KEY',
      redactor,
    });
    assert.match(text, /"\?key=\$GOOGLE_MAPS_API_KEY"/);
  });

  it('rejects a variable name the shell would not expand', () => {
    assert.throws(() => toCurl(req({}), { envVar: 'OPENAI-KEY' }), /not a shell variable name/);
  });

  it('names the variable the official SDKs read, per service and auth placement', () => {
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://api.openai.com/v1'), 'OPENAI_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'header', name: 'api-key' }, 'https://r.openai.azure.com/openai/v1'), 'AZURE_OPENAI_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'header', name: 'api-key' }, 'http://127.0.0.1:8787/openai/v1'), 'AZURE_OPENAI_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://r.services.ai.azure.com/openai/v1'), 'AZURE_OPENAI_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'header', name: 'x-api-key' }, 'http://localhost:4000/v1'), 'OPENAI_API_KEY');
    // Hosts whose own docs name a variable: an OpenRouter key as OPENAI_API_KEY would shadow the OpenAI one.
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://openrouter.ai/api/v1'), 'OPENROUTER_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://bedrock-runtime.us-west-2.amazonaws.com/openai/v1'), 'AWS_BEARER_TOKEN_BEDROCK');
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://generativelanguage.googleapis.com/v1beta/openai'), 'GEMINI_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://api.groq.com/openai/v1'), 'GROQ_API_KEY');
    assert.equal(keyEnvVar('llm', { placement: 'bearer' }, 'https://openrouter.ai.example.com/v1'), 'OPENAI_API_KEY');
    assert.equal(keyEnvVar('maps', { placement: 'header', name: 'X-Goog-Api-Key' }), 'GOOGLE_MAPS_API_KEY');
    assert.equal(keyEnvVar('maps', { placement: 'query', name: 'key' }), 'GOOGLE_MAPS_API_KEY');
  });
});

describe('Copy as cURL: the HttpClient hook', () => {
  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  function client(auth: AuthPlacement, seen: OutgoingRequest[]): HttpClient {
    return new HttpClient({
      service: 'Test',
      baseUrl: server.url('/v1'),
      auth,
      credentials: () => Promise.resolve(KEY),
      defaultHeaders: { 'x-client': 'workbench' },
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1000 },
      onRequest: (r) => seen.push(r),
    });
  }

  for (const auth of [{ placement: 'bearer' }, { placement: 'header', name: 'api-key' }, { placement: 'query', name: 'key' }] as AuthPlacement[]) {
    it(`${auth.placement}: reports the request once (not per retry), without the key`, async () => {
      const seen: OutgoingRequest[] = [];
      server.script({ status: 503, body: { error: { message: 'busy' } } }, { status: 200, body: { ok: true } });
      await client(auth, seen).json({ path: 'chat/completions', query: { limit: 2 }, headers: { 'X-Goog-FieldMask': '*' }, body: { q: 'x' } });
      assert.equal(server.count, 2, 'the request was retried');
      assert.equal(seen.length, 1);
      const r = seen[0];
      assert.equal(r.method, 'POST');
      assert.equal(r.url, server.url('/v1/chat/completions?limit=2'));
      assert.equal(r.body, '{"q":"x"}');
      assert.equal(r.headers['x-goog-fieldmask'] ?? r.headers['X-Goog-FieldMask'], '*');
      assert.equal(r.headers['x-client'], 'workbench');
      assert.deepEqual(r.auth, auth);
      assert.ok(!JSON.stringify(r).includes(KEY), 'the hook never sees the key');
    });
  }

  it('an observer that throws does not fail the request', async () => {
    const c = new HttpClient({
      service: 'Test',
      baseUrl: server.url('/v1'),
      auth: { placement: 'none' },
      onRequest: () => {
        throw new Error('observer bug');
      },
    });
    const res = await c.json({ path: 'models' });
    assert.equal(res.status, 200);
  });

  describe('with curl installed: the copy sends what the extension sent', function () {
    before(function () {
      if (!hasCommand('curl')) this.skip();
    });

    const cases: { name: string; auth: AuthPlacement; envVar: string }[] = [
      { name: 'LLM bearer', auth: { placement: 'bearer' }, envVar: 'OPENAI_API_KEY' },
      { name: 'Azure api-key header', auth: { placement: 'header', name: 'api-key' }, envVar: 'AZURE_OPENAI_API_KEY' },
      { name: 'Google key in the query', auth: { placement: 'query', name: 'key' }, envVar: 'GOOGLE_MAPS_API_KEY' },
      { name: 'Google X-Goog-Api-Key header', auth: { placement: 'header', name: 'X-Goog-Api-Key' }, envVar: 'GOOGLE_MAPS_API_KEY' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const seen: OutgoingRequest[] = [];
        server.script({ status: 200, body: { ok: true } });
        const redactor = new Redactor();
        redactor.addSecret(KEY);
        const body = { textQuery: "Joe's café & bar $HOME `id`", nested: { lines: ['a\nb'] } };
        await client(c.auth, seen).json({ path: 'places:searchText', query: { languageCode: 'fr' }, headers: { 'X-Goog-FieldMask': 'places.id' }, body });
        const original: Received = server.requests[0];
        const text = toCurl(seen[0], { envVar: c.envVar, redactor });
        assert.ok(!text.includes(KEY));
        await run('bash', `${text} --silent --show-error --output /dev/null`, { [c.envVar]: KEY });
        const copy: Received = server.requests[1];
        assert.ok(copy, 'curl reached the server');
        assert.equal(copy.method, original.method);
        assert.equal(copy.url, original.url);
        assert.equal(copy.body, original.body);
        for (const h of ['authorization', 'api-key', 'x-goog-api-key', 'x-goog-fieldmask', 'content-type', 'accept', 'x-client']) {
          assert.equal(copy.headers[h], original.headers[h], h);
        }
      });
    }
  });
});
