// Wire facts of Pusher Channels protocol 7, shared by our client and the sandbox broker so both
// sides agree on names, limits and close codes (see ../shared/protocols.md §1 and the pusher-js
// source: src/core/connection/protocol/protocol.ts).
import * as z from 'zod/mini';

export const PROTOCOL_VERSION = 7;

/** Limits of the hosted service that the sandbox enforces and the client checks before sending. */
export const LIMITS = {
  /** Bytes of `data` in one published event. */
  maxEventDataBytes: 10 * 1024,
  maxChannelsPerEvent: 100,
  maxBatchEvents: 10,
  maxChannelNameLength: 200,
  maxEventNameLength: 200,
  maxPresenceMembers: 100,
  maxUserInfoBytes: 1024,
  clientEventsPerSecond: 10,
  /** Seconds of allowed clock skew on signed REST requests. */
  restTimestampSkewSeconds: 600,
} as const;

export const CHANNEL_NAME_RE = /^[A-Za-z0-9_\-=@,.;]+$/;
export const SOCKET_ID_RE = /^\d+\.\d+$/;

export type ChannelKind = 'public' | 'private' | 'private-encrypted' | 'presence';

export function channelKind(name: string): ChannelKind {
  if (name.startsWith('presence-')) return 'presence';
  if (name.startsWith('private-encrypted-')) return 'private-encrypted';
  if (name.startsWith('private-')) return 'private';
  return 'public';
}

/** Cache channels keep their last server event for new subscribers (pusher docs: cache-channels). */
export const CACHE_CHANNEL_RE = /^(?:private-encrypted-|private-|presence-)?cache-/;

export function isCacheChannel(name: string): boolean {
  return CACHE_CHANNEL_RE.test(name);
}

/**
 * A signed-in user's own channel: events the server sends to that user (pusher-http-node
 * sendToUser, pusher-js src/core/user.ts). Only the signed-in connections of that user may join.
 */
export const SERVER_TO_USER_PREFIX = '#server-to-user-';

export function serverToUserChannel(userId: string): string {
  return `${SERVER_TO_USER_PREFIX}${userId}`;
}

/** The user a `#server-to-user-<id>` channel belongs to, or undefined for any other channel. */
export function serverToUserId(channel: string): string | undefined {
  return channel.startsWith(SERVER_TO_USER_PREFIX) ? channel.slice(SERVER_TO_USER_PREFIX.length) : undefined;
}

/** Why a channel name is unusable, or undefined when it is fine. */
export function channelNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'channel name is empty';
  if (name.length > LIMITS.maxChannelNameLength) return `channel name is longer than ${LIMITS.maxChannelNameLength} characters`;
  // User ids are any non-empty string (the server library checks no more).
  if (name.startsWith(SERVER_TO_USER_PREFIX)) return name.length > SERVER_TO_USER_PREFIX.length ? undefined : 'the user id is missing';
  if (!CHANNEL_NAME_RE.test(name)) return 'channel name may only contain letters, digits and _ - = @ , . ;';
  return undefined;
}

/** Why a client event cannot be sent on `channel`, or undefined when it can. */
export function clientEventProblem(channel: string, event: string): string | undefined {
  if (!event.startsWith('client-')) return `client event names must start with "client-" (got "${event}")`;
  if (event.length > LIMITS.maxEventNameLength) return `event name is longer than ${LIMITS.maxEventNameLength} characters`;
  const kind = channelKind(channel);
  if (kind === 'public') return 'client events are only allowed on private- and presence- channels';
  if (kind === 'private-encrypted') return 'client events are not allowed on encrypted channels';
  return undefined;
}

export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

// --- close codes -------------------------------------------------------------------------------

export const CLOSE = {
  tlsOnly: 4000,
  appNotFound: 4001,
  appDisabled: 4003,
  overConnectionQuota: 4004,
  pathNotFound: 4005,
  invalidVersionFormat: 4006,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  unauthorized: 4009,
  overCapacity: 4100,
  reconnectNow: 4200,
  pongNotReceived: 4201,
  closedAfterInactivity: 4202,
  clientEventRateLimited: 4301,
} as const;

const CLOSE_REASONS: Record<number, string> = {
  4000: 'the app only accepts TLS connections (use wss://)',
  4001: 'the app does not exist (unknown app key)',
  4003: 'the app is disabled',
  4004: 'the app is over its connection quota',
  4005: 'path not found',
  4006: 'invalid version string format',
  4007: 'unsupported protocol version',
  4008: 'no protocol version supplied',
  4009: 'the connection is unauthorized',
  4100: 'the service is over capacity',
  4200: 'the service asked for a reconnect',
  4201: 'pong reply not received',
  4202: 'closed after inactivity',
  4301: 'client events sent faster than the rate limit',
};

/** A person-readable explanation of a close code (the server's reason text, if any, is shown too). */
export function describeClose(code: number, reason?: string): string {
  const known = CLOSE_REASONS[code];
  const text = known ?? (code === 1000 ? 'closed normally' : code === 1006 ? 'connection lost' : `closed with code ${code}`);
  return reason && reason !== known ? `${text} (${code}: ${reason})` : `${text} (${code})`;
}

/**
 * What a client does after the server closes with `code` (protocol "Connection closure"):
 * 4000–4099 must not reconnect unchanged, 4100–4199 back off ≥ 1 s, 4200–4299 reconnect at once.
 * Anything else (network loss 1006, 4300+ such as the client-event rate limit) backs off: a
 * reconnect may well succeed, but not in a tight loop.
 */
export type CloseAction = 'stop' | 'backoff' | 'immediate';

export function closeAction(code: number): CloseAction {
  if (code >= 4000 && code <= 4099) return 'stop';
  if (code >= 4200 && code <= 4299) return 'immediate';
  return 'backoff';
}

// --- frames ------------------------------------------------------------------------------------

/** An event as it travels on the socket. `data` is usually a JSON-encoded string (double encoding). */
export interface WireFrame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

export type DecodedFrame = { ok: true; frame: WireFrame } | { ok: false; problem: string };

/**
 * Parses one text frame without ever throwing. Only the envelope is checked here (this runs once
 * per message, so it is plain typeof checks rather than a schema); payloads of `pusher:` events
 * are validated with the schemas below where they are used.
 */
export function decodeFrame(text: string): DecodedFrame {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'frame is not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, problem: 'frame is not a JSON object' };
  const f = v as Record<string, unknown>;
  if (typeof f.event !== 'string') return { ok: false, problem: 'frame has no event name' };
  if (f.channel !== undefined && typeof f.channel !== 'string') return { ok: false, problem: 'frame channel is not a string' };
  if (f.user_id !== undefined && typeof f.user_id !== 'string') return { ok: false, problem: 'frame user_id is not a string' };
  return { ok: true, frame: f as unknown as WireFrame };
}

/** `data` of a server frame as a value: JSON strings are decoded, anything else is returned as is. */
export function decodeData(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export const connectionEstablishedSchema = z.object({
  socket_id: z.string().check(z.regex(SOCKET_ID_RE)),
  activity_timeout: z.optional(z.number().check(z.positive())),
});

export const pusherErrorSchema = z.object({
  message: z.optional(z.string()),
  code: z.optional(z.nullable(z.number())),
});

export const presenceInfoSchema = z.object({
  presence: z.object({
    ids: z.array(z.string()),
    hash: z.record(z.string(), z.unknown()),
    count: z.number(),
  }),
});

export const memberAddedSchema = z.object({ user_id: z.string(), user_info: z.optional(z.unknown()) });
export const memberRemovedSchema = z.object({ user_id: z.string() });
export const subscriptionCountSchema = z.object({ subscription_count: z.number() });

/** Client → server payloads the broker accepts. */
export const subscribeDataSchema = z.object({
  channel: z.string(),
  auth: z.optional(z.string()),
  channel_data: z.optional(z.string()),
});

export const unsubscribeDataSchema = z.object({ channel: z.string() });

export const signinDataSchema = z.object({ auth: z.string(), user_data: z.string() });
export const signinSuccessSchema = z.object({ user_data: z.string() });

/** `channel_data` of a presence subscription: user_id may be a number on the wire; it is used as a string. */
export const channelDataSchema = z.object({
  user_id: z.union([z.string(), z.number()]),
  user_info: z.optional(z.unknown()),
});

/** `user_data` of a sign-in: `id` is required and non-empty, anything else (user_info, watchlist) is the app's. */
export const userDataSchema = z.object({ id: z.string().check(z.minLength(1)) });

// --- REST and webhooks -------------------------------------------------------------------------

export const triggerBodySchema = z.object({
  name: z.string(),
  data: z.string(),
  channels: z.optional(z.array(z.string())),
  channel: z.optional(z.string()),
  socket_id: z.optional(z.string()),
  info: z.optional(z.string()),
});
export type TriggerBody = z.infer<typeof triggerBodySchema>;

/** POST /users/<id>/events: an event for one user's connections. */
export const userEventBodySchema = z.object({ name: z.string(), data: z.string(), socket_id: z.optional(z.string()) });

export const batchBodySchema = z.object({
  batch: z.array(
    z.object({
      name: z.string(),
      data: z.string(),
      channel: z.string(),
      socket_id: z.optional(z.string()),
      info: z.optional(z.string()),
    }),
  ),
});
export type BatchEvent = z.infer<typeof batchBodySchema>['batch'][number];

export const channelAttributesSchema = z.object({
  occupied: z.optional(z.boolean()),
  user_count: z.optional(z.number()),
  subscription_count: z.optional(z.number()),
});
export type ChannelAttributes = z.infer<typeof channelAttributesSchema>;

export const channelsResponseSchema = z.object({ channels: z.record(z.string(), channelAttributesSchema) });
export const usersResponseSchema = z.object({ users: z.array(z.object({ id: z.string() })) });
export const triggerResponseSchema = z.object({ channels: z.optional(z.record(z.string(), channelAttributesSchema)) });
export const batchResponseSchema = z.object({ batch: z.optional(z.array(channelAttributesSchema)) });

export const webhookEventSchema = z.object({
  name: z.string(),
  channel: z.string(),
  user_id: z.optional(z.string()),
  event: z.optional(z.string()),
  data: z.optional(z.string()),
  socket_id: z.optional(z.string()),
  subscription_count: z.optional(z.number()),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const webhookBodySchema = z.object({ time_ms: z.number(), events: z.array(webhookEventSchema) });
export type WebhookBody = z.infer<typeof webhookBodySchema>;
