// Event dispatch for the realtime client: the listener lists behind `on()`, and the path of every
// received frame from raw socket data to the handler that owns it (connection, subscriptions, or
// the app's listeners). This runs once per message, so it stays free of allocations it can avoid.
import type * as Ws from 'ws';
import { ApiError, errorText } from '../../core/errors';
import { decodeFrame, type WireFrame } from './protocol';
import type { Disposable, RealtimeClientEvents } from './types';

export type Listener<T> = (value: T) => void;

type ListenerLists = { [K in keyof RealtimeClientEvents]: Listener<RealtimeClientEvents[K]>[] };

export class ClientEvents {
  private readonly lists: ListenerLists = { state: [], message: [], subscription: [], members: [], user: [], reconnect: [], error: [] };

  constructor(readonly service: string) {}

  on<K extends keyof RealtimeClientEvents>(event: K, listener: Listener<RealtimeClientEvents[K]>): Disposable {
    const list = this.lists[event] as Listener<RealtimeClientEvents[K]>[];
    list.push(listener);
    return {
      dispose: () => {
        const i = list.indexOf(listener);
        if (i >= 0) list.splice(i, 1);
      },
    };
  }

  emit<K extends keyof RealtimeClientEvents>(event: K, value: RealtimeClientEvents[K]): void {
    const list = this.lists[event] as Listener<RealtimeClientEvents[K]>[];
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](value);
      } catch (e) {
        // A listener's bug must not break the connection; report it unless it came from an error listener.
        if (event !== 'error') this.emit('error', this.error('protocol', `A ${event} listener failed: ${errorText(e)}`, 'listener'));
      }
    }
  }

  clear(): void {
    for (const k of Object.keys(this.lists) as (keyof RealtimeClientEvents)[]) this.lists[k].length = 0;
  }

  /** An ApiError naming this client's service; the one place the realtime files build them. */
  error(kind: ApiError['kind'], message: string, code?: string): ApiError {
    return new ApiError({ kind, service: this.service, message, code });
  }
}

/** Who handles which control frame. App events go straight to the `message` listeners. */
export interface FrameHandlers {
  /** False until connection_established has been accepted on the current socket. */
  readonly established: boolean;
  onEstablished(f: WireFrame): void;
  onPing(): void;
  onServerError(f: WireFrame): void;
  onSubscriptionError(f: WireFrame): void;
  onSubscribed(f: WireFrame): void;
  onCount(f: WireFrame): void;
  onMemberAdded(f: WireFrame): void;
  onMemberRemoved(f: WireFrame): void;
  onSigninSuccess(f: WireFrame): void;
  /** pusher:cache_miss: a cache channel had no event to replay. */
  onCacheMiss(f: WireFrame): void;
  /** App events on private-encrypted- channels, which arrive boxed. */
  onEncrypted(f: WireFrame): void;
}

/** Decodes one received frame and hands it on; never throws (a bad frame must not break the socket). */
export function dispatchFrame(raw: Ws.RawData, isBinary: boolean, events: ClientEvents, h: FrameHandlers): void {
  try {
    if (isBinary) return events.emit('error', events.error('protocol', 'The server sent a binary frame; protocol 7 uses text frames only', 'binary_frame'));
    // ws hands text frames over as one Buffer (its default binaryType); the rest is for completeness.
    const text = Buffer.isBuffer(raw) ? raw.toString() : Array.isArray(raw) ? Buffer.concat(raw).toString() : Buffer.from(raw).toString();
    const decoded = decodeFrame(text);
    if (!decoded.ok) return events.emit('error', events.error('protocol', `Ignored a bad frame (${decoded.problem}): ${snippet(text)}`, 'bad_frame'));
    const f = decoded.frame;
    // 'pusher:' and 'pusher_internal:' both start with "pusher"; everything else is an app event.
    if (f.event.startsWith('pusher')) return dispatchControl(f, events, h);
    if (f.channel?.startsWith('private-encrypted-')) return h.onEncrypted(f);
    events.emit('message', f);
  } catch (e) {
    events.emit('error', events.error('protocol', `Failed to handle a frame: ${errorText(e)}`, 'frame_handler'));
  }
}

function dispatchControl(f: WireFrame, events: ClientEvents, h: FrameHandlers): void {
  if (!h.established) {
    if (f.event === 'pusher:connection_established') return h.onEstablished(f);
    if (f.event === 'pusher:error') return h.onServerError(f);
    return events.emit('error', events.error('protocol', `Expected pusher:connection_established first, got ${f.event}`, 'bad_handshake'));
  }
  switch (f.event) {
    case 'pusher:ping':
      return h.onPing();
    case 'pusher:pong':
      // Any frame counts as activity; the connection has already noted it.
      return;
    case 'pusher:error':
      return h.onServerError(f);
    case 'pusher:subscription_error':
      return h.onSubscriptionError(f);
    case 'pusher_internal:subscription_succeeded':
      return h.onSubscribed(f);
    case 'pusher_internal:subscription_count':
      return h.onCount(f);
    case 'pusher_internal:member_added':
      return h.onMemberAdded(f);
    case 'pusher_internal:member_removed':
      return h.onMemberRemoved(f);
    case 'pusher:cache_miss':
      return h.onCacheMiss(f);
    case 'pusher:signin_success':
      return h.onSigninSuccess(f);
    case 'pusher:connection_established':
      return events.emit('error', events.error('protocol', 'Ignored a second pusher:connection_established', 'bad_frame'));
    default:
      // Other pusher: events are passed on like app events.
      return events.emit('message', f);
  }
}

export function snippet(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
