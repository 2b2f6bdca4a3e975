// The realtime client's public shapes: options, states, events and snapshots. Re-exported by
// client.ts, which is where callers import them from.
import type * as Ws from 'ws';
import type { ApiError } from '../../core/errors';
import type { Clock } from '../../core/clock';
import type { BackoffPolicy } from '../../core/retry';
import type { ChannelAuthorizer } from './auth';
import type { RealtimeEndpoint } from './endpoints';
import type { CloseAction, WireFrame } from './protocol';

export type { BackoffPolicy } from '../../core/retry';

export type ConnectionState = 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'disconnected';

/** After a 4100–4199 close or a lost connection; the protocol asks for at least 1 s. */
export const DEFAULT_BACKOFF: Readonly<Required<BackoffPolicy>> = { baseDelayMs: 2_000, maxDelayMs: 60_000, minDelayMs: 1_000 };

/**
 * After a 4200–4299 close ("reconnect immediately"): soon, but never at once, and growing while
 * the server keeps doing it, so a server that greets and closes cannot spin the client.
 */
export const DEFAULT_QUICK_BACKOFF: Readonly<Required<BackoffPolicy>> = { baseDelayMs: 200, maxDelayMs: 2_000, minDelayMs: 100 };

export interface RealtimeClientOptions extends RealtimeEndpoint {
  /** Shown in errors, e.g. "Realtime (sandbox)". */
  service?: string;
  authorize?: ChannelAuthorizer;
  /** How signin() proves who the user is (local signing or the app's user-auth endpoint). */
  authenticateUser?: UserAuthenticator;
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
  /** 4200–4299 reconnect soon (`quickBackoff`) this many times in a row, then back off (a server stuck in a loop). Default 3. */
  maxImmediateRetries?: number;
  backoff?: Partial<BackoffPolicy>;
  quickBackoff?: Partial<BackoffPolicy>;
  random?: () => number;
  clock?: Clock;
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
  /** Never 0: even "reconnect immediately" waits a little. */
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

/**
 * An event as received; `data` is as on the wire (usually a JSON string), see `messageData`.
 * On private-encrypted- channels `data` is the decrypted payload and `decrypted` is true.
 */
export type RealtimeMessage = Readonly<WireFrame & { decrypted?: boolean }>;

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
  | { kind: 'count'; channel: string; count: number }
  /** A cache channel had no event to replay on subscribe (fetch the initial state elsewhere). */
  | { kind: 'cache-miss'; channel: string };

export type MembersEvent =
  | { kind: 'added'; channel: string; member: PresenceMember }
  | { kind: 'removed'; channel: string; member: PresenceMember }
  | { kind: 'reset'; channel: string; members: PresenceMember[] };

/** Who a signin() made this connection: `userData` is the signed user_data, parsed. */
export interface SignedInUser {
  id: string;
  userData: unknown;
}

export type UserEvent = { kind: 'signed-in'; user: SignedInUser } | { kind: 'failed'; error: ApiError };

export interface RealtimeClientEvents {
  state: StateChange;
  message: RealtimeMessage;
  subscription: SubscriptionEvent;
  members: MembersEvent;
  /** Sign-in results; events sent to the user arrive as messages on `#server-to-user-<id>`. */
  user: UserEvent;
  reconnect: ReconnectPlan;
  /** Problems that do not change the state: protocol errors, pusher:error, bad frames. Never thrown. */
  error: ApiError;
}

export interface Disposable {
  dispose(): void;
}

// --- signing in (pusher:signin) -----------------------------------------------------------------

export interface UserAuthRequest {
  socketId: string;
  signal?: AbortSignal;
}

/** What pusher:signin carries: `user_data` is the exact JSON string that was signed. */
export interface UserAuth {
  auth: string;
  user_data: string;
}

export type UserAuthenticator = (req: UserAuthRequest) => Promise<UserAuth>;
