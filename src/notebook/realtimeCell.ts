// Runs a realtime cell: PUBLISH through the signed REST API, LISTEN with a RealtimeClient that
// collects what arrives for a while. Private and presence channels are authorised as in the
// rest of the extension (the app secret signs locally, or the app's auth endpoint answers).
import type { RealtimeConnection } from '../core/connections';
import { ApiError } from '../core/errors';
import { HttpClient, type OutgoingRequest } from '../core/http';
import { REPLAYED_HEADER } from '../core/httpExchange';
import type { ChannelAuthorizer } from '../services/realtime/auth';
import { RealtimeClient } from '../services/realtime/client';
import { connectionAuthorizer } from '../services/realtime/connectionAuth';
import { RealtimeRest } from '../services/realtime/rest';
import type { ListenMessage, NotebookHost, RequestRecord, ResponseRecord, SideEffect } from './types';

/** The realtime operations that others see (the rest only read). */
export type RealtimeWrite = Extract<SideEffect, { kind: 'realtime' }>['op'];

export interface RealtimeCellContext {
  conn: RealtimeConnection;
  host: NotebookHost;
  signal: AbortSignal;
  onRequest(request: RequestRecord): void;
}

export interface RealtimeCellOutput {
  request?: RequestRecord;
  response?: ResponseRecord;
  count?: number;
  error?: unknown;
}

/** The client's report of an encrypted event it could not open (src/services/realtime/subscriptions.ts). */
const DECRYPT_FAILED_RE = /^Could not decrypt (.*) on (\S+): /;
/** How long a LISTEN waits for its subscription (connection included) before the cell fails. */
const SUBSCRIBE_DEADLINE_MS = 10_000;
const LISTEN_USER = { id: 'api-workbench-notebook', info: { name: 'API Workbench notebook' } };

function serviceLabel(conn: RealtimeConnection): string {
  return `Realtime (${conn.name})`;
}

function secretReader(ctx: RealtimeCellContext): () => Promise<string | undefined> {
  return async () => {
    const secret = await ctx.host.credentials({ connection: ctx.conn, url: new URL(ctx.conn.restBaseUrl), signal: ctx.signal });
    ctx.host.redactor.addSecret(secret);
    return secret;
  };
}

function masterKeyReader(ctx: RealtimeCellContext): () => Promise<string | undefined> {
  return async () => {
    const key = await ctx.host.encryptionMasterKey?.(ctx.conn);
    ctx.host.redactor.addSecret(key);
    return key;
  };
}

/** The host's refusal of a realtime write as the cell's error, or undefined when it may go ahead. */
export async function writeRefused(ctx: RealtimeCellContext, op: RealtimeWrite, what: string): Promise<unknown> {
  try {
    const refusal = await ctx.host.beforeSideEffect?.({ kind: 'realtime', connection: ctx.conn.name, op, what });
    return refusal === undefined ? undefined : new ApiError({ kind: 'auth', service: serviceLabel(ctx.conn), code: 'not_allowed', message: refusal });
  } catch (e) {
    return e;
  }
}

/** PUBLISH <channel> <event> with the cell's data (JSON when it parses, text otherwise). */
export async function runPublish(ctx: RealtimeCellContext, channel: string, event: string, dataText: string): Promise<RealtimeCellOutput> {
  const out: RealtimeCellOutput = {};
  out.error = await writeRefused(ctx, 'publish', `publish "${event}" to channel "${channel}"`);
  if (out.error !== undefined) return out;
  const rest = restClient(ctx, out);
  let data: unknown = dataText;
  try {
    data = JSON.parse(dataText);
  } catch {
    // Plain text is published as it is.
  }
  const started = performance.now();
  try {
    const channels = await rest.publish({ channels: [channel], name: event, data }, ctx.signal);
    const text = JSON.stringify({ channels });
    out.response = {
      status: 200,
      headers: {},
      text,
      json: { channels },
      size: Buffer.byteLength(text),
      truncated: false,
      durationMs: performance.now() - started,
    };
  } catch (e) {
    out.error = e;
  }
  return out;
}

/** The signed REST client of a cell; each request it sends is recorded (redacted) in `out.request`. */
export function restClient(ctx: RealtimeCellContext, out: RealtimeCellOutput): RealtimeRest {
  const { conn, host } = ctx;
  const http = new HttpClient({
    service: serviceLabel(conn),
    baseUrl: conn.restBaseUrl,
    auth: { placement: 'none' },
    redactor: host.redactor,
    onRequest: (r: OutgoingRequest) => {
      out.request = {
        method: r.method,
        url: host.redactor.url(r.url),
        headers: host.redactor.headers(r.headers),
        body: r.body === undefined ? undefined : host.redactor.text(r.body),
      };
      ctx.onRequest(out.request);
    },
  });
  return new RealtimeRest({ http, appId: conn.appId, key: conn.key, secret: secretReader(ctx), encryptionMasterKey: masterKeyReader(ctx) });
}

function authorizerFor(ctx: RealtimeCellContext): ChannelAuthorizer {
  return connectionAuthorizer(ctx.conn, {
    service: serviceLabel(ctx.conn),
    redactor: ctx.host.redactor,
    secret: secretReader(ctx),
    user: LISTEN_USER,
    encryptionMasterKey: masterKeyReader(ctx),
  });
}

function decode(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * LISTEN <channel> <time>: subscribes and collects the channel's events until the time is up or
 * the run is cancelled; what arrived stays in the result either way. `onSubscribed` is called once
 * the server has confirmed the subscription: from then on a publish to the channel is received.
 */
export async function runListen(
  ctx: RealtimeCellContext,
  channel: string,
  durationMs: number,
  onMessage: (m: ListenMessage, count: number) => void,
  onSubscribed: () => void = () => undefined,
): Promise<RealtimeCellOutput> {
  const { conn, host } = ctx;
  const messages: ListenMessage[] = [];
  const out: RealtimeCellOutput = {};
  const started = performance.now();
  let subscribedAt: number | undefined;
  const finish = () => {
    // A listener that never got its subscription has no answer to show (no "200"): its error says why.
    if (subscribedAt === undefined && messages.length === 0) return;
    const text = JSON.stringify(messages);
    out.count = messages.filter((m) => m.error === undefined).length;
    // Messages from a recording say so, as a replayed HTTP answer does (its header).
    const headers: Record<string, string> = live ? {} : { [REPLAYED_HEADER]: '1' };
    out.response = { status: 200, headers, text, json: messages, size: Buffer.byteLength(text), truncated: false, durationMs: performance.now() - started };
  };
  let client: RealtimeClient | undefined;
  let live = false;
  try {
    const recorded = host.listenTape?.replayListen(conn.name, channel);
    if (recorded) {
      // From a recording (--replay): the messages in their order, at once, and nothing connects.
      out.request = { method: 'LISTEN', url: `recording:${conn.name}#${channel}`, headers: {} };
      ctx.onRequest(out.request);
      subscribedAt = started;
      onSubscribed();
      recorded.forEach((m, i) => {
        messages.push(m);
        onMessage(m, i + 1);
      });
      return out;
    }
    live = true;
    host.assertMayConnect?.(conn);
    client = new RealtimeClient({
      key: conn.key,
      host: conn.host,
      port: conn.port,
      useTLS: conn.useTLS,
      service: serviceLabel(conn),
      authorize: authorizerFor(ctx),
      subscribeTimeoutMs: SUBSCRIBE_DEADLINE_MS,
      client: { name: 'api-workbench-notebook', version: '1' },
    });
    out.request = { method: 'LISTEN', url: host.redactor.url(`${conn.wsUrl}#${channel}`), headers: {} };
    ctx.onRequest(out.request);
    let count = 0;
    client.on('message', (m) => {
      if (m.channel !== channel || m.event.startsWith('pusher')) return;
      const message: ListenMessage = { channel, event: m.event, data: decode(m.data), atMs: Math.round(performance.now() - (subscribedAt ?? started)) };
      if (m.decrypted) message.decrypted = true;
      messages.push(message);
      onMessage(message, ++count);
    });
    // A box that will not open is listed (the subscription goes on), not counted as a message received.
    client.on('error', (e) => {
      const failed = e.code === 'decrypt_failed' ? DECRYPT_FAILED_RE.exec(e.message) : null;
      if (!failed || failed[2] !== channel) return;
      const message: ListenMessage = {
        channel,
        event: failed[1],
        data: null,
        atMs: Math.round(performance.now() - (subscribedAt ?? started)),
        error: e.message,
      };
      messages.push(message);
      onMessage(message, count);
    });
    client.connect();
    const connected = client;
    await untilAborted(client.subscribe(channel), ctx.signal).catch((e: unknown) => {
      throw unreachableServer(e, connected, conn);
    });
    subscribedAt = performance.now();
    onSubscribed();
    await sleep(durationMs, ctx.signal);
  } catch (e) {
    out.error = e;
  } finally {
    client?.dispose();
    finish();
    if (live && out.error === undefined) host.listenTape?.recordListen(conn.name, channel, messages);
  }
  return out;
}

/**
 * A subscription that timed out while the socket never came up is a server that cannot be reached:
 * say so, with the address and the socket's own reason (refused, unknown host), instead of a timeout
 * that says it will be retried (a notebook cell does not retry).
 */
function unreachableServer(e: unknown, client: RealtimeClient, conn: RealtimeConnection): unknown {
  if (!(e instanceof ApiError) || e.code !== 'subscribe_timeout' || client.state === 'connected') return e;
  const why = client.lastClose?.explanation;
  return new ApiError({
    kind: 'network',
    service: serviceLabel(conn),
    code: 'unreachable',
    message: `Could not connect to the realtime server ${conn.wsUrl} within ${SUBSCRIBE_DEADLINE_MS / 1000} s${why ? `: ${why}` : ''}`,
  });
}

const cancelled = (service: string) => new ApiError({ kind: 'cancelled', service, message: 'Cancelled' });

function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled('Realtime'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled('Realtime'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Waits `ms`; a cancel ends the wait early (what arrived so far is the result). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(cancelled('Realtime'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled('Realtime'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
