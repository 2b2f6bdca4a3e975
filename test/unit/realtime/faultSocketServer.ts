// A WebSocket server whose behaviour per connection is scripted by the test: greet (or not), then
// close with a chosen code, stay silent, or send arbitrary frames. Used for close-code handling and
// the frame fuzz, where the real sandbox would never misbehave on purpose.
import { WebSocketServer, type WebSocket } from 'ws';
import { frameText, within } from './fixtures';

export type Behaviour = (ws: WebSocket, n: number) => void;

export function greet(ws: WebSocket, socketId = `${1000 + Math.floor(Math.random() * 1000)}.1`, activityTimeout = 120): void {
  ws.send(JSON.stringify({ event: 'pusher:connection_established', data: JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeout }) }));
}

/** Greets, then answers subscriptions and pings like a well-behaved server. */
export const polite: Behaviour = (ws) => {
  greet(ws);
  ws.on('message', (d) => {
    const f = JSON.parse(frameText(d)) as { event: string; data?: { channel?: string } };
    if (f.event === 'pusher:ping') ws.send(JSON.stringify({ event: 'pusher:pong', data: '{}' }));
    if (f.event === 'pusher:subscribe' && f.data?.channel) {
      const channel = f.data.channel;
      const data = channel.startsWith('presence-') ? JSON.stringify({ presence: { ids: ['x'], hash: { x: null }, count: 1 } }) : '{}';
      ws.send(JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data }));
    }
  });
};

export class FaultSocketServer {
  readonly received: string[][] = [];
  private readonly script: Behaviour[] = [];
  private fallback: Behaviour = polite;
  private count = 0;
  private readonly arrivals: ((n: number) => void)[] = [];
  private readonly sockets = new Set<WebSocket>();

  private constructor(
    private readonly wss: WebSocketServer,
    readonly port: number,
  ) {
    wss.on('connection', (ws) => {
      const n = ++this.count;
      const log: string[] = [];
      this.received.push(log);
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.on('message', (d) => log.push(frameText(d)));
      ws.on('error', () => undefined);
      (this.script.shift() ?? this.fallback)(ws, n);
      for (const a of this.arrivals.splice(0)) a(n);
    });
  }

  static async start(): Promise<FaultSocketServer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const addr = wss.address();
    return new FaultSocketServer(wss, typeof addr === 'object' && addr ? addr.port : 0);
  }

  /** Behaviours for the next connections, in order; later ones get `fallback`. (Not named `then`: that would make the server a thenable.) */
  next(...behaviours: Behaviour[]): this {
    this.script.push(...behaviours);
    return this;
  }

  otherwise(b: Behaviour): this {
    this.fallback = b;
    return this;
  }

  get connections(): number {
    return this.count;
  }

  /** Resolves once connection number `n` has arrived. */
  connection(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return within(
      new Promise<void>((resolve) => {
        const check = (c: number) => (c >= n ? resolve() : this.arrivals.push(check));
        this.arrivals.push(check);
      }),
      `connection ${n}`,
    );
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.terminate();
    await new Promise<void>((r) => this.wss.close(() => r()));
  }
}

/** Greets, then closes with `code` (a connected session ending). */
export const greetThenClose =
  (code: number, reason = ''): Behaviour =>
  (ws) => {
    greet(ws);
    setImmediate(() => ws.close(code, reason));
  };

/** Closes with `code` before greeting (a refused handshake). */
export const refuse =
  (code: number, reason = ''): Behaviour =>
  (ws) =>
    ws.close(code, reason);

/**
 * Sends pusher:error with `errorCode` (after greeting when `greetFirst`), then closes with
 * `closeCode`, or keeps the socket open when that is undefined.
 */
export const errorThen =
  (errorCode: number | null, closeCode: number | undefined, greetFirst: boolean): Behaviour =>
  (ws) => {
    if (greetFirst) greet(ws);
    ws.send(JSON.stringify({ event: 'pusher:error', data: { code: errorCode, message: `fault server error ${errorCode}` } }));
    if (closeCode === undefined) return;
    setImmediate(() => (closeCode === 1006 ? ws.terminate() : ws.close(closeCode, 'after the error')));
  };

/** Answers the upgrade with a connection_established the client cannot accept. */
export const garbageHandshake: Behaviour = (ws) => ws.send(JSON.stringify({ event: 'pusher:connection_established', data: '{"socket_id":"not an id"}' }));
