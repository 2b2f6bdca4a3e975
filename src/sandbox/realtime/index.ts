// Local Pusher-Channels-protocol-7 service on one port: WebSocket at /app/<key>, the signed REST
// API at /apps/<app_id>/…, and GET /v1/resources. The official pusher-js client and pusher server
// library work against it unchanged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { verifyRestRequest } from '../../services/realtime/signing';
import { readBody, sendJson, sendText } from '../http';
import { listen } from '../listen';
import type { ListenOptions, RunningService } from '../types';
import { Broker } from './broker';
import { startDemoPublisher } from './demo';
import { handleRest, resources } from './rest';
import { WebhookSender, type WebhookDelivery, type WebhookOptions } from './webhooks';

export { DEMO_CHANNELS } from './demo';
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
    onWebhook: (event, delayed) => webhooks.enqueue(event, delayed),
  });
  const demo = opts.demo ? startDemoPublisher(broker, typeof opts.demo === 'object' ? opts.demo.intervalMs : undefined) : undefined;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024, clientTracking: false });
  const appPrefix = `/apps/${opts.appId}`;

  const running = await listen(
    opts,
    async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const method = req.method ?? 'GET';
      let body: string;
      try {
        body = await readBody(req, 1024 * 1024);
      } catch {
        return sendText(res, 413, 'Request body too large\n');
      }
      const isApp = url.pathname === appPrefix || url.pathname.startsWith(`${appPrefix}/`);
      if (url.pathname === '/v1/resources' || isApp) {
        const check = verifyRestRequest(app, method, url, body);
        if (!check.ok) return sendText(res, check.status, check.message);
        if (url.pathname === '/v1/resources') return sendJson(res, 200, { resources: resources(broker) });
        return handleRest(
          { broker, setWebhookUrls: (urls) => webhooks.setUrls(urls), webhookUrls: () => webhooks.targets },
          method,
          url.pathname.slice(appPrefix.length),
          url,
          body,
          res,
        );
      }
      if (url.pathname.startsWith('/apps/')) return sendText(res, 404, 'Unknown app id\n');
      return sendText(res, 404, 'Not found\n');
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
    wss.handleUpgrade(req, socket, head, (ws) => broker.accept(ws, new URL(req.url ?? '/', 'http://sandbox')));
  });

  return {
    ...running,
    setWebhookUrls: (urls) => webhooks.setUrls(urls),
    closeAllConnections: (code, reason) => broker.closeAll(code, reason),
    connectionCount: () => broker.connectionCount,
  };
}
