// Every HMAC of the realtime service lives here: REST request signatures, private/presence channel
// auth, user sign-in, and webhook signatures. The client signs with these and the sandbox verifies
// with the same functions, so the two cannot drift apart. Wire format: ../shared/protocols.md §1
// and pusher-http-node lib/requests.js, lib/auth.js.
import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from '../../core/nodeHttp';
import { LIMITS } from './protocol';

export interface AppCredentials {
  key: string;
  secret: string;
}

export function hmacSha256Hex(secret: string, text: string | Uint8Array): string {
  // A string is hashed as its UTF-8 bytes (update's default), bytes as they are.
  return createHmac('sha256', secret).update(text).digest('hex');
}

export function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** Constant-time comparison of a signature as given (possibly absent) with the expected one. */
function signaturesEqual(given: string | null | undefined, expected: string): boolean {
  return safeEqual(given ?? undefined, expected);
}

// --- REST requests -----------------------------------------------------------------------------

/** Query parameters the signature scheme owns; a caller's own parameters may not reuse them. */
const RESERVED_PARAMS = new Set(['auth_key', 'auth_timestamp', 'auth_version', 'auth_signature', 'body_md5']);

/** `METHOD\npath\nk=v&k=v` with keys sorted by code unit and values unescaped. */
export function restStringToSign(method: string, path: string, params: Record<string, string>): string {
  const query = Object.keys(params)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return `${method.toUpperCase()}\n${path}\n${query}`;
}

export interface RestSignInput {
  method: string;
  /** The request path exactly as sent, e.g. `/apps/123/events`. */
  path: string;
  /** Extra query parameters (e.g. filter_by_prefix, info). */
  params?: Record<string, string>;
  /** The exact body bytes sent, when there is a body. */
  body?: string;
  /** Unix seconds. */
  timestamp: number;
}

/** All query parameters of a signed request, `auth_signature` included. */
export function signRestRequest(app: AppCredentials, req: RestSignInput): Record<string, string> {
  const params: Record<string, string> = { auth_key: app.key, auth_timestamp: String(req.timestamp), auth_version: '1.0' };
  if (req.body !== undefined && req.body !== '') params.body_md5 = md5Hex(req.body);
  for (const [k, v] of Object.entries(req.params ?? {})) {
    if (RESERVED_PARAMS.has(k)) throw new Error(`query parameter "${k}" is set by request signing and cannot be given`);
    params[k] = v;
  }
  params.auth_signature = hmacSha256Hex(app.secret, restStringToSign(req.method, req.path, params));
  return params;
}

export type VerifyResult = { ok: true } | { ok: false; status: number; message: string };

/**
 * Checks a signed REST request the way the hosted API does: known auth_key, auth_timestamp within
 * ±600 s, body_md5 of the raw body, and the HMAC over method, path and the other parameters.
 * Messages are the plain-text bodies the service answers with.
 */
export function verifyRestRequest(app: AppCredentials, method: string, url: URL, body: string, nowSeconds = Math.floor(Date.now() / 1000)): VerifyResult {
  const q = url.searchParams;
  const key = q.get('auth_key');
  if (key === null) return { ok: false, status: 401, message: 'Missing auth_key\n' };
  if (key !== app.key) return { ok: false, status: 401, message: 'Unknown auth_key\n' };
  const rawTs = q.get('auth_timestamp');
  const ts = rawTs === null || rawTs.trim() === '' ? NaN : Number(rawTs);
  if (!Number.isFinite(ts) || Math.abs(nowSeconds - ts) > LIMITS.restTimestampSkewSeconds) {
    return {
      ok: false,
      status: 401,
      message: `Timestamp expired: Given timestamp (${rawTs ?? 'none'}) not within ${LIMITS.restTimestampSkewSeconds}s of server time (${nowSeconds})\n`,
    };
  }
  if (q.get('auth_version') !== '1.0') return { ok: false, status: 401, message: 'Unsupported auth_version, expected 1.0\n' };
  if (body.length > 0 && q.get('body_md5') !== md5Hex(body)) return { ok: false, status: 401, message: 'Invalid body_md5\n' };
  const params: Record<string, string> = {};
  for (const [k, v] of q.entries()) if (k !== 'auth_signature') params[k] = v;
  const toSign = restStringToSign(method, url.pathname, params);
  const given = q.get('auth_signature');
  if (!signaturesEqual(given, hmacSha256Hex(app.secret, toSign))) {
    return {
      ok: false,
      status: 401,
      message: `Invalid signature: Expected HMAC SHA256 hex digest of ${toSign.replace(/\n/g, '\\n')}, but got ${given ?? 'none'}\n`,
    };
  }
  return { ok: true };
}

// --- channel auth and sign-in ------------------------------------------------------------------

export interface ChannelAuth {
  auth: string;
  channel_data?: string;
  /** Encrypted channels: base64 of the channel's secretbox key. Not signed, never sent to the server. */
  shared_secret?: string;
}

/**
 * The string a private or presence subscription carries: `<key>:<hex HMAC>` of
 * `socket_id:channel` or, for presence, `socket_id:channel:channel_data`.
 * `channelData` is the exact JSON string sent with the subscription.
 */
export function signChannel(app: AppCredentials, socketId: string, channel: string, channelData?: string): ChannelAuth {
  const text = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  const auth = `${app.key}:${hmacSha256Hex(app.secret, text)}`;
  return channelData === undefined ? { auth } : { auth, channel_data: channelData };
}

/** Presence membership as the server library serialises it (`JSON.stringify({user_id, user_info})`). */
export function presenceChannelData(userId: string, userInfo?: unknown): string {
  return JSON.stringify(userInfo === undefined ? { user_id: userId } : { user_id: userId, user_info: userInfo });
}

export function verifyChannelAuth(app: AppCredentials, socketId: string, channel: string, auth: string | undefined, channelData?: string): boolean {
  if (auth === undefined) return false;
  return signaturesEqual(auth, signChannel(app, socketId, channel, channelData).auth);
}

/** `pusher:signin` auth: HMAC of `socket_id::user::user_data`. */
export function signUser(app: AppCredentials, socketId: string, userData: string): { auth: string; user_data: string } {
  return { auth: `${app.key}:${hmacSha256Hex(app.secret, `${socketId}::user::${userData}`)}`, user_data: userData };
}

export function verifyUserAuth(app: AppCredentials, socketId: string, auth: string, userData: string): boolean {
  return signaturesEqual(auth, signUser(app, socketId, userData).auth);
}

// --- webhooks ----------------------------------------------------------------------------------

/** `X-Pusher-Signature`: hex HMAC of the raw body. */
/** Over the body's bytes as sent: pass a Buffer when they may not be UTF-8. */
export function signWebhook(secret: string, rawBody: string | Uint8Array): string {
  return hmacSha256Hex(secret, rawBody);
}

export function verifyWebhookSignature(app: AppCredentials, key: string | undefined, signature: string | undefined, rawBody: string | Uint8Array): boolean {
  return key === app.key && signaturesEqual(signature, signWebhook(app.secret, rawBody));
}
