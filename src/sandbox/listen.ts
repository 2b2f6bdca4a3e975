import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { ListenOptions, RunningService, ServerTimeouts } from './types';
import { errorText } from '../core/errors';

/**
 * Node's own defaults close nothing that is silent: a connection that never sends a byte stays open
 * for ever (Node's header deadline starts with the first byte, and a socket timeout does not fire on
 * a connection its native parser reads), so a few hundred idle connections hold the sandbox's file
 * descriptors. These are long enough for any client the sandbox serves (an upload of 25 MB on a
 * local link) and short enough that a forgotten socket goes. WebSockets leave these behind at the
 * upgrade: the realtime broker pings them per the protocol's activity timeout instead.
 */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 30_000, requestMs: 120_000, keepAliveMs: 5_000 };

/**
 * Starts a node:http server (node:https with `opts.tls`) and returns it with a close() that also ends keep-alive and upgraded
 * sockets, so SIGINT/SIGTERM and test teardown finish promptly.
 */
export async function listen(
  opts: ListenOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  onClose?: () => Promise<void> | void,
): Promise<RunningService & { server: Server }> {
  const sockets = new Set<Socket>();
  const replay = opts.replay;
  const serve = replay ? async (req: IncomingMessage, res: ServerResponse) => (await replay.serve(req, res)) || handler(req, res) : handler;
  const onRequest: RequestListener = (req, res) => {
    Promise.resolve(serve(req, res)).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `sandbox internal error: ${errorText(e)}` } }));
      } else res.destroy();
    });
  };
  const timeouts = { ...DEFAULT_SERVER_TIMEOUTS, ...opts.timeouts };
  // Node checks the header and request deadlines this often (30 s by default, longer than a test's).
  const http = { connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4))) };
  // An https.Server is an http.Server in every way the services use it (request, upgrade, close).
  const server = opts.tls
    ? (createTlsServer({ cert: opts.tls.cert, key: opts.tls.key, ...http }, onRequest) as unknown as Server)
    : createServer(http, onRequest);
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    // Closed when it has sent nothing by the header deadline; one that sent part of a request is Node's (408).
    const silent = setTimeout(() => s.bytesRead === 0 && s.destroy(), timeouts.headersMs).unref();
    s.on('close', () => {
      clearTimeout(silent);
      sockets.delete(s);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    close: () =>
      (closing ??= (async () => {
        await onClose?.();
        const done = new Promise<void>((r) => server.close(() => r()));
        for (const s of sockets) s.destroy();
        await done;
      })()),
  };
}
