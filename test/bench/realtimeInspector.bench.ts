// What the Realtime Inspector adds to a realtime flood: event-loop lag while 10,000 messages/s for
// 20 s go through the editor's realtime log AND the inspector's store (100,000-message ring, a
// regular-expression filter) and its batched page updates, and whether the counts add up.
//
// As realtimeLog.bench.ts: the editor's RealtimeSessions with a RealtimeClient connected to the
// sandbox (own process), fed by a paced publisher (own process), bundled minified, 'vscode' a
// stand-in. The inspector is wired as src/editor/realtime/index.ts wires it (sessions.messageTap →
// InspectorStore + InspectorFeed); the webview's postMessage is stood in for by JSON.stringify of
// each update, which is what the host pays to send it.
import './vscodeStandIn';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { realtimeConnectionFromSetting } from '../../src/core/connections';
import { HttpClient, type HttpClientOptions } from '../../src/core/http';
import { SlidingWindowLimiter } from '../../src/core/rateLimiter';
import { Redactor } from '../../src/core/redact';
import { validate } from '../../src/core/validate';
import { RealtimeLog } from '../../src/editor/realtime/log';
import { RealtimeSessions } from '../../src/editor/realtime/sessions';
import type { Services } from '../../src/editor/services';
import { InspectorFeed } from '../../src/services/realtime/inspectorFeed';
import { InspectorStore } from '../../src/services/realtime/inspectorStore';
import { publishResultSchema, type PublishPlan, type PublishResult } from './pacedPublisher';
import type { BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';
import { standIn } from './vscodeStandIn';

const APP = { appId: '779', key: 'inspector-bench-key-01', secret: 'inspector-bench-secret-01' };
const RATE = 10_000;
const SECONDS = 20;
const LAG_GOAL_MS = 50;
const RESOLUTION_MS = 10;
const DRAIN_LIMIT_MS = 10_000;
const CHANNEL = 'orders';
const EVENT = 'order.updated';
const PAYLOAD = { type: 'order.updated', id: 'ord_0000', status: 'shipped', total: 42.5, items: [{ sku: 'tea', qty: 2 }] };
/** Rows the page shows (a tall editor): each update carries this many. */
const VIEWPORT_ROWS = 60;

const ms = (ns: number) => ns / 1e6;
const lagP = (h: IntervalHistogram, p: number) => Math.max(0, ms(h.percentile(p)) - RESOLUTION_MS);
const sleep = (t: number) => new Promise<void>((r) => setTimeout(r, t));

function services(redactor: Redactor): Services {
  const stand = {
    redactor,
    log: { request: () => undefined },
    guard: { assertTrusted: () => undefined, keyFor: () => Promise.resolve(APP.secret) },
    http: {
      limiter: new SlidingWindowLimiter(),
      rateLimitKey: () => 'realtime:bench',
      custom: (_conn: unknown, options: HttpClientOptions) => new HttpClient(options),
    },
    connections: { onDidChange: () => ({ dispose: () => undefined }), list: () => [] },
    context: { extension: { packageJSON: { version: '0.0.0-bench' } }, globalState: { get: () => 'vscode-bench', update: () => Promise.resolve() } },
  };
  return stand as unknown as Services;
}

function runPublisher(plan: PublishPlan): Promise<PublishResult> {
  const child = fork(path.join(__dirname, 'pacedPublisher.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => {
      const r = validate(publishResultSchema, m);
      if (r.ok) resolve(r.value);
      else reject(new Error(`publisher answered ${JSON.stringify(m)}`));
    });
    child.once('exit', (code) => reject(new Error(`publisher exited with ${code} before answering`)));
    child.send(plan);
  });
}

async function until(done: () => boolean, limitMs: number): Promise<boolean> {
  const end = performance.now() + limitMs;
  while (!done() && performance.now() < end) await sleep(20);
  return done();
}

export default async function realtimeInspectorBench(r: BenchReporter): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'awb-bench-inspector-'));
  standIn.outputDir = dir;
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--realtime-app-id', APP.appId, '--realtime-key', APP.key, '--realtime-secret', APP.secret]);
  const info = sandbox.info.realtime;
  const redactor = new Redactor();
  redactor.addSecret(APP.secret);
  const log = new RealtimeLog(redactor);
  const sessions = new RealtimeSessions(services(redactor), log);
  const store = new InspectorStore();
  let posted = 0;
  let postedChars = 0;
  let lastUpdateRows = 0;
  const feed = new InspectorFeed(store, (m) => {
    // What webview.postMessage costs the host: serialising the message.
    postedChars += JSON.stringify(m).length;
    posted++;
    if (m.type === 'update') lastUpdateRows = m.rows.length;
  });
  try {
    const conn = realtimeConnectionFromSetting(
      { name: 'Local Sandbox', appId: info.appId, key: info.key, host: info.host, port: info.port, useTLS: false },
      'sandbox',
    );
    if (typeof conn === 'string') throw new Error(conn);
    // As the extension wires it (src/editor/realtime/index.ts), with the panel visible.
    sessions.messageTap = (c, m) => {
      store.add({ connection: c.name, channel: m.channel, event: m.event, data: m.data, userId: m.user_id, decrypted: m.decrypted });
      feed.changed();
    };
    feed.handle({ type: 'viewport', start: 0, count: VIEWPORT_ROWS, follow: true });
    // A filter a user would type: the channel, and a regular expression run over every message's data.
    const filtered = store.setFilter({ channel: 'ord', event: '', regex: '"status":"ship+ed"' });
    if (!filtered.ok) throw new Error(filtered.problem);
    const session = sessions.get(conn);
    let received = 0;
    session.client.on('message', () => received++);
    session.connect();
    await session.client.subscribe(CHANNEL);

    const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    h.enable();
    const result = await runPublisher({
      ...info,
      secret: APP.secret,
      channel: CHANNEL,
      event: EVENT,
      data: PAYLOAD,
      rate: RATE,
      seconds: SECONDS,
      maxSeconds: SECONDS * 1.5,
    });
    const drained = await until(() => received >= result.published && log.stats.pending === 0, DRAIN_LIMIT_MS);
    // One more interval so the last update goes out.
    await sleep(150);
    h.disable();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (result.error) r.note(`the publisher stopped early: ${result.error}`);
    if (!drained) r.note(`not everything arrived within ${DRAIN_LIMIT_MS / 1000} s of the last publish`);
    const c = store.counts();

    r.section(`Extension host: realtime log + Realtime Inspector taking ${RATE.toLocaleString('en-US')} messages/s for ${SECONDS} s`);
    r.note('RealtimeSessions → RealtimeClient (socket to the sandbox) → RealtimeLog and InspectorStore (ring of');
    r.note(`${c.capacity.toLocaleString('en-US')}, filter: channel "ord" + /"status":"ship+ed"/ over the data) → InspectorFeed (updates ≤ every 100 ms,`);
    r.note(`${VIEWPORT_ROWS} rows each, serialised as postMessage would). Lag = monitorEventLoopDelay minus its ${RESOLUTION_MS} ms interval.`);
    r.metric('event-loop lag p99 while taking the feed', lagP(h, 99), 'ms', { atMost: LAG_GOAL_MS });
    r.metric('event-loop lag p50', lagP(h, 50), 'ms');
    r.metric('event-loop lag max', Math.max(0, ms(h.max) - RESOLUTION_MS), 'ms');
    r.metric('CPU of the consuming process (one core = 100)', ((cpu.user + cpu.system) / 1000 / wallMs) * 100, '%');
    r.metric('page updates posted per second', (posted / wallMs) * 1000, '/s', { atMost: 11 });
    r.metric('characters posted to the page per second', (postedChars / wallMs) * 1000, 'chars/s');
    r.note(
      `Published ${result.published.toLocaleString('en-US')}; received by the client ${received.toLocaleString('en-US')}; inspector: ${c.received.toLocaleString('en-US')} received = ${c.shown.toLocaleString('en-US')} shown + ${c.filteredOut.toLocaleString('en-US')} filtered out + ${c.held} held + ${c.dropped.toLocaleString('en-US')} dropped (ring full); last update carried ${lastUpdateRows} rows.`,
    );
    r.metric('messages published but not counted by the inspector', result.published - c.received, 'msgs', { atMost: 0 });
    r.metric('received − (shown + filtered out + held + dropped)', c.received - (c.shown + c.filteredOut + c.held + c.dropped), 'msgs', { atMost: 0 });
    // Every message matches the filter, so the ring's whole content is shown: an independent check of shown.
    r.metric('kept messages not shown though they match the filter', Math.min(c.received, c.capacity) - c.shown, 'msgs', { atMost: 0 });
  } finally {
    feed.dispose();
    sessions.dispose();
    log.dispose();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
