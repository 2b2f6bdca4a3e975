// The sandbox survives its users (issue "Reliability, round 3", class 3): 64 concurrent
// maximum-size embeddings requests (2,048 inputs at 1,536 dimensions, ~60 MB of JSON each) ran the
// process out of heap, and 8 stalled it for seconds and closed every WebSocket. Now the child, on a
// small heap, answers each with 200 or 503 + retry-after, stays up, and a connected realtime client
// keeps its connection and gets its pong.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import WebSocket from 'ws';
import * as z from 'zod/mini';
import { validate } from '../../../src/core/validate';
import { killLeftovers, startSandboxProcess, type SandboxProcess } from '../helpers/sandboxProcess';

const Info = z.object({
  llm: z.object({ baseUrl: z.string(), apiKey: z.string() }),
  realtime: z.object({ host: z.string(), port: z.number(), key: z.string() }),
});

const HEAP_MB = 256;
const CONCURRENT = 64;

/** POSTs `body`; reads the answer to its end, keeping only its status, a header, its size and (small ones) its text. */
function post(url: URL, key: string, body: string): Promise<{ status: number; retryAfter?: string; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let bytes = 0;
        let text = '';
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          if (text.length < 4096) text += c.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], bytes, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('sandbox: bounded work under concurrent heavy requests', function () {
  this.timeout(120_000);
  let sb: SandboxProcess;
  let info: z.infer<typeof Info>;

  before(async () => {
    sb = await startSandboxProcess(['--port', '0', '--no-realtime-demo'], { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
    const v = validate(Info, sb.ready);
    if (!v.ok) assert.fail(`ready line: ${v.problem}`);
    info = v.value;
  });
  after(async () => {
    await sb?.stop();
    killLeftovers();
  });

  it(`${CONCURRENT} maximum-size embeddings requests at once: each 200 or 503 with retry-after, the process stays up, a WebSocket stays open`, async () => {
    const ws = new WebSocket(`ws://${info.realtime.host}:${info.realtime.port}/app/${info.realtime.key}?protocol=7`);
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    let closed: number | undefined;
    ws.on('close', (code) => (closed = code));

    const input = Array.from({ length: 2048 }, (_, i) => `input number ${i}`);
    const body = JSON.stringify({ model: 'sandbox-embed', input, dimensions: 1536 });
    const url = new URL(`${info.llm.baseUrl.replace(/\/$/, '')}/embeddings`);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => post(url, info.llm.apiKey, body)));

    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 503);
    assert.equal(ok.length + busy.length, CONCURRENT, `other statuses: ${answers.map((a) => a.status).join(',')}`);
    assert.ok(ok.length >= 4, `${ok.length} answered`);
    for (const b of busy) {
      assert.equal(b.retryAfter, '1');
      assert.match(b.text, /"code":"overloaded"/);
    }
    // Whole answers: the last vector's index and the usage close the JSON.
    for (const a of ok) assert.ok(a.bytes > 20 * 1024 * 1024, `a 200 answer of ${a.bytes} bytes`);

    // The process is alive and answers; the WebSocket was never closed and answers a ping.
    assert.equal(sb.proc.exitCode, null, sb.stderr());
    const models = await fetch(`${info.llm.baseUrl.replace(/\/$/, '')}/models`, { headers: { authorization: `Bearer ${info.llm.apiKey}` } });
    assert.equal(models.status, 200);
    assert.equal(closed, undefined, `the WebSocket closed with ${closed}`);
    const pong = new Promise<string>((resolve) => ws.on('message', (d: Buffer) => resolve(d.toString())));
    ws.send(JSON.stringify({ event: 'pusher:ping', data: {} }));
    assert.match(await pong, /pusher:pong/);
    ws.close();
  });
});
