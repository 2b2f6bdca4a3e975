import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/errors';
import { undici } from '../../../src/core/lazy';
import { ChatStreamDecoder, type ChatStreamEvent } from '../../../src/services/llm';
import { SseError, SseParser } from '../../../src/services/llm/sse';
import { sandboxAnswer, startLlmSandbox } from '../../../src/sandbox/llm';
import type { RunningService } from '../../../src/sandbox/types';
import { seededRandom } from '../helpers/util';

const KEY = 'sk-sandbox-sse-test-key';

interface Parsed {
  events: [string, string | undefined][];
  truncated: boolean;
}

/** Runs the SSE parser over `pieces` and returns every event plus the end-of-input verdict. */
function sse(pieces: readonly Uint8Array[]): Parsed {
  const p = new SseParser();
  const events: [string, string | undefined][] = [];
  for (const piece of pieces) p.push(piece, (data, event) => events.push([data, event]));
  return { events, truncated: p.end().truncated };
}

interface Decoded {
  events: ChatStreamEvent[];
  error?: ApiError;
  end?: ReturnType<ChatStreamDecoder['end']>;
}

/** Runs the chat decoder like LlmClient does: events before a failure are kept, then the failure. */
function decode(pieces: readonly Uint8Array[]): Decoded {
  const d = new ChatStreamDecoder('LLM', 'req_test', 200);
  const events: ChatStreamEvent[] = [];
  try {
    for (const piece of pieces) {
      d.push(piece, events);
      d.throwIfFailed();
    }
    return { events, end: d.end() };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { events, error: e };
  }
}

function textOf(events: readonly ChatStreamEvent[]): string {
  return events.map((e) => (e.type === 'delta' ? e.text : '')).join('');
}

const bytes = (s: string) => Buffer.from(s, 'utf8');

/** Splits `buf` at the given offsets into fresh Uint8Arrays (not Buffers: the parser must take both). */
function split(buf: Buffer, ...at: number[]): Uint8Array[] {
  const cuts = [0, ...at, buf.length];
  return cuts.slice(1).map((end, i) => new Uint8Array(buf.subarray(cuts[i], end)));
}

describe('llm/sse: parser and chat-stream decoder', function () {
  this.timeout(30_000);

  let sandbox: RunningService;
  let base: string;
  /** Recorded from the sandbox: OpenAI style with usage, and Azure style (content-filter chunks). */
  let recorded: Buffer;
  let recordedAzure: Buffer;
  /** One token, no usage: small enough (~900 bytes) for every three-piece split. */
  let recordedShort: Buffer;
  const messages = [{ role: 'user' as const, content: 'Zürich → 東京 😀 split me' }];

  async function record(path: string, headers: Record<string, string>, maxTokens: number, prompt = messages, includeUsage = true): Promise<Buffer> {
    const res = await undici().request(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ model: 'sandbox-chat', messages: prompt, stream: true, stream_options: { include_usage: includeUsage }, max_tokens: maxTokens }),
    });
    assert.equal(res.statusCode, 200);
    return Buffer.from(await res.body.arrayBuffer());
  }

  before(async () => {
    sandbox = await startLlmSandbox({ host: '127.0.0.1', port: 0, apiKey: KEY, tokenRate: 0 });
    base = `http://127.0.0.1:${sandbox.port}`;
    recorded = await record('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, 12);
    recordedAzure = await record('/openai/v1/chat/completions', { 'api-key': KEY }, 3);
    recordedShort = await record('/v1/chat/completions', { authorization: `Bearer ${KEY}` }, 1, [{ role: 'user', content: 'é' }], false);
  });
  after(() => sandbox.close());

  it('decodes a recorded sandbox stream: deltas equal the deterministic answer, then usage and [DONE]', () => {
    const { events, end, error } = decode([recorded]);
    assert.equal(error, undefined);
    assert.equal(textOf(events), sandboxAnswer(messages, 'sandbox-chat', { maxTokens: 12 }));
    const usage = events.filter((e) => e.type === 'usage');
    assert.equal(usage.length, 1, 'one usage chunk (the one with empty choices)');
    assert.equal(usage[0].type === 'usage' && usage[0].usage.completion_tokens, 12);
    assert.equal(end?.finishReason, 'length');
    assert.match(end?.id ?? '', /^chatcmpl-/);
  });

  it('survives every split of the recorded stream into two pieces (same events every time)', () => {
    const whole = decode([recorded]);
    for (let i = 0; i <= recorded.length; i++) {
      const got = decode(split(recorded, i));
      assert.deepEqual(got, whole, `split at byte ${i}`);
    }
  });

  it('survives every split of the recorded Azure stream (content-filter chunks) into two pieces', () => {
    const whole = decode([recordedAzure]);
    assert.equal(whole.error, undefined);
    assert.equal(textOf(whole.events), sandboxAnswer(messages, 'sandbox-chat', { maxTokens: 3 }));
    assert.equal(whole.end?.model, 'sandbox-chat', 'the empty model of content-filter chunks does not win');
    for (let i = 0; i <= recordedAzure.length; i++) assert.deepEqual(decode(split(recordedAzure, i)), whole, `split at byte ${i}`);
  });

  it('survives every split of a recorded stream into three pieces (same SSE events every time)', () => {
    // The decoder is a pure function of the parser's events, so equal events at this level means
    // equal chat events; the parser level keeps all ~n²/2 splits fast.
    const whole = sse([recordedShort]);
    assert.equal(whole.truncated, false);
    assert.ok(whole.events.length >= 4);
    const n = recordedShort.length;
    const digest = (pieces: Buffer[]) => {
      const p = new SseParser();
      let out = '';
      for (const piece of pieces) p.push(piece, (data, event) => (out += `${event ?? ''}\u0000${data}\u0001`));
      return p.end().truncated ? `${out}(truncated)` : out;
    };
    const expected = digest([recordedShort]);
    let checked = 0;
    for (let i = 0; i <= n; i++) {
      for (let j = i; j <= n; j++) {
        const pieces = [recordedShort.subarray(0, i), recordedShort.subarray(i, j), recordedShort.subarray(j)];
        if (digest(pieces) !== expected) assert.deepEqual(sse(pieces), whole, `split at bytes ${i} and ${j}`);
        checked++;
      }
    }
    assert.equal(checked, ((n + 1) * (n + 2)) / 2);
  });

  it('reads comments, multi-line data, event names, ids, CR / CRLF / LF line ends and a BOM', () => {
    const streams = {
      lf: '\uFEFFdata: bom\n\n: comment\n\nevent: note\nid: 7\ndata: line one é😀\ndata: line two\n\ndata\n\ndata:no-space\n\nevent: empty-no-data\n\nfield-without-colon\ndata:  two spaces\n\n',
      crlf: '\uFEFFdata: bom\r\n\r\n: comment\r\n\r\nevent: note\r\nid: 7\r\ndata: line one é😀\r\ndata: line two\r\n\r\ndata\r\n\r\ndata:no-space\r\n\r\nevent: empty-no-data\r\n\r\nfield-without-colon\r\ndata:  two spaces\r\n\r\n',
      cr: '\uFEFFdata: bom\r\r: comment\r\revent: note\rid: 7\rdata: line one é😀\rdata: line two\r\rdata\r\rdata:no-space\r\revent: empty-no-data\r\rfield-without-colon\rdata:  two spaces\r\r',
    };
    const expected: Parsed = {
      events: [
        ['bom', undefined],
        ['line one é😀\nline two', 'note'],
        ['', undefined],
        ['no-space', undefined],
        [' two spaces', undefined],
      ],
      truncated: false,
    };
    for (const [name, text] of Object.entries(streams)) {
      const buf = bytes(text);
      assert.deepEqual(sse([buf]), expected, name);
      for (let i = 0; i <= buf.length; i++) {
        for (let j = i; j <= buf.length; j++) assert.deepEqual(sse(split(buf, i, j)), expected, `${name} split at ${i}, ${j}`);
      }
    }
    const p = new SseParser();
    p.push(bytes('id: 42\ndata: x\n\n'), () => undefined);
    assert.equal(p.lastEventId, '42');
  });

  it('a stream cut mid-event reports truncation; the decoder calls it a stream error and keeps the text so far', () => {
    const cut = recorded.subarray(0, recorded.indexOf('"finish_reason":"length"') - 40);
    assert.equal(sse([cut]).truncated, true);
    const { events, error } = decode([cut]);
    assert.ok(error);
    assert.equal(error.kind, 'stream');
    assert.equal(error.requestId, 'req_test');
    assert.ok(sandboxAnswer(messages, 'sandbox-chat', { maxTokens: 12 }).startsWith(textOf(events)));
    assert.ok(textOf(events).length > 0);
  });

  it('a stream without [DONE] is complete when a finish_reason arrived (servers that omit [DONE])', () => {
    const noDone = recorded.subarray(0, recorded.indexOf('data: [DONE]'));
    const { error, end } = decode([noDone]);
    assert.equal(error, undefined);
    assert.equal(end?.finishReason, 'length');
  });

  it('an error payload mid-stream (data: {"error"} or event: error) is an ApiError of kind "stream" after the deltas before it', () => {
    const head = 'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":"lo"}}]}\n\n';
    const variants = [
      'data: {"error":{"message":"The server had an error","type":"server_error","param":null,"code":"boom"}}\n\n',
      'event: error\ndata: {"error":{"message":"The server had an error","type":"server_error","code":"boom"}}\n\n',
    ];
    for (const tail of variants) {
      const { events, error } = decode([bytes(head + tail + 'data: {"choices":[{"index":0,"delta":{"content":"never"}}]}\n\n')]);
      assert.equal(textOf(events), 'Hello');
      assert.ok(error);
      assert.equal(error.kind, 'stream');
      assert.equal(error.code, 'boom');
      assert.equal(error.serviceMessage, 'The server had an error');
      assert.match(error.describe(), /LLM.*boom.*The server had an error.*req_test/);
    }
  });

  it('accepts chunks with empty or missing choices, null usage, and chunks with only a finish_reason', () => {
    const text = [
      '{"id":"","object":"","created":0,"model":"","choices":[],"prompt_filter_results":[]}',
      '{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""}}],"usage":null}',
      '{"id":"c1","choices":[{"index":0,"delta":{"content":"A"},"finish_reason":null}]}',
      '{"id":"c1"}',
      '{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      '{"id":"c1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}',
      '[DONE]',
    ]
      .map((d) => `data: ${d}\n\n`)
      .join('');
    const { events, end, error } = decode([bytes(text)]);
    assert.equal(error, undefined);
    assert.deepEqual(events, [
      { type: 'delta', text: 'A', index: 0 },
      { type: 'usage', usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
    ]);
    assert.deepEqual(end, { finishReason: 'stop', id: 'c1', model: undefined, usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } });
  });

  it('garbage and truncated input: the parser throws nothing but SseError, the decoder nothing but ApiError', () => {
    const random = seededRandom(0x5eed);
    const samples: Buffer[] = [];
    // Random bytes, random bytes with SSE-ish structure, and recorded streams with random damage.
    for (let n = 0; n < 300; n++) {
      const len = Math.floor(random() * 600);
      const buf = Buffer.alloc(len);
      for (let i = 0; i < len; i++) buf[i] = Math.floor(random() * 256);
      samples.push(buf);
      const alphabet = [
        'data: ',
        'data:',
        'event: error\n',
        ': c\n',
        '\n',
        '\r',
        '\r\n',
        '{',
        '}',
        '"',
        '[DONE]',
        '{"error":',
        '{"choices":',
        'null',
        '\uFFFD',
        'é',
      ];
      samples.push(bytes(Array.from({ length: 40 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')));
      const damaged = Buffer.from(recorded);
      for (let k = 0; k < 5; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      samples.push(damaged.subarray(0, Math.floor(random() * damaged.length)));
    }
    let sseErrors = 0;
    let apiErrors = 0;
    for (const sample of samples) {
      const pieces = split(sample, ...[Math.floor(random() * sample.length), Math.floor(random() * sample.length)].sort((a, b) => a - b));
      const tiny = new SseParser({ maxLineBytes: 64, maxEventChars: 128 });
      try {
        for (const piece of pieces) tiny.push(piece, () => undefined);
        tiny.end();
      } catch (e) {
        assert.ok(e instanceof SseError, `parser threw ${String(e)}`);
        sseErrors++;
      }
      const d = decode(pieces);
      if (d.error) apiErrors++;
    }
    assert.ok(sseErrors > 0, 'the bounds were exercised');
    assert.ok(apiErrors > 0, 'garbage was reported');
  });

  it('an over-long line is refused with SseError instead of buffering without end', () => {
    const p = new SseParser({ maxLineBytes: 1024 });
    const noNewline = Buffer.alloc(600, 0x61);
    p.push(noNewline, () => undefined);
    assert.throws(() => p.push(noNewline, () => undefined), SseError);
    const d = new ChatStreamDecoder('LLM');
    const out: ChatStreamEvent[] = [];
    d.push(bytes('data: {"choices":[]}\n\n'), out);
    d.throwIfFailed();
  });
});
