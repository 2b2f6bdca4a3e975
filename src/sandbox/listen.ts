import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { ListenOptions, RunningService } from './types';
import { errorText } from '../core/errors';

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
  const onRequest: RequestListener = (req, res) => {
    Promise.resolve(handler(req, res)).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `sandbox internal error: ${errorText(e)}` } }));
      } else res.destroy();
    });
  };
  // An https.Server is an http.Server in every way the services use it (request, upgrade, close).
  const server = opts.tls ? (createTlsServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest) as unknown as Server) : createServer(onRequest);
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
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
