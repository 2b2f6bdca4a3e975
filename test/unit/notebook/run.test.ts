import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HttpClient } from '../../../src/core/http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { RealtimeRest } from '../../../src/services/realtime/rest';
import { within } from '../helpers/util';
import {
  connectionsHost,
  createRunner,
  parseNotebook,
  runNotebook,
  sandboxConnections,
  type CellProgress,
  type CellResult,
  type NotebookHost,
  type RunOptions,
} from '../../../src/notebook/api';

const LLM_KEY = 'sk-sandbox-notebook-test-key-0123456789';
const MAPS_KEY = 'AIzaSandboxNotebookTestKey0123456789';
const RT = { appId: '424242', key: 'notebookpublickey', secret: 'notebook-app-secret-0123456789' };
const FILE = 'test.awb.md';

/** A notebook of the given cells (each [fence info, body]) with prose between them. */
function notebook(...cells: Array<[string, string]>): string {
  return cells.map(([info, body], i) => `Cell ${i + 1}.\n\n\`\`\`${info}\n${body}\n\`\`\`\n`).join('\n');
}

describe('notebook engine against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let host: NotebookHost;
  let seen: string[];

  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: LLM_KEY, mapsKey: MAPS_KEY, llm: { tokenRate: 0 }, realtime: { ...RT, demo: true } });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    seen = [];
    const { connections, key } = sandboxConnections(sandbox.info);
    host = connectionsHost({ connections, key });
  });

  function options(extra: Partial<RunOptions> = {}): RunOptions {
    return { host, file: FILE, onProgress: (p) => seen.push(JSON.stringify(p)), ...extra };
  }

  /** Resolves once the sandbox counts a subscriber on `channel` (a LISTEN cell has subscribed), asking its REST API. */
  async function subscribed(channel: string): Promise<void> {
    const rt = sandbox.info.realtime;
    const rest = new RealtimeRest({
      http: new HttpClient({ service: 'probe', baseUrl: `http://${rt.host}:${rt.port}`, auth: { placement: 'none' } }),
      appId: rt.appId,
      key: rt.key,
      secret: () => Promise.resolve(rt.secret),
    });
    for (let i = 0; !(await rest.channel(channel)).occupied; i++) {
      if (i === 500) throw new Error(`timed out waiting for a subscriber on ${channel}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function runAll(text: string, extra: Partial<RunOptions> = {}): Promise<CellResult[]> {
    const report = await runNotebook(text, options(extra));
    return report.results;
  }

  it('llm: GET /models, then a streamed chat whose model comes from the first cell; the answer streams live', async () => {
    const progress: CellProgress[] = [];
    const text = notebook(
      ['llm name=models', 'GET /models\n\n?? status == 200\n?? json.data[0].id exists\n?? header x-request-id exists'],
      [
        'llm name=chat',
        'POST /chat/completions\n\n{"model": "{{models.json.data[0].id}}", "stream": true, "messages": [{"role": "user", "content": "Hi"}]}\n\n?? status == 200\n?? json.finishReason == stop',
      ],
    );
    const [models, chat] = await runAll(text, { onProgress: (p) => progress.push(p) });
    assert.equal(models.ok, true, JSON.stringify(models));
    assert.equal(models.request?.url, `${sandbox.info.llm.baseUrl}/models`);
    assert.ok(models.response?.requestId);
    assert.equal(chat.ok, true, JSON.stringify(chat));
    assert.match(chat.request?.body ?? '', /"model": "sandbox-chat"/);
    const deltas = progress.filter((p) => p.kind === 'text' && p.cell.name === 'chat');
    assert.ok(deltas.length > 3, `only ${deltas.length} live text updates`);
    assert.equal(chat.response?.text, (deltas.at(-1) as { text: string }).text);
    assert.ok((chat.response?.text.length ?? 0) > 20);
  });

  it('a front end may refuse an LLM cell before it is sent (the budget): the cell fails with the reason at its line, nothing is sent', async () => {
    const asked: Array<{ connection: string; body?: string }> = [];
    let refuse = true;
    host = {
      ...host,
      beforeModelRequest: (connection, body) => {
        asked.push({ connection: connection.name, body });
        return Promise.resolve(refuse ? 'not sent: over budget' : undefined);
      },
    };
    const text = notebook(
      ['vars', 'who = Ana'],
      ['llm name=chat', 'POST /chat/completions\n\n{"model": "sandbox-chat", "messages": [{"role": "user", "content": "Hi {{who}}"}]}'],
      ['maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id\n\n{"textQuery": "Lisbon"}'],
    );
    const [, chat, maps] = await runAll(text);
    assert.equal(chat.ok, false);
    assert.equal(chat.request, undefined, 'nothing was sent');
    assert.equal(chat.response, undefined);
    assert.equal(chat.error, `${FILE}:${chat.line + 1}: not sent: over budget`);
    assert.equal(asked.length, 1, 'asked for the LLM cell only, not the maps cell');
    assert.match(asked[0].body ?? '', /"content": "Hi Ana"/, 'with the body as it would be sent');
    assert.equal(maps.ok, true, JSON.stringify(maps));
    refuse = false;
    const [, sent] = await runAll(text);
    assert.equal(sent.ok, true, JSON.stringify(sent));
  });

  it('maps: searchText with a field mask; variables from a vars cell and between cells', async () => {
    const text = notebook(
      ['vars', 'city = Lisbon'],
      [
        'maps name=lisbon',
        'POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.location\n\n{"textQuery": "{{city}}"}\n\n?? status == 200\n?? json.places[0].displayName.text contains Lisbon',
      ],
      [
        'maps name=again',
        'GET /v1/places/{{lisbon.json.places[0].id}}\nX-Goog-FieldMask: id,displayName\n\n?? json.displayName.text == {{lisbon.json.places[0].displayName.text}}',
      ],
    );
    const [vars, lisbon, again] = await runAll(text);
    assert.deepEqual(vars.variables, { city: 'Lisbon' });
    assert.equal(lisbon.ok, true, JSON.stringify(lisbon));
    assert.equal(lisbon.request?.headers['x-goog-fieldmask'], 'places.id,places.displayName,places.location');
    assert.equal(again.ok, true, JSON.stringify(again));
    assert.ok(again.request?.url.includes(encodeURI(String((lisbon.response?.json as { places: Array<{ id: string }> }).places[0].id))));
  });

  it('every assertion operator, passing and failing, with expected and actual values and lines', async () => {
    const lines = [
      ['status == 200', true],
      ['status != 200', false],
      ['json.places[0].location.latitude > 38', true],
      ['json.places[0].location.latitude >= 39', false],
      ['json.places[0].location.latitude < 39', true],
      ['json.places[0].location.latitude <= 38', false],
      ['json.places[0].displayName.text contains Lisb', true],
      ['json.places contains "nothing"', false],
      ['json.places[0].displayName.text matches /^lis/i', true],
      ['json.places[0].displayName.text matches /^Porto$/', false],
      ['json.places[0].id exists', true],
      ['json.places[0].nothing exists', false],
      ['duration < 60000', true],
      ['header content-type contains json', true],
      ['text contains "places"', true],
      ['count == 1', false],
    ] as const;
    const body = `POST /v1/places:searchText\nX-Goog-FieldMask: places.id,places.displayName,places.location\n\n{"textQuery": "Lisbon", "maxResultCount": 3}\n\n${lines.map(([l]) => `?? ${l}`).join('\n')}`;
    const [r] = await runAll(notebook(['maps', body]));
    assert.deepEqual(
      r.assertions.map((a) => [a.source, a.passed]),
      lines.map(([l, p]) => [`?? ${l}`, p]),
    );
    assert.equal(r.ok, false);
    const failed = r.assertions[3];
    assert.equal(failed.expected, '>= 39');
    assert.match(failed.actual, /^38\.\d+$/);
    assert.equal(failed.line, 12); // fence on line 3, the first ?? on line 9
    assert.equal(r.assertions[11].actual, '(missing)');
    assert.equal(r.assertions[15].actual, '(missing)'); // count is what a LISTEN received
  });

  it('an unknown variable or cell name is an error naming the file and line, and nothing is sent', async () => {
    const text = notebook(
      ['llm', 'GET /models\n\n?? status == 200'],
      ['maps', 'POST /v1/places:searchText\n\n{"textQuery": "{{cty}}"}'],
      ['llm', 'GET /models/{{nosuch.json.id}}'],
    );
    const [, unknownVar, unknownCell] = await runAll(text);
    assert.equal(unknownVar.error, `${FILE}:14: unknown variable "cty": define it in a vars cell (cty = …) or pass it in`);
    assert.equal(unknownVar.request, undefined);
    assert.match(unknownCell.error ?? '', /^test\.awb\.md:20: unknown cell "nosuch"/);
    assert.equal(unknownCell.ok, false);
  });

  it('an unknown connection name is an error naming the file and line', async () => {
    const [r] = await runAll(notebook(['llm connection="Work account"', 'GET /models']));
    assert.equal(r.error, `${FILE}:3: no llm connection is named "Work account" (there are: "Local Sandbox")`);
  });

  describe('a foreign origin is refused before a byte is sent', () => {
    let server: Server;
    let hits = 0;
    let foreign = '';
    before(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end('{}');
      });
      server.on('connection', () => hits++);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      foreign = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('absolute URLs: only the connection origins; no variable in the host; substitution cannot move it', async () => {
      const llmOrigin = new URL(sandbox.info.llm.baseUrl).origin;
      const text = notebook(
        ['vars', `target = ${foreign}/v1/models\nsneaky = @127.0.0.1:${foreign.split(':')[2]}/steal`],
        ['llm', `GET ${foreign}/v1/models`],
        ['llm', 'GET {{target}}'],
        ['llm', `GET http://{{sneaky}}/v1/models`],
        ['llm', `GET ${llmOrigin}{{sneaky}}`],
        ['llm', `GET ${llmOrigin}/v1/models\n\n?? status == 200`],
      );
      const [, direct, whole, hostVar, moved, allowed] = await runAll(text);
      assert.match(direct.error ?? '', /^test\.awb\.md:11: This request goes to 127\.0\.0\.1:\d+; no LLM connection has that host: add one/);
      for (const r of [direct, hostVar]) {
        assert.equal(r.ok, false);
        assert.equal(r.request, undefined);
      }
      // The whole URL from a variable reads as a path of the connection, so it stays on the sandbox.
      assert.ok(whole.request === undefined || whole.request.url.startsWith(llmOrigin));
      assert.match(hostVar.error ?? '', /a variable cannot choose the host/);
      assert.ok(moved.request === undefined || moved.request.url.startsWith(llmOrigin), moved.request?.url);
      assert.equal(allowed.ok, true, JSON.stringify(allowed));
      assert.equal(hits, 0);
    });
  });

  it('realtime: PUBLISH goes out signed; a LISTEN running meanwhile receives it', async () => {
    const text = notebook(
      ['realtime name=listen', 'LISTEN notebook-test 2500ms\n\n?? count == 1\n?? json[0].data.hello == world'],
      ['realtime name=pub', 'PUBLISH notebook-test greeting\n{"hello": "world"}\n\n?? status == 200'],
    );
    const runner = createRunner(parseNotebook(text, FILE).cells, options());
    const listening = runner.runCell(1);
    await subscribed('notebook-test');
    const pub = await runner.runCell(3);
    const listen = await listening;
    runner.dispose();
    assert.equal(pub.ok, true, JSON.stringify(pub));
    assert.match(pub.request?.url ?? '', /auth_signature=\*\*\*/);
    assert.equal(listen.ok, true, JSON.stringify(listen));
    assert.equal(listen.count, 1);
    assert.ok(seen.some((s) => s.includes('"kind":"message"') && s.includes('greeting')));
  });

  it('Run All: a LISTEN above a PUBLISH is subscribed before the publish goes out, receives it, and its result stays in cell order', async () => {
    const [listen, pub] = await runAll(
      notebook(
        ['realtime name=listen', 'LISTEN notebook-run-all 1s\n\n?? count == 1\n?? json[0].data.hello == world'],
        ['realtime name=pub', 'PUBLISH notebook-run-all greeting\n{"hello": "world"}\n\n?? status == 200'],
      ),
    );
    assert.equal(pub.ok, true, JSON.stringify(pub));
    assert.equal(listen.ok, true, JSON.stringify(listen));
    assert.equal(listen.count, 1);
    assert.deepEqual(listen.listen, { channel: 'notebook-run-all', windowMs: 1000 });
    assert.ok(listen.line < pub.line);
  });

  it('realtime, encrypted: PUBLISH encrypts and LISTEN decrypts with the master key; a wrong key is listed as not decrypted, nothing else lost', async () => {
    const MASTER = Buffer.from('notebook-master-key-of-32-bytes!').toString('base64');
    const WRONG = Buffer.from('a-different-master-key-32-bytes!').toString('base64');
    const { connections, key } = sandboxConnections(sandbox.info);
    const hostWith = (masterKey: string) => connectionsHost({ connections, key, encryptionMasterKey: () => masterKey });
    const text = notebook(
      ['realtime name=listen', 'LISTEN private-encrypted-demo 2500ms\n\n?? count == 1\n?? json[1].decrypted == true\n?? json[1].data.plan == dawn'],
      ['realtime name=pub', 'PUBLISH private-encrypted-demo sealed\n{"plan": "dawn"}\n\n?? status == 200'],
    );
    const cells = parseNotebook(text, FILE).cells;
    const progress: string[] = [];
    const listener = createRunner(cells, { host: hostWith(MASTER), file: FILE, onProgress: (p) => progress.push(JSON.stringify(p)) });
    const wrongPublisher = createRunner(cells, { host: hostWith(WRONG), file: FILE });
    const publisher = createRunner(cells, { host: hostWith(MASTER), file: FILE });
    const listening = listener.runCell(1);
    await subscribed('private-encrypted-demo');
    const wrong = await wrongPublisher.runCell(3);
    const pub = await publisher.runCell(3);
    const listen = await listening;
    for (const r of [listener, wrongPublisher, publisher]) r.dispose();
    assert.equal(wrong.ok, true, JSON.stringify(wrong));
    assert.equal(pub.ok, true, JSON.stringify(pub));
    // Boxed on the wire: the sandbox (and anyone between) never sees the plaintext.
    assert.match(pub.request?.body ?? '', /ciphertext/);
    assert.doesNotMatch(pub.request?.body ?? '', /dawn/);
    assert.equal(listen.ok, true, JSON.stringify(listen));
    const messages = listen.response?.json as Array<{ event: string; data: unknown; decrypted?: boolean; error?: string }>;
    assert.equal(messages.length, 2, JSON.stringify(messages));
    assert.equal(messages[0].event, 'sealed');
    assert.equal(messages[0].data, null);
    assert.match(messages[0].error ?? '', /^Could not decrypt sealed on private-encrypted-demo: it was encrypted with a different key/);
    assert.deepEqual(messages[1].data, { plan: 'dawn' });
    assert.equal(listen.count, 1, 'only the message opened counts');
    const everything = JSON.stringify([listen, pub, wrong, progress]);
    for (const k of [MASTER, WRONG]) assert.ok(!everything.includes(k), 'no master key in results or progress');
  });

  it('realtime, encrypted: without a master key PUBLISH says it needs one', async () => {
    const [pub] = await runAll(notebook(['realtime', 'PUBLISH private-encrypted-demo sealed\n{"n": 1}']));
    assert.equal(pub.ok, false);
    assert.match(pub.error ?? '', /needs the encryption master key/);
  });

  it('PUBLISH then LISTEN on the demo ticker, in order', async () => {
    const [pub, listen] = await runAll(
      notebook(
        ['realtime', 'PUBLISH demo-ticker note\n"plain text"\n\n?? status == 200'],
        ['realtime', 'LISTEN demo-ticker 2500ms\n\n?? count >= 2\n?? json[0].event == price'],
      ),
    );
    assert.equal(pub.ok, true, JSON.stringify(pub));
    assert.equal(listen.ok, true, JSON.stringify(listen));
  });

  it('cancelling a LISTEN stops it and keeps what arrived', async () => {
    const text = notebook(['realtime', 'LISTEN demo-ticker 30s\n\n?? count >= 1']);
    const controller = new AbortController();
    // Cancelled once the first message has arrived; a LISTEN that ignored it would run its 30 s.
    const runner = createRunner(parseNotebook(text, FILE).cells, options({ onProgress: (p) => p.kind === 'message' && controller.abort() }));
    const r = await within(runner.runCell(1, controller.signal), 'the cancelled LISTEN to end');
    runner.dispose();
    assert.equal(r.cancelled, true);
    assert.equal(r.ok, false);
    assert.ok((r.count ?? 0) >= 1, JSON.stringify(r));
    assert.equal((r.response?.json as unknown[]).length, r.count);
    assert.equal(r.assertions[0].passed, true);
  });

  it('cancelling a streamed LLM answer stops it and keeps the text that arrived', async () => {
    const slow = await startSandbox({ port: 0, llmKey: LLM_KEY, llm: { tokenRate: 20 } });
    try {
      const { connections, key } = sandboxConnections(slow.info);
      const text = notebook(['llm', 'POST /chat/completions\n\n{"model": "sandbox-chat", "stream": true, "messages": [{"role": "user", "content": "Hi"}]}']);
      const controller = new AbortController();
      const runner = createRunner(parseNotebook(text, FILE).cells, {
        host: connectionsHost({ connections, key }),
        file: FILE,
        onProgress: (p) => p.kind === 'text' && p.text.length > 20 && controller.abort(),
      });
      const r = await runner.runCell(1, controller.signal);
      assert.equal(r.cancelled, true, JSON.stringify(r));
      assert.equal(r.ok, false);
      assert.ok((r.response?.text.length ?? 0) > 20, JSON.stringify(r.response));
      assert.equal((r.response?.json as { finishReason: unknown }).finishReason, null);
    } finally {
      await slow.close();
    }
  });

  it('vars cells of the active environment override plain ones; extra variables override both', async () => {
    const text = notebook(
      ['vars', 'city = Porto\nq = x'],
      ['vars env=staging', 'city = Lisbon'],
      [
        'maps name=m',
        'POST /v1/places:searchText\nX-Goog-FieldMask: places.displayName\n\n{"textQuery": "{{city}}"}\n\n?? json.places[0].displayName.text == {{city}}',
      ],
    );
    const plain = await runAll(text);
    assert.match(plain[2].request?.body ?? '', /Porto/);
    assert.equal(plain[1].skipped, 'applies to the environment "staging" only');
    const staging = await runAll(text, { environment: 'staging' });
    assert.match(staging[2].request?.body ?? '', /Lisbon/);
    assert.equal(staging[2].ok, true, JSON.stringify(staging[2]));
    const extra = await runAll(text, { environment: 'staging', variables: { city: 'Madrid' } });
    assert.match(extra[2].request?.body ?? '', /Madrid/);
  });

  it('setEnvironment switches the vars cells of one runner; results of the old environment are not reused', async () => {
    const text = notebook(
      ['vars', 'city = Porto'],
      ['vars env=staging', 'city = Lisbon'],
      ['maps name=m', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.displayName\n\n{"textQuery": "{{city}}"}'],
      ['llm', 'GET /models?about={{m.json.places[0].displayName.text}}'],
    );
    const runner = createRunner(parseNotebook(text).cells, options());
    try {
      const plain = await runner.runAll();
      assert.match(plain[2].request?.body ?? '', /Porto/);
      runner.setEnvironment('staging');
      assert.equal(runner.lastResult('m'), undefined, 'the Porto result is dropped');
      const late = await runner.runCell(7);
      assert.match(late.error ?? '', /\bm\b/, 'a cell referring to m needs m run again');
      const staging = await runner.runAll();
      assert.equal(staging[1].skipped, undefined);
      assert.match(staging[2].request?.body ?? '', /Lisbon/);
      runner.setEnvironment(undefined);
      assert.match((await runner.runAll())[2].request?.body ?? '', /Porto/);
    } finally {
      runner.dispose();
    }
  });

  it('a streamed answer carries the usage the server sent (stream_options.include_usage), not otherwise', async () => {
    const chat = (extra: string) =>
      [
        'llm',
        `POST /chat/completions\n\n{"model": "sandbox-chat", "stream": true${extra}, "messages": [{"role": "user", "content": "Hi"}]}\n\n?? status == 200`,
      ] as [string, string];
    const [withUsage, without] = await runAll(notebook(chat(', "stream_options": {"include_usage": true}'), chat('')));
    const usage = (withUsage.response?.json as { usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } }).usage;
    assert.ok(
      usage && (usage.completion_tokens ?? 0) > 0 && usage.total_tokens === (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
      JSON.stringify(usage),
    );
    assert.equal((without.response?.json as { usage?: unknown }).usage, undefined);
  });

  it('a malformed cell fails with its file and line; the cells around it still run', async () => {
    const report = await runNotebook(
      notebook(['llm', 'GET /models\n\n?? status == 200'], ['maps', 'FETCH the places'], ['llm', 'GET /models\n\n?? status == 200']),
      options(),
    );
    assert.equal(report.ok, false);
    assert.deepEqual(
      report.results.map((r) => r.ok),
      [true, false, true],
    );
    assert.match(report.results[1].error ?? '', /^test\.awb\.md:12: "FETCH the places" is not a request line/);
    assert.equal(report.problems[0].line, 12);
  });

  it('an error status can be asserted on; without a status assertion it fails the cell', async () => {
    const [asserted, plain] = await runAll(notebook(['llm', 'GET /models/no-such-model\n\n?? status == 404'], ['llm', 'GET /models/no-such-model']));
    assert.equal(asserted.ok, true, JSON.stringify(asserted));
    assert.equal(plain.ok, false);
    assert.match(plain.error ?? '', /404/);
  });

  it('bodies are capped: the size is counted, the text kept short', async () => {
    const [r] = await runAll(notebook(['llm', 'GET /models']), { maxBodyBytes: 100 });
    assert.equal(r.response?.truncated, true);
    assert.ok((r.response?.size ?? 0) > 100);
    assert.ok(Buffer.byteLength(r.response?.text ?? '') <= 100);
    assert.equal(r.response?.json, undefined);
  });

  it('a check into an answer too large to keep says so and gives the limit, instead of "(missing)"', async () => {
    const [r] = await runAll(notebook(['llm', 'GET /models\n\n?? json.data[0].id exists']), { maxBodyBytes: 100 });
    assert.equal(r.ok, false);
    assert.match(r.assertions[0].actual, /^\(the answer was too large to check: [\d.]+ (?:bytes|KB) received, only the first 100 bytes are kept\)$/);
  });

  it('the example notebook passes cell by cell against the sandbox, and no key appears anywhere in its results', async () => {
    const file = path.resolve(__dirname, '../../../../examples/sandbox-tour.awb.md');
    const text = readFileSync(file, 'utf8');
    const requests: string[] = [];
    const { connections, key } = sandboxConnections(sandbox.info);
    host = connectionsHost({ connections, key, onRequest: (_c, r) => requests.push(JSON.stringify(r)), onResult: (r) => requests.push(JSON.stringify(r)) });
    const report = await runNotebook(text, options({ file: 'sandbox-tour.awb.md' }));
    assert.deepEqual(report.problems, []);
    for (const r of report.results)
      assert.equal(r.ok, true, `${r.file}:${r.line} ${r.name ?? ''}: ${JSON.stringify({ error: r.error, failed: r.assertions.filter((a) => !a.passed) })}`);
    assert.equal(report.results.length, 8);
    const heard = report.results.find((r) => r.name === 'heard');
    assert.equal((heard?.response?.json as Array<{ event: string }> | undefined)?.[0]?.event, 'place-found', 'the listener heard the publish below it');
    assert.deepEqual(new Set(report.results.map((r) => r.service)), new Set(['vars', 'llm', 'maps', 'realtime']));
    const everything = JSON.stringify(report) + seen.join('') + requests.join('');
    for (const secret of [LLM_KEY, MAPS_KEY, RT.secret]) assert.ok(!everything.includes(secret), 'a key appears in the results');
    assert.ok(requests.length >= 7);
  });
});
