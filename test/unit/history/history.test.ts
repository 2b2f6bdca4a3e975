import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { Redactor } from '../../../src/core/redact';
import { entryToCellText } from '../../../src/history/cell';
import { historyEntryFromCellResult } from '../../../src/history/fromCellResult';
import { capText, DEFAULT_HISTORY_LIMITS, HistoryList, limitEntry, type HistoryEntry, type HistoryLimits } from '../../../src/history/model';
import { RecordingHttpClient, type HistorySink } from '../../../src/history/recorder';
import { renderEntry } from '../../../src/history/render';
import { runInCommand } from '../../../src/history/scope';
import { connectionsHost, parseNotebook, runNotebook, sandboxConnections, type CellResult } from '../../../src/notebook/api';

const LLM_KEY = 'sk-history-test-key-0123456789abcdef';
const MAPS_KEY = 'AIzaHistoryTestKey0123456789abcdef';
const RT = { appId: '515151', key: 'historypublickey', secret: 'history-app-secret-0123456789' };

class MemorySink implements HistorySink {
  entries: HistoryEntry[] = [];
  constructor(public current: HistoryLimits = DEFAULT_HISTORY_LIMITS) {}
  limits(): HistoryLimits {
    return this.current;
  }
  record(entry: HistoryEntry): void {
    this.entries.push(entry);
  }
}

describe('request history against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { ...RT, demo: false } });
  });
  after(async () => {
    await sandbox.close();
  });

  function mapsClient(sink: HistorySink): RecordingHttpClient {
    const redactor = new Redactor();
    return new RecordingHttpClient(
      {
        service: 'Maps (Local Sandbox)',
        baseUrl: sandbox.info.maps.baseUrl,
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
        credentials: () => Promise.resolve(MAPS_KEY),
        redactor,
      },
      { service: 'maps', connection: 'Local Sandbox' },
      sink,
    );
  }

  it('records each of several concurrent requests with its own request, status and answer, without the key', async () => {
    const sink = new MemorySink();
    const http = mapsClient(sink);
    const cities = ['Lisbon', 'Porto', 'Paris'];
    await Promise.all(
      cities.map((textQuery) => http.json({ path: 'v1/places:searchText', body: { textQuery }, headers: { 'X-Goog-FieldMask': 'places.displayName' } })),
    );
    assert.equal(sink.entries.length, 3);
    for (const e of sink.entries) {
      const asked = (JSON.parse(e.request.body ?? '{}') as { textQuery: string }).textQuery;
      assert.ok(cities.includes(asked));
      assert.equal(e.method, 'POST');
      assert.equal(e.status, 200);
      assert.match(e.url, /\/v1\/places:searchText$/);
      assert.ok(e.response?.body?.includes(asked), `the answer recorded with the ${asked} request is the ${asked} answer`);
      assert.ok(!JSON.stringify(e).includes(MAPS_KEY), 'the key is not in the entry');
    }
  });

  it('records a failed request with its status and the service message, and keeps no body when responses are off', async () => {
    const sink = new MemorySink({ ...DEFAULT_HISTORY_LIMITS, keepResponses: false });
    const http = mapsClient(sink);
    await assert.rejects(http.json({ path: 'v1/places:searchText', body: {}, retry: false }));
    await http.json({ path: 'v1/places:searchText', body: { textQuery: 'Lyon' }, headers: { 'X-Goog-FieldMask': 'places.id' } });
    assert.equal(sink.entries[0].status, 400);
    assert.ok(sink.entries[0].error);
    assert.equal(sink.entries[1].status, 200);
    assert.ok(
      sink.entries.every((e) => e.response === undefined),
      'no response is kept',
    );
  });

  it("records only what a command sent when asked to: a view's background load stays out", async () => {
    const sink = new MemorySink();
    const http = new RecordingHttpClient(
      {
        service: 'LLM',
        baseUrl: sandbox.info.llm.baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(LLM_KEY),
        redactor: new Redactor(),
      },
      { service: 'llm', connection: 'Local Sandbox', commandsOnly: true },
      sink,
    );
    await http.json({ path: 'models' });
    // The request starts after an await inside the command (a turn of the event loop): the scope
    // follows the async work.
    await runInCommand('apiWorkbench.llm.ask', async () => {
      await new Promise((r) => setImmediate(r));
      await http.json({ path: 'models' });
    });
    assert.deepEqual(
      sink.entries.map((e) => e.command),
      ['apiWorkbench.llm.ask'],
    );
  });

  it('tees a stream: the caller reads every byte, the history keeps the first ones', async () => {
    const sink = new MemorySink({ ...DEFAULT_HISTORY_LIMITS, maxBodyBytes: 200 });
    const http = new RecordingHttpClient(
      {
        service: 'LLM',
        baseUrl: sandbox.info.llm.baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(LLM_KEY),
        redactor: new Redactor(),
      },
      { service: 'llm', connection: 'Local Sandbox' },
      sink,
    );
    const models = await http.json<{ data: { id: string }[] }>({ path: 'models' });
    const res = await http.stream({
      path: 'chat/completions',
      body: { model: models.data.data[0].id, stream: true, messages: [{ role: 'user', content: 'Tell me about Lisbon' }] },
    });
    let read = 0;
    for await (const chunk of res.body) read += chunk.byteLength;
    assert.equal(sink.entries.length, 2);
    const streamed = sink.entries[1];
    assert.ok(read > 200);
    assert.ok(Buffer.byteLength(streamed.response?.body ?? '') <= 200);
    assert.equal(streamed.response?.truncated, true);
    assert.match(streamed.response?.body ?? '', /\ndata: \{/);
    assert.equal(streamed.request.headers.authorization, undefined, 'the auth header is never in the entry');
    assert.ok(!JSON.stringify(sink.entries).includes(LLM_KEY));
  });

  it('turns a recorded command request into a cell the engine parses and runs', async () => {
    const sink = new MemorySink();
    const http = mapsClient(sink);
    await http.json({ path: 'v1/places:searchText', body: { textQuery: 'Lisbon' }, headers: { 'X-Goog-FieldMask': 'places.id,places.displayName' } });
    const text = entryToCellText(sink.entries[0]);
    assert.match(text, /^```maps\nPOST \/v1\/places:searchText\nX-Goog-FieldMask: places\.id,places\.displayName\n\n\{/);
    assert.match(text, /\?\? status == 200\n```\n$/);
    const nb = parseNotebook(text, 'history.awb.md');
    assert.deepEqual(nb.problems, []);
    const { connections, key } = sandboxConnections(sandbox.info);
    const results: ReturnType<typeof historyEntryFromCellResult>[] = [];
    const report = await runNotebook(text, {
      file: 'history.awb.md',
      host: connectionsHost({ connections, key, onResult: (r) => results.push(historyEntryFromCellResult(r)) }),
    });
    assert.equal(report.ok, true, JSON.stringify(report.results.map((r) => r.error ?? r.assertions)));
    const fromNotebook = results[0];
    assert.ok(fromNotebook);
    assert.equal(fromNotebook.origin, 'notebook');
    assert.equal(fromNotebook.status, 200);
    assert.deepEqual(fromNotebook.cell && [fromNotebook.cell.passed, fromNotebook.cell.failed], [1, 0]);
    assert.ok(!JSON.stringify(fromNotebook).includes(MAPS_KEY));
    assert.match(renderEntry(fromNotebook), /## Response[\s\S]*"displayName"/);
  });

  it('turns a signed realtime publish into a PUBLISH cell', () => {
    const entry: HistoryEntry = {
      id: 'x',
      at: new Date().toISOString(),
      origin: 'command',
      service: 'realtime',
      method: 'POST',
      url: 'http://127.0.0.1:1/apps/1/events?auth_key=k&auth_signature=***',
      request: { headers: {}, body: JSON.stringify({ name: 'greet', channels: ['room-1'], data: '{"hi":1}' }) },
      status: 200,
    };
    assert.equal(entryToCellText(entry), '```realtime\nPUBLISH room-1 greet\n{\n  "hi": 1\n}\n\n?? status == 200\n```\n');
    assert.deepEqual(parseNotebook(entryToCellText(entry)).problems, []);
  });
});

describe('history list', () => {
  const entry = (id: string, body = ''): HistoryEntry => ({
    id,
    at: '',
    origin: 'command',
    service: 'llm',
    method: 'GET',
    url: 'http://x/',
    request: { headers: {} },
    response: { headers: {}, body },
  });

  it('drops the oldest past the cap and caps bodies at a character boundary', () => {
    const list = new HistoryList();
    const limits = { maxEntries: 2, maxBodyBytes: 5, keepResponses: true };
    list.add(entry('a'), limits);
    list.add(entry('b'), limits);
    list.add(entry('c', 'ééé'), limits);
    assert.deepEqual(
      list.entries.map((e) => e.id),
      ['c', 'b'],
    );
    assert.equal(list.entries[0].response?.body, 'éé');
    assert.equal(list.entries[0].response?.truncated, true);
    assert.deepEqual(capText('abc', 3), { text: 'abc', truncated: false });
  });

  it('reads back what it wrote, skipping damaged entries', () => {
    const list = new HistoryList([entry('a', '{"x":1}'), entry('b')]);
    const file = JSON.parse(JSON.stringify(list.toFile())) as { entries: unknown[] };
    file.entries.push({ id: 3 });
    assert.deepEqual(HistoryList.fromFile(file).entries, list.entries);
    assert.deepEqual(HistoryList.fromFile({ version: 2 }).entries, []);
  });
});

describe('history entry of a notebook cell', () => {
  const cell = (text: string): CellResult => ({
    file: 'big.awb.md',
    cellIndex: 0,
    line: 1,
    service: 'maps',
    startedAt: new Date().toISOString(),
    ok: true,
    assertions: [],
    durationMs: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/places:searchText', headers: {} },
    response: { status: 200, headers: {}, text, json: JSON.parse(text) as unknown, size: text.length, truncated: false, durationMs: 1 },
  });

  it('keeps a JSON answer indented, and a huge one (over 1 MiB) as it came, cut at the history limit', () => {
    const small = historyEntryFromCellResult(cell('{"places":[{"id":"a"}]}'));
    assert.equal(small?.response?.body, '{\n  "places": [\n    {\n      "id": "a"\n    }\n  ]\n}');
    const hugeText = JSON.stringify({ places: Array.from({ length: 80_000 }, (_, i) => ({ id: `place_${i}` })) });
    assert.ok(hugeText.length > 1024 * 1024);
    const huge = historyEntryFromCellResult(cell(hugeText));
    assert.equal(huge?.response?.body, hugeText);
    const kept = huge && limitEntry(huge, DEFAULT_HISTORY_LIMITS);
    assert.equal(kept?.response?.body, hugeText.slice(0, DEFAULT_HISTORY_LIMITS.maxBodyBytes));
    assert.equal(kept?.response?.truncated, true);
  });
});
