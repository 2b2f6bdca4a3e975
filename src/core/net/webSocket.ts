// The one place that opens WebSockets: direct, or through the proxy NetSettings name for the
// target, in an HTTP CONNECT tunnel (what https-proxy-agent does, in the few lines `ws` needs),
// trusting the same certificate authorities as HTTP requests.
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import { ws } from '../lazy';
import { describeFailure, proxyAnswered, proxyUnreachable } from './failures';
import { networkSettings } from './network';
import { proxyAuthorization, proxyFor, type NetSettings } from './settings';

export function openWebSocket(url: string, options: Ws.ClientOptions): Ws.WebSocket {
  const s = networkSettings();
  const target = new URL(url);
  const proxy = proxyFor(target, s);
  const W = ws().WebSocket;
  return new W(url, {
    ...(s.ca ? { ca: s.ca } : {}),
    ...(proxy ? { agent: tunnelAgent(proxy, target.protocol === 'wss:', s) } : {}),
    ...options,
  });
}

/** A socket error of a WebSocket to `url` in words (proxy refusals, certificate problems), else its message. */
export function webSocketErrorText(e: Error, url: string): string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return e.message;
  }
  return (describeFailure(e, target, proxyFor(target, networkSettings())) ?? e).message;
}

type ConnectCallback = (err: Error | null, socket?: Duplex) => void;

/** An agent whose every connection is a fresh CONNECT tunnel through `proxy` (TLS inside it for wss:). */
export function tunnelAgent(proxy: URL, secure: boolean, s: NetSettings): http.Agent {
  const connect = (options: http.ClientRequestArgs & tls.ConnectionOptions, done: ConnectCallback) => {
    const host = options.hostname ?? options.host ?? 'localhost';
    const port = Number(options.port) || (secure ? 443 : 80);
    openTunnel(proxy, host, port, s).then(
      (socket) => {
        if (!secure) return done(null, socket);
        const servername = options.servername ?? (host.startsWith('[') ? undefined : host);
        done(null, tls.connect({ ...options, socket, servername }));
      },
      (e: Error) => done(e),
    );
  };
  const agent = secure ? new https.Agent() : new http.Agent();
  // Node's Agent takes the socket from the callback when createConnection returns nothing.
  (agent as unknown as { createConnection: typeof connect }).createConnection = connect;
  return agent;
}

/** A raw socket to host:port through the proxy, once the proxy has answered 200 to CONNECT. */
export function openTunnel(proxy: URL, host: string, port: number, s: NetSettings): Promise<Socket> {
  const authority = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  const auth = proxyAuthorization(proxy, s);
  const secureProxy = proxy.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secureProxy ? https : http).request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port) || (secureProxy ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(auth ? { 'proxy-authorization': auth } : {}) },
      agent: false,
      ...(secureProxy ? { ca: s.ca, rejectUnauthorized: s.proxyStrictSSL } : {}),
    });
    request.once('connect', (res, socket, head) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(proxyAnswered(proxy, res.statusCode ?? 0, res.statusMessage));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.once('response', (res) => {
      // A proxy that answers CONNECT without upgrading (some send the refusal this way).
      res.resume();
      reject(proxyAnswered(proxy, res.statusCode ?? 0, res.statusMessage));
    });
    request.once('error', (e) => reject(proxyUnreachable(proxy, e)));
    request.end();
  });
}
