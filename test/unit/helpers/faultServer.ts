// A scriptable local HTTP server for tests: it records every request it receives and answers each
// with the next scripted reply (status, headers, body, delay, or a fault such as a hang or a reset).
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Received {
  method: string;
  /** Path and query as sent, e.g. "/v1/models?key=k". */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; body?: string | object; delayMs?: number }
  /** Reads the request and never answers. */
  | { hang: true }
  /** Sends a TCP reset instead of an answer. */
  | { reset: true }
  /** Full control, e.g. for a stream that breaks half-way. */
  | ((req: IncomingMessage, res: ServerResponse, received: Received) => void);

export class FaultServer {
  readonly requests: Received[] = [];
  private replies: Reply[] = [{ status: 200, body: {} }];
  /** Requests received before the current script began. */
  private scriptStart = 0;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly arrivals: { n: number; resolve: (r: Received) => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<FaultServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('fault server has no port');
    const fs = new FaultServer(server, address.port);
    server.on('connection', (s) => {
      fs.sockets.add(s);
      s.on('close', () => fs.sockets.delete(s));
    });
    server.on('request', (req, res) => fs.handle(req, res));
    return fs;
  }

  /** http://127.0.0.1:<port> followed by `path`. */
  url(path = ''): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  get count(): number {
    return this.requests.length;
  }

  /** Answers the following requests with these replies in order; the last one repeats. */
  script(...replies: Reply[]): this {
    if (replies.length === 0) throw new Error('script needs at least one reply');
    this.replies = replies;
    this.scriptStart = this.requests.length;
    return this;
  }

  /** Resolves with the n-th request (1-based) once it has fully arrived. */
  arrived(n = 1): Promise<Received> {
    const got = this.requests[n - 1];
    if (got) return Promise.resolve(got);
    return new Promise((resolve) => this.arrivals.push({ n, resolve }));
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    const done = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await done;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = this.requests.push(received) - 1;
      const reply = this.replies[Math.min(index - this.scriptStart, this.replies.length - 1)];
      for (const a of this.arrivals.filter((w) => w.n === index + 1)) a.resolve(received);
      this.answer(reply, req, res, received);
    });
  }

  private answer(reply: Reply, req: IncomingMessage, res: ServerResponse, received: Received): void {
    if (typeof reply === 'function') return reply(req, res, received);
    if ('hang' in reply) return;
    if ('reset' in reply) {
      req.socket.resetAndDestroy();
      return;
    }
    const send = () => {
      const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      const type = typeof reply.body === 'object' ? 'application/json' : 'text/plain; charset=utf-8';
      res.writeHead(reply.status ?? 200, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...reply.headers });
      res.end(body);
    };
    if (!reply.delayMs) return send();
    const t = setTimeout(() => {
      this.timers.delete(t);
      send();
    }, reply.delayMs);
    this.timers.add(t);
  }
}
