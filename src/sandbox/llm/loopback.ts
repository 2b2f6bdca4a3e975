// A batch's lines run through the sandbox's real endpoints: each is sent to this very server over
// loopback, with its key, so a batch answers exactly what the same request sent alone would.
import { request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Dispatch } from './batches';

export function loopbackDispatch(server: () => Server | undefined, tls: boolean, apiKey: string): Dispatch {
  return (path, body) =>
    new Promise((resolve, reject) => {
      const address = server()?.address() as AddressInfo | null | undefined;
      if (!address) return reject(new Error('the sandbox is not listening'));
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const host = wildcard ? (address.family === 'IPv6' ? '::1' : '127.0.0.1') : address.address;
      const text = JSON.stringify(body);
      const send = tls ? httpsRequest : httpRequest;
      const req = send(
        {
          host,
          port: address.port,
          method: 'POST',
          path: `/v1${path}`,
          // The sandbox's own certificate: a loopback call to itself, nothing else is trusted this way.
          ...(tls ? { rejectUnauthorized: false } : {}),
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = raw;
            try {
              parsed = JSON.parse(raw);
            } catch {
              // Non-JSON answers (none expected from the batch endpoints) are kept as text.
            }
            const id = res.headers['x-request-id'];
            resolve({ status: res.statusCode ?? 500, requestId: typeof id === 'string' ? id : '', body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(text);
    });
}
