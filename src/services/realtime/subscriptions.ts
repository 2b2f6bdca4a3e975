// The realtime client's channels: which are wanted, their auth (private/presence signatures from
// the authorizer: local signing or an auth endpoint), pending → subscribed | failed, presence
// members and subscription counts, and the callers waiting on subscribe().
import type { Clock, TimerHandle } from '../../core/clock';
import { ApiError, errorText } from '../../core/errors';
import { validate } from '../../core/validate';
import type { ChannelAuthorizer } from './auth';
import { snippet, type ClientEvents } from './dispatch';
import { channelKind, decodeData, memberAddedSchema, memberRemovedSchema, presenceInfoSchema, subscriptionCountSchema, type WireFrame } from './protocol';
import { decryptEventData } from './encryption';
import type { ConnectionState, PresenceMember, RealtimeMessage, SubscriptionSnapshot, SubscriptionState } from './types';

/** The part of the connection the subscriptions need. */
export interface SubscriptionLink {
  readonly state: ConnectionState;
  readonly socketId: string | undefined;
  /** Changes with every socket: auth answers for an older one are dropped. */
  readonly generation: number;
  /** Between connect() and disconnect(). */
  readonly wanted: boolean;
  send(frame: { event: string; channel?: string; data: unknown }): void;
}

interface Waiter {
  resolve(s: SubscriptionSnapshot): void;
  reject(e: ApiError): void;
  timer: TimerHandle | undefined;
}

interface Subscription {
  readonly channel: string;
  state: SubscriptionState;
  error?: ApiError;
  count?: number;
  members?: Map<string, unknown>;
  myId?: string;
  /** Encrypted channels: the secretbox key from the auth answer's shared_secret. */
  key?: Uint8Array;
  waiters: Waiter[];
}

export class Subscriptions {
  private readonly subs = new Map<string, Subscription>();

  constructor(
    private readonly link: SubscriptionLink,
    private readonly events: ClientEvents,
    private readonly clock: Clock,
    private readonly authorize: ChannelAuthorizer | undefined,
    private readonly subscribeTimeoutMs: number,
  ) {}

  /** Validation of the name and authorizer is the caller's; this tracks the channel and waits for the server. */
  subscribe(channel: string): Promise<SubscriptionSnapshot> {
    let sub = this.subs.get(channel);
    if (sub?.state === 'subscribed') return Promise.resolve(snapshot(sub));
    if (!sub) {
      sub = { channel, state: 'pending', waiters: [] };
      this.subs.set(channel, sub);
      if (this.link.state === 'connected') this.sendSubscribe(sub);
    } else if (sub.state === 'failed') {
      sub.state = 'pending';
      sub.error = undefined;
      if (this.link.state === 'connected') this.sendSubscribe(sub);
    }
    if (!this.link.wanted) {
      return Promise.reject(this.events.error('network', `Not connected: ${channel} will be subscribed when you connect.`, 'not_connected'));
    }
    const s = sub;
    return new Promise<SubscriptionSnapshot>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: this.clock.setTimer(
          () => {
            s.waiters.splice(s.waiters.indexOf(waiter), 1);
            reject(
              this.events.error(
                'timeout',
                `The server did not confirm the subscription to ${channel} within ${Math.round(this.subscribeTimeoutMs / 1000)} s; it is retried on reconnect.`,
                'subscribe_timeout',
              ),
            );
            // Awaited: the caller's promise must settle even if nothing else keeps the process running.
          },
          this.subscribeTimeoutMs,
          { awaited: true },
        ),
      };
      s.waiters.push(waiter);
    });
  }

  unsubscribe(channel: string): void {
    const sub = this.subs.get(channel);
    if (!sub) return;
    this.subs.delete(channel);
    this.settle(sub, this.events.error('protocol', `Unsubscribed from ${channel} before the server confirmed it`, 'unsubscribed'));
    if (this.link.state === 'connected') this.link.send({ event: 'pusher:unsubscribe', data: { channel } });
    this.events.emit('subscription', { kind: 'unsubscribed', channel });
  }

  isSubscribed(channel: string): boolean {
    return this.subs.get(channel)?.state === 'subscribed';
  }

  all(): SubscriptionSnapshot[] {
    return [...this.subs.values()].map(snapshot);
  }

  get(channel: string): SubscriptionSnapshot | undefined {
    const s = this.subs.get(channel);
    return s && snapshot(s);
  }

  clear(): void {
    this.subs.clear();
  }

  /** A new socket is connected: ask it for every wanted channel that has not failed. */
  renewAll(): void {
    for (const sub of this.subs.values()) {
      if (sub.state === 'failed') continue;
      sub.state = 'pending';
      this.sendSubscribe(sub);
    }
  }

  /** After a socket ends, every subscription must be confirmed again by the next one. */
  reset(): void {
    for (const sub of this.subs.values()) {
      if (sub.state === 'subscribed') sub.state = 'pending';
      if (sub.members) {
        sub.members = undefined;
        this.events.emit('members', { kind: 'reset', channel: sub.channel, members: [] });
      }
      sub.count = undefined;
    }
  }

  /** The connection stopped for good: everyone waiting hears why. */
  rejectAll(explanation: string): void {
    for (const sub of this.subs.values()) this.settle(sub, this.events.error('network', `Not connected: ${explanation}`, 'closed'));
  }

  private sendSubscribe(sub: Subscription): void {
    const socketId = this.link.socketId;
    if (socketId === undefined) return;
    if (channelKind(sub.channel) === 'public') {
      this.link.send({ event: 'pusher:subscribe', data: { channel: sub.channel } });
      return;
    }
    const gen = this.link.generation;
    const authorize = this.authorize;
    if (!authorize) return this.fail(sub, this.events.error('auth', `No channel auth configured for ${sub.channel}`, 'no_authorizer'));
    authorize({ socketId, channel: sub.channel }).then(
      (auth) => {
        // The socket may have been replaced while auth was fetched: the new one re-subscribes itself.
        if (gen !== this.link.generation || this.subs.get(sub.channel) !== sub) return;
        if (channelKind(sub.channel) === 'private-encrypted') {
          if (auth.shared_secret === undefined)
            return this.fail(
              sub,
              this.events.error(
                'auth',
                `The auth for ${sub.channel} has no shared_secret: an encrypted channel needs one to decrypt its events.`,
                'no_shared_secret',
              ),
            );
          sub.key = Buffer.from(auth.shared_secret, 'base64');
        }
        const data: Record<string, string> = { channel: sub.channel, auth: auth.auth };
        if (auth.channel_data !== undefined) {
          data.channel_data = auth.channel_data;
          sub.myId = presenceUserId(auth.channel_data);
        }
        this.link.send({ event: 'pusher:subscribe', data });
      },
      (e: unknown) => {
        if (this.subs.get(sub.channel) !== sub) return;
        const err = e instanceof ApiError ? e : this.events.error('auth', `Channel auth for ${sub.channel} failed: ${errorText(e)}`, 'auth_failed');
        this.fail(sub, err);
      },
    );
  }

  // --- frames from the server ---------------------------------------------------------------------

  /**
   * An app event on a private-encrypted- channel: emitted decrypted (and marked so), or, when it
   * cannot be opened, reported as an error event; the subscription and the connection go on.
   */
  onEncrypted(f: WireFrame): void {
    const channel = f.channel ?? '';
    const key = this.subs.get(channel)?.key;
    const opened = key ? decryptEventData(key, f.data) : { ok: false as const, problem: 'no key for this channel yet (not subscribed)' };
    if (!opened.ok)
      return this.events.emit('error', this.events.error('protocol', `Could not decrypt ${f.event} on ${channel}: ${opened.problem}`, 'decrypt_failed'));
    const msg: RealtimeMessage =
      f.user_id === undefined
        ? { event: f.event, channel, data: opened.plaintext, decrypted: true }
        : { event: f.event, channel, data: opened.plaintext, user_id: f.user_id, decrypted: true };
    this.events.emit('message', msg);
  }

  onSubscribed(f: WireFrame): void {
    const sub = this.of(f);
    if (!sub) return;
    if (channelKind(sub.channel) === 'presence') {
      const v = validate(presenceInfoSchema, decodeData(f.data));
      if (!v.ok) return this.fail(sub, this.events.error('protocol', `Bad presence data for ${sub.channel} (${v.problem})`, 'bad_frame'));
      sub.members = new Map(Object.entries(v.value.presence.hash));
      this.events.emit('members', { kind: 'reset', channel: sub.channel, members: membersOf(sub.members) });
    }
    sub.state = 'subscribed';
    sub.error = undefined;
    this.events.emit('subscription', { kind: 'succeeded', channel: sub.channel });
    const snap = snapshot(sub);
    for (const w of sub.waiters.splice(0)) {
      this.clock.clearTimer(w.timer);
      w.resolve(snap);
    }
  }

  /** A cache channel had nothing to replay: said as a subscription event, and passed on as the message it is. */
  onCacheMiss(f: WireFrame): void {
    if (f.channel !== undefined) this.events.emit('subscription', { kind: 'cache-miss', channel: f.channel });
    this.events.emit('message', f);
  }

  onCount(f: WireFrame): void {
    const sub = this.of(f);
    if (!sub) return;
    const v = validate(subscriptionCountSchema, decodeData(f.data));
    if (!v.ok) return this.events.emit('error', this.events.error('protocol', `Bad subscription_count for ${sub.channel} (${v.problem})`, 'bad_frame'));
    sub.count = v.value.subscription_count;
    this.events.emit('subscription', { kind: 'count', channel: sub.channel, count: sub.count });
  }

  onMemberAdded(f: WireFrame): void {
    const sub = this.of(f);
    if (!sub?.members) return;
    const v = validate(memberAddedSchema, decodeData(f.data));
    if (!v.ok) return this.events.emit('error', this.events.error('protocol', `Bad member_added on ${sub.channel} (${v.problem})`, 'bad_frame'));
    sub.members.set(v.value.user_id, v.value.user_info);
    this.events.emit('members', { kind: 'added', channel: sub.channel, member: { id: v.value.user_id, info: v.value.user_info } });
  }

  onMemberRemoved(f: WireFrame): void {
    const sub = this.of(f);
    if (!sub?.members) return;
    const v = validate(memberRemovedSchema, decodeData(f.data));
    if (!v.ok) return this.events.emit('error', this.events.error('protocol', `Bad member_removed on ${sub.channel} (${v.problem})`, 'bad_frame'));
    const info = sub.members.get(v.value.user_id);
    if (!sub.members.delete(v.value.user_id)) return;
    this.events.emit('members', { kind: 'removed', channel: sub.channel, member: { id: v.value.user_id, info } });
  }

  /**
   * A pusher:error that does not end the connection. Hosted Channels rejects a subscription with
   * code null and names the channel only in the message; our sandbox also sets `channel`. Either
   * way a pending subscription named there fails; any other error is reported as is.
   */
  onServerError(f: WireFrame, message: string, code: string | undefined): void {
    const target =
      (f.channel !== undefined ? this.subs.get(f.channel) : undefined) ??
      [...this.subs.values()].find((s) => s.state === 'pending' && message.includes(s.channel));
    const err = this.events.error(target ? 'auth' : 'protocol', `${this.events.service} error${code ? ` ${code}` : ''}: ${message}`, code);
    if (target && target.state === 'pending') return this.fail(target, err);
    this.events.emit('error', err);
  }

  /** soketi-style rejections: `pusher:subscription_error` on the channel with {type, error, status}. */
  onSubscriptionError(f: WireFrame): void {
    const sub = this.of(f);
    const d = decodeData(f.data);
    const text =
      typeof d === 'object' && d !== null && typeof (d as { error?: unknown }).error === 'string'
        ? (d as { error: string }).error
        : snippet(JSON.stringify(d) ?? '');
    const err = this.events.error('auth', `Subscription to ${f.channel ?? 'a channel'} rejected: ${text}`, 'subscription_error');
    if (sub) this.fail(sub, err);
    else this.events.emit('error', err);
  }

  private of(f: WireFrame): Subscription | undefined {
    return f.channel === undefined ? undefined : this.subs.get(f.channel);
  }

  private fail(sub: Subscription, err: ApiError): void {
    sub.state = 'failed';
    sub.error = err;
    this.events.emit('subscription', { kind: 'failed', channel: sub.channel, error: err });
    this.settle(sub, err);
  }

  private settle(sub: Subscription, err: ApiError): void {
    for (const w of sub.waiters.splice(0)) {
      this.clock.clearTimer(w.timer);
      w.reject(err);
    }
  }
}

function snapshot(s: Subscription): SubscriptionSnapshot {
  const snap: SubscriptionSnapshot = { channel: s.channel, state: s.state };
  if (s.error) snap.error = s.error.message;
  if (s.count !== undefined) snap.subscriptionCount = s.count;
  if (s.members) snap.members = membersOf(s.members);
  if (s.myId !== undefined) snap.myId = s.myId;
  return snap;
}

function membersOf(map: Map<string, unknown>): PresenceMember[] {
  return [...map.entries()].map(([id, info]) => ({ id, info }));
}

function presenceUserId(channelData: string): string | undefined {
  try {
    const id = (JSON.parse(channelData) as { user_id?: unknown }).user_id;
    return typeof id === 'string' ? id : typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}
