// Small helpers shared by the sandbox services: they speak plain node:http so the sandbox has no
// framework between the wire and the behaviour under test.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';

export { MAX_BODY_BYTES, readBody, safeEqual } from '../core/nodeHttp';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string | number> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function newId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '');
  return m?.[1]?.trim();
}

/** One entry of the uniform `GET /v1/resources` listing every sandbox service answers. */
export interface SandboxResource {
  id: string;
  kind: string;
  name: string;
  detail?: string;
}
