// WebSocket client for Pusher Channels protocol 7: the public face over three parts, the
// connection state machine (connection.ts, reconnect.ts), the channels and their auth
// (subscriptions.ts), and event dispatch (dispatch.ts).
import { systemClock, type Clock } from '../../core/clock';
import { ApiError } from '../../core/errors';
import { validate } from '../../core/validate';
import { ClientEvents, dispatchFrame, snippet, type FrameHandlers, type Listener } from './dispatch';
import { Connection } from './connection';
import { socketUrl } from './endpoints';
import {
  LIMITS,
  byteLength,
  channelKind,
  channelNameProblem,
  clientEventProblem,
  decodeData,
  pusherErrorSchema,
  serverToUserId,
  type WireFrame,
} from './protocol';
import { Subscriptions } from './subscriptions';
import { UserSession } from './user';
import {
  DEFAULT_BACKOFF,
  DEFAULT_QUICK_BACKOFF,
  type CloseInfo,
  type ConnectionState,
  type Disposable,
  type RealtimeClientEvents,
  type RealtimeClientOptions,
  type RealtimeMessage,
  type SignedInUser,
  type SubscriptionSnapshot,
} from './types';

export type {
  BackoffPolicy,
  CloseInfo,
  ConnectionState,
  Disposable,
  MembersEvent,
  PresenceMember,
  ReconnectPlan,
  RealtimeClientEvents,
  RealtimeClientOptions,
  RealtimeMessage,
  SignedInUser,
  StateChange,
  SubscriptionEvent,
  SubscriptionSnapshot,
  SubscriptionState,
  UserEvent,
} from './types';
export { DEFAULT_BACKOFF, DEFAULT_QUICK_BACKOFF } from './types';

/** `data` of a message as a value: JSON strings decoded, anything else as is. */
export function messageData(msg: RealtimeMessage): unknown {
  return decodeData(msg.data);
}

/** pusher:error codes that end the connection, like the same close codes (protocol: 4000–4299). */
function endsConnection(code: number | null | undefined): code is number {
  return typeof code === 'number' && code >= 4000 && code <= 4299;
}

export class RealtimeClient {
  readonly service: string;
  private readonly clock: Clock;
  private readonly url: string;
  private readonly events: ClientEvents;
  private readonly connection: Connection;
  private readonly subs: Subscriptions;
  private readonly user: UserSession;
  private readonly clientEventTimes: number[] = [];
  /** Frame routing for dispatchFrame; built once, not per message. */
  private readonly handlers: FrameHandlers;

  constructor(private readonly opts: RealtimeClientOptions) {
    this.service = opts.service ?? 'Realtime';
    this.clock = opts.clock ?? systemClock;
    this.url = socketUrl(opts, opts.client ?? { name: 'api-workbench', version: '0.1.0' });
    this.events = new ClientEvents(this.service);
    this.connection = new Connection(
      {
        url: this.url,
        clock: this.clock,
        reconnect: {
          backoff: { ...DEFAULT_BACKOFF, ...opts.backoff },
          quick: { ...DEFAULT_QUICK_BACKOFF, ...opts.quickBackoff },
          maxQuickRetries: opts.maxImmediateRetries ?? 3,
          stableAfterMs: opts.stableAfterMs ?? 10_000,
          random: opts.random ?? Math.random,
        },
        activityTimeoutMs: opts.activityTimeoutMs ?? 120_000,
        pongTimeoutMs: opts.pongTimeoutMs ?? 30_000,
        unavailableTimeoutMs: opts.unavailableTimeoutMs ?? 10_000,
        connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
        socketOptions: opts.socketOptions,
      },
      this.events,
      {
        onFrame: (raw, isBinary) => dispatchFrame(raw, isBinary, this.events, this.handlers),
        onConnected: () => {
          this.subs.renewAll();
          this.user.onConnected();
        },
        onSocketEnded: () => {
          this.subs.reset();
          this.user.onSocketEnded();
        },
        onStopped: (explanation) => {
          this.subs.rejectAll(explanation);
          this.user.rejectAll(explanation);
        },
      },
    );
    this.subs = new Subscriptions(this.connection, this.events, this.clock, opts.authorize, opts.subscribeTimeoutMs ?? 10_000);
    this.user = new UserSession(this.connection, this.events, this.clock, opts.authenticateUser, opts.subscribeTimeoutMs ?? 10_000);
    const connection = this.connection;
    const subs = this.subs;
    this.handlers = {
      get established() {
        return connection.established;
      },
      onEstablished: (f) => connection.onEstablished(f),
      onPing: () => connection.send({ event: 'pusher:pong', data: {} }),
      onServerError: (f) => this.onServerError(f),
      onSubscriptionError: (f) => subs.onSubscriptionError(f),
      onSubscribed: (f) => subs.onSubscribed(f),
      onCount: (f) => subs.onCount(f),
      onMemberAdded: (f) => subs.onMemberAdded(f),
      onMemberRemoved: (f) => subs.onMemberRemoved(f),
      onEncrypted: (f) => subs.onEncrypted(f),
      onCacheMiss: (f) => subs.onCacheMiss(f),
      onSigninSuccess: (f) => this.user.onSigninSuccess(f),
    };
  }

  get state(): ConnectionState {
    return this.connection.state;
  }

  get socketId(): string | undefined {
    return this.connection.socketId;
  }

  /** Why the last connection ended (code, server reason, explanation). */
  get lastClose(): CloseInfo | undefined {
    return this.connection.lastClose;
  }

  get socketUrl(): string {
    return this.url;
  }

  on<K extends keyof RealtimeClientEvents>(event: K, listener: Listener<RealtimeClientEvents[K]>): Disposable {
    return this.events.on(event, listener);
  }

  connect(): void {
    this.connection.connect();
  }

  /** Closes the socket and stays disconnected; subscriptions are kept and renewed on the next connect(). */
  disconnect(reason = 'disconnected by you'): void {
    this.connection.disconnect(reason);
  }

  /** Stops everything and forgets all listeners. */
  dispose(): void {
    this.disconnect();
    this.subs.clear();
    this.events.clear();
  }

  // --- channels ----------------------------------------------------------------------------------

  /**
   * Subscribes (now if connected, else when the connection is up) and resolves when the server
   * confirms. The channel stays wanted even if this rejects (timeout, not connected): it is renewed
   * on every reconnect until unsubscribe().
   */
  subscribe(channel: string): Promise<SubscriptionSnapshot> {
    const problem = serverToUserId(channel) !== undefined ? "a user's own channel is joined by signin()" : channelNameProblem(channel);
    if (problem) return Promise.reject(this.events.error('protocol', `Cannot subscribe to "${channel}": ${problem}`, 'invalid_channel'));
    if (channelKind(channel) !== 'public' && !this.opts.authorize) {
      return Promise.reject(
        this.events.error('auth', `Subscribing to ${channel} needs channel auth: store the app secret or configure an auth endpoint.`, 'no_authorizer'),
      );
    }
    return this.subs.subscribe(channel);
  }

  /**
   * Signs the connection in as the user `authenticateUser` vouches for (pusher:signin), then joins
   * that user's own channel: events sent to the user (sendToUser) arrive as messages on
   * `#server-to-user-<id>`. Kept across reconnects until disconnect().
   */
  signin(): Promise<SignedInUser> {
    return this.user.signin();
  }

  /** The user this connection is signed in as, if any. */
  get signedInUser(): SignedInUser | undefined {
    return this.user.current;
  }

  unsubscribe(channel: string): void {
    this.subs.unsubscribe(channel);
  }

  subscriptions(): SubscriptionSnapshot[] {
    return this.subs.all();
  }

  subscription(channel: string): SubscriptionSnapshot | undefined {
    return this.subs.get(channel);
  }

  /**
   * Sends a client event to the other subscribers of a private/presence channel. Throws an ApiError
   * (never sends) when the name, channel, size or the 10/s limit would make the server reject it
   * (the server closes the socket with 4301 over the limit).
   */
  trigger(channel: string, event: string, data: unknown): void {
    const problem = clientEventProblem(channel, event);
    if (problem) throw this.events.error('protocol', problem, 'invalid_client_event');
    if (this.connection.state !== 'connected') throw this.events.error('network', `Not connected: cannot send ${event}`, 'not_connected');
    if (!this.subs.isSubscribed(channel)) throw this.events.error('protocol', `Subscribe to ${channel} before sending client events on it`, 'not_subscribed');
    const encoded = JSON.stringify(data ?? null);
    if (byteLength(encoded) > LIMITS.maxEventDataBytes)
      throw this.events.error('protocol', `Client event data is larger than ${LIMITS.maxEventDataBytes} bytes`, 'too_large');
    const now = this.clock.now();
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
    this.connection.send({ event, channel, data });
  }

  /**
   * pusher:error. A code in 4000–4299 means the server is ending the connection with that code
   * (protocol 7, like pusher-js's handshake handling): it is acted on as that close code now, so
   * 4001 stops reconnecting whatever close code follows. Anything else is a subscription's or the
   * app's problem and is reported.
   */
  private onServerError(f: WireFrame): void {
    const v = validate(pusherErrorSchema, decodeData(f.data));
    const message = v.ok ? (v.value.message ?? 'unknown error') : `unreadable error ${snippet(JSON.stringify(f.data) ?? '')}`;
    const code = v.ok ? v.value.code : undefined;
    if (endsConnection(code)) return this.connection.closedByServer(code, message);
    if (f.channel === undefined && this.user.onServerError(message)) return;
    this.subs.onServerError(f, message, code != null ? String(code) : undefined);
  }
}
