// A Pusher protocol-7 feed for benchmarks, run in a process of its own (fork this file with IPC),
// that sends as fast as the consumer's socket takes it. The sandbox publishes each event through
// its broker (~75,000 msg/s here), which is slower than the clients it feeds, so with the sandbox
// every client waits on the producer and a comparison says nothing about the clients.
// Here `ws` does the handshake and reads the client's frames (subscribe, ping); a burst is the
// sandbox's own frames for `count` events (JSON `data` string with a `seq`), WebSocket-framed once
// up front and written to the TCP socket in 64 KiB writes, pausing only for the socket's 'drain'.
// Every consumer of a run gets exactly the same bytes.
// Protocol: the parent sends FeedCommands; the child answers 'ready' (with its port) once, then
// 'sent' after each burst.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import * as z from 'zod/mini';
import { validate } from '../../src/core/validate';

const WRITE_BYTES = 64 * 1024;

const commandSchema = z.object({
  kind: z.literal('burst'),
  channel: z.string(),
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  count: z.number(),
});
export type FeedCommand = z.infer<typeof commandSchema>;

export const feedAnswerSchema = z.union([
  z.object({ kind: z.literal('ready'), port: z.number() }),
  z.object({ kind: z.literal('sent'), count: z.number(), bytes: z.number(), ms: z.number() }),
]);
export type FeedAnswer = z.infer<typeof feedAnswerSchema>;

/** A server-to-client text frame (unmasked) around `payload`. */
function wsFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : n < 65536 ? Buffer.from([0x81, 126, n >> 8, n & 0xff]) : Buffer.alloc(10);
  if (n >= 65536) {
    head[0] = 0x81;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/** The burst as the bytes on the wire, cut into writes (frames may straddle writes, as on any socket). */
function encodeBurst(c: FeedCommand): Buffer[] {
  const frames: Buffer[] = [];
  for (let seq = 0; seq < c.count; seq++) {
    const data = JSON.stringify({ ...c.data, seq });
    frames.push(wsFrame(Buffer.from(JSON.stringify({ event: c.event, channel: c.channel, data }))));
  }
  const all = Buffer.concat(frames);
  const writes: Buffer[] = [];
  for (let at = 0; at < all.length; at += WRITE_BYTES) writes.push(all.subarray(at, at + WRITE_BYTES));
  return writes;
}

interface Subscriber {
  ws: WebSocket;
  socket: Socket;
  channels: Set<string>;
}

const subscribers = new Set<Subscriber>();
let socketIds = 0;

async function writeAll(socket: Socket, writes: readonly Buffer[]): Promise<void> {
  for (const w of writes) {
    if (socket.destroyed) return;
    if (!socket.write(w)) await new Promise<void>((resolve) => socket.once('drain', resolve));
  }
}

async function burst(c: FeedCommand): Promise<FeedAnswer> {
  const writes = encodeBurst(c);
  const t0 = performance.now();
  const to = [...subscribers].filter((s) => s.channels.has(c.channel));
  await Promise.all(to.map((s) => writeAll(s.socket, writes)));
  return { kind: 'sent', count: c.count * to.length, bytes: writes.reduce((n, w) => n + w.length, 0), ms: performance.now() - t0 };
}

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const server = createServer((_req, res) => res.writeHead(404).end());
server.on('upgrade', (req, socket: Socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    const sub: Subscriber = { ws, socket, channels: new Set() };
    subscribers.add(sub);
    ws.on('close', () => subscribers.delete(sub));
    ws.send(JSON.stringify({ event: 'pusher:connection_established', data: JSON.stringify({ socket_id: `${++socketIds}.1`, activity_timeout: 120 }) }));
    ws.on('message', (raw) => {
      const f = JSON.parse((raw as Buffer).toString()) as { event?: string; data?: { channel?: string } };
      if (f.event === 'pusher:ping') ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
      else if (f.event === 'pusher:subscribe' && typeof f.data?.channel === 'string') {
        sub.channels.add(f.data.channel);
        ws.send(JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel: f.data.channel, data: '{}' }));
      } else if (f.event === 'pusher:unsubscribe' && typeof f.data?.channel === 'string') sub.channels.delete(f.data.channel);
    });
  });
});

server.listen(0, '127.0.0.1', () => process.send?.({ kind: 'ready', port: (server.address() as AddressInfo).port } satisfies FeedAnswer));
process.on('message', (m) => {
  const c = validate(commandSchema, m);
  if (!c.ok) throw new Error(`bad feed command: ${c.problem}`);
  void burst(c.value).then((answer) => process.send?.(answer));
});
process.on('disconnect', () => process.exit(0));
