import * as assert from 'node:assert/strict';
import { InspectorFeed, pageMessageSchema, type HostMessage } from '../../../src/services/realtime/inspectorFeed';
import { InspectorStore, PREVIEW_CHARS, type InspectorCounts } from '../../../src/services/realtime/inspectorStore';
import { validate } from '../../../src/core/validate';
import { ManualClock } from '../helpers/clock';

const msg = (i: number, channel = 'orders', event = 'order.updated') => ({
  connection: 'Local Sandbox',
  channel,
  event,
  data: `{"id":${i},"status":"${i % 2 ? 'odd' : 'even'}"}`,
});

function addsUp(c: InspectorCounts): void {
  assert.equal(c.shown + c.filteredOut + c.held + c.dropped, c.received, `counts add up: ${JSON.stringify(c)}`);
}

describe('realtime inspector store', () => {
  it('keeps the last 100,000 messages in a ring, counts the ones pushed out, and pages rows in order', () => {
    const store = new InspectorStore(100_000);
    for (let i = 0; i < 130_000; i++) store.add(msg(i));
    const c = store.counts();
    assert.deepEqual(
      { received: c.received, shown: c.shown, dropped: c.dropped, filteredOut: c.filteredOut },
      { received: 130_000, shown: 100_000, dropped: 30_000, filteredOut: 0 },
    );
    addsUp(c);
    const rows = store.rows(0, 3);
    assert.deepEqual(
      rows.map((r) => r.preview),
      ['{"id":30000,"status":"even"}', '{"id":30001,"status":"odd"}', '{"id":30002,"status":"even"}'],
    );
    assert.equal(store.rows(99_999, 10).length, 1, 'the page stops at the newest row');
    assert.equal(store.entry(rows[0].seq - 1), undefined, 'a dropped message is gone');
    assert.equal(store.last()?.data, '{"id":129999,"status":"odd"}');
    // A new filter runs over everything kept (the data joined into chunks), oldest to newest.
    assert.deepEqual(store.setFilter({ channel: '', event: '', regex: '"id":(3000[0-2]|12999[89])\\b' }), { ok: true });
    assert.deepEqual(
      store.rows(0, 10).map((r) => JSON.parse(r.preview) as unknown),
      [30000, 30001, 30002, 129998, 129999].map((id) => ({ id, status: id % 2 ? 'odd' : 'even' })),
    );
  });

  it('filters by channel and event (substring, any case) and a regular expression over the data; counts add up', () => {
    const store = new InspectorStore(1_000);
    for (let i = 0; i < 300; i++) store.add(msg(i, i % 3 === 0 ? 'private-chat' : 'orders', i % 2 ? 'Order.Shipped' : 'order.placed'));
    assert.deepEqual(store.setFilter({ channel: 'CHAT', event: '', regex: '' }), { ok: true });
    assert.equal(store.counts().shown, 100);
    store.setFilter({ channel: 'chat', event: 'shipped', regex: '' });
    assert.equal(store.counts().shown, 50);
    store.setFilter({ channel: '', event: '', regex: '"id":1\\d\\b' });
    assert.deepEqual(
      store.rows(0, 20).map((r) => r.preview.slice(0, 9)),
      Array.from({ length: 10 }, (_, i) => `{"id":${10 + i},`),
    );
    addsUp(store.counts());
    // New messages are matched as they arrive.
    store.add(msg(15));
    store.add(msg(99));
    assert.equal(store.counts().shown, 11);
    assert.equal(store.counts().filteredOut, 291);
    addsUp(store.counts());
  });

  it('an invalid regular expression is refused with the reason and the last filter stays', () => {
    const store = new InspectorStore(100);
    for (let i = 0; i < 10; i++) store.add(msg(i));
    store.setFilter({ channel: '', event: '', regex: 'odd' });
    const r = store.setFilter({ channel: '', event: '', regex: '(unclosed' });
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.problem, /\/\(unclosed\/ cannot be used: missing closing \)/);
    assert.equal(store.filter.regex, 'odd');
    assert.equal(store.counts().shown, 5);
  });

  it('pause: messages keep arriving and are counted as held; resume shows every one of them, in order', () => {
    const store = new InspectorStore(1_000);
    store.setFilter({ channel: '', event: '', regex: 'even' });
    for (let i = 0; i < 10; i++) store.add(msg(i));
    store.pause();
    for (let i = 10; i < 60; i++) store.add(msg(i));
    let c = store.counts();
    assert.deepEqual({ received: c.received, shown: c.shown, held: c.held, paused: c.paused }, { received: 60, shown: 5, held: 50, paused: true });
    addsUp(c);
    assert.equal(store.rows(0, 100).length, 5, 'nothing new shows while paused');
    store.resume();
    c = store.counts();
    assert.deepEqual({ shown: c.shown, held: c.held, filteredOut: c.filteredOut }, { shown: 30, held: 0, filteredOut: 30 });
    assert.deepEqual(
      store.rows(0, 100).map((r) => r.seq),
      Array.from({ length: 30 }, (_, i) => i * 2),
    );
    addsUp(c);
  });

  it('pause longer than the ring holds: the oldest held are counted as dropped, never silently lost', () => {
    const store = new InspectorStore(100);
    store.pause();
    for (let i = 0; i < 250; i++) store.add(msg(i));
    const c = store.counts();
    assert.deepEqual({ held: c.held, dropped: c.dropped, shown: c.shown }, { held: 100, dropped: 150, shown: 0 });
    addsUp(c);
    store.resume();
    assert.deepEqual({ ...store.counts(), capacity: 0 }, { received: 250, shown: 100, filteredOut: 0, held: 0, dropped: 150, capacity: 0, paused: false });
  });

  it('clear forgets the messages and restarts the counts; the filter stays', () => {
    const store = new InspectorStore(100);
    store.setFilter({ channel: 'orders', event: '', regex: '' });
    for (let i = 0; i < 10; i++) store.add(msg(i));
    store.clear();
    assert.equal(store.counts().received, 0);
    assert.deepEqual(store.rows(0, 10), []);
    store.add(msg(1, 'other'));
    store.add(msg(2));
    assert.deepEqual({ ...store.counts(), capacity: 0 }, { received: 2, shown: 1, filteredOut: 1, held: 0, dropped: 0, capacity: 0, paused: false });
  });

  it('rows carry a preview of long data; the entry keeps all of it; decrypted and user ids are kept', () => {
    const store = new InspectorStore(10);
    const long = JSON.stringify({ text: 'x'.repeat(5_000) });
    const seq = store.add({ connection: 'c', channel: 'private-encrypted-x', event: 'e', data: long, decrypted: true, userId: 'u1' });
    const [row] = store.rows(0, 1);
    assert.equal(row.preview.length, PREVIEW_CHARS + 1);
    assert.equal(row.decrypted, true);
    assert.equal(row.userId, 'u1');
    assert.equal(store.entry(seq)?.data, long);
    assert.equal(store.entry(seq)?.channel, 'private-encrypted-x');
    assert.equal(row.size, long.length);
  });
});

describe('realtime inspector feed (batched updates to the page)', () => {
  function rig() {
    const clock = new ManualClock(1_000_000);
    const store = new InspectorStore(100_000, () => clock.now());
    const posts: HostMessage[] = [];
    const feed = new InspectorFeed(store, (m) => posts.push(m), { clock });
    return { clock, store, posts, feed, updates: () => posts.filter((p) => p.type === 'update') };
  }

  it('10,000 messages in one second become at most 10 updates, each with only the visible rows and the exact counts', () => {
    const { clock, store, feed, updates } = rig();
    feed.handle({ type: 'viewport', start: 0, count: 40, follow: true });
    for (let ms = 0; ms < 1_000; ms++) {
      for (let i = 0; i < 10; i++) {
        store.add(msg(ms * 10 + i));
        feed.changed();
      }
      clock.advance(1);
    }
    clock.advance(100);
    const u = updates();
    assert.ok(u.length <= 11 && u.length >= 9, `${u.length} updates`);
    const last = u[u.length - 1];
    assert.ok(last.type === 'update');
    assert.equal(last.counts.received, 10_000);
    assert.equal(last.rows.length, 40);
    assert.equal(last.start, 10_000 - 40, 'following the tail');
    assert.equal(last.rows[39].seq, 9_999);
  });

  it('the page filters, pauses, resumes, clears and opens a message through messages it sends', () => {
    const { store, posts, feed } = rig();
    for (let i = 0; i < 20; i++) store.add(msg(i));
    feed.handle({ type: 'filter', channel: '', event: '', regex: '[' });
    const refused = posts.at(-1);
    assert.ok(refused?.type === 'filterResult');
    assert.equal(refused.filter.regex, '', 'the last valid filter stays');
    assert.match(refused.problem ?? '', /./, 'says why');
    feed.handle({ type: 'filter', channel: '', event: '', regex: 'odd' });
    const u = posts.at(-1);
    assert.ok(u?.type === 'update' && u.counts.shown === 10);
    feed.handle({ type: 'select', seq: 3 });
    const d = posts.at(-1);
    assert.ok(d?.type === 'detail' && d.detail?.json === true);
    assert.equal(d.detail.pretty, '{\n  "id": 3,\n  "status": "odd"\n}');
    feed.handle({ type: 'pause' });
    store.add(msg(21));
    feed.handle({ type: 'resume' });
    const r = posts.at(-1);
    assert.ok(r?.type === 'update' && r.counts.shown === 11);
    feed.handle({ type: 'clear' });
    const cl = posts.at(-1);
    assert.ok(cl?.type === 'update' && cl.counts.received === 0);
    assert.equal(feed.handle({ type: 'copy', seq: 1 }), false, 'copy is the editor’s to handle');
  });

  it('refuses malformed page messages at the boundary', () => {
    assert.equal(validate(pageMessageSchema, { type: 'select', seq: '1' }).ok, false);
    assert.equal(validate(pageMessageSchema, { type: 'drop-tables' }).ok, false);
    assert.equal(validate(pageMessageSchema, { type: 'republish', seq: 1, channel: 'a', event: 'b', data: '{}' }).ok, true);
  });
});
