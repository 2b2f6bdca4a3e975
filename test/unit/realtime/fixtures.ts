// Shared set-up for the realtime tests: a sandbox on a free port, the official peers (pusher-js and
// the pusher server library) pointed at it, our client, raw sockets, and bounded waits.
import PusherServer from 'pusher';
import Pusher from 'pusher-js';
import type { ChannelAuthorizationCallback, ChannelAuthorizationHandler } from 'pusher-js';
import WebSocket from 'ws';
import { HttpClient } from '../../../src/core/http';
import { startRealtimeSandbox, type RealtimeSandbox, type RealtimeSandboxOptions } from '../../../src/sandbox/realtime';
import { localAuthorizer, type PresenceUser } from '../../../src/services/realtime/auth';
import { RealtimeClient, type RealtimeClientOptions } from '../../../src/services/realtime/client';
import { restBaseUrl } from '../../../src/services/realtime/endpoints';
import { RealtimeRest } from '../../../src/services/realtime/rest';

export const APP = { appId: '4242', key: 'sandbox-key-0001', secret: 'sandbox-secret-0001' };
/** The encryption master key (32 bytes, base64) the server library, our client and our REST client share. */
export const MASTER_KEY = Buffer.from('an-encryption-master-key-32bytes').toString('base64');

/** A received frame as text (the ws library delivers a Buffer unless told otherwise). */
export function frameText(d: WebSocket.RawData): string {
  return Buffer.isBuffer(d) ? d.toString() : Array.isArray(d) ? Buffer.concat(d).toString() : Buffer.from(d).toString();
}

/** Rejects with a message naming what was awaited when `ms` pass first (a bound, not an assertion on speed). */
export function within<T>(p: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Resolves with the first value `register` passes to its callback that satisfies `pred`. */
export function waitFor<T>(
  register: (cb: (v: T) => void) => { dispose(): void } | void,
  what: string,
  pred: (v: T) => boolean = () => true,
  ms = 5_000,
): Promise<T> {
  let sub: { dispose(): void } | void;
  const p = new Promise<T>((resolve) => {
    let done = false;
    sub = register((v) => {
      if (!done && pred(v)) {
        done = true;
        resolve(v);
      }
    });
  });
  return within(p, what, ms).finally(() => sub?.dispose());
}

export class Rig {
  private readonly cleanups: (() => unknown)[] = [];

  private constructor(readonly sandbox: RealtimeSandbox) {}

  static async start(opts: Partial<RealtimeSandboxOptions> = {}): Promise<Rig> {
    const sandbox = await startRealtimeSandbox({ host: '127.0.0.1', port: 0, ...APP, subscriptionCountDelayMs: 20, ...opts });
    return new Rig(sandbox);
  }

  get port(): number {
    return this.sandbox.port;
  }

  /** The official server library, pointed at the sandbox. */
  server(secret = APP.secret, encryptionMasterKeyBase64 = MASTER_KEY): PusherServer {
    return new PusherServer({ appId: APP.appId, key: APP.key, secret, host: '127.0.0.1', port: String(this.port), useTLS: false, encryptionMasterKeyBase64 });
  }

  /** The official browser/Node client, pointed at the sandbox; private/presence auth signed by the server library. */
  pusherJs(user?: PresenceUser, authorize?: ChannelAuthorizationHandler): Pusher {
    const lib = this.server();
    const handler: ChannelAuthorizationHandler =
      authorize ??
      ((params, callback: ChannelAuthorizationCallback) => {
        try {
          const data = params.channelName.startsWith('presence-')
            ? { user_id: user?.id ?? 'anon', user_info: user?.info as Record<string, unknown> | undefined }
            : undefined;
          callback(null, lib.authorizeChannel(params.socketId, params.channelName, data));
        } catch (e) {
          callback(e instanceof Error ? e : new Error(String(e)), null);
        }
      });
    const p = new Pusher(APP.key, {
      cluster: 'sandbox',
      wsHost: '127.0.0.1',
      wsPort: this.port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: { customHandler: handler },
    });
    this.cleanups.push(() => p.disconnect());
    return p;
  }

  /** Our client, with local signing (as the extension does by default). */
  client(opts: Partial<RealtimeClientOptions> & { user?: PresenceUser; secret?: string; masterKey?: string | null } = {}): RealtimeClient {
    const { user, secret, masterKey, ...rest } = opts;
    const c = new RealtimeClient({
      key: APP.key,
      host: '127.0.0.1',
      port: this.port,
      useTLS: false,
      service: 'Realtime (test)',
      authorize: localAuthorizer({
        service: 'Realtime (test)',
        key: APP.key,
        secret: () => Promise.resolve(secret ?? APP.secret),
        user: user ?? { id: 'tester', info: { name: 'Tester' } },
        encryptionMasterKey: () => Promise.resolve(masterKey === null ? undefined : (masterKey ?? MASTER_KEY)),
      }),
      ...rest,
    });
    this.cleanups.push(() => c.dispose());
    return c;
  }

  /** Our REST client; `secret: null` = none stored. */
  rest(secret: string | null = APP.secret, masterKey: string = MASTER_KEY): RealtimeRest {
    const http = new HttpClient({
      service: 'Realtime REST (test)',
      baseUrl: restBaseUrl({ key: APP.key, host: '127.0.0.1', port: this.port, useTLS: false }),
      auth: { placement: 'none' },
    });
    return new RealtimeRest({
      http,
      appId: APP.appId,
      key: APP.key,
      secret: () => Promise.resolve(secret ?? undefined),
      encryptionMasterKey: () => Promise.resolve(masterKey),
    });
  }

  /** A bare socket speaking the protocol by hand (for close codes and malformed input). */
  async raw(path = `/app/${APP.key}?protocol=7&client=test&version=1`): Promise<RawSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}${path}`);
    const raw = new RawSocket(ws);
    this.cleanups.push(() => ws.terminate());
    await within(
      new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      }),
      'raw socket open',
    );
    return raw;
  }

  onCleanup(fn: () => unknown): void {
    this.cleanups.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // best effort teardown
      }
    }
    await this.sandbox.close();
  }
}

export interface RawFrame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

/** A ws client that records every frame and the close code. */
export class RawSocket {
  readonly frames: RawFrame[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly waiters: { pred: (f: RawFrame) => boolean; resolve: (f: RawFrame) => void }[] = [];
  private readonly closeWaiters: ((c: { code: number; reason: string }) => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const f = JSON.parse(frameText(d)) as RawFrame;
      this.frames.push(f);
      for (const w of [...this.waiters])
        if (w.pred(f)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(f);
        }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.closeWaiters.splice(0)) w(this.closed);
    });
    ws.on('error', () => undefined);
  }

  send(frame: RawFrame): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The first frame (already received or future) matching `pred`. */
  next(pred: (f: RawFrame) => boolean, what: string): Promise<RawFrame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return within(new Promise<RawFrame>((resolve) => this.waiters.push({ pred, resolve })), what);
  }

  event(name: string, channel?: string): Promise<RawFrame> {
    return this.next((f) => f.event === name && (channel === undefined || f.channel === channel), `${name}${channel ? ` on ${channel}` : ''}`);
  }

  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return within(new Promise((resolve) => this.closeWaiters.push(resolve)), 'socket close');
  }

  async socketId(): Promise<string> {
    const f = await this.event('pusher:connection_established');
    return (JSON.parse(f.data as string) as { socket_id: string }).socket_id;
  }
}
