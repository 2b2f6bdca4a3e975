import * as assert from 'node:assert/strict';
import type { CellResult } from '../../../src/notebook/api';
import { geometryOf, plainSummary, resultPayload, usageOf } from '../../../src/features/notebook/payload';
import { encodePolyline } from '../../../src/services/maps/polyline';
import { assertionDetail, PREVIEW_BYTES } from '../../../src/webview/result/protocol';

function result(over: Partial<CellResult>): CellResult {
  return { file: 'f.awb.md', cellIndex: 0, line: 1, service: 'maps', startedAt: new Date(0).toISOString(), ok: true, assertions: [], durationMs: 5, ...over };
}

describe('notebook output payload (what the response viewer gets)', () => {
  it('a 20 MB body becomes a capped text preview without a parsed tree, its real size kept', () => {
    const big = JSON.stringify({ rows: Array.from({ length: 200_000 }, (_, i) => ({ i, name: `row ${i} ${'x'.repeat(80)}` })) });
    assert.ok(big.length > 20_000_000);
    const p = resultPayload(
      'r1',
      result({ response: { status: 200, headers: {}, text: big, json: JSON.parse(big) as unknown, size: big.length, truncated: false, durationMs: 30 } }),
    );
    assert.ok(p.body);
    assert.equal(p.body.text.length, PREVIEW_BYTES);
    assert.equal(p.body.json, undefined);
    assert.equal(p.body.partial, true);
    assert.equal(p.body.size, big.length);
    assert.ok(JSON.stringify(p).length < PREVIEW_BYTES * 2, 'the output stays small');
  });

  it('a small JSON body keeps its tree; status, request id and assertions come through', () => {
    const text = '{"a":1}';
    const p = resultPayload(
      'r2',
      result({
        response: { status: 404, headers: { 'x-request-id': 'req_1' }, text, json: { a: 1 }, size: 7, truncated: false, durationMs: 3, requestId: 'req_1' },
        ok: false,
        assertions: [{ source: '?? status == 200', line: 3, passed: false, expected: '== 200', actual: '404' }],
      }),
    );
    assert.deepEqual(p.body?.json, { a: 1 });
    assert.equal(p.status, 404);
    assert.equal(p.requestId, 'req_1');
    assert.equal(p.title, '1 of 1 assertions failed');
  });

  it('a LISTEN says what it received, or that nothing came within its window; no HTTP status badge', () => {
    const listen = { channel: 'my-channel', windowMs: 5000 };
    const response = (json: unknown[]) => ({ status: 200, headers: {}, text: JSON.stringify(json), json, size: 2, truncated: false, durationMs: 5000 });
    const none = resultPayload(
      'r4',
      result({
        service: 'realtime',
        listen,
        count: 0,
        response: response([]),
        ok: false,
        assertions: [{ source: '?? count >= 1', line: 3, passed: false, expected: '>= 1', actual: '0' }],
      }),
    );
    assert.equal(none.title, 'No messages arrived on my-channel within 5 s · 1 of 1 assertions failed');
    assert.equal(none.status, undefined);
    assert.deepEqual(none.messages, { count: 0, items: [], channel: 'my-channel', windowMs: 5000 });
    const one = [{ channel: 'my-channel', event: 'greeting', data: { city: 'Lisbon' }, atMs: 40 }];
    const heard = resultPayload('r5', result({ service: 'realtime', listen: { ...listen, windowMs: 1500 }, count: 1, response: response(one) }));
    assert.equal(heard.title, '1 message received on my-channel in 1.5 s');
    assert.deepEqual(heard.messages?.items, one);
  });

  it('a cell that failed without an answer: the title says what happened, not "Failed" again beside the Failed badge', () => {
    const unsent = resultPayload('r6', result({ ok: false, error: 'test.awb.md:3: no maps connection is set up' }));
    assert.equal(unsent.title, 'Not sent');
    const unanswered = resultPayload(
      'r7',
      result({ ok: false, error: 'getaddrinfo ENOTFOUND', request: { method: 'GET', url: 'https://x.invalid/', headers: {} } }),
    );
    assert.equal(unanswered.title, 'No answer');
    assert.equal(plainSummary(unanswered).split('\n')[0], 'No answer · 5 ms');
  });

  it('finds places and route lines for the map tab', () => {
    const places = { places: [{ id: 'p1', displayName: { text: 'Lisbon' }, location: { latitude: 38.72, longitude: -9.14 } }] };
    assert.deepEqual(geometryOf(places).markers, [{ latitude: 38.72, longitude: -9.14, label: 'Lisbon' }]);
    const encoded = encodePolyline([
      { latitude: 38.7, longitude: -9.1 },
      { latitude: 41.1, longitude: -8.6 },
    ]);
    const routes = geometryOf({ routes: [{ polyline: { encodedPolyline: encoded } }] });
    assert.equal(routes.lines.length, 1);
    assert.deepEqual(routes.lines[0].points, [
      [38.7, -9.1],
      [41.1, -8.6],
    ]);
    assert.deepEqual(geometryOf({ routes: [{ polyline: { encodedPolyline: '\u0000bad' } }] }).lines, []);
  });

  it('shows the answer of a streamed and of a plain chat completion', () => {
    const streamed = resultPayload(
      'r3',
      result({
        service: 'llm',
        response: {
          status: 200,
          headers: {},
          text: 'Hello',
          json: { content: 'Hello', finishReason: 'stop', model: 'm', events: 3 },
          size: 99,
          truncated: false,
          durationMs: 9,
        },
      }),
    );
    assert.equal(streamed.answer, 'Hello');
    const plain = resultPayload(
      'r4',
      result({
        service: 'llm',
        response: {
          status: 200,
          headers: {},
          text: '{}',
          json: { choices: [{ message: { content: 'Hi there' } }], usage: { total_tokens: 4 } },
          size: 2,
          truncated: false,
          durationMs: 9,
        },
      }),
    );
    assert.equal(plain.answer, 'Hi there');
    assert.deepEqual(plain.usage, { totalTokens: 4 });
  });

  it('reads token usage of plain and streamed answers', () => {
    assert.deepEqual(usageOf({ usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } }), { promptTokens: 3, completionTokens: 5, totalTokens: 8 });
    assert.equal(usageOf({ content: 'hi', finishReason: 'stop', events: 3 }), undefined);
    // The Responses API names them input/output tokens: not "tokens ? in · ? out".
    assert.deepEqual(usageOf({ object: 'response', usage: { input_tokens: 7, output_tokens: 11, total_tokens: 18 } }), {
      promptTokens: 7,
      completionTokens: 11,
      totalTokens: 18,
    });
    // The cost: the service's own figure, else the model priced from the table (a user entry wins).
    const usage = { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 };
    assert.equal(usageOf({ model: 'gpt-4.1-2025-04-14', usage })?.cost, 10, 'priced as gpt-4.1 ($2 + $8 per 1M)');
    assert.equal(usageOf({ model: 'gpt-4.1', usage: { ...usage, cost: 0.5 } })?.cost, 0.5, "the service's own cost wins");
    assert.equal(usageOf({ model: 'my-llama', usage })?.cost, undefined, 'an unpriced model has no cost');
    assert.equal(usageOf({ content: 'hi', finishReason: 'stop', model: 'my-llama', usage }, { 'my-llama': { input: 1, output: 1 } })?.cost, 2);
  });

  it("a cell's script logs and pm.test results show in its output, the last 200 log lines kept", () => {
    const logs = Array.from({ length: 250 }, (_, i) => `line ${i}`);
    const p = resultPayload(
      'r-logs',
      result({
        service: 'http',
        logs,
        assertions: [{ source: 'status is 200', line: 9, passed: true, expected: 'passes', actual: 'passes' }],
      }),
    );
    assert.deepEqual(p.logs, { lines: logs.slice(50), dropped: 50 });
    const text = plainSummary(p);
    assert.match(text, /✓ status is 200/);
    assert.match(text, /log: \(50 earlier lines not shown\)\nlog: line 50\n/);
    assert.match(text, /log: line 249$/m);
  });

  it("a script's tests show one line each: ✓ and the name when it passed, ✗, the name and the assertion's message when it failed", () => {
    const passed = { source: 'status is 200', line: 9, passed: true, expected: 'passes', actual: 'passes' };
    const failed = { source: 'name is Ada', line: 10, passed: false, expected: 'passes', actual: "AssertionError: expected 'Bob' to equal 'Ada'" };
    const p = resultPayload('r-tests', result({ service: 'http', ok: false, assertions: [passed, failed] }));
    const lines = plainSummary(p).split('\n');
    assert.ok(lines.includes('✓ status is 200'), lines.join('\n'));
    assert.ok(lines.includes("✗ name is Ada (AssertionError: expected 'Bob' to equal 'Ada')"), lines.join('\n'));
    assert.doesNotMatch(plainSummary(p), /passes/);
    // The renderer's line under each check.
    assert.equal(assertionDetail(passed), undefined);
    assert.equal(assertionDetail(failed), "AssertionError: expected 'Bob' to equal 'Ada'");
    assert.equal(assertionDetail({ source: '?? status == 200', line: 3, passed: false, expected: '== 200', actual: '404' }), 'expected == 200 · actual 404');
  });
});
