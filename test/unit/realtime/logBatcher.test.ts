import * as assert from 'node:assert/strict';
import { compactData, RealtimeLogBatcher, truncate, type LogStats } from '../../../src/services/realtime/logBatcher';
import { ManualClock } from '../helpers/clock';

function rig(opts: { maxDataChars?: number; historyLines?: number; failWrites?: number; onSinkError?: (e: unknown) => void } = {}) {
  const clock = new ManualClock(1_700_000_000_000);
  const writes: { at: number; text: string }[] = [];
  const stats: LogStats[] = [];
  let failures = opts.failWrites ?? 0;
  const log = new RealtimeLogBatcher({
    sink: (text) => {
      if (failures > 0) {
        failures--;
        throw new Error('sink closed');
      }
      writes.push({ at: clock.now(), text });
    },
    clock,
    maxDataChars: opts.maxDataChars,
    historyLines: opts.historyLines,
    onStats: (s) => stats.push(s),
    onSinkError: opts.onSinkError,
  });
  const lines = () => writes.flatMap((w) => w.text.split('\n').filter(Boolean));
  return { clock, writes, stats, log, lines };
}

describe('realtime log batcher', () => {
  it('formats time, channel, event and compact data on one line', () => {
    const { log, clock, lines } = rig();
    log.message('orders', 'placed', '{"id":7}');
    log.message('orders', 'pretty', '{\n  "id": 8,\n  "ok": true\n}');
    log.message(undefined, 'global', { a: [1, 2] });
    log.message('presence-room', 'client-typing', '{"t":1}', 'ada');
    log.message('raw', 'text', 'plain words');
    clock.advance(100);
    const d = new Date(1_700_000_000_000);
    const hhmmss = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    assert.deepEqual(lines(), [
      `${hhmmss}.000  orders  placed  {"id":7}`,
      `${hhmmss}.000  orders  pretty  {"id":8,"ok":true}`,
      `${hhmmss}.000  (no channel)  global  {"a":[1,2]}`,
      `${hhmmss}.000  presence-room  client-typing  {"t":1}  (from user ada)`,
      `${hhmmss}.000  raw  text  plain words`,
    ]);
  });

  it('truncates large payloads with a note that says how large they were', () => {
    const { log, clock, lines } = rig({ maxDataChars: 20 });
    log.message('c', 'big', JSON.stringify({ blob: 'x'.repeat(5000) }));
    clock.advance(100);
    const [line] = lines();
    assert.ok(line.endsWith('  c  big  {"blob":"xxxxxxxxxxx … [truncated: 5,011 chars, showing the first 20]'), line);
    assert.equal(truncate('short', 20), 'short');
  });

  it('compactData keeps one-line JSON strings as they are and never throws', () => {
    assert.equal(compactData('{"a": 1}'), '{"a": 1}');
    assert.equal(compactData('line one\nline two'), '"line one\\nline two"');
    assert.equal(compactData(undefined), '');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(compactData(cyclic), '[object Object]');
    assert.equal(compactData(10n), '10');
  });

  it('10,000 messages in one second: at most ~20 writes, every message written, counters agree', () => {
    const { log, clock, writes, lines, stats } = rig({ historyLines: 0 });
    // 10 messages per simulated millisecond for one second.
    for (let ms = 0; ms < 1000; ms++) {
      for (let i = 0; i < 10; i++) log.message('feed', 'tick', `{"n":${ms * 10 + i}}`);
      clock.advance(1);
    }
    clock.advance(100);
    assert.ok(writes.length <= 21, `${writes.length} writes`);
    for (let i = 1; i < writes.length; i++) assert.ok(writes[i].at - writes[i - 1].at >= 50, 'writes are at least 50 ms apart');
    const got = lines();
    assert.equal(got.length, 10_000);
    got.forEach((l, i) => assert.ok(l.endsWith(`{"n":${i}}`), `line ${i} in order`));
    assert.deepEqual(log.stats, { received: 10_000, written: 10_000, pending: 0, writes: writes.length });
    assert.ok(stats.every((s) => s.written <= s.received));
    assert.equal(stats[stats.length - 1].written, 10_000);
  });

  it('shows received ahead of written while a batch waits', () => {
    const { log, clock } = rig();
    log.message('c', 'e', '1');
    clock.advance(1);
    log.message('c', 'e', '2');
    log.note('connected');
    // The first message was flushed at once; the second waits for the 50 ms window.
    assert.deepEqual(log.stats, { received: 2, written: 1, pending: 2, writes: 1 });
    clock.advance(60);
    assert.deepEqual(log.stats, { received: 2, written: 2, pending: 0, writes: 2 });
  });

  it('a burst of hundreds of lines, notes among them, through a failing write: every line once, in order', () => {
    const { log, clock, lines, writes } = rig({ failWrites: 1 });
    log.message('c', 'e', 'm0');
    // The first line went out at once (and failed); the rest queue behind it.
    for (let i = 1; i < 500; i++) {
      if (i % 97 === 0) log.note(`note ${i}`);
      log.message('c', 'e', `m${i}`);
    }
    assert.deepEqual(log.stats, { received: 500, written: 0, pending: 505, writes: 0 });
    clock.advance(60);
    for (let i = 500; i < 700; i++) log.message('c', 'e', `m${i}`);
    clock.advance(60);
    log.flush();
    const expected: string[] = [];
    for (let i = 0; i < 700; i++) {
      if (i % 97 === 0 && i > 0 && i < 500) expected.push(`── note ${i}`);
      expected.push(`c  e  m${i}`);
    }
    assert.deepEqual(
      lines().map((l) => l.replace(/^\d\d:\d\d:\d\d\.\d{3} {2}/, '')),
      expected,
    );
    assert.ok(writes.every((w) => w.text.endsWith('\n')));
    assert.deepEqual(log.stats, { received: 700, written: 700, pending: 0, writes: writes.length });
  });

  it('keeps lines when the sink fails and writes them on the next attempt', () => {
    const errors: unknown[] = [];
    const { log, clock, lines } = rig({ failWrites: 2, onSinkError: (e) => errors.push(e) });
    log.message('c', 'e', 'a');
    log.message('c', 'e', 'b');
    clock.advance(200);
    assert.equal(errors.length, 2);
    assert.equal(lines().length, 2);
    assert.equal(log.stats.written, 2);
  });

  it('notes are one line, and the history for saving keeps the newest lines in order', () => {
    const { log, clock } = rig({ historyLines: 3 });
    log.note('connected\nsocket 1.2');
    for (let i = 1; i <= 4; i++) log.message('c', 'e', String(i));
    log.flush();
    clock.advance(1);
    const saved = log.text().split('\n').filter(Boolean);
    assert.equal(saved.length, 3);
    assert.deepEqual(
      saved.map((l) => l.slice(-1)),
      ['2', '3', '4'],
    );
    assert.match(rig().log.text(), /^$/);
    log.dispose();
    log.message('c', 'e', 'after dispose');
    assert.equal(log.stats.pending, 1, 'nothing is scheduled after dispose, but nothing is lost either');
  });

  it('the saved history spans many writes and keeps exactly the newest lines, in order, after clear() too', () => {
    const { log } = rig({ historyLines: 5 });
    let n = 0;
    const batch = (size: number) => {
      for (let i = 0; i < size; i++) log.message('c', 'e', `m${++n}`);
      log.flush();
    };
    for (let b = 0; b < 2000; b++) batch(3);
    const saved = () =>
      log
        .text()
        .split('\n')
        .filter(Boolean)
        .map((l) => /m\d+$/.exec(l)?.[0]);
    assert.deepEqual(saved(), ['m5996', 'm5997', 'm5998', 'm5999', 'm6000']);
    batch(1);
    assert.deepEqual(saved(), ['m5997', 'm5998', 'm5999', 'm6000', 'm6001']);
    log.clear();
    assert.equal(log.text(), '');
    batch(2);
    assert.deepEqual(saved(), ['m6002', 'm6003']);
    log.dispose();
  });
});
