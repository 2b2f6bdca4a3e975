// What a realtime flood costs the extension host: event-loop lag while the editor's realtime log
// takes 10,000 messages/s for 20 s, and whether every message reaches the output channel.
//
// The measured process runs the editor's own path, bundled minified like dist/: a RealtimeSessions
// session (src/editor/realtime/sessions.ts) with its RealtimeClient connected to the sandbox, whose
// 'message' events go to the RealtimeLog (src/editor/realtime/log.ts): batcher, redaction, status
// bar counter, 50,000 lines of history, and OutputChannel.append. 'vscode' is a stand-in
// (vscodeStandIn.ts) whose output channel appends to a file, as the desktop extension host's
// file-backed output channels do. The sandbox (dist/sandbox.js) and the publisher that paces it
// each run in a process of their own, so this process only consumes.
import './vscodeStandIn';
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';
import { realtimeConnectionFromSetting } from '../../src/core/connections';
import { HttpClient, type HttpClientOptions } from '../../src/core/http';
import { SlidingWindowLimiter } from '../../src/core/rateLimiter';
import { Redactor } from '../../src/core/redact';
import { validate } from '../../src/core/validate';
import { RealtimeLog } from '../../src/editor/realtime/log';
import { RealtimeSessions } from '../../src/editor/realtime/sessions';
import type { Services } from '../../src/editor/services';
import { publishResultSchema, type PublishPlan, type PublishResult } from './pacedPublisher';
import type { BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';
import { standIn } from './vscodeStandIn';

const APP = { appId: '778', key: 'lag-bench-key-01', secret: 'lag-bench-secret-01' };
const RATE = 10_000;
const SECONDS = 20;
const LAG_GOAL_MS = 50;
/** The histogram's sampling interval: each sample is this interval plus the lag, so it is subtracted. */
const RESOLUTION_MS = 10;
const IDLE_MS = 2_000;
/** After the publisher stops, how long the last messages may take to arrive and be written. */
const DRAIN_LIMIT_MS = 10_000;
const CHANNEL = 'orders';
const EVENT = 'order.updated';
/** Roughly the size of a typical app event (an order update, a chat line). */
const PAYLOAD = { type: 'order.updated', id: 'ord_0000', status: 'shipped', total: 42.5, items: [{ sku: 'tea', qty: 2 }] };

const ms = (ns: number) => ns / 1e6;
const lagP = (h: IntervalHistogram, p: number) => Math.max(0, ms(h.percentile(p)) - RESOLUTION_MS);
const sleep = (t: number) => new Promise<void>((r) => setTimeout(r, t));

/**
 * Only what RealtimeSessions and RealtimeSession touch for a public channel: no keys are stored
 * (the channel needs no signing), no requests are logged, the connection list never changes.
 */
function services(redactor: Redactor): Services {
  const stand = {
    redactor,
    log: { request: () => undefined },
    guard: { assertTrusted: () => undefined, keyFor: () => Promise.resolve(APP.secret) },
    // custom(): the factory's client without a history to record into (the bench publishes nothing through it).
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

/** Waits until `done()` holds, checking every 20 ms, for at most `limitMs`. */
async function until(done: () => boolean, limitMs: number): Promise<boolean> {
  const end = performance.now() + limitMs;
  while (!done() && performance.now() < end) await sleep(20);
  return done();
}

export default async function realtimeLogBench(r: BenchReporter): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'awb-bench-log-'));
  standIn.outputDir = dir;
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--realtime-app-id', APP.appId, '--realtime-key', APP.key, '--realtime-secret', APP.secret]);
  const info = sandbox.info.realtime;
  const redactor = new Redactor();
  // As the extension does: every stored secret is known to the redactor (here, the app secret).
  redactor.addSecret(APP.secret);
  const log = new RealtimeLog(redactor);
  const sessions = new RealtimeSessions(services(redactor), log);
  try {
    const conn = realtimeConnectionFromSetting(
      { name: 'Local Sandbox', appId: info.appId, key: info.key, host: info.host, port: info.port, useTLS: false },
      'sandbox',
    );
    if (typeof conn === 'string') throw new Error(conn);
    const session = sessions.get(conn);
    let received = 0;
    let firstAt = 0;
    let lastAt = 0;
    session.client.on('message', () => {
      if (received++ === 0) firstAt = performance.now();
      lastAt = performance.now();
    });
    session.connect();
    await session.client.subscribe(CHANNEL);
    const channel = standIn.outputChannels.find((c) => c.name === 'API Workbench: Realtime');
    if (!channel) throw new Error('the realtime log did not create its output channel');

    // The same process with the socket open and nothing arriving: what the shared machine alone costs.
    const idle = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    idle.enable();
    await sleep(IDLE_MS);
    idle.disable();

    // Garbage-collection pauses are the usual source of lag spikes: their durations are kept.
    const gcPauses: number[] = [];
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcPauses.push(e.duration);
    });
    gc.observe({ entryTypes: ['gc'] });
    const before = { appends: channel.appends, written: log.stats.written };
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
    h.disable();
    gc.disconnect();
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (result.error) r.note(`the publisher stopped early: ${result.error}`);
    if (!drained) r.note(`not everything arrived within ${DRAIN_LIMIT_MS / 1000} s of the last publish`);

    // Closing the session writes its last lifecycle lines; then the file holds everything.
    sessions.dispose();
    log.dispose();
    await channel.closed();
    const text = channel.file ? readFileSync(channel.file, 'utf8') : '';
    const eventMarker = `  ${CHANNEL}  ${EVENT}  `;
    let inChannel = 0;
    for (let i = text.indexOf(eventMarker); i >= 0; i = text.indexOf(eventMarker, i + eventMarker.length)) inChannel++;

    r.section(`Extension host: realtime log taking ${RATE.toLocaleString('en-US')} messages/s for ${SECONDS} s`);
    r.note('Measured in one node process running the editor code, bundled minified: RealtimeSessions →');
    r.note('RealtimeClient (socket to the sandbox, own process) → RealtimeLog → OutputChannel.append.');
    r.note("'vscode' is a stand-in whose output channel appends to a file (the desktop host's are file-");
    r.note('backed); a paced publisher (own process) has the sandbox send the events in 10 ms bursts.');
    r.note(`Lag = perf_hooks.monitorEventLoopDelay samples minus its ${RESOLUTION_MS} ms sampling interval.`);
    r.metric('messages/s delivered to the client', (received / Math.max(1, lastAt - firstAt)) * 1000, 'msg/s', { atLeast: RATE * 0.95 });
    r.metric('event-loop lag p99 while taking the feed', lagP(h, 99), 'ms', { atMost: LAG_GOAL_MS });
    r.metric('event-loop lag p50', lagP(h, 50), 'ms');
    r.metric('event-loop lag max', Math.max(0, ms(h.max) - RESOLUTION_MS), 'ms');
    r.metric(`event-loop lag p99 idle (same process, ${IDLE_MS / 1000} s before the feed)`, lagP(idle, 99), 'ms');
    r.metric('CPU of the consuming process (one core = 100)', ((cpu.user + cpu.system) / 1000 / wallMs) * 100, '%');
    r.metric(
      'garbage-collection pauses, total',
      gcPauses.reduce((a, b) => a + b, 0),
      'ms',
    );
    r.metric('garbage-collection pause, longest', Math.max(0, ...gcPauses), 'ms');
    r.metric('OutputChannel.append calls per second', ((channel.appends - before.appends) / wallMs) * 1000, '/s');
    r.note(`Published by the sandbox ${result.published.toLocaleString('en-US')} in ${(result.elapsedMs / 1000).toFixed(1)} s (${result.requests} requests);`);
    r.note(
      `received by the client ${received.toLocaleString('en-US')}; the log counted ${log.stats.received.toLocaleString('en-US')} received, ${(log.stats.written - before.written).toLocaleString('en-US')} written;`,
    );
    r.note(`lines for them in the output channel: ${inChannel.toLocaleString('en-US')}.`);
    r.metric('messages published but not in the output channel', result.published - inChannel, 'msgs', { atMost: 0 });
    r.metric('messages received but not written by the log', log.stats.received - log.stats.written, 'msgs', { atMost: 0 });
  } finally {
    sessions.dispose();
    log.dispose();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
