// Local Pusher-Channels-protocol-7 broker: WebSocket at /app/<key>, signed REST at /apps/<id>/…
// on the same port. Endpoints beyond auth and the resource listing are filled in by the realtime issue.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash, createHmac } from 'node:crypto';
import { readBody, safeEqual, sendJson, sendText, type SandboxResource } from '../http';
import { listen } from '../listen';
import type { ListenOptions, RunningService } from '../types';

export interface RealtimeSandboxOptions extends ListenOptions {
  appId: string;
  key: string;
  secret: string;
}

/** Checks a Pusher REST signature (auth_key, auth_timestamp ±600 s, auth_version, body_md5, auth_signature). */
export function verifyRestSignature(
  method: string,
  url: URL,
  body: string,
  app: { key: string; secret: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): { ok: true } | { ok: false; status: number; message: string } {
  const q = url.searchParams;
  if (q.get('auth_key') !== app.key) return { ok: false, status: 401, message: 'Unknown auth_key\n' };
  const ts = Number(q.get('auth_timestamp'));
  if (!Number.isFinite(ts) || Math.abs(nowSeconds - ts) > 600) {
    return { ok: false, status: 401, message: `Timestamp expired: Given timestamp (${q.get('auth_timestamp')}) not within 600s of server time (${nowSeconds})\n` };
  }
  if (body.length > 0 && q.get('body_md5') !== createHash('md5').update(body).digest('hex')) {
    return { ok: false, status: 401, message: 'Invalid body_md5\n' };
  }
  const params = [...q.entries()].filter(([k]) => k !== 'auth_signature').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const toSign = `${method}\n${url.pathname}\n${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
  const expected = createHmac('sha256', app.secret).update(toSign).digest('hex');
  if (!safeEqual(q.get('auth_signature') ?? undefined, expected)) {
    return { ok: false, status: 401, message: `Invalid signature: Expected HMAC SHA256 hex digest of ${toSign.replace(/\n/g, '\\n')}, but got ${q.get('auth_signature')}\n` };
  }
  return { ok: true };
}

export async function startRealtimeSandbox(opts: RealtimeSandboxOptions): Promise<RunningService> {
  const channels = new Map<string, { subscriptionCount: number }>();
  return listen(opts, async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const body = await readBody(req);
    const appPrefix = `/apps/${opts.appId}`;
    if (url.pathname === '/v1/resources' || url.pathname.startsWith(appPrefix)) {
      const check = verifyRestSignature(req.method ?? 'GET', url, body, opts);
      if (!check.ok) return sendText(res, check.status, check.message);
      if (url.pathname === '/v1/resources') {
        const resources: SandboxResource[] = [...channels.entries()].map(([name, c]) => ({ id: name, kind: 'channel', name, detail: `${c.subscriptionCount} subscribers` }));
        return sendJson(res, 200, { resources });
      }
    } else if (url.pathname.startsWith('/apps/')) {
      return sendText(res, 404, 'Unknown app\n');
    }
    return sendText(res, 404, 'Not found\n');
  });
}
