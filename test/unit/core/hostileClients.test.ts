// Every client that is not yet covered elsewhere (maps, realtime REST, the resources listing, the
// notebook engine's cells) against every hostile server: cut, hang, drip, flood, echo the key,
// oversized, wrong content type. Each call settles within a bound, and the key is in no text a
// user or a log can see. (HttpClient itself and the LLM stream: reliability.test.ts, llm/hostile.test.ts.)
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpConnectionFromSetting, type HttpConnection } from '../../../src/core/connections';
import { isApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions } from '../../../src/core/http';
import { connectionsHost, runNotebook } from '../../../src/notebook/api';
import { MapsClient } from '../../../src/services/maps/client';
import { googleErrorParser } from '../../../src/services/maps/errors';
import { RealtimeRest } from '../../../src/services/realtime/rest';
import { ResourcesClient, resourcesHttpOptions } from '../../../src/services/resources';
import { FaultServer, type Reply } from '../helpers/faultServer';
import { visibleText } from '../helpers/util';

const KEY = 'AIzaHostileEchoKey0123456789abcdef';
const TIMEOUT_MS = 400;
const MAX_BYTES = 256 * 1024;
/** Every call settles by then (retries of a timeout included). */
const SETTLE_MS = 6_000;

function sendHtml(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!DOCTYPE html><html><title>Captive portal</title></html>');
}

/** The hostile servers: each a scripted reply. `echo` puts the key (as the server got it) everywhere. */
const FAULTS: Record<string, Reply> = {
  cut: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"results": [');
    setTimeout(() => res.socket?.destroy(), 20);
  },
  hang: { hang: true },
  drip: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(' ')), 50);
    res.on('close', () => clearInterval(t));
  },
  flood: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  },
  echo: (req: IncomingMessage, res, received) => {
    const seen = `${received.url} ${JSON.stringify(req.headers)} ${received.body}`;
    const body = JSON.stringify({ error: { code: 403, status: `DENIED ${KEY}`, message: `Key ${KEY} rejected; you sent ${seen}` } });
    res.writeHead(403, { 'content-type': 'application/json', 'x-request-id': `req-${KEY}`, 'x-goog-request-id': KEY });
    res.end(body);
  },
  oversized: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * 1024 * 1024) });
    res.write('{"a": 1');
  },
  'wrong content type': (_req, res) => sendHtml(res),
};

function http(server: FaultServer, extra: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    service: 'Hostile',
    baseUrl: server.url(),
    auth: { placement: 'header', name: 'X-Goog-Api-Key' },
    credentials: () => Promise.resolve(KEY),
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_BYTES,
    retry: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 20, maxRetryAfterMs: 100 },
    ...extra,
  });
}

/** What a user or a log can see of the outcome: error texts, or the whole result. */
type Outcome = { settled: 'resolved' | 'rejected'; visible: string };

async function outcomeOf(p: Promise<unknown>): Promise<Outcome> {
  try {
    return { settled: 'resolved', visible: JSON.stringify(await p) };
  } catch (e) {
    assert.ok(isApiError(e), `only ApiError is thrown, got ${String(e)}`);
    return { settled: 'rejected', visible: visibleText(e) };
  }
}

const CLIENTS: Record<string, (server: FaultServer) => Promise<Outcome>> = {
  maps: (server) => outcomeOf(new MapsClient(http(server, { parseError: googleErrorParser })).geocodeAddress({ address: 'Rua Augusta, Lisboa' })),
  'realtime REST': (server) => {
    const rest = new RealtimeRest({
      http: http(server, { auth: { placement: 'none' } }),
      appId: '1',
      key: 'hostile-app-key',
      secret: () => Promise.resolve(KEY),
    });
    return outcomeOf(rest.publish({ channels: ['c'], name: 'e', data: { a: 1 } }));
  },
  resources: (server) => outcomeOf(new ResourcesClient(http(server, resourcesHttpOptions(server.url()))).list()),
  'notebook cell': (server) => notebookOutcome(server, TIMEOUT_MS),
};

async function notebookOutcome(server: FaultServer, timeoutMs: number): Promise<Outcome> {
  const made = httpConnectionFromSetting(
    'maps',
    { name: 'hostile', baseUrl: server.url(), auth: { placement: 'header', name: 'X-Goog-Api-Key' } },
    'settings',
  ) as HttpConnection;
  const host = connectionsHost({ connections: [{ ...made, timeoutMs }], key: () => KEY });
  const report = await runNotebook('```maps\nGET /maps/api/geocode/json?address=x\n```\n', { host, file: 'hostile.awb.md', maxBodyBytes: 4096 });
  // A cell never throws: the failure is in its result, which the notebook and the CLI show.
  return { settled: report.ok ? 'resolved' : 'rejected', visible: JSON.stringify(report) };
}

describe('clients against hostile servers (table)', function () {
  this.timeout(SETTLE_MS + 5_000);
  let server: FaultServer;
  beforeEach(async () => {
    server = await FaultServer.start();
  });
  afterEach(() => server.close());

  for (const [client, call] of Object.entries(CLIENTS)) {
    for (const [fault, reply] of Object.entries(FAULTS)) {
      it(`${client} × ${fault}: settles within ${SETTLE_MS / 1000} s, the key in no visible text`, async () => {
        server.script(reply);
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          call(server),
          new Promise<never>(
            (_, reject) => (timer = setTimeout(() => reject(new Error(`${client} × ${fault}: still pending after ${SETTLE_MS} ms`)), SETTLE_MS)),
          ),
        ]).finally(() => clearTimeout(timer));
        if (client === 'notebook cell' && fault === 'wrong content type') {
          // A cell shows whatever answer came (a 200 HTML page is an answer); its assertions judge it.
          assert.match(outcome.visible, /"content-type":"text\/html"/);
        } else assert.equal(outcome.settled, 'rejected', `a hostile answer is never a success: ${outcome.visible.slice(0, 300)}`);
        assert.ok(!outcome.visible.includes(KEY), `the key leaked: ${outcome.visible.slice(0, 600)}`);
        assert.ok(server.count >= 1, 'the request reached the server');
      });
    }
  }
});
