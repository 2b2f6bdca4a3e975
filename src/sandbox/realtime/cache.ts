// Cache channels (`cache-`, `private-cache-`, `private-encrypted-cache-`, `presence-cache-`): the
// last event the server API triggered on each is kept for a while and replayed to every new
// subscriber; when there is none the subscriber gets `pusher:cache_miss` and the app a `cache_miss`
// webhook (pusher docs: cache-channels, server_api/webhooks). Client events are not cached.
import { isCacheChannel } from '../../services/realtime/protocol';

/** Hosted: "up to 30 minutes". */
export const CACHE_TTL_MS = 30 * 60_000;

export interface CachedEvent {
  event: string;
  data: string;
}

export class ChannelCache {
  private readonly entries = new Map<string, CachedEvent & { at: number }>();
  /** Channels whose miss was already reported by webhook and not filled since (the hosted webhook is de-duplicated). */
  private readonly missReported = new Set<string>();

  constructor(private readonly ttlMs = CACHE_TTL_MS) {}

  /** Keeps `event` if `channel` is a cache channel. */
  remember(channel: string, event: string, data: string): void {
    if (!isCacheChannel(channel)) return;
    this.entries.set(channel, { event, data, at: Date.now() });
    this.missReported.delete(channel);
  }

  /** The event to replay, or undefined on a miss (also when it has expired). */
  last(channel: string): CachedEvent | undefined {
    const e = this.entries.get(channel);
    if (!e) return undefined;
    if (Date.now() - e.at > this.ttlMs) {
      this.entries.delete(channel);
      return undefined;
    }
    return { event: e.event, data: e.data };
  }

  /** True the first time a miss on `channel` is seen since it was last filled: report that one. */
  firstMiss(channel: string): boolean {
    if (this.missReported.has(channel)) return false;
    this.missReported.add(channel);
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.missReported.clear();
  }
}
