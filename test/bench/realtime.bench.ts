// Realtime benchmark, one run:
//  1. what receiving and logging a message costs the consuming process: our client
//     (RealtimeClient + RealtimeLogBatcher), the official pusher-js client (logging through the same
//     batcher), and a raw `ws` + JSON.parse consumer logging the same way, each fed the same pre-encoded burst by a
//     bench-local feed (fastFeed.ts, own process) that sends as fast as the socket takes it;
//     rounds interleaved, medians. CPU per message is the goal figure (see throughput()).
//  2. sandbox fan-out: one REST publisher → 500 subscribers, in deliveries/s.
//  3. memory while our client and log take a 100k-message burst from the sandbox.
// The sandbox and the feed run in their own processes (the sandbox as the shipped dist/sandbox.js),
// so their work does not share the consumers' thread, and the consumers' CPU time can be read
// from this process alone. Every loop is bounded by count and by time.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Pusher from 'pusher-js';
import WebSocket from 'ws';
import { HttpClient } from '../../src/core/http';
import type { SandboxInfo } from '../../src/sandbox/types';
import { RealtimeClient } from '../../src/services/realtime/client';
import { restBaseUrl } from '../../src/services/realtime/endpoints';
import { RealtimeLogBatcher } from '../../src/services/realtime/logBatcher';
import { RealtimeRest } from '../../src/services/realtime/rest';
import { signRestRequest } from '../../src/services/realtime/signing';
import { validate } from '../../src/core/validate';
import { feedAnswerSchema, type FeedAnswer, type FeedCommand } from './fastFeed';
import { formatNumber, median, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const APP = { appId: '777', key: 'bench-key-000001', secret: 'bench-secret-000001' };
const BURST = 50_000;
const ROUNDS = 5;
const FANOUT_SUBSCRIBERS = 500;
const FANOUT_EVENTS = 200;
const MEMORY_BURST = 100_000;
const WAIT_LIMIT_MS = 60_000;
/** Roughly the size of a typical app event (an order update, a chat line). */
const PAYLOAD = { type: 'order.updated', id: 'ord_0000', status: 'shipped', total: 42.5, items: [{ sku: 'tea', qty: 2 }] };

type Info = SandboxInfo['realtime'];
/** Where a consumer connects: the sandbox, or the fast feed. */
type Endpoint = Pick<Info, 'host' | 'port'>;

function bounded<T>(p: Promise<T>, what: string, ms = WAIT_LIMIT_MS): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`${what} took over ${ms / 1000} s`)), ms)))]).finally(() =>
    clearTimeout(t),
  );
}

/** Asks the sandbox to publish `count` events on `channel` at full speed (sandbox-only endpoint). */
async function burst(info: Info, channel: string, count: number): Promise<void> {
  const body = JSON.stringify({ channel, name: 'update', count, data: PAYLOAD });
  const p = `/apps/${APP.appId}/sandbox/burst`;
  const q = signRestRequest(APP, { method: 'POST', path: p, body, timestamp: Math.floor(Date.now() / 1000) });
  const res = await fetch(`http://${info.host}:${info.port}${p}?${new URLSearchParams(q)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  if (res.status !== 200) throw new Error(`burst failed: ${res.status} ${await res.text()}`);
}

/** A log whose sink stands in for an output channel: it only counts what it is given. */
function countingLog(): { log: RealtimeLogBatcher; bytes: () => number } {
  let bytes = 0;
  const log = new RealtimeLogBatcher({ sink: (t) => (bytes += t.length), historyLines: 0 });
  return { log, bytes: () => bytes };
}

interface Consumer {
  /** Connects and subscribes; resolves when ready to receive. */
  ready: Promise<void>;
  /** Resolves when `n` messages have been received (and logged, for the logging consumers). */
  received(n: number): Promise<void>;
  close(): void;
}

/**
 * Counts arrivals for a consumer: `arrived()` on each app event (cheap: the hot path), and
 * `received(n)` resolves once n have arrived, after `before` (e.g. flushing the log).
 */
function arrivalCounter(before?: () => void): { arrived: () => void; received: (n: number) => Promise<void> } {
  let count = 0;
  let target = Infinity;
  let done: (() => void) | undefined;
  return {
    arrived: () => {
      if (++count === target) done?.();
    },
    received: (n) =>
      new Promise<void>((resolve) => {
        target = n;
        done = () => {
          before?.();
          resolve();
        };
        if (count >= n) done();
      }),
  };
}

function ours(info: Endpoint, channel: string): Consumer {
  const { log } = countingLog();
  const client = new RealtimeClient({ key: APP.key, host: info.host, port: info.port, useTLS: false });
  const counter = arrivalCounter(() => log.flush());
  client.on('message', (m) => {
    log.message(m.channel, m.event, m.data, m.user_id);
    counter.arrived();
  });
  client.connect();
  return {
    ready: client.subscribe(channel).then(() => undefined),
    received: counter.received,
    close: () => {
      log.dispose();
      client.dispose();
    },
  };
}

function pusherJs(info: Endpoint, channel: string): Consumer {
  const { log } = countingLog();
  const p = new Pusher(APP.key, { cluster: 'sandbox', wsHost: info.host, wsPort: info.port, forceTLS: false, enabledTransports: ['ws'], disableStats: true });
  const ch = p.subscribe(channel);
  const counter = arrivalCounter(() => log.flush());
  ch.bind_global((event: string, data: unknown) => {
    if (event.startsWith('pusher')) return;
    log.message(channel, event, data);
    counter.arrived();
  });
  return {
    ready: new Promise<void>((resolve) => ch.bind('pusher:subscription_succeeded', () => resolve())),
    received: counter.received,
    close: () => {
      log.dispose();
      p.disconnect();
    },
  };
}

/**
 * The floor: a bare socket that parses each frame and writes its data to the same log as the
 * clients (no protocol state, no dispatch), so "ours vs raw" is what our client's own machinery
 * costs on top of work every consumer must do.
 */
function raw(info: Endpoint, channel: string): Consumer {
  const { log } = countingLog();
  const ws = new WebSocket(`ws://${info.host}:${info.port}/app/${APP.key}?protocol=7&client=raw&version=1`, { perMessageDeflate: false });
  const counter = arrivalCounter(() => log.flush());
  let onReady: (() => void) | undefined;
  ws.on('message', (d) => {
    const f = JSON.parse((d as Buffer).toString()) as { event: string; channel?: string; data?: unknown };
    if (f.event === 'pusher:connection_established') ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
    else if (f.event === 'pusher_internal:subscription_succeeded') onReady?.();
    else if (f.channel === channel && !f.event.startsWith('pusher')) {
      log.message(f.channel, f.event, f.data);
      counter.arrived();
    }
  });
  return {
    ready: new Promise<void>((resolve) => (onReady = resolve)),
    received: counter.received,
    close: () => {
      log.dispose();
      ws.terminate();
    },
  };
}

interface Sample {
  wallRate: number;
  cpuRate: number;
}

/** The fast feed (fastFeed.ts) in its own process. */
interface Feed {
  endpoint: Endpoint;
  burst(channel: string, count: number): Promise<void>;
  stop(): void;
}

async function startFeed(): Promise<Feed> {
  const child: ChildProcess = fork(path.join(__dirname, 'fastFeed.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting: ((a: FeedAnswer) => void) | undefined;
  child.on('message', (m) => {
    const a = validate(feedAnswerSchema, m);
    if (!a.ok) throw new Error(`the feed answered ${JSON.stringify(m)}`);
    waiting?.(a.value);
  });
  const next = () => new Promise<FeedAnswer>((resolve) => (waiting = resolve));
  const ready = await bounded(next(), 'feed start', 10_000);
  if (ready.kind !== 'ready') throw new Error('the feed did not start');
  return {
    endpoint: { host: '127.0.0.1', port: ready.port },
    burst: async (channel, count) => {
      const answer = next();
      child.send({ kind: 'burst', channel, event: 'update', data: PAYLOAD, count } satisfies FeedCommand);
      await answer;
    },
    stop: () => child.kill('SIGTERM'),
  };
}

async function measure(feed: Feed, make: (at: Endpoint, channel: string) => Consumer, channel: string): Promise<Sample> {
  const c = make(feed.endpoint, channel);
  try {
    await bounded(c.ready, `${channel} ready`);
    // Each consumer pays for its own garbage, not for the previous one's: collect before the
    // burst (outside the measure), and again at its end (inside the CPU figure). The bench runs
    // with --expose-gc (index.ts). Without it, the rounds swung by ±25% with whoever ran before.
    global.gc?.();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const all = c.received(BURST);
    await bounded(Promise.all([feed.burst(channel, BURST), all]), `${channel} burst`);
    const wallMs = performance.now() - t0;
    global.gc?.();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return { wallRate: BURST / (wallMs / 1000), cpuRate: BURST / (cpuMs / 1000) };
  } finally {
    c.close();
  }
}

async function throughput(r: BenchReporter): Promise<void> {
  const feed = await startFeed();
  const kinds = { ours, pusherJs, raw } as const;
  const samples: Record<keyof typeof kinds, Sample[]> = { ours: [], pusherJs: [], raw: [] };
  try {
    // One warm-up round each, not recorded (JIT, socket buffers).
    for (const [name, make] of Object.entries(kinds)) await measure(feed, make, `warm-${name}`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, make] of Object.entries(kinds) as [keyof typeof kinds, (at: Endpoint, c: string) => Consumer][]) {
        samples[name].push(await measure(feed, make, `bench-${name}-${round}`));
      }
    }
  } finally {
    feed.stop();
  }
  const wall = (k: keyof typeof kinds) => median(samples[k].map((s) => s.wallRate));
  const cpu = (k: keyof typeof kinds) => median(samples[k].map((s) => s.cpuRate));
  const spread = (k: keyof typeof kinds) => {
    const v = samples[k].map((s) => s.cpuRate);
    return `${formatNumber(Math.min(...v))}–${formatNumber(Math.max(...v))}`;
  };
  r.note(`${BURST.toLocaleString('en-US')}-event bursts of the same pre-encoded protocol-7 frames from a local feed (own`);
  r.note(`process) that writes as fast as each socket takes them; medians of ${ROUNDS} interleaved rounds. ours and`);
  r.note('pusher-js also write every message to a RealtimeLogBatcher (as the editor log does).');
  r.note('Compared: messages per CPU-second of the consuming process, i.e. the inverse of the CPU each');
  r.note("message costs. That is what a user feels: a service's feed arrives at its own rate, and what");
  r.note('it costs the extension host is the share of its one thread each message takes (lag, and what');
  r.note('is left for the editor). It does not depend on the feed rate or on how the shared machine');
  r.note('schedules the processes, which wall-clock throughput does.');
  r.metric('our client, received + logged', cpu('ours'), 'msg/cpu-s');
  r.metric('pusher-js, received + logged', cpu('pusherJs'), 'msg/cpu-s');
  r.metric('raw ws + JSON.parse + the same log (no dispatch)', cpu('raw'), 'msg/cpu-s');
  r.note(`spread of the rounds (msg/cpu-s): ours ${spread('ours')}, pusher-js ${spread('pusherJs')}, raw ${spread('raw')}`);
  r.ratio('our client vs pusher-js (CPU per message)', cpu('ours'), cpu('pusherJs'), 1.5, true);
  r.ratio('our client vs raw ws + JSON.parse + log (CPU per message)', cpu('ours'), cpu('raw'), 0.8, true);
  r.note('Wall-clock throughput of the same runs (the feed is not the limit; the shared machine may be):');
  r.metric('our client, received + logged', wall('ours'), 'msg/s');
  r.metric('pusher-js, received + logged', wall('pusherJs'), 'msg/s');
  r.metric('raw ws + JSON.parse + log', wall('raw'), 'msg/s');
  r.ratio('our client vs pusher-js (wall)', wall('ours'), wall('pusherJs'), 1.5, true);
}

async function fanOut(r: BenchReporter, info: Info): Promise<void> {
  const channel = 'fanout';
  const sockets: WebSocket[] = [];
  let delivered = 0;
  let onDelivery: (() => void) | undefined;
  try {
    // Connect in groups so the handshakes do not all land in one tick.
    for (let i = 0; i < FANOUT_SUBSCRIBERS; i += 50) {
      await bounded(
        Promise.all(
          Array.from({ length: Math.min(50, FANOUT_SUBSCRIBERS - i) }, () => {
            const ws = new WebSocket(`ws://${info.host}:${info.port}/app/${APP.key}?protocol=7&client=fanout&version=1`, { perMessageDeflate: false });
            sockets.push(ws);
            return new Promise<void>((resolve, reject) => {
              ws.on('error', reject);
              ws.on('message', (d) => {
                const text = (d as Buffer).toString();
                if (text.includes('pusher:connection_established')) ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
                else if (text.includes('subscription_succeeded')) resolve();
                else if (text.includes('"event":"update"')) {
                  delivered++;
                  onDelivery?.();
                }
              });
            });
          }),
        ),
        'fan-out subscribers',
      );
    }
    const http = new HttpClient({
      service: 'bench',
      baseUrl: restBaseUrl({ key: APP.key, host: info.host, port: info.port, useTLS: false }),
      auth: { placement: 'none' },
    });
    const rest = new RealtimeRest({ http, appId: APP.appId, key: APP.key, secret: () => Promise.resolve(APP.secret) });
    const expected = FANOUT_EVENTS * FANOUT_SUBSCRIBERS;
    const t0 = performance.now();
    const all = new Promise<void>((resolve) => {
      onDelivery = () => delivered >= expected && resolve();
    });
    // One publisher, one request at a time.
    for (let i = 0; i < FANOUT_EVENTS; i++) await rest.publish({ channels: [channel], name: 'update', data: { ...PAYLOAD, seq: i } });
    await bounded(all, 'fan-out deliveries');
    const s = (performance.now() - t0) / 1000;
    r.note(`Sandbox fan-out: 1 REST publisher (one request at a time), ${FANOUT_EVENTS} events, ${FANOUT_SUBSCRIBERS} subscribers:`);
    r.metric(`fan-out 1 → ${FANOUT_SUBSCRIBERS} subscribers`, expected / s, 'deliveries/s');
  } finally {
    for (const ws of sockets) ws.terminate();
  }
}

async function memory(r: BenchReporter, info: Info): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const { log, bytes } = countingLog();
  const client = new RealtimeClient({ key: APP.key, host: info.host, port: info.port, useTLS: false });
  let count = 0;
  let maxPending = 0;
  let done: (() => void) | undefined;
  client.on('message', (m) => {
    log.message(m.channel, m.event, m.data);
    if (++count === MEMORY_BURST) done?.();
  });
  try {
    client.connect();
    await bounded(client.subscribe('memory'), 'memory subscribe');
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      maxPending = Math.max(maxPending, log.stats.pending);
    }, 5);
    try {
      const all = new Promise<void>((resolve) => (done = resolve));
      await bounded(Promise.all([burst(info, 'memory', MEMORY_BURST), all]), 'memory burst');
      log.flush();
    } finally {
      clearInterval(sampler);
    }
    const mb = (n: number) => n / 1024 / 1024;
    r.note(`Our client + log taking a ${MEMORY_BURST.toLocaleString('en-US')}-message burst (heap sampled every 5 ms):`);
    r.metric('peak heap growth during the burst', mb(peak - base), 'MB', { atMost: 64 });
    r.metric('log text written (for scale)', mb(bytes()), 'MB');
    r.metric('largest log backlog (lines awaiting a write)', maxPending, 'lines');
    r.metric('messages written to the log', log.stats.written, 'msgs', { atLeast: MEMORY_BURST });
  } finally {
    log.dispose();
    client.dispose();
  }
}

export default async function realtimeBench(r: BenchReporter): Promise<void> {
  const sandbox = await startSandboxProcess(['--no-realtime-demo', '--realtime-app-id', APP.appId, '--realtime-key', APP.key, '--realtime-secret', APP.secret]);
  const info = sandbox.info.realtime;
  try {
    r.section('Realtime: Pusher Channels protocol 7');
    await throughput(r);
    await fanOut(r, info);
    await memory(r, info);
  } finally {
    await sandbox.stop();
  }
}
