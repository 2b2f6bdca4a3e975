// Hostile input against the sandbox CLI in a child process, as `npm run sandbox` runs it: every
// HTTP request gets a 4xx (never a 500, a reset or a crash), every WebSocket is refused with an
// HTTP 4xx or closed, and afterwards the process is alive and its services answer normal
// requests. The child runs with a small heap, so a request that makes it allocate far more than
// its own size ends the process and fails the case.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import * as z from 'zod/mini';
import { validate } from '../../../src/core/validate';
import { signRestRequest } from '../../../src/services/realtime/signing';
import { killLeftovers, startSandboxProcess, type SandboxProcess } from '../helpers/sandboxProcess';

const SandboxInfo = z.object({
  llm: z.object({ baseUrl: z.string(), apiKey: z.string() }),
  maps: z.object({ baseUrl: z.string(), apiKey: z.string() }),
  realtime: z.object({ host: z.string(), port: z.number(), appId: z.string(), key: z.string(), secret: z.string() }),
});
type SandboxInfo = z.infer<typeof SandboxInfo>;
type Service = 'llm' | 'maps' | 'realtime';

const HEAP_MB = 256;
const MB = 1024 * 1024;

interface HttpCase {
  name: string;
  service: Service;
  method?: string;
  /** The request target exactly as sent (not normalised by a URL parser). */
  target: (info: SandboxInfo) => string;
  headers?: (info: SandboxInfo) => Record<string, string>;
  body?: () => Buffer;
  status: number;
  /** The answer must come within this long (default 10 s). */
  withinMs?: number;
  /** The realtime REST API answers errors in plain text, as the hosted service does; the rest in JSON. */
  plainText?: true;
}

interface SocketCase {
  name: string;
  target: (info: SandboxInfo) => string;
  /** Bytes sent right behind the handshake, before any answer. */
  then?: Buffer;
  /** Close codes accepted; absent = any close code or the connection ending. */
  closeCodes?: number[];
}

const json = (v: unknown) => () => Buffer.from(JSON.stringify(v));
const llmAuth = (i: SandboxInfo) => ({ authorization: `Bearer ${i.llm.apiKey}`, 'content-type': 'application/json' });
const mapsAuth = (i: SandboxInfo) => ({ 'x-goog-api-key': i.maps.apiKey, 'x-goog-fieldmask': '*', 'content-type': 'application/json' });
const point = (n: number) => ({ location: { latLng: { latitude: 48 + n / 1000, longitude: 2 } } });

/** A signed realtime REST target for `path` exactly as written (the signature covers the raw path). */
function signed(i: SandboxInfo, method: string, path: string, body?: string): string {
  const q = signRestRequest(i.realtime, { method, path, body, timestamp: Math.floor(Date.now() / 1000) });
  return `${path}?${new URLSearchParams(q).toString()}`;
}

/** A masked client text frame announcing `size` bytes of payload. */
function clientFrame(size: number): Buffer {
  const head = Buffer.alloc(14);
  head[0] = 0x81;
  head[1] = 0x80 | 127;
  head.writeBigUInt64BE(BigInt(size), 2);
  // Mask key 0: the payload goes as it is.
  return Buffer.concat([head, Buffer.alloc(size, 0x61)]);
}

const oversize = () => Buffer.alloc(3 * MB, 0x20);
const tenEvents = Array.from({ length: 11 }, (_, n) => ({ channel: 'c', name: 'e', data: String(n) }));

const HTTP_CASES: HttpCase[] = [
  { name: 'LLM: malformed percent-encoding in a model id', service: 'llm', target: () => '/v1/models/%E0%A4%A', headers: llmAuth, status: 400 },
  {
    name: 'LLM: malformed percent-encoding in an Azure deployment',
    service: 'llm',
    method: 'POST',
    target: () => '/openai/deployments/%zz/chat/completions',
    headers: (i) => ({ 'api-key': i.llm.apiKey }),
    body: json({ messages: [{ role: 'user', content: 'hi' }] }),
    status: 400,
  },
  { name: 'LLM: a request target of //', service: 'llm', target: () => '//', headers: llmAuth, status: 404 },
  {
    name: 'LLM: a body over the 1 MB limit',
    service: 'llm',
    method: 'POST',
    target: () => '/v1/chat/completions',
    headers: llmAuth,
    body: oversize,
    status: 413,
  },
  {
    name: 'LLM: 200,000 embedding inputs in an 800 KB body',
    service: 'llm',
    method: 'POST',
    target: () => '/v1/embeddings',
    headers: llmAuth,
    body: json({ model: 'sandbox-embed', input: Array.from({ length: 200_000 }, () => 'a') }),
    status: 400,
  },
  {
    name: 'LLM: 2,049 embedding inputs (OpenAI allows 2,048)',
    service: 'llm',
    method: 'POST',
    target: () => '/v1/embeddings',
    headers: llmAuth,
    body: json({ model: 'sandbox-embed', input: Array.from({ length: 2049 }, () => 'a') }),
    status: 400,
  },
  {
    name: 'LLM: an answer of 2,000,000 tokens asked for by header',
    service: 'llm',
    method: 'POST',
    target: () => '/v1/chat/completions',
    headers: (i) => ({ ...llmAuth(i), 'x-sandbox-answer-tokens': '2000000' }),
    body: json({ model: 'sandbox-chat', messages: [{ role: 'user', content: 'hi' }] }),
    status: 400,
  },
  { name: 'LLM: no key', service: 'llm', target: () => '/v1/resources', status: 401 },
  { name: 'maps: malformed percent-encoding in a place id', service: 'maps', target: () => '/v1/places/%zz', headers: mapsAuth, status: 400 },
  { name: 'maps: a request target of //', service: 'maps', target: () => '//', headers: mapsAuth, status: 404 },
  {
    name: 'maps: a body over the 1 MB limit',
    service: 'maps',
    method: 'POST',
    target: () => '/v1/places:searchText',
    headers: mapsAuth,
    body: oversize,
    status: 413,
  },
  {
    name: 'maps: 10,000 route waypoints',
    service: 'maps',
    method: 'POST',
    target: () => '/directions/v2:computeRoutes',
    headers: mapsAuth,
    body: json({ origin: point(0), destination: point(1), intermediates: Array.from({ length: 10_000 }, (_, n) => point(n)) }),
    status: 400,
  },
  {
    name: 'maps: a 100 × 100 route matrix',
    service: 'maps',
    method: 'POST',
    target: () => '/distanceMatrix/v2:computeRouteMatrix',
    headers: mapsAuth,
    body: json({
      origins: Array.from({ length: 100 }, (_, n) => ({ waypoint: point(n) })),
      destinations: Array.from({ length: 100 }, (_, n) => ({ waypoint: point(n) })),
    }),
    status: 400,
  },
  // Searching every split of a 100,000-word query took minutes, with the sandbox unresponsive throughout.
  {
    name: 'maps: a text query of 100,000 words answers in time',
    service: 'maps',
    method: 'POST',
    target: () => '/v1/places:searchText',
    headers: mapsAuth,
    body: json({ textQuery: Array.from({ length: 100_000 }, () => 'abc').join(' ') }),
    status: 200,
    withinMs: 5_000,
  },
  { name: 'maps: no key', service: 'maps', target: () => '/v1/resources', status: 401 },
  {
    name: 'realtime: malformed percent-encoding in a channel name (signed)',
    service: 'realtime',
    plainText: true,
    target: (i) => signed(i, 'GET', `/apps/${i.realtime.appId}/channels/%zz`),
    status: 400,
  },
  {
    name: 'realtime: malformed percent-encoding in a user id (signed)',
    service: 'realtime',
    plainText: true,
    method: 'POST',
    target: (i) => signed(i, 'POST', `/apps/${i.realtime.appId}/users/%E0%A4%A/terminate_connections`),
    status: 400,
  },
  { name: 'realtime: a request target of //', service: 'realtime', plainText: true, target: () => '//', status: 404 },
  {
    name: 'realtime: a body over the 1 MB limit',
    service: 'realtime',
    plainText: true,
    method: 'POST',
    target: (i) => `/apps/${i.realtime.appId}/events`,
    headers: () => ({ 'content-type': 'application/json' }),
    body: oversize,
    status: 413,
  },
  {
    name: 'realtime: a batch of 11 events (signed)',
    service: 'realtime',
    plainText: true,
    method: 'POST',
    target: (i) => signed(i, 'POST', `/apps/${i.realtime.appId}/batch_events`, JSON.stringify({ batch: tenEvents })),
    headers: () => ({ 'content-type': 'application/json' }),
    body: json({ batch: tenEvents }),
    status: 400,
  },
  { name: 'realtime: the listing without the secret', service: 'realtime', target: () => '/v1/resources', status: 401 },
  {
    name: 'realtime: the listing with a wrong secret',
    service: 'realtime',
    target: () => '/',
    headers: () => ({ authorization: 'Bearer wrong' }),
    status: 401,
  },
];

const BIG_FRAME = clientFrame(300 * 1024);
const SOCKET_CASES: SocketCase[] = [
  { name: 'malformed percent-encoding in the app key', target: () => '/app/%E0%A4%A?protocol=7', closeCodes: [4005] },
  { name: 'a request target of //', target: () => '//', closeCodes: [4005] },
  { name: 'an app key longer than a close reason may be', target: () => `/app/${'k'.repeat(300)}?protocol=7`, closeCodes: [4001] },
  { name: 'a protocol version longer than a close reason may be', target: (i) => `/app/${i.realtime.key}?protocol=${'v'.repeat(300)}`, closeCodes: [4006] },
  { name: 'a large frame on a socket refused for its key', target: () => '/app/wrong-key?protocol=7', then: BIG_FRAME },
  { name: 'a large frame on a socket refused for a missing protocol', target: (i) => `/app/${i.realtime.key}`, then: BIG_FRAME },
  { name: 'a large frame on a socket refused for a wrong protocol', target: (i) => `/app/${i.realtime.key}?protocol=99`, then: BIG_FRAME },
  { name: 'a large frame on a socket refused for its path', target: () => '/elsewhere', then: BIG_FRAME },
  { name: 'a large frame on an accepted socket', target: (i) => `/app/${i.realtime.key}?protocol=7`, then: BIG_FRAME },
];

function portOf(info: SandboxInfo, service: Service): number {
  if (service === 'realtime') return info.realtime.port;
  return Number(new URL(info[service].baseUrl).port);
}

/** One raw HTTP request; rejects on a reset or when no answer comes within `withinMs`. */
function rawHttp(port: number, c: HttpCase, info: SandboxInfo): Promise<{ status: number; body: string }> {
  const withinMs = c.withinMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: c.method ?? 'GET', path: c.target(info), headers: c.headers?.(info) ?? {}, timeout: withinMs },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${withinMs} ms`)));
    // An early answer (413) may come while the body is still being written.
    req.on('error', reject);
    req.end(c.body?.());
  });
}

/**
 * A raw WebSocket handshake (so nothing normalises the target) followed by `then`. Resolves with
 * the HTTP status, and for 101 the first close code the server sent, if any, once the server ends
 * the connection.
 */
function rawSocket(port: number, target: string, then?: Buffer): Promise<{ status: number; closeCode?: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the sandbox neither refused nor closed the socket within 10 s'));
    }, 10_000);
    const answer = () => {
      const end = received.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received.toString('latin1'))?.[1] ?? 0);
      return { status, closeCode: end < 0 ? undefined : firstCloseCode(received.subarray(end + 4)) };
    };
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer());
    };
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      // The server waits for the closing handshake to be answered; its close frame is enough here.
      if (answer().closeCode !== undefined) finish();
    });
    socket.on('close', finish);
    // A reset while `then` is still being written is one way of being closed.
    socket.on('error', () => undefined);
    const key = randomBytes(16).toString('base64');
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    if (then) socket.write(then);
  });
}

/** The code of the first close frame in server-sent (unmasked) frames. */
function firstCloseCode(frames: Buffer): number | undefined {
  let at = 0;
  while (at + 2 <= frames.length) {
    const opcode = frames[at] & 0x0f;
    let length = frames[at + 1] & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = frames.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(frames.readBigUInt64BE(start));
      start += 8;
    }
    if (opcode === 0x8) return length >= 2 && start + 2 <= frames.length ? frames.readUInt16BE(start) : undefined;
    at = start + length;
  }
  return undefined;
}

describe('sandbox under hostile input (CLI in a child process)', function () {
  this.timeout(60_000);
  let sb: SandboxProcess;
  let info: SandboxInfo;

  before(async () => {
    sb = await startSandboxProcess(['--port', '0', '--no-realtime-demo'], { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
    const v = validate(SandboxInfo, sb.ready);
    if (!v.ok) assert.fail(`ready line: ${v.problem}`);
    info = v.value;
  });
  after(async () => {
    if (sb.proc.exitCode === null) await sb.stop();
    killLeftovers();
  });

  function assertAlive(): void {
    assert.equal(sb.proc.exitCode, null, `the sandbox exited; stderr:\n${sb.stderr().slice(-2000)}`);
    assert.equal(sb.proc.signalCode, null, `the sandbox was killed; stderr:\n${sb.stderr().slice(-2000)}`);
  }

  /** A normal request to `service` still gets its normal answer. */
  async function assertServing(service: Service): Promise<void> {
    const auth: Record<Service, Record<string, string>> = {
      llm: { authorization: `Bearer ${info.llm.apiKey}` },
      maps: { authorization: `Bearer ${info.maps.apiKey}` },
      realtime: { authorization: `Bearer ${info.realtime.secret}` },
    };
    const res = await fetch(`http://127.0.0.1:${portOf(info, service)}/v1/resources`, { headers: auth[service] });
    assert.equal(res.status, 200, `${service} no longer answers normally`);
    assert.ok(Array.isArray(((await res.json()) as { resources?: unknown }).resources));
  }

  async function assertSocketServing(): Promise<void> {
    const ok = await rawSocket(info.realtime.port, `/app/${info.realtime.key}?protocol=7`, Buffer.from([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe8]));
    assert.equal(ok.status, 101, 'a normal WebSocket is no longer accepted');
  }

  for (const c of HTTP_CASES) {
    it(`HTTP ${c.name}: ${c.status}, and the service keeps serving`, async () => {
      const res = await rawHttp(portOf(info, c.service), c, info);
      assert.equal(res.status, c.status, `answer: ${res.body.slice(0, 300)}`);
      if (c.status >= 400 && !c.plainText) assert.doesNotThrow(() => JSON.parse(res.body) as unknown, `JSON error body expected: ${res.body.slice(0, 200)}`);
      assertAlive();
      await assertServing(c.service);
    });
  }

  for (const c of SOCKET_CASES) {
    it(`WebSocket ${c.name}: refused or closed, and the service keeps serving`, async () => {
      const res = await rawSocket(info.realtime.port, c.target(info), c.then);
      if (c.closeCodes) {
        assert.equal(res.status, 101);
        assert.ok(
          res.closeCode !== undefined && c.closeCodes.includes(res.closeCode),
          `close code ${res.closeCode}, expected one of ${c.closeCodes.join(', ')}`,
        );
      } else {
        assert.ok(res.status === 101 || (res.status >= 400 && res.status < 500), `status ${res.status}`);
      }
      assertAlive();
      await assertSocketServing();
      await assertServing('realtime');
    });
  }
});
