// The channel broker behind the realtime sandbox: connections, subscriptions, presence members,
// client events and activity checks, speaking protocol 7 as pusher-js expects it
// (pusher-js src/core/connection/protocol/protocol.ts, channels/*.ts; hosted behaviour per
// ../shared/protocols.md §1).
import { randomInt } from 'node:crypto';
import type { WebSocket } from 'ws';
import { validate } from '../../core/validate';
import {
  CLOSE,
  LIMITS,
  PROTOCOL_VERSION,
  byteLength,
  channelKind,
  channelNameProblem,
  clientEventProblem,
  decodeFrame,
  serverToUserId,
  isCacheChannel,
  signinDataSchema,
  subscribeDataSchema,
  unsubscribeDataSchema,
  userDataSchema,
  type WebhookEvent,
  type WireFrame,
} from '../../services/realtime/protocol';
import { requestUrl, Router } from '../router';
import { verifyUserAuth, type AppCredentials } from '../../services/realtime/signing';
import { closeWith, errorFrame, frame } from './frames';
import { canQueue } from './backpressure';
import { ChannelCache } from './cache';
import { checkSubscribe } from './subscribeAuth';

export interface BrokerOptions extends AppCredentials {
  /** Seconds advertised in connection_established (the client pings after this much silence). */
  activityTimeoutSeconds: number;
  /** The broker pings a client it has not heard from for this long. */
  serverPingAfterMs: number;
  /** …and closes it with 4201 when no pong follows within this. */
  pongTimeoutMs: number;
  maxConnections: number;
  clientEventsPerSecond: number;
  /** Coalescing window of pusher_internal:subscription_count broadcasts; 0 = off. */
  subscriptionCountDelayMs: number;
  /** A socket with more than this many bytes queued (its client stopped reading) is closed. */
  maxBufferedBytes: number;
  /** One line for the sandbox's log (a socket closed for being too slow). */
  log: (line: string) => void;
  onWebhook(event: WebhookEvent, delayed: boolean): void;
}

interface Connection {
  readonly socketId: string;
  readonly ws: WebSocket;
  readonly channels: Set<string>;
  /** Presence channel → the user id this connection joined as. */
  readonly presence: Map<string, string>;
  lastSeen: number;
  pingSentAt: number | undefined;
  /** Times of the last client events (at most `clientEventsPerSecond` kept). */
  clientEventTimes: number[];
  userId: string | undefined;
}

interface Member {
  info: unknown;
  /** Connections (or the demo publisher) holding this membership. */
  refs: number;
}

interface Channel {
  readonly name: string;
  readonly subscribers: Set<Connection>;
  readonly members: Map<string, Member>;
  countTimer: NodeJS.Timeout | undefined;
}

export interface ChannelSnapshot {
  name: string;
  subscriptionCount: number;
  userCount?: number;
}

/** Where clients connect; a trailing slash is tolerated as the hosted service does. */
const SOCKET_ROUTES = new Router<true>().add('GET', '/app/{key}', true).add('GET', '/app/{key}/', true);

export class Broker {
  private readonly connections = new Map<string, Connection>();
  private readonly channels = new Map<string, Channel>();
  private readonly cache = new ChannelCache();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: BrokerOptions) {
    const every = Math.max(10, Math.min(1000, Math.floor(Math.min(opts.serverPingAfterMs, opts.pongTimeoutMs) / 4)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Admits a socket that asked for `/app/<key>?protocol=…`: closes it with the protocol's code when
   * the key, path or version is wrong, else sends connection_established. `target` is the request
   * target as sent, still percent-encoded.
   */
  accept(ws: WebSocket, target: string | undefined): void {
    const url = requestUrl(target);
    const route = url ? SOCKET_ROUTES.match('GET', url.pathname) : undefined;
    if (!url || route?.kind !== 'found') return closeWith(ws, CLOSE.pathNotFound, 'Path not found');
    const appKey = route.params.key;
    if (appKey !== this.opts.key) return closeWith(ws, CLOSE.appNotFound, `App key ${appKey} not in this cluster. Did you forget to specify the cluster?`);
    const protocol = url.searchParams.get('protocol');
    if (protocol === null) return closeWith(ws, CLOSE.noProtocol, 'No protocol version supplied');
    if (!/^\d+$/.test(protocol)) return closeWith(ws, CLOSE.invalidVersionFormat, `Invalid version string format: ${protocol}`);
    const version = Number(protocol);
    if (version < 4 || version > PROTOCOL_VERSION) return closeWith(ws, CLOSE.unsupportedProtocol, `Unsupported protocol version: ${protocol}`);
    if (this.connections.size >= this.opts.maxConnections) return closeWith(ws, CLOSE.overConnectionQuota, 'Application is over connection quota');

    let socketId: string;
    do socketId = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;
    while (this.connections.has(socketId));
    const conn: Connection = {
      socketId,
      ws,
      channels: new Set(),
      presence: new Map(),
      lastSeen: Date.now(),
      pingSentAt: undefined,
      clientEventTimes: [],
      userId: undefined,
    };
    this.connections.set(socketId, conn);
    ws.on('message', (data, isBinary) => {
      // A listener that throws would end the process: a frame the broker cannot handle closes its socket instead.
      try {
        this.onMessage(conn, isBinary || !Buffer.isBuffer(data) ? undefined : data.toString('utf8'));
      } catch {
        closeWith(ws, 1011, 'The sandbox could not handle this message');
      }
    });
    ws.on('pong', () => this.touch(conn));
    ws.on('close', () => this.drop(conn));
    ws.on('error', () => ws.terminate());
    this.send(conn, frame('pusher:connection_established', { socket_id: socketId, activity_timeout: this.opts.activityTimeoutSeconds }));
  }

  /** Delivers an event to every subscriber of each channel except `exceptSocketId`. */
  publish(channels: readonly string[], event: string, data: string, exceptSocketId?: string): number {
    let delivered = 0;
    for (const name of channels) {
      this.cache.remember(name, event, data);
      const ch = this.channels.get(name);
      if (!ch || ch.subscribers.size === 0) continue;
      // Encoded once per channel: with hundreds of subscribers the copy per socket would dominate.
      const bytes = Buffer.from(frame(event, data, name));
      for (const c of ch.subscribers) {
        if (c.socketId === exceptSocketId || !this.canTake(c)) continue;
        c.ws.send(bytes, { binary: false });
        delivered++;
      }
    }
    return delivered;
  }

  /**
   * Publishes `count` events (data = `template` plus a `seq` field) as fast as the subscribers take
   * them: it yields between chunks and waits while any socket has more than a few MB queued, so
   * a slow consumer sets the pace instead of the broker's memory filling up.
   */
  async burst(channel: string, event: string, template: Record<string, unknown>, count: number): Promise<number> {
    const ch = this.channels.get(channel);
    if (!ch) return 0;
    let sent = 0;
    while (sent < count) {
      const end = Math.min(count, sent + 500);
      for (; sent < end; sent++) this.publish([channel], event, JSON.stringify({ ...template, seq: sent }));
      await new Promise<void>((r) => setImmediate(r));
      // Well under maxBufferedBytes: a client that reads, however slowly, is never closed by a burst.
      const pauseAt = Math.min(4 * 1024 * 1024, this.opts.maxBufferedBytes / 4);
      while ([...ch.subscribers].some((c) => c.ws.bufferedAmount > pauseAt && c.ws.readyState === c.ws.OPEN)) {
        await new Promise<void>((r) => setTimeout(r, 2));
      }
      if (ch.subscribers.size === 0) break;
    }
    return sent;
  }

  /** Occupied channels (a subscriber or a demo member), optionally those starting with `prefix`. */
  list(prefix = ''): ChannelSnapshot[] {
    const out: ChannelSnapshot[] = [];
    for (const ch of this.channels.values()) {
      // Users' own channels are not app channels: the hosted API does not list them.
      if (!ch.name.startsWith(prefix) || !this.occupied(ch) || serverToUserId(ch.name) !== undefined) continue;
      out.push(this.snapshot(ch));
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  info(name: string): ChannelSnapshot & { occupied: boolean } {
    const ch = this.channels.get(name);
    if (!ch) return { name, occupied: false, subscriptionCount: 0, ...(channelKind(name) === 'presence' ? { userCount: 0 } : {}) };
    return { ...this.snapshot(ch), occupied: this.occupied(ch) };
  }

  members(name: string): { id: string; info: unknown }[] {
    const ch = this.channels.get(name);
    return ch ? [...ch.members.entries()].map(([id, m]) => ({ id, info: m.info })) : [];
  }

  /** A presence member not backed by a socket (the demo publisher's people). */
  addVirtualMember(channel: string, userId: string, info: unknown): void {
    const ch = this.channel(channel);
    const wasOccupied = this.occupied(ch);
    this.join(ch, userId, info, undefined);
    if (!wasOccupied) this.opts.onWebhook({ name: 'channel_occupied', channel }, false);
  }

  removeVirtualMember(channel: string, userId: string): void {
    const ch = this.channels.get(channel);
    if (!ch) return;
    this.leave(ch, userId, undefined);
    this.vacateIfEmpty(ch);
  }

  /**
   * Closes every connection signed in as `userId` (pusher:signin; presence membership alone does not
   * count, as on the hosted service). 4009 tells pusher-js not to reconnect by itself.
   */
  terminateUser(userId: string): number {
    let n = 0;
    for (const c of this.connections.values()) {
      if (c.userId === userId) {
        c.ws.close(CLOSE.unauthorized, 'Connection terminated by the server');
        n++;
      }
    }
    return n;
  }

  /** Closes every socket with `code` (tests and shutdown). */
  closeAll(code: number, reason: string): void {
    for (const c of this.connections.values()) closeWith(c.ws, code, reason);
  }

  dispose(): void {
    clearInterval(this.sweeper);
    for (const ch of this.channels.values()) clearTimeout(ch.countTimer);
    for (const c of this.connections.values()) c.ws.terminate();
    this.connections.clear();
    this.channels.clear();
    this.cache.clear();
  }

  // --- socket messages ---------------------------------------------------------------------------

  private onMessage(conn: Connection, text: string | undefined): void {
    this.touch(conn);
    if (text === undefined) return this.send(conn, errorFrame('Binary frames are not supported', null));
    const decoded = decodeFrame(text);
    if (!decoded.ok) return this.send(conn, errorFrame(`Invalid message: ${decoded.problem}`, null));
    const f = decoded.frame;
    switch (f.event) {
      case 'pusher:ping':
        return this.send(conn, frame('pusher:pong', {}));
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscribe(conn, f.data);
      case 'pusher:unsubscribe': {
        const v = validate(unsubscribeDataSchema, f.data);
        if (!v.ok) return this.send(conn, errorFrame(`Invalid unsubscribe: ${v.problem}`, null));
        return this.unsubscribe(conn, v.value.channel);
      }
      case 'pusher:signin':
        return this.signin(conn, f.data);
      default:
        if (f.event.startsWith('client-')) return this.clientEvent(conn, f);
        return this.send(conn, errorFrame(`Unsupported event received on socket: ${f.event}`, null));
    }
  }

  private subscribe(conn: Connection, data: unknown): void {
    const v = validate(subscribeDataSchema, data);
    if (!v.ok) return this.send(conn, errorFrame(`Invalid subscribe: ${v.problem}`, null));
    const { channel: name, auth, channel_data } = v.value;
    const problem = channelNameProblem(name);
    if (problem) return this.send(conn, errorFrame(`Invalid channel name '${name}': ${problem}`, null, name));
    if (conn.channels.has(name)) return this.succeeded(conn, this.channel(name));
    const owner = serverToUserId(name);
    if (owner !== undefined && conn.userId !== owner)
      return this.authFailed(conn, name, `Cannot subscribe to ${name}: sign in as that user first (pusher:signin)`);

    const check = checkSubscribe(this.opts, {
      socketId: conn.socketId,
      channel: name,
      auth,
      channelData: channel_data,
      presenceHasRoomFor: (id) => {
        const existing = this.channels.get(name);
        return !existing || existing.members.has(id) || existing.members.size < LIMITS.maxPresenceMembers;
      },
    });
    if (!check.ok) return check.authFailure ? this.authFailed(conn, name, check.message) : this.send(conn, errorFrame(check.message, null, name));
    const userId = check.member?.userId;
    const userInfo = check.member?.info;

    const ch = this.channel(name);
    const wasOccupied = this.occupied(ch);
    ch.subscribers.add(conn);
    conn.channels.add(name);
    if (!wasOccupied) this.opts.onWebhook({ name: 'channel_occupied', channel: name }, false);
    if (userId !== undefined) {
      conn.presence.set(name, userId);
      this.join(ch, userId, userInfo, conn);
    }
    this.succeeded(conn, ch);
    if (isCacheChannel(name)) this.replayCache(conn, name);
    this.scheduleCount(ch);
  }

  /** After subscription_succeeded, as soketi does: the cached event, or pusher:cache_miss (no data). */
  private replayCache(conn: Connection, channel: string): void {
    const last = this.cache.last(channel);
    if (last) return this.send(conn, frame(last.event, last.data, channel));
    this.send(conn, JSON.stringify({ event: 'pusher:cache_miss', channel }));
    if (this.cache.firstMiss(channel)) this.opts.onWebhook({ name: 'cache_miss', channel }, false);
  }

  /** Hosted Channels reports a rejected subscription as pusher:error with code null; the channel is named so clients can tell which one. */
  private authFailed(conn: Connection, channel: string, message: string): void {
    this.send(conn, errorFrame(message, null, channel));
  }

  private succeeded(conn: Connection, ch: Channel): void {
    if (channelKind(ch.name) !== 'presence') return this.send(conn, frame('pusher_internal:subscription_succeeded', {}, ch.name));
    const hash: Record<string, unknown> = {};
    for (const [id, m] of ch.members) hash[id] = m.info ?? null;
    this.send(conn, frame('pusher_internal:subscription_succeeded', { presence: { ids: Object.keys(hash), hash, count: ch.members.size } }, ch.name));
  }

  private unsubscribe(conn: Connection, name: string): void {
    const ch = this.channels.get(name);
    if (!ch || !conn.channels.has(name)) return;
    conn.channels.delete(name);
    ch.subscribers.delete(conn);
    const userId = conn.presence.get(name);
    if (userId !== undefined) {
      conn.presence.delete(name);
      this.leave(ch, userId, conn);
    }
    this.scheduleCount(ch);
    this.vacateIfEmpty(ch);
  }

  private signin(conn: Connection, data: unknown): void {
    const v = validate(signinDataSchema, data);
    if (!v.ok) return this.send(conn, errorFrame(`Invalid signin: ${v.problem}`, null));
    if (!verifyUserAuth(this.opts, conn.socketId, v.value.auth, v.value.user_data))
      return this.send(conn, errorFrame('Invalid signature for pusher:signin', null));
    let user: unknown;
    try {
      user = JSON.parse(v.value.user_data);
    } catch {
      return this.send(conn, errorFrame('user_data is not valid JSON', null));
    }
    const u = validate(userDataSchema, user);
    if (!u.ok) return this.send(conn, errorFrame(`Invalid user_data: ${u.problem}`, null));
    conn.userId = u.value.id;
    this.send(conn, frame('pusher:signin_success', { user_data: v.value.user_data }));
  }

  private clientEvent(conn: Connection, f: WireFrame): void {
    const channel = f.channel;
    if (channel === undefined) return this.send(conn, errorFrame('Client event rejected: no channel given', null));
    const problem = clientEventProblem(channel, f.event);
    if (problem) return this.send(conn, errorFrame(`Client event rejected: ${problem}`, null, channel));
    if (!conn.channels.has(channel)) return this.send(conn, errorFrame(`Client event rejected: not subscribed to ${channel}`, null, channel));
    const data = typeof f.data === 'string' ? f.data : JSON.stringify(f.data ?? null);
    if (byteLength(data) > LIMITS.maxEventDataBytes)
      return this.send(conn, errorFrame(`Client event rejected: data is larger than ${LIMITS.maxEventDataBytes} bytes`, null, channel));

    const now = Date.now();
    const times = conn.clientEventTimes;
    while (times.length > 0 && now - times[0] >= 1000) times.shift();
    if (times.length >= this.opts.clientEventsPerSecond) {
      conn.ws.close(CLOSE.clientEventRateLimited, 'Client event rejected due to rate limit');
      return;
    }
    times.push(now);

    const userId = conn.presence.get(channel);
    const ch = this.channels.get(channel);
    if (ch) {
      // Not echoed to the sender (protocol: client events reach the *other* subscribers).
      const bytes = Buffer.from(frame(f.event, data, channel, userId));
      for (const c of ch.subscribers) if (c !== conn) c.ws.send(bytes, { binary: false });
    }
    this.opts.onWebhook(
      { name: 'client_event', channel, event: f.event, data, socket_id: conn.socketId, ...(userId !== undefined ? { user_id: userId } : {}) },
      false,
    );
  }

  // --- membership and housekeeping ----------------------------------------------------------------

  private join(ch: Channel, userId: string, info: unknown, conn: Connection | undefined): void {
    const m = ch.members.get(userId);
    if (m) {
      m.refs++;
      return;
    }
    ch.members.set(userId, { info, refs: 1 });
    const bytes = Buffer.from(frame('pusher_internal:member_added', info === undefined ? { user_id: userId } : { user_id: userId, user_info: info }, ch.name));
    for (const c of ch.subscribers) if (c !== conn) c.ws.send(bytes, { binary: false });
    this.opts.onWebhook({ name: 'member_added', channel: ch.name, user_id: userId }, false);
  }

  private leave(ch: Channel, userId: string, conn: Connection | undefined): void {
    const m = ch.members.get(userId);
    if (!m) return;
    if (--m.refs > 0) return;
    ch.members.delete(userId);
    const bytes = Buffer.from(frame('pusher_internal:member_removed', { user_id: userId }, ch.name));
    for (const c of ch.subscribers) if (c !== conn) c.ws.send(bytes, { binary: false });
    this.opts.onWebhook({ name: 'member_removed', channel: ch.name, user_id: userId }, true);
  }

  private vacateIfEmpty(ch: Channel): void {
    if (this.occupied(ch)) return;
    clearTimeout(ch.countTimer);
    this.channels.delete(ch.name);
    this.opts.onWebhook({ name: 'channel_vacated', channel: ch.name }, true);
  }

  private drop(conn: Connection): void {
    if (!this.connections.delete(conn.socketId)) return;
    for (const name of [...conn.channels]) this.unsubscribe(conn, name);
  }

  private scheduleCount(ch: Channel): void {
    if (this.opts.subscriptionCountDelayMs <= 0 || channelKind(ch.name) === 'presence' || ch.countTimer) return;
    ch.countTimer = setTimeout(() => {
      ch.countTimer = undefined;
      if (ch.subscribers.size === 0) return;
      const bytes = Buffer.from(frame('pusher_internal:subscription_count', { subscription_count: ch.subscribers.size }, ch.name));
      for (const c of ch.subscribers) c.ws.send(bytes, { binary: false });
    }, this.opts.subscriptionCountDelayMs);
    ch.countTimer.unref();
  }

  private channel(name: string): Channel {
    let ch = this.channels.get(name);
    if (!ch) this.channels.set(name, (ch = { name, subscribers: new Set(), members: new Map(), countTimer: undefined }));
    return ch;
  }

  private occupied(ch: Channel): boolean {
    return ch.subscribers.size > 0 || ch.members.size > 0;
  }

  private snapshot(ch: Channel): ChannelSnapshot {
    return channelKind(ch.name) === 'presence'
      ? { name: ch.name, subscriptionCount: ch.subscribers.size, userCount: ch.members.size }
      : { name: ch.name, subscriptionCount: ch.subscribers.size };
  }

  private touch(conn: Connection): void {
    conn.lastSeen = Date.now();
    conn.pingSentAt = undefined;
  }

  /** Pings quiet clients and closes those that did not answer (4201), like the hosted service. */
  private sweep(): void {
    const now = Date.now();
    for (const c of this.connections.values()) {
      if (c.pingSentAt !== undefined) {
        if (now - c.pingSentAt >= this.opts.pongTimeoutMs) c.ws.close(CLOSE.pongNotReceived, 'Pong reply not received');
      } else if (now - c.lastSeen >= this.opts.serverPingAfterMs) {
        c.pingSentAt = now;
        this.send(c, frame('pusher:ping', {}));
      }
    }
  }

  private send(conn: Connection, text: string): void {
    if (this.canTake(conn)) conn.ws.send(text);
  }

  private canTake(conn: Connection): boolean {
    return canQueue(conn.ws, conn.socketId, this.opts.maxBufferedBytes, this.opts.log);
  }
}
