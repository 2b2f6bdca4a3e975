// LlmClient's streamed chat against hostile servers: a proxy's HTML page, a stream kept open by
// keep-alive comments alone, a server that never answers, and servers that echo the key back.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ApiError } from '../../../src/core/errors';
import { HttpClient, type HttpClientOptions, type RequestLogEntry } from '../../../src/core/http';
import { LlmClient, openAiErrorParser, type ChatStreamEvent } from '../../../src/services/llm';
import { ManualClock } from '../helpers/clock';
import { FaultServer } from '../helpers/faultServer';
import { visibleText } from '../helpers/util';

const KEY = 'sk-proj-Echoed0Key0abcdefghij';
const CHUNK = (text: string) => `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: text } }] })}\n\n`;

/** An event stream that sends `body`, then ends. */
function sse(body: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_h' });
    res.end(body);
  };
}

async function failureOf(stream: AsyncIterable<ChatStreamEvent>): Promise<{ error: ApiError; text: string }> {
  let text = '';
  try {
    for await (const e of stream) if (e.type === 'delta') text += e.text;
  } catch (e) {
    if (e instanceof ApiError) return { error: e, text };
    throw e;
  }
  assert.fail('the stream ended without an error');
}

describe('llm/client: chatStream against hostile servers', function () {
  this.timeout(5000);

  let server: FaultServer;
  let log: RequestLogEntry[];
  beforeEach(async () => {
    server = await FaultServer.start();
    log = [];
  });
  afterEach(() => server.close());

  function llm(extra: Partial<HttpClientOptions> = {}): LlmClient {
    return new LlmClient(
      new HttpClient({
        service: 'LLM',
        baseUrl: server.url('/v1'),
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
        clock: ManualClock.instant(),
        log: (e) => log.push(e),
        ...extra,
      }),
    );
  }
  const chat = (c: LlmClient) => c.chatStream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

  it('a 200 HTML page (a captive portal) is an invalid response with a snippet, not a broken stream', async () => {
    server.script({
      status: 200,
      headers: { 'content-type': 'text/html', 'x-request-id': 'req_portal' },
      body: '<html><title>Wi-Fi login</title><body>Accept the terms</body></html>',
    });
    const { error } = await failureOf(chat(llm()));
    assert.equal(error.kind, 'invalid-response');
    assert.equal(error.status, 200);
    assert.equal(error.requestId, 'req_portal');
    assert.match(error.describe(), /text\/html instead of text\/event-stream: <html><title>Wi-Fi login/);
    assert.equal(server.count, 1);
  });

  it('a stream kept open by keep-alive comments alone ends with kind "timeout" at the deadline, keeping the text', async () => {
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(CHUNK('Hel'));
      const t = setInterval(() => res.write(': ping\n\n'), 20);
      res.on('close', () => clearInterval(t));
    });
    const { error, text } = await failureOf(chat(llm({ timeoutMs: 100, streamDeadlineMs: 300 })));
    assert.equal(error.kind, 'timeout');
    assert.equal(text, 'Hel');
  });

  it('no answer before the timeout: the chat is sent once, not three times', async () => {
    server.script({ hang: true });
    const { error } = await failureOf(chat(llm({ timeoutMs: 100 })));
    assert.equal(error.kind, 'timeout');
    assert.equal(server.count, 1);
  });

  it('a mid-stream error event that echoes the key (message and code) shows it masked', async () => {
    server.script(sse(CHUNK('partial') + `data: ${JSON.stringify({ error: { message: `key ${KEY} was revoked`, type: 'auth', code: KEY } })}\n\n`));
    const { error, text } = await failureOf(chat(llm()));
    assert.equal(error.kind, 'stream');
    assert.equal(text, 'partial');
    assert.ok(!visibleText(error).includes(KEY), visibleText(error));
    assert.match(error.describe(), /key \*\*\* was revoked/);
  });

  it('a named error event and a non-JSON line that echo the key show it masked', async () => {
    server.script(sse(`event: error\ndata: {"error":"bad credentials ${KEY}"}\n\n`), sse(`data: <b>unauthorised: ${KEY}</b>\n\n`));
    const named = await failureOf(chat(llm()));
    const garbage = await failureOf(chat(llm()));
    assert.equal(named.error.kind, 'stream');
    assert.equal(garbage.error.kind, 'invalid-response');
    for (const { error } of [named, garbage]) assert.ok(!visibleText(error).includes(KEY), visibleText(error));
    assert.match(garbage.error.message, /unauthorised: \*\*\*/);
  });

  it('an HTTP error before the stream with the key in code, message and request id shows it masked', async () => {
    server.script({ status: 401, headers: { 'x-request-id': KEY }, body: { error: { message: `Incorrect API key provided: ${KEY}`, code: KEY } } });
    const { error } = await failureOf(chat(llm()));
    assert.equal(error.status, 401);
    assert.ok(!visibleText(error).includes(KEY), visibleText(error));
    assert.ok(!JSON.stringify(log).includes(KEY));
  });
});
