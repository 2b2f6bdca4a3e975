// A local HTTP endpoint for Channels webhooks: it checks X-Pusher-Key and X-Pusher-Signature
// (HMAC-SHA256 of the raw body with the app secret) before believing a body, answers 200 to
// genuine ones and 401 to forged ones, and reports both so the log can show them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parseJson, validate } from '../../core/validate';
import { readBodyBytes } from '../../core/nodeHttp';
import { STALE_AFTER_MS } from './webhookTools';
import { webhookBodySchema, type WebhookBody } from './protocol';
import { verifyWebhookSignature, type AppCredentials } from './signing';
import { errorText } from '../../core/errors';

export interface ReceivedWebhook {
  body: WebhookBody;
  path: string;
  /** The exact bytes received and the request headers (lower-case names), for inspection and replay. */
  raw: string;
  headers: Record<string, string>;
}

export interface RejectedWebhook {
  reason: string;
  status: number;
  path: string;
  /** The start of the body, for the log (already known to be untrusted). */
  bodySnippet: string;
  /** The whole body (up to the size limit) and the request headers, for inspection. */
  raw: string;
  headers: Record<string, string>;
}

export interface WebhookReceiverOptions {
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** The app whose secret signs genuine webhooks (read per request, so a new secret applies at once). */
  app: () => Promise<AppCredentials | undefined>;
  /** The time a delivery's time_ms is checked against (tests move it). */
  now?: () => number;
  onWebhook(w: ReceivedWebhook): void;
  onRejected(r: RejectedWebhook): void;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_WEBHOOK_BYTES = 256 * 1024;

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function one(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  const now = opts.now ?? Date.now;
  /** Signatures of the deliveries accepted in the last STALE_AFTER_MS: the same signed body again is a replay. */
  const seen = new Map<string, number>();
  const reply = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST') return reply(res, 405, 'Webhooks are POSTed\n');
    let bytes: Buffer;
    try {
      bytes = await readBodyBytes(req, MAX_WEBHOOK_BYTES);
    } catch {
      opts.onRejected({ reason: `body larger than ${MAX_WEBHOOK_BYTES} bytes`, status: 413, path, bodySnippet: '', raw: '', headers: headerRecord(req) });
      return reply(res, 413, 'Too large\n');
    }
    const raw = bytes.toString('utf8');
    const reject = (status: number, reason: string) => {
      opts.onRejected({ reason, status, path, bodySnippet: raw.slice(0, 200), raw, headers: headerRecord(req) });
      reply(res, status, `${reason}\n`);
    };
    const app = await opts.app();
    if (!app) return reject(503, 'no app secret is stored, so no webhook can be verified');
    const key = one(req, 'x-pusher-key');
    const signature = one(req, 'x-pusher-signature');
    if (key === undefined || signature === undefined) return reject(401, 'forged: X-Pusher-Key or X-Pusher-Signature missing');
    // Over the bytes as received: a correctly signed body that is not valid UTF-8 is not forged.
    if (!verifyWebhookSignature(app, key, signature, bytes)) {
      return reject(401, key === app.key ? 'forged: X-Pusher-Signature does not match the body' : `forged: X-Pusher-Key "${key}" is not this app's key`);
    }
    const parsed = parseJson(raw);
    const v = parsed.ok ? validate(webhookBodySchema, parsed.value) : undefined;
    if (!v?.ok) return reject(400, `signed, but not a webhook body${v ? ` (${v.problem})` : ' (not JSON)'}`);
    const at = now();
    const offMs = at - v.value.time_ms;
    if (Math.abs(offMs) > STALE_AFTER_MS) {
      return reject(
        403,
        `replay: signed correctly, but its time_ms is ${Math.round(Math.abs(offMs) / 1000)} s ${offMs > 0 ? 'old' : 'in the future'} (more than ${STALE_AFTER_MS / 60_000} min off)`,
      );
    }
    for (const [sig, when] of seen) if (at - when > STALE_AFTER_MS) seen.delete(sig);
    if (seen.has(signature)) return reject(409, 'replay: this exact signed delivery was already received');
    seen.set(signature, at);
    opts.onWebhook({ body: v.value, path, raw, headers: headerRecord(req) });
    reply(res, 200, 'OK\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) reply(res, 500, `receiver error: ${errorText(e)}\n`);
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/pusher/webhooks`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
