// Small node:http / crypto helpers shared by the servers this project runs: the sandbox services
// and the webhook receiver the editor starts. vscode-free.
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * How much of an oversize body is read and thrown away after the 413 is sent. A server that stops
 * reading while the client still sends makes the client see a connection reset instead of the
 * answer; past this much the connection is cut anyway, so a client cannot keep one busy forever.
 */
export const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;

/**
 * Reads a request body as UTF-8; rejects with `status: 413` past `limit` bytes. The rest of an
 * oversize body is read and discarded (up to MAX_DISCARDED_BYTES), so the caller's 413 reaches the client.
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8');
}

/**
 * The body's exact bytes (what a signature is over: decoding first would change bytes that are not UTF-8).
 * With `deadlineMs`, a body still arriving after that long rejects with `status: 408` (a client sending
 * a byte every few seconds would otherwise hold whatever the caller holds for it).
 */
export function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES, deadlineMs?: number): Promise<Buffer> {
  const early = readEarly.get(req);
  if (early) return early.length > limit ? Promise.reject(Object.assign(new Error('body too large'), { status: 413 })) : Promise.resolve(early);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let oversize = false;
    const timer =
      deadlineMs === undefined
        ? undefined
        : setTimeout(() => {
            chunks.length = 0;
            req.pause();
            reject(Object.assign(new Error('body too slow'), { status: 408 }));
          }, deadlineMs);
    const settle = () => clearTimeout(timer);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (oversize) {
        if (size > limit + MAX_DISCARDED_BYTES) req.socket.destroy();
        return;
      }
      if (size > limit) {
        oversize = true;
        settle();
        chunks.length = 0;
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      settle();
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      settle();
      reject(e);
    });
  });
}

/** Bodies read before the request's handler ran (the sandbox's replay matches on them): the handler's read gets them. */
const readEarly = new WeakMap<IncomingMessage, Buffer>();

/** Keeps a body already read from `req`, so the next readBody / readBodyBytes of it returns these bytes. */
export function rememberBody(req: IncomingMessage, body: Buffer): void {
  readEarly.set(req, body);
}

/** Constant-time string comparison (keys and signatures). */
export function safeEqual(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
