// Local Pusher-Channels-protocol-7 service on one port: WebSocket at /app/<key>, the signed REST
// API at /apps/<app_id>/…, and the uniform listing GET /v1/resources (also GET /). The official pusher-js client and pusher server
// library work against it unchanged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { serverToUserId } from '../../services/realtime/protocol';
import { verifyRestRequest } from '../../services/realtime/signing';
import { bearer, readBody, safeEqual, sendJson, sendText } from '../http';
import { listen } from '../listen';
import { pathSegments, requestUrl, Router } from '../router';
import type { ListenOptions, RunningService } from '../types';
import { Broker } from './broker';
import { startDemoPublisher } from './demo';
import { handleRest, resources, type RestContext } from './rest';
import { WebhookSender, type WebhookDelivery, type WebhookOptions } from './webhooks';

export { DEMO_CHANNELS } from './demo';

/** Largest WebSocket frame a client may send; a larger one closes the socket with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Bytes queued for one client that stopped reading before its socket is closed: ~100 full batches of 10 KB events. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Largest REST request body. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The uniform listing, also at the root of the port (a browser or curl pointed at it sees something). */
const LISTING_ROUTES = new Router<true>().add('GET', '/', true).add('GET', '/v1/resources', true);
export type { WebhookDelivery, WebhookOptions } from './webhooks';

export interface RealtimeSandboxOptions extends ListenOptions {
  appId: string;
  key: string;
  secret: string;
  /** Advertised in connection_established; default 120 s like the hosted service. */
  activityTimeoutSeconds?: number;
  /** The broker pings a silent client after this long; default activityTimeoutSeconds. */
  serverPingAfterMs?: number;
  /** …and closes it (4201) if no pong follows within this; default 30 s. */
  pongTimeoutMs?: number;
  /** Over this many sockets a new one is closed with 4004. */
  maxConnections?: number;
  clientEventsPerSecond?: number;
  /** Coalescing window for pusher_internal:subscription_count; 0 disables it. Default 250 ms. */
  subscriptionCountDelayMs?: number;
  /** A socket with more bytes than this waiting for its client is closed (4100). Default MAX_BUFFERED_BYTES. */
  maxBufferedBytes?: number;
  /** Where the service's log lines go (the sandbox process: stderr); default nowhere. */
  log?: (line: string) => void;
  webhooks?: WebhookOptions;
  onWebhookDelivery?: (d: WebhookDelivery) => void;
  /** Publish demo traffic (demo-ticker, presence-demo). */
  demo?: boolean | { intervalMs?: number };
}

export interface RealtimeSandbox extends RunningService {
  /** Where webhooks are POSTed from now on (also settable with PUT /apps/<id>/sandbox/webhooks). */
  setWebhookUrls(urls: string[]): void;
  /** Closes every client socket with `code` (fault injection in tests). */
  closeAllConnections(code: number, reason: string): void;
  connectionCount(): number;
}

export async function startRealtimeSandbox(opts: RealtimeSandboxOptions): Promise<RealtimeSandbox> {
  const app = { key: opts.key, secret: opts.secret };
  const activityTimeoutSeconds = opts.activityTimeoutSeconds ?? 120;
  const webhooks = new WebhookSender(app, opts.webhooks ?? { urls: [] }, opts.onWebhookDelivery);
  const broker = new Broker({
    ...app,
    activityTimeoutSeconds,
    serverPingAfterMs: opts.serverPingAfterMs ?? activityTimeoutSeconds * 1000,
    pongTimeoutMs: opts.pongTimeoutMs ?? 30_000,
    maxConnections: opts.maxConnections ?? 10_000,
    clientEventsPerSecond: opts.clientEventsPerSecond ?? 10,
    subscriptionCountDelayMs: opts.subscriptionCountDelayMs ?? 250,
    maxBufferedBytes: opts.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
    log: opts.log ?? (() => undefined),
    // Users' own #server-to-user- channels are the service's plumbing, not app channels: no webhooks.
    onWebhook: (event, delayed) => (serverToUserId(event.channel) === undefined ? webhooks.enqueue(event, delayed) : undefined),
  });
  const demo = opts.demo ? startDemoPublisher(broker, typeof opts.demo === 'object' ? opts.demo.intervalMs : undefined) : undefined;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, clientTracking: false });
  const restContext: RestContext = { broker, setWebhookUrls: (urls) => webhooks.setUrls(urls), webhookUrls: () => webhooks.targets };

  const running = await listen(
    opts,
    async (req: IncomingMessage, res: ServerResponse) => {
      const method = req.method ?? 'GET';
      let body: string;
      try {
        body = await readBody(req, MAX_BODY_BYTES);
      } catch {
        return sendText(res, 413, `Request body too large: the limit is ${MAX_BODY_BYTES} bytes\n`);
      }
      const url = requestUrl(req.url);
      const segments = url && pathSegments(url.pathname);
      if (!url || !segments) return sendText(res, 400, 'Invalid percent-encoding in the request path\n');
      const listing = LISTING_ROUTES.match(method, url.pathname);
      if (listing.kind === 'found') {
        // The uniform listing of all sandbox services: the app secret as a bearer token, JSON errors.
        if (!safeEqual(bearer(req), opts.secret)) {
          return sendJson(res, 401, { error: { code: 401, message: 'Give the app secret as Authorization: Bearer <secret>.' } });
        }
        return sendJson(res, 200, { resources: resources(broker) });
      }
      if (segments[0] !== 'apps') return sendText(res, 404, 'Not found\n');
      if (segments[1] !== opts.appId) return sendText(res, 404, 'Unknown app id\n');
      const check = verifyRestRequest(app, method, url, body);
      if (!check.ok) return sendText(res, check.status, check.message);
      return handleRest(restContext, { method, url, body, res });
    },
    () => {
      demo?.stop();
      webhooks.close();
      broker.dispose();
      wss.close();
    },
  );

  running.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Before anything else: a socket being refused (wrong key, path or protocol) still reads
      // frames until its close completes, and an oversize one is reported as an 'error' event.
      ws.on('error', () => ws.terminate());
      try {
        broker.accept(ws, req.url);
      } catch {
        ws.terminate();
      }
    });
  });

  return {
    ...running,
    setWebhookUrls: (urls) => webhooks.setUrls(urls),
    closeAllConnections: (code, reason) => broker.closeAll(code, reason),
    connectionCount: () => broker.connectionCount,
  };
}
