// realtime_recent_messages: the first call for a channel subscribes to it (one socket per
// connection, kept for the life of the server) and every later call returns what arrived since,
// newest last. A realtime service keeps no history an agent could ask for, so this is what
// "recently" can mean: what this server has seen while it listened.
import { connectionId, SERVICE_LABELS, type RealtimeConnection } from '../core/connections';
import type { WorkbenchClients } from '../features/httpClients';
import type { ChannelAuthorizer } from '../services/realtime/auth';
import { messageData, RealtimeClient } from '../services/realtime/client';
import { connectionAuthorizer } from '../services/realtime/connectionAuth';

/** Messages kept per channel; older ones are dropped first. */
export const MAX_KEPT_MESSAGES = 100;
/** The user presence channels see this server as. */
const AGENT_USER = { id: 'api-workbench-agent' };

export interface SeenMessage {
  event: string;
  data: unknown;
  /** ISO time it arrived here. */
  at: string;
}

export interface ChannelLog {
  channel: string;
  connection: string;
  /** ISO time the subscription was confirmed. */
  listeningSince: string;
  /** This call made the subscription (nothing can have been seen before it). */
  subscribedNow: boolean;
  messages: SeenMessage[];
  /** Messages that arrived but were dropped as older than the last MAX_KEPT_MESSAGES. */
  dropped: number;
}

interface Listened {
  since: string;
  messages: SeenMessage[];
  dropped: number;
  waiters: Set<() => void>;
}

export class RecentMessages {
  private readonly sockets = new Map<string, RealtimeClient>();
  private readonly channels = new Map<string, Listened>();

  constructor(
    private readonly clients: WorkbenchClients,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * What arrived on `channel` since this server began listening to it. With `waitMs`, waits up to
   * that long for a first message when none has arrived yet (resolving as soon as one does).
   */
  async read(conn: RealtimeConnection, channel: string, waitMs = 0, signal?: AbortSignal): Promise<ChannelLog> {
    const key = `${connectionId(conn)}#${channel}`;
    let listened = this.channels.get(key);
    const subscribedNow = listened === undefined;
    if (!listened) {
      const client = this.socket(conn);
      const fresh: Listened = { since: this.now().toISOString(), messages: [], dropped: 0, waiters: new Set() };
      this.channels.set(key, fresh);
      try {
        await client.subscribe(channel);
      } catch (e) {
        // A failed subscription would otherwise be renewed on every reconnect: the next call tries afresh.
        this.channels.delete(key);
        client.unsubscribe(channel);
        throw e;
      }
      fresh.since = this.now().toISOString();
      listened = fresh;
    }
    if (listened.messages.length === 0 && waitMs > 0) await this.firstMessage(listened, waitMs, signal);
    return { channel, connection: conn.name, listeningSince: listened.since, subscribedNow, messages: [...listened.messages], dropped: listened.dropped };
  }

  /** Closes every socket. */
  dispose(): void {
    for (const s of this.sockets.values()) s.dispose();
    this.sockets.clear();
    this.channels.clear();
  }

  private firstMessage(listened: Listened, waitMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        listened.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      // The longest an agent asked to wait; any message (or a cancelled call) ends it sooner.
      const timer = setTimeout(done, waitMs);
      listened.waiters.add(done);
      signal?.addEventListener('abort', done);
    });
  }

  private socket(conn: RealtimeConnection): RealtimeClient {
    const id = connectionId(conn);
    const existing = this.sockets.get(id);
    if (existing) return existing;
    const service = `${SERVICE_LABELS.realtime} (${conn.name})`;
    const client = new RealtimeClient({
      key: conn.key,
      host: conn.host,
      port: conn.port,
      useTLS: conn.useTLS,
      service,
      authorize: this.authorizer(conn, service),
      client: { name: 'api-workbench-agent', version: '1' },
    });
    client.on('message', (m) => {
      if (m.event.startsWith('pusher')) return;
      const listened = this.channels.get(`${id}#${m.channel}`);
      if (!listened) return;
      listened.messages.push({ event: m.event, data: messageData(m), at: this.now().toISOString() });
      if (listened.messages.length > MAX_KEPT_MESSAGES) {
        listened.messages.shift();
        listened.dropped++;
      }
      for (const wake of [...listened.waiters]) wake();
    });
    client.connect();
    this.sockets.set(id, client);
    return client;
  }

  private authorizer(conn: RealtimeConnection, service: string): ChannelAuthorizer {
    return connectionAuthorizer(conn, {
      service,
      redactor: this.clients.redactor,
      secret: () => this.clients.guard.keyFor(conn, conn.restBaseUrl),
      user: AGENT_USER,
    });
  }
}
