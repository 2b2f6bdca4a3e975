// HttpClientFactory and the LLM clients made on it (features/httpClients.ts, features/llm/clients.ts),
// against the real sandbox: the connection's key goes out and never comes back in a log line or the
// history, the History holds what commands sent (not a view's background loads), and every client
// of one connection draws on one quota.
import * as assert from 'node:assert/strict';
import { connectionId, sandboxConnections, type Connection, type HttpConnection } from '../../../src/core/connections';
import type { OutgoingRequest } from '../../../src/core/http';
import { asLlmConnection, llmClient, requestsLeft } from '../../../src/features/llm/clients';
import { runInCommand } from '../../../src/history/scope';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LLM_MODELS, sandboxAnswer } from '../../../src/sandbox/llm';
import { MAPS_CAPABILITIES } from '../../../src/sandbox/maps';
import type { ChatMessage } from '../../../src/services/llm';
import { MapsClient } from '../../../src/services/maps/client';
import { googleErrorParser } from '../../../src/services/maps/errors';
import { apiErrorOf, visibleText } from '../helpers/util';
import { recorded, workbench } from './workbench';

const LLM_KEY = 'sk-features-http-clients-0123456789';
const MAPS_KEY = 'AIzaFeaturesHttpClients0123456789';
const SECRET = 'features-app-secret-0123456789';
const ASK = 'apiWorkbench.llm.ask';
const messages: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'What is a sliding window?' },
];

describe('features/httpClients: clients per connection against the sandbox', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  let llm: HttpConnection;
  let maps: HttpConnection;
  let realtime: Connection;
  let keyOf: (c: Connection) => string | undefined;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { secret: SECRET } });
    const { connections } = sandboxConnections(sandbox.info);
    llm = asLlmConnection(connections.find((c) => c.service === 'llm'))!;
    maps = connections.find((c): c is HttpConnection => c.service === 'maps')!;
    realtime = connections.find((c) => c.service === 'realtime')!;
    // By service, so connections derived from the sandbox's (other names, other limits) have its keys.
    keyOf = (c) => ({ llm: LLM_KEY, maps: MAPS_KEY, realtime: SECRET })[c.service];
  });
  after(() => sandbox.close());

  const llmOrigin = () => new URL(sandbox.info.llm.baseUrl).origin;

  it('asLlmConnection picks LLM connections only', () => {
    assert.equal(asLlmConnection(llm), llm);
    assert.equal(asLlmConnection(maps), undefined);
    assert.equal(asLlmConnection(realtime), undefined);
    assert.equal(asLlmConnection(undefined), undefined);
  });

  it("an LLM client lists models and chats with the connection's key; the History has both, the key is nowhere in what was logged or recorded", async () => {
    const w = workbench(keyOf);
    const shown: OutgoingRequest[] = [];
    const client = llmClient(w, llm, (req) => shown.push(req));
    const [models, answer] = await runInCommand(ASK, async () => [await client.listModels(), await client.chat({ model: 'sandbox-chat', messages })] as const);
    assert.deepEqual(
      models.map((m) => m.id),
      LLM_MODELS.map((m) => m.id).sort(),
    );
    assert.equal(answer.text, sandboxAnswer(messages, 'sandbox-chat'));
    assert.deepEqual(
      w.guard.asked,
      [`llm:Local Sandbox → ${llmOrigin()}`, `llm:Local Sandbox → ${llmOrigin()}`],
      'the key is asked for each request, for the origin it goes to',
    );

    const base = sandbox.info.llm.baseUrl;
    assert.deepEqual(
      w.log.entries.map((e) => [e.service, e.method, e.url, e.status]),
      [
        ['Local Sandbox', 'GET', `${base}/models`, 200],
        ['Local Sandbox', 'POST', `${base}/chat/completions`, 200],
      ],
    );
    assert.deepEqual(
      w.history.entries.map((e) => [e.command, e.service, e.connection, e.method, e.url, e.status]),
      [
        [ASK, 'llm', 'Local Sandbox', 'GET', `${base}/models`, 200],
        [ASK, 'llm', 'Local Sandbox', 'POST', `${base}/chat/completions`, 200],
      ],
    );
    const chat = w.history.entries[1];
    assert.equal((JSON.parse(chat.request.body ?? '{}') as { model?: string }).model, 'sandbox-chat');
    const kept = JSON.parse(chat.response?.body ?? '{}') as { choices: { message: { content: string } }[] };
    assert.equal(kept.choices[0].message.content, answer.text, 'the answer is kept with the request');
    assert.match(chat.requestId ?? '', /^req_/);

    // Copy as cURL sees the request as sent, without its key.
    assert.deepEqual(
      shown.map((r) => [r.method, r.url]),
      [
        ['GET', `${base}/models`],
        ['POST', `${base}/chat/completions`],
      ],
    );
    for (const r of shown)
      assert.ok(!Object.keys(r.headers).some((h) => h.toLowerCase() === 'authorization'), `no auth header in ${JSON.stringify(r.headers)}`);
    assert.ok(!recorded(w).includes(LLM_KEY), 'the key never appears in the log, the history or a copied request');
  });

  it("a view's background loads are logged but stay out of the History; a client made with history: false is never recorded", async () => {
    const w = workbench(keyOf);
    await llmClient(w, llm).listModels();
    const own = w.http.create(maps, { parseError: googleErrorParser, history: false });
    await runInCommand('apiWorkbench.notebook.runCell', () => new MapsClient(own).geocodeAddress({ address: 'Lyon' }));
    assert.equal(w.log.entries.length, 2, 'both requests are in the diagnostics log');
    assert.deepEqual(w.history.entries, []);
  });

  it("a wrong key: the user sees the service's 401 message, and the wrong key is masked in the error, the log and the History", async () => {
    const wrong = 'sk-wrong-key-for-the-sandbox-9876';
    const w = workbench(() => wrong);
    const err = await apiErrorOf(runInCommand(ASK, () => llmClient(w, llm).chat({ model: 'sandbox-chat', messages })));
    assert.equal(err.status, 401);
    assert.equal(err.code, 'invalid_api_key');
    assert.equal(err.serviceMessage, 'Incorrect API key provided: sk-…76.');
    assert.equal(w.log.entries.length, 1, 'a 401 is not retried');
    const [entry] = w.history.entries;
    assert.equal(entry.status, 401);
    assert.match(entry.error ?? '', /Incorrect API key provided/);
    assert.match(entry.response?.body ?? '', /Incorrect API key provided/);
    assert.ok(!visibleText(err).includes(wrong) && !recorded(w).includes(wrong));
  });

  it('a key-less connection (auth "none", e.g. Ollama) is never asked for a key and sends none', async () => {
    const keyless: HttpConnection = { ...llm, name: 'No key', auth: { placement: 'none' } };
    const w = workbench(keyOf);
    const err = await apiErrorOf(llmClient(w, keyless).listModels());
    assert.equal(err.status, 401);
    assert.match(err.serviceMessage ?? '', /You didn't provide an API key/);
    assert.deepEqual(w.guard.asked, []);
  });

  it('a maps key sent in the query is masked in the log; per-API base URLs (baseUrlKey) are used, the default otherwise', async () => {
    const w = workbench(keyOf);
    // The default base URL is not the maps service: only the places client, built on baseUrls.places, reaches it.
    const perApi: HttpConnection = {
      ...maps,
      name: 'Per API',
      baseUrl: sandbox.info.llm.baseUrl,
      baseUrls: { places: sandbox.info.maps.baseUrl },
      auth: { placement: 'query', name: 'key' },
    };
    const places = new MapsClient(w.http.create(perApi, { parseError: googleErrorParser, baseUrlKey: 'places' }));
    const found = await runInCommand('apiWorkbench.maps.searchPlaces', () => places.searchText({ textQuery: 'Lyon' }));
    assert.equal(found.data.places?.[0].displayName?.text, 'Lyon');
    const [line] = w.log.entries;
    assert.equal(line.url, `${sandbox.info.maps.baseUrl}/v1/places:searchText?key=***`);
    assert.equal(
      w.history.entries[0].url,
      `${sandbox.info.maps.baseUrl}/v1/places:searchText`,
      'the History keeps the request as the user wrote it, without the key',
    );
    assert.equal(w.http.create(perApi, { baseUrlKey: 'routes' }).baseUrl, `${sandbox.info.llm.baseUrl}/`, 'an API without its own base URL uses the default');
    assert.ok(!recorded(w).includes(MAPS_KEY));
  });

  it('two clients of one connection share its quota: requestsLeft drops for the requests of either; another connection keeps its own', async () => {
    const conn: HttpConnection = { ...llm, rateLimitPerMinute: 5 };
    const other: HttpConnection = { ...llm, name: 'Other account' };
    const w = workbench(keyOf);
    assert.deepEqual(requestsLeft(w, conn, undefined), { left: 5, limit: 5, modelLimited: false });
    const a = llmClient(w, conn);
    const b = llmClient(w, conn);
    await a.listModels();
    await b.chat({ model: 'sandbox-chat', messages });
    assert.deepEqual(requestsLeft(w, conn, undefined), { left: 3, limit: 5, modelLimited: false });
    await w.http.resources(conn).list();
    assert.equal(requestsLeft(w, conn, undefined).left, 2, 'the uniform listing counts against the same quota');
    assert.deepEqual(requestsLeft(w, other, undefined), { left: 60, limit: 60, modelLimited: false });
    assert.notEqual(w.http.rateLimitKey(conn), w.http.rateLimitKey(other));
    assert.equal(w.http.rateLimitKey(conn), connectionId(conn));
  });

  it('when the quota is used up, the next request (from any client) waits instead of being sent, and a cancelled wait sends nothing', async () => {
    const conn: HttpConnection = { ...llm, rateLimitPerMinute: 1 };
    const w = workbench(keyOf);
    await llmClient(w, conn).listModels();
    assert.deepEqual(requestsLeft(w, conn, undefined), { left: 0, limit: 1, modelLimited: false });
    const stop = new AbortController();
    const waits: number[] = [];
    const held = llmClient(w, conn).chat({ model: 'sandbox-chat', messages }, { cancel: stop.signal, onQueued: (ms) => (waits.push(ms), stop.abort()) });
    const err = await apiErrorOf(held);
    assert.equal(err.kind, 'cancelled');
    assert.equal(waits.length, 1);
    assert.ok(waits[0] > 0, 'the wait until a slot frees up is shown');
    assert.equal(w.log.entries.length, 1, 'the held request never went out');
    assert.equal(w.guard.asked.length, 1, 'nor was its key read');
  });

  it("a model's own limit: requestsLeft reports the tighter limit and counts only that model's requests against it", async () => {
    const conn: HttpConnection = { ...llm, rateLimitPerMinute: 10, modelRateLimits: { 'sandbox-chat': 2 } };
    const w = workbench(keyOf);
    assert.deepEqual(requestsLeft(w, conn, 'sandbox-chat'), { left: 2, limit: 2, modelLimited: true });
    const client = llmClient(w, conn);
    await client.chat({ model: 'sandbox-chat', messages });
    await client.chat({ model: 'sandbox-chat-mini', messages });
    assert.deepEqual(requestsLeft(w, conn, 'sandbox-chat'), { left: 1, limit: 2, modelLimited: true });
    assert.deepEqual(requestsLeft(w, conn, 'sandbox-chat-mini'), { left: 8, limit: 10, modelLimited: false });
    assert.deepEqual(requestsLeft(w, conn, undefined), { left: 8, limit: 10, modelLimited: false });
    // The model's quota is enforced too: its next request past the limit waits.
    await client.chat({ model: 'sandbox-chat', messages });
    const stop = new AbortController();
    let queued = false;
    const err = await apiErrorOf(client.chat({ model: 'sandbox-chat', messages }, { cancel: stop.signal, onQueued: () => ((queued = true), stop.abort()) }));
    assert.ok(queued && err.kind === 'cancelled');
    assert.equal((await client.chat({ model: 'sandbox-chat-mini', messages })).finishReason, 'stop', 'other models still run');
  });

  it('resources(): the uniform listing of the maps and realtime connections, with the key (or app secret) as a bearer token, never shown', async () => {
    const w = workbench(keyOf);
    const listed = await w.http.resources(maps).list();
    assert.deepEqual(
      listed.map((r) => r.id),
      MAPS_CAPABILITIES.map((r) => r.id),
    );
    assert.deepEqual(await w.http.resources(realtime).list(), [], 'no channel is occupied yet');
    assert.equal(w.http.limiter.remaining(w.http.rateLimitKey(maps), maps.rateLimitPerMinute), maps.rateLimitPerMinute - 1);
    assert.deepEqual(
      w.log.entries.map((e) => e.status),
      [200, 200],
    );
    const wrong = workbench(() => 'not-the-app-secret');
    const err = await apiErrorOf(wrong.http.resources(realtime).list());
    assert.equal(err.status, 401);
    assert.equal(err.serviceMessage, 'Give the app secret as Authorization: Bearer <secret>.');
    assert.ok(!recorded(w).includes(SECRET) && !recorded(w).includes(MAPS_KEY));
    assert.ok(!visibleText(err).includes('not-the-app-secret') && !recorded(wrong).includes('not-the-app-secret'));
  });
});
