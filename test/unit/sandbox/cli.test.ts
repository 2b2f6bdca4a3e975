// The sandbox CLI contract the extension and scripts rely on: one JSON ready line, per-service
// auth errors in each service's own shape, resource listings, fixed credentials, ports, signals.
import * as assert from 'node:assert/strict';
import WebSocket from 'ws';
import * as z from 'zod/mini';
import { signRestRequest } from '../../../src/services/realtime/signing';
import { validate } from '../../../src/core/validate';
import { freePortRange, killLeftovers, listenOn, runSandboxToExit, startSandboxProcess, type SandboxProcess } from '../helpers/sandboxProcess';

const SandboxInfo = z.object({
  llm: z.object({ baseUrl: z.string(), apiKey: z.string() }),
  maps: z.object({ baseUrl: z.string(), apiKey: z.string() }),
  realtime: z.object({ host: z.string(), port: z.number(), appId: z.string(), key: z.string(), secret: z.string() }),
});
type SandboxInfo = z.infer<typeof SandboxInfo>;

const Resource = z.object({ id: z.string(), kind: z.string(), name: z.string(), detail: z.optional(z.string()) });
/** The uniform listing every service answers at GET {origin}/v1/resources. */
const ResourceList = z.object({ resources: z.array(Resource) });
const OpenAiError = z.object({ error: z.object({ message: z.string(), type: z.string(), code: z.nullable(z.string()) }) });
const GoogleError = z.object({ error: z.object({ code: z.literal(401), status: z.literal('UNAUTHENTICATED'), message: z.string() }) });

function parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
  const v = validate(schema, value);
  if (!v.ok) assert.fail(`${what} does not match the contract: ${v.problem}\n${JSON.stringify(value)}`);
  return v.value;
}

function infoOf(sb: SandboxProcess): SandboxInfo {
  return parse(SandboxInfo, sb.ready, 'ready line');
}

async function getJson(url: string, init: RequestInit = {}): Promise<{ status: number; type: string; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text stays text
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body };
}

function realtimeBase(info: SandboxInfo): string {
  return `http://${info.realtime.host}:${info.realtime.port}`;
}

/** A Pusher REST request signed like the official server library does. */
function signedUrl(info: SandboxInfo, path: string, secret = info.realtime.secret, extra: Record<string, string> = {}): string {
  const params = signRestRequest({ key: info.realtime.key, secret }, { method: 'GET', path, params: extra, timestamp: Math.floor(Date.now() / 1000) });
  return `${realtimeBase(info)}${path}?${new URLSearchParams(params).toString()}`;
}

describe('sandbox CLI: node dist/sandbox.js', function () {
  // The first request to a fresh sandbox may wait while it loads its data; nothing here sleeps.
  this.timeout(15_000);
  after(killLeftovers);

  describe('--port 0', () => {
    let sb: SandboxProcess;
    let info: SandboxInfo;
    before(async () => {
      sb = await startSandboxProcess(['--port', '0']);
      info = infoOf(sb);
    });
    after(() => sb.proc.kill('SIGKILL'));

    it('prints one JSON line matching SandboxInfo within 2 s, with three distinct local ports and fresh keys', () => {
      const llm = new URL(info.llm.baseUrl);
      const maps = new URL(info.maps.baseUrl);
      assert.equal(llm.hostname, '127.0.0.1');
      assert.equal(llm.pathname, '/v1');
      assert.equal(maps.hostname, '127.0.0.1');
      assert.equal(info.realtime.host, '127.0.0.1');
      const ports = [Number(llm.port), Number(maps.port), info.realtime.port];
      assert.ok(ports.every((p) => p > 0));
      assert.equal(new Set(ports).size, 3);
      for (const secret of [info.llm.apiKey, info.maps.apiKey, info.realtime.key, info.realtime.secret, info.realtime.appId]) assert.ok(secret.length >= 6);
      assert.equal(sb.stdout().split('\n').filter(Boolean).length, 1);
    });

    it('LLM: a wrong or missing key gets 401 in OpenAI shape on <baseUrl>/models', async () => {
      const wrong = await getJson(`${info.llm.baseUrl}/models`, { headers: { authorization: 'Bearer sk-wrong-key' } });
      assert.equal(wrong.status, 401);
      assert.match(wrong.type, /application\/json/);
      const e = parse(OpenAiError, wrong.body, 'OpenAI 401').error;
      assert.equal(e.code, 'invalid_api_key');
      const missing = await getJson(`${info.llm.baseUrl}/models`);
      assert.equal(missing.status, 401);
      parse(OpenAiError, missing.body, 'OpenAI 401 without key');
    });

    it('LLM: the right key reaches GET /v1/resources, OpenAI-style (Bearer) and Azure-style (/openai/v1, api-key)', async () => {
      const res = await getJson(`${info.llm.baseUrl}/resources`, { headers: { authorization: `Bearer ${info.llm.apiKey}` } });
      assert.equal(res.status, 200);
      parse(ResourceList, res.body, 'LLM resources');
      const azureBase = info.llm.baseUrl.replace(/\/v1$/, '/openai/v1');
      const azure = await getJson(`${azureBase}/resources`, { headers: { 'api-key': info.llm.apiKey } });
      assert.equal(azure.status, 200);
      const azureWrong = await getJson(`${azureBase}/resources`, { headers: { 'api-key': 'wrong-azure-key' } });
      assert.equal(azureWrong.status, 401);
      parse(OpenAiError, azureWrong.body, 'Azure 401');
    });

    it('maps: a wrong or missing key gets 401 as a google.rpc.Status on /v1/places:searchText', async () => {
      const body = JSON.stringify({ textQuery: 'coffee' });
      const headers = { 'content-type': 'application/json', 'x-goog-fieldmask': 'places.displayName' };
      const wrong = await getJson(`${info.maps.baseUrl}/v1/places:searchText`, {
        method: 'POST',
        headers: { ...headers, 'x-goog-api-key': 'AIzaWrong' },
        body,
      });
      assert.equal(wrong.status, 401);
      parse(GoogleError, wrong.body, 'Google 401');
      const missing = await getJson(`${info.maps.baseUrl}/v1/places:searchText`, { method: 'POST', headers, body });
      assert.equal(missing.status, 401);
      parse(GoogleError, missing.body, 'Google 401 without key');
    });

    it('maps: the right key reaches GET /v1/resources by X-Goog-Api-Key header and by ?key=', async () => {
      const byHeader = await getJson(`${info.maps.baseUrl}/v1/resources`, { headers: { 'x-goog-api-key': info.maps.apiKey } });
      assert.equal(byHeader.status, 200);
      parse(ResourceList, byHeader.body, 'maps resources');
      const byQuery = await getJson(`${info.maps.baseUrl}/v1/resources?key=${encodeURIComponent(info.maps.apiKey)}`);
      assert.equal(byQuery.status, 200);
    });

    it('realtime: an unsigned or badly signed GET /apps/<id>/channels gets a plain-text 401', async () => {
      const path = `/apps/${info.realtime.appId}/channels`;
      const unsigned = await getJson(`${realtimeBase(info)}${path}`);
      assert.equal(unsigned.status, 401);
      assert.match(unsigned.type, /text\/plain/);
      assert.equal(typeof unsigned.body, 'string');
      const badSecret = await getJson(signedUrl(info, path, 'not-the-secret'));
      assert.equal(badSecret.status, 401);
      assert.match(badSecret.type, /text\/plain/);
      const tampered = signedUrl(info, path).replace(/auth_timestamp=(\d+)/, (_m, t: string) => `auth_timestamp=${Number(t) - 1}`);
      assert.equal((await getJson(tampered)).status, 401, 'a changed parameter breaks the signature');
    });

    it('realtime: the app secret as a bearer token reaches GET /v1/resources (and GET /); a signed request reaches GET /apps/<id>/channels', async () => {
      for (const path of ['/v1/resources', '/']) {
        const res = await getJson(`${realtimeBase(info)}${path}`, { headers: { authorization: `Bearer ${info.realtime.secret}` } });
        assert.equal(res.status, 200, path);
        parse(ResourceList, res.body, `realtime resources at ${path}`);
        const wrong = await getJson(`${realtimeBase(info)}${path}`, { headers: { authorization: 'Bearer not-the-secret' } });
        assert.equal(wrong.status, 401, path);
        assert.match(wrong.type, /application\/json/);
      }
      const channels = await getJson(signedUrl(info, `/apps/${info.realtime.appId}/channels`));
      assert.equal(channels.status, 200);
      parse(z.object({ channels: z.record(z.string(), z.unknown()) }), channels.body, 'channel list');
    });

    it('SIGTERM with a keep-alive HTTP connection and a WebSocket open: exit code 0, and stdout held only the ready line', async () => {
      await getJson(`${info.llm.baseUrl}/models`, { headers: { authorization: `Bearer ${info.llm.apiKey}` } });
      const ws = new WebSocket(`ws://${info.realtime.host}:${info.realtime.port}/app/${info.realtime.key}?protocol=7&client=test&version=1.0`);
      const firstFrame = new Promise<string>((resolve, reject) => {
        ws.once('message', (d: Buffer) => resolve(d.toString('utf8')));
        ws.once('error', reject);
      });
      assert.match(await firstFrame, /pusher:connection_established/);
      const wsClosed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
      const exit = await sb.stop('SIGTERM');
      assert.deepEqual(exit, { code: 0, signal: null });
      await wsClosed;
      assert.equal(sb.stdout().split('\n').filter(Boolean).length, 1, `stdout: ${sb.stdout()}`);
    });
  });

  describe('signals', () => {
    it('SIGINT stops it with exit code 0', async () => {
      const sb = await startSandboxProcess(['--port', '0']);
      const info = infoOf(sb);
      // A request answered means start-up has finished.
      assert.equal((await getJson(`${info.llm.baseUrl}/models`)).status, 401);
      assert.deepEqual(await sb.stop('SIGINT'), { code: 0, signal: null });
    });

    it('a parent may signal as soon as it has read the ready line: still exit code 0', async () => {
      const sb = await startSandboxProcess(['--port', '0']);
      assert.deepEqual(await sb.stop('SIGTERM'), { code: 0, signal: null }, `stderr: ${sb.stderr()}`);
    });

    it('with SANDBOX_EXIT_ON_STDIN_CLOSE=1, closing its stdin (the parent went away) stops it with code 0', async () => {
      const sb = await startSandboxProcess(['--port', '0'], { SANDBOX_EXIT_ON_STDIN_CLOSE: '1' });
      assert.equal((await getJson(`${infoOf(sb).llm.baseUrl}/models`)).status, 401);
      sb.proc.stdin.end();
      assert.deepEqual(await sb.exited, { code: 0, signal: null });
    });
  });

  describe('fixed credentials and ports', () => {
    const fixed = { llm: 'sk-fixed-llm-key-123', maps: 'AIzaFixedMapsKey456', appId: '424242', key: 'fixedrealtimekey', secret: 'fixedrealtimesecret' };

    it('by flag: the given credentials are printed and accepted; --port N uses N, N+1, N+2', async () => {
      const base = await freePortRange(3);
      const sb = await startSandboxProcess([
        '--port',
        String(base),
        '--llm-key',
        fixed.llm,
        '--maps-key',
        fixed.maps,
        '--realtime-app-id',
        fixed.appId,
        '--realtime-key',
        fixed.key,
        '--realtime-secret',
        fixed.secret,
      ]);
      const info = infoOf(sb);
      assert.deepEqual(info, {
        llm: { baseUrl: `http://127.0.0.1:${base}/v1`, apiKey: fixed.llm },
        maps: { baseUrl: `http://127.0.0.1:${base + 1}`, apiKey: fixed.maps },
        realtime: { host: '127.0.0.1', port: base + 2, appId: fixed.appId, key: fixed.key, secret: fixed.secret },
      });
      assert.equal((await getJson(`http://127.0.0.1:${base}/v1/resources`, { headers: { authorization: `Bearer ${fixed.llm}` } })).status, 200);
      assert.equal((await getJson(`http://127.0.0.1:${base + 1}/v1/resources`, { headers: { 'x-goog-api-key': fixed.maps } })).status, 200);
      assert.equal((await getJson(signedUrl(info, `/apps/${fixed.appId}/channels`))).status, 200);
      assert.deepEqual(await sb.stop('SIGINT'), { code: 0, signal: null });
    });

    it('by environment variable, and a flag beats its variable', async () => {
      const sb = await startSandboxProcess(['--port', '0', '--maps-key', 'AIzaFromTheFlag'], {
        SANDBOX_LLM_KEY: fixed.llm,
        SANDBOX_MAPS_KEY: 'AIzaFromTheEnv',
        SANDBOX_REALTIME_APP_ID: fixed.appId,
        SANDBOX_REALTIME_KEY: fixed.key,
        SANDBOX_REALTIME_SECRET: fixed.secret,
      });
      const info = infoOf(sb);
      assert.equal(info.llm.apiKey, fixed.llm);
      assert.equal(info.maps.apiKey, 'AIzaFromTheFlag');
      assert.deepEqual([info.realtime.appId, info.realtime.key, info.realtime.secret], [fixed.appId, fixed.key, fixed.secret]);
      assert.equal((await getJson(`${info.llm.baseUrl}/resources`, { headers: { authorization: `Bearer ${fixed.llm}` } })).status, 200);
      assert.deepEqual(await sb.stop('SIGTERM'), { code: 0, signal: null });
    });
  });

  describe('bad input', () => {
    for (const port of ['abc', '-1', '65534', '1.5']) {
      it(`--port ${port}: exit code 2, a message on stderr, nothing on stdout`, async () => {
        const r = await runSandboxToExit([`--port=${port}`]);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /--port/);
        assert.equal(r.stdout, '');
      });
    }

    it('an unknown option: exit code 2 with the usage on stderr', async () => {
      const r = await runSandboxToExit(['--no-such-option']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /Usage: node dist\/sandbox\.js/);
      assert.equal(r.stdout, '');
    });

    it('a port already in use: exit code 1, the reason on stderr, no ready line', async () => {
      const base = await freePortRange(3);
      const blocker = await listenOn(base + 1);
      try {
        const r = await runSandboxToExit(['--port', String(base)]);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /EADDRINUSE/);
        assert.equal(r.stdout, '');
      } finally {
        await new Promise((r) => blocker.close(r));
      }
    });
  });
});

describe('realtime signing used by these tests', () => {
  it('matches the Pusher REST test vector (protocols.md §1)', () => {
    const params = signRestRequest(
      { key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' },
      { method: 'POST', path: '/apps/3/events', body: '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}', timestamp: 1353088179 },
    );
    assert.equal(params.body_md5, 'ec365a775a4cd0599faeb73354201b6f');
    assert.equal(params.auth_signature, 'da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c');
  });
});
