// Small node:http / crypto helpers shared by the servers this project runs: the sandbox services
// and the webhook receiver the editor starts. vscode-free.
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request body as UTF-8; rejects with `status: 413` past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Constant-time string comparison (keys and signatures). */
export function safeEqual(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
