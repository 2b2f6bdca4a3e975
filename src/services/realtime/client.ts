// WebSocket client for Pusher Channels protocol 7. Behaviour follows pusher-js
// (src/core/connection/connection_manager.ts, protocol/protocol.ts, channels/*.ts) where the
// protocol leaves room, with two deliberate differences: close codes 4300+ back off instead of
// giving up, and reconnect waits are exponential with jitter instead of a flat second.
import type * as Ws from 'ws';
import { ApiError } from '../../core/errors';
import { ws } from '../../core/lazy';
import { validate } from '../../core/validate';
import type { ChannelAuthorizer } from './auth';
import { systemTimers, type TimerApi } from './timers';
import { socketUrl, type RealtimeEndpoint } from './endpoints';
import {
  LIMITS,
  byteLength,
  channelKind,
  channelNameProblem,
  clientEventProblem,
  closeAction,
  connectionEstablishedSchema,
  decodeData,
  decodeFrame,
  describeClose,
  memberAddedSchema,
  memberRemovedSchema,
  presenceInfoSchema,
  pusherErrorSchema,
  subscriptionCountSchema,
  type CloseAction,
  type WireFrame,
} from './protocol';

export type { TimerApi } from './timers';

export type ConnectionState = 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'disconnected';

export interface BackoffPolicy {
  /** First step of the exponential backoff; doubled per consecutive failure. */
  baseMs: number;
  maxMs: number;
  /** Never wait less than this on a backoff close (the protocol asks for ≥ 1 s). */
  minMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 60_000, minMs: 1_000 };

export interface RealtimeClientOptions extends RealtimeEndpoint {
  /** Shown in errors, e.g. "Realtime (sandbox)". */
  service?: string;
  authorize?: ChannelAuthorizer;
  /** Ping after this much silence (the server's activity_timeout wins when shorter). Default 120 s. */
  activityTimeoutMs?: number;
  /** Reconnect when a ping gets no answer within this. Default 30 s. */
  pongTimeoutMs?: number;
  /** State becomes `unavailable` when connecting takes longer than this. Default 10 s. */
  unavailableTimeoutMs?: number;
  /** One attempt (WebSocket upgrade, then the server's connection_established) may take this long. Default 10 s. */
  connectTimeoutMs?: number;
  /** A subscription the server has not answered within this rejects its caller. Default 10 s. */
  subscribeTimeoutMs?: number;
  /** After staying connected this long, the backoff starts from the beginning again. Default 10 s. */
  stableAfterMs?: number;
  /** 4200–4299 reconnect at once this many times in a row, then back off (a server stuck in a loop). Default 3. */
  maxImmediateRetries?: number;
  backoff?: Partial<BackoffPolicy>;
  random?: () => number;
  timers?: TimerApi;
  client?: { name: string; version: string };
  /** Extra `ws` options (e.g. an agent); mostly for tests. */
  socketOptions?: Ws.ClientOptions;
}

export interface StateChange {
  previous: ConnectionState;
  current: ConnectionState;
  /** Why: the close explanation, the error, or "disconnected by you". */
  reason?: string;
  socketId?: string;
}

export interface ReconnectPlan {
  code: number;
  reason: string;
  action: CloseAction;
  /** 0 = at once. */
  delayMs: number;
  /** Consecutive failures so far (1 = first). */
  attempt: number;
}

export interface CloseInfo {
  code: number;
  reason: string;
  explanation: string;
  action: CloseAction;
}

/** An event as received; `data` is as on the wire (usually a JSON string), see `messageData`. */
export type RealtimeMessage = Readonly<WireFrame>;

export type SubscriptionState = 'pending' | 'subscribed' | 'failed';

export interface PresenceMember {
  id: string;
  info: unknown;
}

export interface SubscriptionSnapshot {
  channel: string;
  state: SubscriptionState;
  error?: string;
  /** From pusher_internal:subscription_count, when the server sends it. */
  subscriptionCount?: number;
  /** Presence channels only. */
  members?: PresenceMember[];
  myId?: string;
}

export type SubscriptionEvent =
  | { kind: 'succeeded'; channel: string }
  | { kind: 'failed'; channel: string; error: ApiError }
  | { kind: 'unsubscribed'; channel: string }
  | { kind: 'count'; channel: string; count: number };

export type MembersEvent =
  | { kind: 'added'; channel: string; member: PresenceMember }
  | { kind: 'removed'; channel: string; member: PresenceMember }
  | { kind: 'reset'; channel: string; members: PresenceMember[] };

export interface RealtimeClientEvents {
  state: StateChange;
  message: RealtimeMessage;
  subscription: SubscriptionEvent;
  members: MembersEvent;
  reconnect: ReconnectPlan;
  /** Problems that do not change the state: protocol errors, pusher:error, bad frames. Never thrown. */
  error: ApiError;
}

export interface Disposable {
  dispose(): void;
}

interface Waiter {
  resolve(s: SubscriptionSnapshot): void;
  reject(e: ApiError): void;
  timer: unknown;
}

interface Subscription {
  readonly channel: string;
  state: SubscriptionState;
  error?: ApiError;
  count?: number;
  members?: Map<string, unknown>;
  myId?: string;
  waiters: Waiter[];
}

/** `data` of a message as a value: JSON strings decoded, anything else as is. */
export function messageData(msg: RealtimeMessage): unknown {
  return decodeData(msg.data);
}

type Listener<T> = (value: T) => void;

export class RealtimeClient {
  readonly service: string;
  private readonly timers: TimerApi;
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private readonly activityTimeoutMs: number;
  private readonly pongTimeoutMs: number;
  private readonly unavailableTimeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly subscribeTimeoutMs: number;
  private readonly stableAfterMs: number;
  private readonly maxImmediateRetries: number;
  private readonly url: string;
  private readonly listeners: { [K in keyof RealtimeClientEvents]: Listener<RealtimeClientEvents[K]>[] } = {
    state: [],
    message: [],
    subscription: [],
    members: [],
    reconnect: [],
    error: [],
  };

  private _state: ConnectionState = 'initialized';
  private _socketId: string | undefined;
  private _lastClose: CloseInfo | undefined;
  /** True between connect() and disconnect() (or a 40xx close). */
  private wanted = false;
  private socket: Ws.WebSocket | undefined;
  /** Bumped per socket, so late callbacks (auth, timers) of an old socket are ignored. */
  private generation = 0;
  private established = false;
  private connectedAt = 0;
  private failures = 0;
  private immediateStreak = 0;
  private serverActivityMs = Infinity;
  private lastActivity = 0;
  private awaitingPong = false;
  private activityTimer: unknown;
  private pongTimer: unknown;
  private retryTimer: unknown;
  private unavailableTimer: unknown;
  private handshakeTimer: unknown;
  private readonly subs = new Map<string, Subscription>();
  private readonly clientEventTimes: number[] = [];
  /** Why the socket failed (ws reports only 1006 on close); used in the close explanation. */
  private lastSocketError: string | undefined;

  constructor(private readonly opts: RealtimeClientOptions) {
    this.service = opts.service ?? 'Realtime';
    this.timers = opts.timers ?? systemTimers;
    this.random = opts.random ?? Math.random;
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.activityTimeoutMs = opts.activityTimeoutMs ?? 120_000;
    this.pongTimeoutMs = opts.pongTimeoutMs ?? 30_000;
    this.unavailableTimeoutMs = opts.unavailableTimeoutMs ?? 10_000;
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 10_000;
    this.subscribeTimeoutMs = opts.subscribeTimeoutMs ?? 10_000;
    this.stableAfterMs = opts.stableAfterMs ?? 10_000;
    this.maxImmediateRetries = opts.maxImmediateRetries ?? 3;
    this.url = socketUrl(opts, opts.client ?? { name: 'api-workbench', version: '0.1.0' });
  }

  get state(): ConnectionState {
    return this._state;
  }

  get socketId(): string | undefined {
    return this._socketId;
  }

  /** Why the last connection ended (code, server reason, explanation). */
  get lastClose(): CloseInfo | undefined {
    return this._lastClose;
  }

  get socketUrl(): string {
    return this.url;
  }

  on<K extends keyof RealtimeClientEvents>(event: K, listener: Listener<RealtimeClientEvents[K]>): Disposable {
    const list = this.listeners[event] as Listener<RealtimeClientEvents[K]>[];
    list.push(listener);
    return {
      dispose: () => {
        const i = list.indexOf(listener);
        if (i >= 0) list.splice(i, 1);
      },
    };
  }

  connect(): void {
    if (this.wanted) return;
    this.wanted = true;
    this.failures = 0;
    this.immediateStreak = 0;
    this._lastClose = undefined;
    this.setState('connecting');
    this.startUnavailableTimer();
    this.open();
  }

  /** Closes the socket and stays disconnected; subscriptions are kept and renewed on the next connect(). */
  disconnect(reason = 'disconnected by you'): void {
    this.wanted = false;
    this.clearTimers();
    this.closeSocket(1000, 'client disconnect');
    this.resetSubscriptions();
    this.setState('disconnected', reason);
  }

  /** Stops everything and forgets all listeners. */
  dispose(): void {
    this.disconnect();
    this.subs.clear();
    for (const k of Object.keys(this.listeners) as (keyof RealtimeClientEvents)[]) this.listeners[k].length = 0;
  }

  // --- channels ----------------------------------------------------------------------------------

  /**
   * Subscribes (now if connected, else when the connection is up) and resolves when the server
   * confirms. The channel stays wanted even if this rejects (timeout, not connected): it is renewed
   * on every reconnect until unsubscribe().
   */
  subscribe(channel: string): Promise<SubscriptionSnapshot> {
    const problem = channelNameProblem(channel);
    if (problem) return Promise.reject(this.error('protocol', `Cannot subscribe to "${channel}": ${problem}`, 'invalid_channel'));
    if (channelKind(channel) !== 'public' && !this.opts.authorize) {
      return Promise.reject(this.error('auth', `Subscribing to ${channel} needs channel auth: store the app secret or configure an auth endpoint.`, 'no_authorizer'));
    }
    let sub = this.subs.get(channel);
    if (sub?.state === 'subscribed') return Promise.resolve(this.snapshot(sub));
    if (!sub) {
      sub = { channel, state: 'pending', waiters: [] };
      this.subs.set(channel, sub);
      if (this._state === 'connected') this.sendSubscribe(sub);
    } else if (sub.state === 'failed') {
      sub.state = 'pending';
      sub.error = undefined;
      if (this._state === 'connected') this.sendSubscribe(sub);
    }
    if (!this.wanted) {
      return Promise.reject(this.error('network', `Not connected: ${channel} will be subscribed when you connect.`, 'not_connected'));
    }
    const s = sub;
    return new Promise<SubscriptionSnapshot>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: this.timers.set(() => {
          s.waiters.splice(s.waiters.indexOf(waiter), 1);
          reject(this.error('timeout', `The server did not confirm the subscription to ${channel} within ${Math.round(this.subscribeTimeoutMs / 1000)} s; it is retried on reconnect.`, 'subscribe_timeout'));
        }, this.subscribeTimeoutMs),
      };
      s.waiters.push(waiter);
    });
  }

  unsubscribe(channel: string): void {
    const sub = this.subs.get(channel);
    if (!sub) return;
    this.subs.delete(channel);
    this.settle(sub, this.error('protocol', `Unsubscribed from ${channel} before the server confirmed it`, 'unsubscribed'));
    if (this._state === 'connected') this.send({ event: 'pusher:unsubscribe', data: { channel } });
    this.emit('subscription', { kind: 'unsubscribed', channel });
  }

  subscriptions(): SubscriptionSnapshot[] {
    return [...this.subs.values()].map((s) => this.snapshot(s));
  }

  subscription(channel: string): SubscriptionSnapshot | undefined {
    const s = this.subs.get(channel);
    return s && this.snapshot(s);
  }

  /**
   * Sends a client event to the other subscribers of a private/presence channel. Throws an ApiError
   * (never sends) when the name, channel, size or the 10/s limit would make the server reject it
   * (the server closes the socket with 4301 over the limit).
   */
  trigger(channel: string, event: string, data: unknown): void {
    const problem = clientEventProblem(channel, event);
    if (problem) throw this.error('protocol', problem, 'invalid_client_event');
    const sub = this.subs.get(channel);
    if (this._state !== 'connected') throw this.error('network', `Not connected: cannot send ${event}`, 'not_connected');
    if (sub?.state !== 'subscribed') throw this.error('protocol', `Subscribe to ${channel} before sending client events on it`, 'not_subscribed');
    const encoded = JSON.stringify(data ?? null);
    if (byteLength(encoded) > LIMITS.maxEventDataBytes) throw this.error('protocol', `Client event data is larger than ${LIMITS.maxEventDataBytes} bytes`, 'too_large');
    const now = this.timers.now();
    const times = this.clientEventTimes;
    while (times.length > 0 && now - times[0] >= 1000) times.shift();
    if (times.length >= LIMITS.clientEventsPerSecond) {
      throw new ApiError({
        kind: 'rate-limited',
        service: this.service,
        code: 'client_event_rate',
        message: `At most ${LIMITS.clientEventsPerSecond} client events per second; try again in a moment.`,
        retryAfterMs: Math.max(0, times[0] + 1000 - now),
      });
    }
    times.push(now);
    this.send({ event, channel, data });
  }

  // --- socket lifecycle ----------------------------------------------------------------------------

  private open(): void {
    const gen = ++this.generation;
    this.established = false;
    let sock: Ws.WebSocket;
    try {
      const W = ws().WebSocket;
      sock = new W(this.url, { perMessageDeflate: false, skipUTF8Validation: true, handshakeTimeout: this.connectTimeoutMs, ...this.opts.socketOptions });
    } catch (e) {
      // A URL the ws library rejects outright: retrying cannot help.
      this.stop(1015, e instanceof Error ? e.message : String(e));
      return;
    }
    this.socket = sock;
    sock.on('message', (data: Ws.RawData, isBinary: boolean) => {
      if (gen === this.generation) this.onMessage(data, isBinary);
    });
    sock.on('close', (code: number, reason: Buffer) => {
      if (gen === this.generation) this.onClose(code, reason.toString());
    });
    sock.on('error', (e: Error) => {
      if (gen === this.generation) this.lastSocketError = e.message;
    });
    sock.on('open', () => {
      if (gen !== this.generation) return;
      // The server must greet with connection_established; a silent server is treated as a lost connection.
      this.handshakeTimer = this.timers.set(() => {
        if (gen === this.generation && !this.established) this.dropSocket(4200, 'no connection_established from the server');
      }, this.connectTimeoutMs);
    });
  }

  private onMessage(raw: Ws.RawData, isBinary: boolean): void {
    this.lastActivity = this.timers.now();
    if (this.awaitingPong) this.pongArrived();
    try {
      if (isBinary) return this.emit('error', this.error('protocol', 'The server sent a binary frame; protocol 7 uses text frames only', 'binary_frame'));
      const text = typeof raw === 'string' ? raw : raw.toString();
      const decoded = decodeFrame(text);
      if (!decoded.ok) return this.emit('error', this.error('protocol', `Ignored a bad frame (${decoded.problem}): ${snippet(text)}`, 'bad_frame'));
      const f = decoded.frame;
      // 'pusher:' and 'pusher_internal:' both start with "pusher"; everything else is an app event.
      if (f.event.startsWith('pusher')) return this.onControl(f);
      this.emit('message', f);
    } catch (e) {
      // Defensive: a malformed frame must never break the socket's event loop.
      this.emit('error', this.error('protocol', `Failed to handle a frame: ${e instanceof Error ? e.message : String(e)}`, 'frame_handler'));
    }
  }

  private onControl(f: WireFrame): void {
    if (!this.established) {
      if (f.event === 'pusher:connection_established') return this.onEstablished(f);
      if (f.event === 'pusher:error') return this.onServerError(f);
      return this.emit('error', this.error('protocol', `Expected pusher:connection_established first, got ${f.event}`, 'bad_handshake'));
    }
    switch (f.event) {
      case 'pusher:ping':
        return this.send({ event: 'pusher:pong', data: {} });
      case 'pusher:pong':
        return;
      case 'pusher:error':
        return this.onServerError(f);
      case 'pusher:subscription_error':
        return this.onSubscriptionError(f);
      case 'pusher_internal:subscription_succeeded':
        return this.onSubscribed(f);
      case 'pusher_internal:subscription_count':
        return this.onCount(f);
      case 'pusher_internal:member_added':
        return this.onMemberAdded(f);
      case 'pusher_internal:member_removed':
        return this.onMemberRemoved(f);
      case 'pusher:connection_established':
        return this.emit('error', this.error('protocol', 'Ignored a second pusher:connection_established', 'bad_frame'));
      default:
        // Other pusher: events (signin_success, cache_miss, …) are passed on like app events.
        return this.emit('message', f);
    }
  }

  private onEstablished(f: WireFrame): void {
    const v = validate(connectionEstablishedSchema, decodeData(f.data));
    if (!v.ok) {
      this.emit('error', this.error('protocol', `Bad pusher:connection_established (${v.problem})`, 'bad_handshake'));
      return this.dropSocket(4200, 'bad pusher:connection_established');
    }
    this.timers.clear(this.handshakeTimer);
    this.timers.clear(this.unavailableTimer);
    this.established = true;
    this._socketId = v.value.socket_id;
    this.serverActivityMs = v.value.activity_timeout !== undefined ? v.value.activity_timeout * 1000 : Infinity;
    this.connectedAt = this.timers.now();
    this.immediateStreak = 0;
    this.setState('connected', undefined, v.value.socket_id);
    this.armActivity(this.currentActivityTimeout());
    for (const sub of this.subs.values()) {
      if (sub.state === 'failed') continue;
      sub.state = 'pending';
      this.sendSubscribe(sub);
    }
  }

  private onClose(code: number, reason: string): void {
    this.socket = undefined;
    this.timers.clear(this.handshakeTimer);
    this.stopActivity();
    if (!this.wanted) return;
    // ws reports 1006 for a refused or dropped connection; the socket error says why.
    const why = reason || (code === 1006 ? this.lastSocketError ?? '' : '');
    this.lastSocketError = undefined;
    this.afterClose(code, why);
  }

  /** Decides what a close means: stop and say why, back off, or reconnect now. */
  private afterClose(code: number, reason: string): void {
    const wasConnected = this.established;
    this.established = false;
    this._socketId = undefined;
    this.resetSubscriptions();
    const action = closeAction(code);
    this._lastClose = { code, reason, explanation: describeClose(code, reason), action };
    if (action === 'stop') return this.stop(code, reason);

    if (wasConnected && this.timers.now() - this.connectedAt >= this.stableAfterMs) {
      this.failures = 0;
      this.immediateStreak = 0;
    }
    const attempt = ++this.failures;
    let delayMs: number;
    if (action === 'immediate' && this.immediateStreak < this.maxImmediateRetries) {
      this.immediateStreak++;
      delayMs = 0;
    } else {
      delayMs = this.backoffDelay(attempt);
    }
    if (this._state === 'connected') {
      this.setState('connecting', this._lastClose.explanation);
      this.startUnavailableTimer();
    }
    this.emit('reconnect', { code, reason, action, delayMs, attempt });
    this.retryTimer = this.timers.set(() => {
      this.retryTimer = undefined;
      if (this.wanted) this.open();
    }, delayMs);
  }

  /** Exponential with equal jitter: the step halves to a random point in [step/2, step], never under minMs. */
  private backoffDelay(attempt: number): number {
    const step = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (attempt - 1));
    return Math.max(this.backoff.minMs, Math.round(step * (0.5 + 0.5 * this.random())));
  }

  /** A 4000–4099 close: reconnecting unchanged cannot succeed, so stay disconnected and say why. */
  private stop(code: number, reason: string): void {
    this.wanted = false;
    this.clearTimers();
    this._lastClose = { code, reason, explanation: describeClose(code, reason), action: 'stop' };
    for (const sub of this.subs.values()) this.settle(sub, this.error('network', `Not connected: ${this._lastClose.explanation}`, 'closed'));
    this.setState('disconnected', this._lastClose.explanation);
    this.emit('error', this.error('network', `Connection refused: ${this._lastClose.explanation}`, String(code)));
  }

  /** Abandons the current socket without waiting for a close handshake, then handles it as closed with `code`. */
  private dropSocket(code: number, reason: string): void {
    this.generation++;
    this.closeSocket(code, reason, true);
    this.timers.clear(this.handshakeTimer);
    this.stopActivity();
    if (this.wanted) this.afterClose(code, reason);
  }

  private closeSocket(code: number, reason: string, hard = false): void {
    const sock = this.socket;
    this.socket = undefined;
    this.generation++;
    if (!sock) return;
    sock.on('error', () => undefined);
    try {
      if (hard || sock.readyState === sock.CONNECTING) sock.terminate();
      else sock.close(code >= 4000 && code <= 4999 ? code : 1000, reason);
    } catch {
      sock.terminate();
    }
  }

  // --- activity check ------------------------------------------------------------------------------

  private currentActivityTimeout(): number {
    return Math.min(this.activityTimeoutMs, this.serverActivityMs);
  }

  /**
   * One timer per connection instead of one reset per message: when it fires, it re-arms for the
   * rest of the window if something arrived meanwhile (at 10,000 messages/s a reset per message
   * would cost more than the messages).
   */
  private armActivity(ms: number): void {
    const gen = this.generation;
    this.activityTimer = this.timers.set(() => {
      if (gen !== this.generation || !this.established) return;
      const idle = this.timers.now() - this.lastActivity;
      const timeout = this.currentActivityTimeout();
      if (idle < timeout) return this.armActivity(timeout - idle);
      this.awaitingPong = true;
      this.send({ event: 'pusher:ping', data: {} });
      this.pongTimer = this.timers.set(() => {
        if (gen === this.generation && this.awaitingPong) this.dropSocket(4201, 'pong reply not received');
      }, this.pongTimeoutMs);
    }, ms);
  }

  private pongArrived(): void {
    this.awaitingPong = false;
    this.timers.clear(this.pongTimer);
    this.timers.clear(this.activityTimer);
    this.armActivity(this.currentActivityTimeout());
  }

  private stopActivity(): void {
    this.awaitingPong = false;
    this.timers.clear(this.activityTimer);
    this.timers.clear(this.pongTimer);
  }

  private startUnavailableTimer(): void {
    this.timers.clear(this.unavailableTimer);
    this.unavailableTimer = this.timers.set(() => {
      if (this.wanted && this._state === 'connecting') this.setState('unavailable', this._lastClose?.explanation ?? this.lastSocketError ?? 'the server could not be reached');
    }, this.unavailableTimeoutMs);
  }

  private clearTimers(): void {
    this.stopActivity();
    this.timers.clear(this.retryTimer);
    this.timers.clear(this.unavailableTimer);
    this.timers.clear(this.handshakeTimer);
    this.retryTimer = undefined;
  }

  // --- subscriptions -------------------------------------------------------------------------------

  private sendSubscribe(sub: Subscription): void {
    const socketId = this._socketId;
    if (socketId === undefined) return;
    if (channelKind(sub.channel) === 'public') {
      this.send({ event: 'pusher:subscribe', data: { channel: sub.channel } });
      return;
    }
    const gen = this.generation;
    const authorize = this.opts.authorize;
    if (!authorize) return this.fail(sub, this.error('auth', `No channel auth configured for ${sub.channel}`, 'no_authorizer'));
    authorize({ socketId, channel: sub.channel }).then(
      (auth) => {
        // The socket may have been replaced while auth was fetched: the new one re-subscribes itself.
        if (gen !== this.generation || this.subs.get(sub.channel) !== sub) return;
        const data: Record<string, string> = { channel: sub.channel, auth: auth.auth };
        if (auth.channel_data !== undefined) {
          data.channel_data = auth.channel_data;
          sub.myId = presenceUserId(auth.channel_data);
        }
        this.send({ event: 'pusher:subscribe', data });
      },
      (e: unknown) => {
        if (this.subs.get(sub.channel) !== sub) return;
        const err = e instanceof ApiError ? e : this.error('auth', `Channel auth for ${sub.channel} failed: ${e instanceof Error ? e.message : String(e)}`, 'auth_failed');
        this.fail(sub, err);
      },
    );
  }

  private onSubscribed(f: WireFrame): void {
    const sub = f.channel === undefined ? undefined : this.subs.get(f.channel);
    if (!sub) return;
    if (channelKind(sub.channel) === 'presence') {
      const v = validate(presenceInfoSchema, decodeData(f.data));
      if (!v.ok) return this.fail(sub, this.error('protocol', `Bad presence data for ${sub.channel} (${v.problem})`, 'bad_frame'));
      sub.members = new Map(Object.entries(v.value.presence.hash));
      this.emit('members', { kind: 'reset', channel: sub.channel, members: membersOf(sub.members) });
    }
    sub.state = 'subscribed';
    sub.error = undefined;
    this.emit('subscription', { kind: 'succeeded', channel: sub.channel });
    const snap = this.snapshot(sub);
    for (const w of sub.waiters.splice(0)) {
      this.timers.clear(w.timer);
      w.resolve(snap);
    }
  }

  private onCount(f: WireFrame): void {
    const sub = f.channel === undefined ? undefined : this.subs.get(f.channel);
    if (!sub) return;
    const v = validate(subscriptionCountSchema, decodeData(f.data));
    if (!v.ok) return this.emit('error', this.error('protocol', `Bad subscription_count for ${sub.channel} (${v.problem})`, 'bad_frame'));
    sub.count = v.value.subscription_count;
    this.emit('subscription', { kind: 'count', channel: sub.channel, count: sub.count });
  }

  private onMemberAdded(f: WireFrame): void {
    const sub = f.channel === undefined ? undefined : this.subs.get(f.channel);
    if (!sub?.members) return;
    const v = validate(memberAddedSchema, decodeData(f.data));
    if (!v.ok) return this.emit('error', this.error('protocol', `Bad member_added on ${sub.channel} (${v.problem})`, 'bad_frame'));
    sub.members.set(v.value.user_id, v.value.user_info);
    this.emit('members', { kind: 'added', channel: sub.channel, member: { id: v.value.user_id, info: v.value.user_info } });
  }

  private onMemberRemoved(f: WireFrame): void {
    const sub = f.channel === undefined ? undefined : this.subs.get(f.channel);
    if (!sub?.members) return;
    const v = validate(memberRemovedSchema, decodeData(f.data));
    if (!v.ok) return this.emit('error', this.error('protocol', `Bad member_removed on ${sub.channel} (${v.problem})`, 'bad_frame'));
    const info = sub.members.get(v.value.user_id);
    if (!sub.members.delete(v.value.user_id)) return;
    this.emit('members', { kind: 'removed', channel: sub.channel, member: { id: v.value.user_id, info } });
  }

  /**
   * Hosted Channels rejects a subscription with pusher:error (code null) and names the channel
   * only in the message; our sandbox also sets `channel`. Either way a pending subscription named
   * there fails; any other error is reported as is.
   */
  private onServerError(f: WireFrame): void {
    const v = validate(pusherErrorSchema, decodeData(f.data));
    const message = v.ok ? v.value.message ?? 'unknown error' : `unreadable error ${snippet(JSON.stringify(f.data) ?? '')}`;
    const code = v.ok && v.value.code != null ? String(v.value.code) : undefined;
    const target =
      (f.channel !== undefined ? this.subs.get(f.channel) : undefined) ??
      [...this.subs.values()].find((s) => s.state === 'pending' && message.includes(s.channel));
    const err = this.error(target ? 'auth' : 'protocol', `${this.service} error${code ? ` ${code}` : ''}: ${message}`, code);
    if (target && target.state === 'pending') return this.fail(target, err);
    this.emit('error', err);
  }

  /** soketi-style rejections: `pusher:subscription_error` on the channel with {type, error, status}. */
  private onSubscriptionError(f: WireFrame): void {
    const sub = f.channel === undefined ? undefined : this.subs.get(f.channel);
    const d = decodeData(f.data);
    const text = typeof d === 'object' && d !== null && typeof (d as { error?: unknown }).error === 'string' ? (d as { error: string }).error : snippet(JSON.stringify(d) ?? '');
    const err = this.error('auth', `Subscription to ${f.channel ?? 'a channel'} rejected: ${text}`, 'subscription_error');
    if (sub) this.fail(sub, err);
    else this.emit('error', err);
  }

  private fail(sub: Subscription, err: ApiError): void {
    sub.state = 'failed';
    sub.error = err;
    this.emit('subscription', { kind: 'failed', channel: sub.channel, error: err });
    this.settle(sub, err);
  }

  private settle(sub: Subscription, err: ApiError): void {
    for (const w of sub.waiters.splice(0)) {
      this.timers.clear(w.timer);
      w.reject(err);
    }
  }

  /** After a socket ends, every subscription must be confirmed again by the next one. */
  private resetSubscriptions(): void {
    for (const sub of this.subs.values()) {
      if (sub.state === 'subscribed') sub.state = 'pending';
      if (sub.members) {
        sub.members = undefined;
        this.emit('members', { kind: 'reset', channel: sub.channel, members: [] });
      }
      sub.count = undefined;
    }
  }

  private snapshot(s: Subscription): SubscriptionSnapshot {
    const snap: SubscriptionSnapshot = { channel: s.channel, state: s.state };
    if (s.error) snap.error = s.error.message;
    if (s.count !== undefined) snap.subscriptionCount = s.count;
    if (s.members) snap.members = membersOf(s.members);
    if (s.myId !== undefined) snap.myId = s.myId;
    return snap;
  }

  // --- plumbing ------------------------------------------------------------------------------------

  private send(frame: { event: string; channel?: string; data: unknown }): void {
    const sock = this.socket;
    if (!sock || sock.readyState !== sock.OPEN) return;
    sock.send(JSON.stringify(frame));
  }

  private setState(next: ConnectionState, reason?: string, socketId?: string): void {
    const previous = this._state;
    if (previous === next) return;
    this._state = next;
    const change: StateChange = { previous, current: next };
    if (reason !== undefined) change.reason = reason;
    if (socketId !== undefined) change.socketId = socketId;
    this.emit('state', change);
  }

  private emit<K extends keyof RealtimeClientEvents>(event: K, value: RealtimeClientEvents[K]): void {
    const list = this.listeners[event] as Listener<RealtimeClientEvents[K]>[];
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](value);
      } catch (e) {
        // A listener's bug must not break the connection; report it unless it came from an error listener.
        if (event !== 'error') this.emit('error', this.error('protocol', `A ${event} listener failed: ${e instanceof Error ? e.message : String(e)}`, 'listener'));
      }
    }
  }

  private error(kind: ApiError['kind'], message: string, code?: string): ApiError {
    return new ApiError({ kind, service: this.service, message, code });
  }
}

function membersOf(map: Map<string, unknown>): PresenceMember[] {
  return [...map.entries()].map(([id, info]) => ({ id, info }));
}

function presenceUserId(channelData: string): string | undefined {
  try {
    const v = JSON.parse(channelData) as { user_id?: unknown };
    return v.user_id === undefined ? undefined : String(v.user_id);
  } catch {
    return undefined;
  }
}

function snippet(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
