// Whether a pusher:subscribe may go ahead: private, encrypted and presence channels need an `auth`
// signed with the app secret (encrypted channels exactly like private ones: the payloads are
// encrypted end to end, the broker never sees the key), presence channels valid channel_data
// within the member limits (../shared/protocols.md §1).
import { validate } from '../../core/validate';
import { LIMITS, byteLength, channelDataSchema, channelKind } from '../../services/realtime/protocol';
import { verifyChannelAuth, type AppCredentials } from '../../services/realtime/signing';

export type SubscribeCheck =
  | { ok: true; member?: { userId: string; info: unknown } }
  /** `authFailure`: reported like the hosted service reports a rejected auth (code null, channel named). */
  | { ok: false; message: string; authFailure: boolean };

export interface SubscribeRequest {
  socketId: string;
  channel: string;
  auth: string | undefined;
  channelData: string | undefined;
  /** Whether `userId` could join now (not already a member of a full presence channel). */
  presenceHasRoomFor(userId: string): boolean;
}

function refused(message: string): SubscribeCheck {
  return { ok: false, message, authFailure: true };
}

export function checkSubscribe(app: AppCredentials, r: SubscribeRequest): SubscribeCheck {
  const { socketId, channel: name, auth, channelData } = r;
  const kind = channelKind(name);
  if (kind === 'public') return { ok: true };
  const authKey = auth?.split(':')[0];
  if (auth === undefined || auth === '' || authKey === undefined)
    return refused(`Auth value for subscription to ${name} is invalid: should be of format 'key:signature'`);
  if (authKey !== app.key) return refused(`Invalid key in subscription auth data: '${authKey}'`);
  if (kind === 'presence' && channelData === undefined) return refused(`Presence subscription to ${name} needs channel_data`);
  const signed = kind === 'presence' ? `${socketId}:${name}:${channelData ?? ''}` : `${socketId}:${name}`;
  if (!verifyChannelAuth(app, socketId, name, auth, kind === 'presence' ? channelData : undefined)) {
    return refused(`Invalid signature: Expected HMAC SHA256 hex digest of ${signed}, but got ${auth.slice(authKey.length + 1)}`);
  }
  if (kind !== 'presence') return { ok: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(channelData ?? '');
  } catch {
    return refused('channel_data is not valid JSON');
  }
  const cd = validate(channelDataSchema, parsed);
  if (!cd.ok) return refused(`Invalid channel_data: ${cd.problem}`);
  const userId = String(cd.value.user_id);
  const info = cd.value.user_info;
  if (info !== undefined && byteLength(JSON.stringify(info)) > LIMITS.maxUserInfoBytes)
    return refused(`user_info is larger than ${LIMITS.maxUserInfoBytes} bytes`);
  if (!r.presenceHasRoomFor(userId)) {
    return { ok: false, message: `Cannot subscribe to ${name}: presence channels are limited to ${LIMITS.maxPresenceMembers} members`, authFailure: false };
  }
  return { ok: true, member: { userId, info } };
}
