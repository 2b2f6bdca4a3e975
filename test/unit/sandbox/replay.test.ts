// `npm run sandbox -- --replay <dir>`: the sandbox answers what a folder of recordings holds with the
// recorded answers (a recording made against api.openai.com included), to the official `openai`
// client configured only by its base URL and key; a stream comes back chunk by chunk at its pace;
// a request not recorded is answered by the sandbox as usual and the log names how it differs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { serializeRecording, type CassetteEntry } from '../../../src/core/recording/file';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { loadRecordings, RecordedAnswers } from '../../../src/sandbox/replay';

const KEY = 'sk-sandbox-replay-test-0123456789';
const SANDBOX_JS = path.resolve(__dirname, '../../../../dist/sandbox.js');

const chatBody = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ messages: [{ content, role: 'user' }], model: 'gpt-4o-mini', ...extra });

const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`);
const delta = (content: string) => ({
  id: 'chatcmpl-rec',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

const ENTRIES: CassetteEntry[] = [
  {
    request: {
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: chatBody('Describe Lisbon'),
    },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_recorded_lisbon', 'content-length': '999' },
      chunks: [
        {
          t: 0,
          text: JSON.stringify({
            id: 'chatcmpl-rec',
            object: 'chat.completion',
            created: 1,
            model: 'gpt-4o-mini',
            choices: [{ index: 0, message: { role: 'assistant', content: 'A recorded answer about Lisbon.' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 3, completion_tokens: 6, total_tokens: 9 },
          }),
        },
      ],
    },
  },
  {
    request: {
      method: 'POST',
      url: '{sandbox-llm}/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      body: chatBody('Count to three', { stream: true }),
    },
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        ...sse([delta('one ')]).map((text) => ({ t: 0, text })),
        { t: 150, text: sse([delta('two ')])[0] },
        { t: 300, text: sse([delta('three')])[0] },
        { t: 310, text: 'data: [DONE]\n\n' },
      ],
    },
  },
];

describe('sandbox --replay: recorded answers to any client', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let dir: string;
  const logged: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'awb-replay-'));
    mkdirSync(path.join(dir, 'examples'));
    writeFileSync(path.join(dir, 'examples', 'chat.awb.md.json'), serializeRecording('examples/chat.awb.md', ENTRIES));
    const { entries, files } = loadRecordings(dir);
    assert.equal(files, 1);
    sandbox = await startSandbox({
      port: 0,
      llmKey: KEY,
      llm: { tokenRate: 0 },
      realtime: { demo: false },
      replay: new RecordedAnswers(entries, (l) => logged.push(l)),
    });
  });
  after(() => sandbox?.close());

  const client = () => new OpenAI({ baseURL: sandbox.info.llm.baseUrl, apiKey: KEY });

  it('answers a request recorded against api.openai.com with the recorded answer, saying it is replayed', async () => {
    const { data, response } = await client()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Describe Lisbon' }] })
      .withResponse();
    assert.equal(data.choices[0].message.content, 'A recorded answer about Lisbon.');
    assert.equal(response.headers.get('x-awb-replayed'), '1');
    assert.equal(response.headers.get('x-request-id'), 'req_recorded_lisbon');
  });

  it('replays a stream chunk by chunk, in order, at its recorded pace', async () => {
    const started = performance.now();
    const stream = await client().chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count to three' }] });
    const parts: Array<[string, number]> = [];
    for await (const chunk of stream) parts.push([chunk.choices[0]?.delta?.content ?? '', performance.now() - started]);
    assert.deepEqual(
      parts.map(([text]) => text),
      ['one ', 'two ', 'three'],
    );
    // The pauses between chunks are kept (150 ms and 150 ms), not collapsed.
    assert.ok(parts[2][1] - parts[0][1] >= 250, JSON.stringify(parts));
  });

  it('leaves what is not recorded to the sandbox, and the log names how it differs from the nearest recording', async () => {
    const { data, response } = await client()
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Describe Porto' }] })
      .withResponse();
    assert.equal(response.headers.get('x-awb-replayed'), null);
    assert.notEqual(data.choices[0].message.content, 'A recorded answer about Lisbon.');
    assert.ok(
      logged.some((l) =>
        /POST \/v1\/chat\/completions is not in the recordings \(the nearest recording differs in body\.messages\[0\]\.content: recorded "Describe Lisbon", sent "Describe Porto"/.test(
          l,
        ),
      ),
      logged.join('\n'),
    );
    // The body the replay read to match is handed on: the sandbox's own answer quotes the prompt.
    assert.match(data.choices[0].message.content ?? '', /Describe Porto/);
    const models = await client().models.list();
    assert.ok(models.data.length > 0, 'other routes answer as usual');
  });

  it('node dist/sandbox.js --replay: a folder that is not there, or a file in it that is not a recording, is exit 2 naming it', () => {
    const bad = spawnSync(process.execPath, [SANDBOX_JS, '--port', '0', '--replay', path.join(dir, 'nope')], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--replay .*nope: cannot read the folder \(ENOENT\)/);
    writeFileSync(path.join(dir, 'broken.json'), '{"version": 1}');
    const broken = spawnSync(process.execPath, [SANDBOX_JS, '--port', '0', '--replay', dir], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(broken.status, 2, broken.stderr);
    assert.match(broken.stderr, /broken\.json is not a recording of api-workbench/);
  });
});
