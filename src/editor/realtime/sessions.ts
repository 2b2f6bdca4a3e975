import vscode from 'vscode';
import { connectionId, type Connection, type RealtimeConnection } from '../../core/connections';
import { HttpClient } from '../../core/http';
import { endpointAuthorizer, localAuthorizer, type ChannelAuthorizer, type PresenceUser } from '../../services/realtime/auth';
import { RealtimeClient, type ConnectionState, type PresenceMember } from '../../services/realtime/client';
import type { RealtimeMessage } from '../../services/realtime/types';
import { channelKind, type ChannelAttributes } from '../../services/realtime/protocol';
import type { RealtimeRest } from '../../services/realtime/rest';
import { endpointUserAuthenticator, localUserAuthenticator, type SignInUserData, type UserAuthenticator } from '../../services/realtime/user';
import type { Services } from '../services';
import type { RealtimeLog } from './log';
import { realtimeRestFor } from '../../features/realtime/restClient';
import { runInBackground } from '../../history/scope';

/** How long a REST channel listing is reused: live changes re-render the tree often, the API has a quota. */
const CHANNEL_LIST_TTL_MS = 5_000;

export type SessionChange = 'state' | 'channels' | 'members';

/** One row of the channel list: occupied according to the REST API, and/or subscribed here. */
export interface ChannelRow {
  name: string;
  occupied: boolean;
  subscription?: 'pending' | 'subscribed' | 'failed';
  subscriptionCount?: number;
  userCount?: number;
}

function packageVersion(v: unknown): string {
  return typeof v === 'string' ? v : '0';
}

function isRealtime(c: Connection | undefined): c is RealtimeConnection {
  return c?.service === 'realtime';
}

/** The signature of everything a session is built from: a change means a new session. */
function shape(c: RealtimeConnection): string {
  return JSON.stringify([c.appId, c.key, c.host, c.port, c.useTLS, c.restBaseUrl, c.authEndpoint ?? '', c.userAuthEndpoint ?? '', c.listing]);
}

/** A connection's live socket, its REST client, and what they know about channels. */
export class RealtimeSession implements vscode.Disposable {
  readonly client: RealtimeClient;
  readonly rest: RealtimeRest;
  private listing: { at: number; channels: Record<string, ChannelAttributes> } | undefined;
  private readonly userLists = new Map<string, { at: number; ids: string[] }>();
  private readonly subs: { dispose(): void }[] = [];
  /** Who "Sign In as User…" signs in as when the app secret signs (read at each sign-in). */
  signInAs: SignInUserData;

  constructor(
    readonly conn: RealtimeConnection,
    private readonly s: Services,
    private readonly log: RealtimeLog,
    user: PresenceUser,
    private readonly onChange: (what: SessionChange) => void,
    private readonly onMessage: (m: RealtimeMessage) => void = () => undefined,
  ) {
    const service = `Realtime (${conn.name})`;
    const secret = async () => s.guard.keyFor(conn, conn.restBaseUrl);
    // Kept in SecretStorage beside the app secret, never in settings.
    const encryptionMasterKey = () => s.secrets.getAux(conn, 'encryptionMasterKey');
    this.signInAs = { id: user.id, user_info: user.info };
    this.rest = realtimeRestFor(s, conn, encryptionMasterKey);
    let authorize: ChannelAuthorizer;
    if (conn.authEndpoint) {
      // The app's own endpoint decides; no stored secret is involved (and none is sent to it).
      const authHttp = new HttpClient({
        service: `${service} auth endpoint`,
        baseUrl: conn.authEndpoint,
        auth: { placement: 'none' },
        log: (e) => s.log.request(e),
        redactor: s.redactor,
        timeoutMs: 15_000,
      });
      authorize = endpointAuthorizer(authHttp);
    } else {
      authorize = localAuthorizer({ service, key: conn.key, secret, user, encryptionMasterKey });
    }
    let authenticateUser: UserAuthenticator;
    if (conn.userAuthEndpoint) {
      const userHttp = new HttpClient({
        service: `${service} user auth endpoint`,
        baseUrl: conn.userAuthEndpoint,
        auth: { placement: 'none' },
        log: (e) => s.log.request(e),
        redactor: s.redactor,
        timeoutMs: 15_000,
      });
      authenticateUser = endpointUserAuthenticator(userHttp);
    } else {
      authenticateUser = (req) => localUserAuthenticator({ service, key: conn.key, secret, user: this.signInAs })(req);
    }
    this.client = new RealtimeClient({
      key: conn.key,
      host: conn.host,
      port: conn.port,
      useTLS: conn.useTLS,
      service,
      authorize,
      authenticateUser,
      client: { name: 'api-workbench', version: packageVersion((s.context.extension.packageJSON as { version?: unknown }).version) },
    });
    this.wire();
  }

  get state(): ConnectionState {
    return this.client.state;
  }

  /** True while the client is connected or trying to be. */
  get live(): boolean {
    return this.state === 'connecting' || this.state === 'connected' || this.state === 'unavailable';
  }

  /** Shown after the connection name in the tree. */
  describe(): string {
    const st = this.client.state;
    if (st === 'connected') return `connected · socket ${this.client.socketId}`;
    if (st === 'connecting') return 'connecting…';
    if (st === 'unavailable') return `unavailable, retrying${this.client.lastClose ? ` (${this.client.lastClose.explanation})` : ''}`;
    if (st === 'disconnected' && this.client.lastClose?.action === 'stop') return `disconnected: ${this.client.lastClose.explanation}`;
    return 'disconnected';
  }

  /** Throws in restricted mode: the socket would sign channel subscriptions with the stored secret. */
  connect(): void {
    this.s.guard.assertTrusted(this.conn);
    this.client.connect();
  }

  disconnect(): void {
    this.client.disconnect();
  }

  /** Channels from the REST API (cached briefly) merged with this client's subscriptions. */
  async channels(force: boolean, token?: vscode.CancellationToken): Promise<ChannelRow[]> {
    const rows = new Map<string, ChannelRow>();
    const listed = await this.listChannels(force, token);
    for (const [name, attrs] of Object.entries(listed))
      rows.set(name, { name, occupied: true, subscriptionCount: attrs.subscription_count, userCount: attrs.user_count });
    for (const sub of this.client.subscriptions()) {
      const row = rows.get(sub.channel) ?? { name: sub.channel, occupied: false };
      row.subscription = sub.state;
      if (sub.subscriptionCount !== undefined) row.subscriptionCount = sub.subscriptionCount;
      if (sub.members) row.userCount = sub.members.length;
      rows.set(sub.channel, row);
    }
    return [...rows.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Members of a presence channel: live when subscribed here, else the REST API's user ids. */
  async members(channel: string): Promise<PresenceMember[]> {
    const live = this.client.subscription(channel);
    if (live?.members) return live.members;
    if (channelKind(channel) !== 'presence') return [];
    let cached = this.userLists.get(channel);
    if (!cached || Date.now() - cached.at >= CHANNEL_LIST_TTL_MS) {
      cached = { at: Date.now(), ids: await runInBackground(() => this.rest.users(channel)) };
      this.userLists.set(channel, cached);
    }
    return cached.ids.map((id) => ({ id, info: undefined }));
  }

  /**
   * The listing behind the tree and the channel pickers' suggestions, polled as they render: background
   * work, not in the History, even when a command's picker asks for it.
   */
  private listChannels(force: boolean, token?: vscode.CancellationToken): Promise<Record<string, ChannelAttributes>> {
    return runInBackground(() => this.listChannelsNow(force, token));
  }

  private async listChannelsNow(force: boolean, token?: vscode.CancellationToken): Promise<Record<string, ChannelAttributes>> {
    if (!force && this.listing && Date.now() - this.listing.at < CHANNEL_LIST_TTL_MS) return this.listing.channels;
    if (this.conn.listing === 'resources') {
      // The uniform listing names occupied channels; their counts come from live subscriptions.
      const listed = await this.s.http.resources(this.conn).list(token);
      const channels = Object.fromEntries(listed.filter((r) => r.kind === 'channel').map((r): [string, ChannelAttributes] => [r.id, {}]));
      this.listing = { at: Date.now(), channels };
      return channels;
    }
    let channels: Record<string, ChannelAttributes>;
    try {
      channels = await this.rest.channels({ info: ['subscription_count'] }, token);
    } catch (e) {
      // Hosted apps without subscription counting refuse the attribute (400): list without counts.
      if ((e as { status?: number }).status !== 400) throw e;
      channels = await this.rest.channels({}, token);
    }
    if (Object.keys(channels).some((c) => channelKind(c) === 'presence')) {
      const presence = await this.rest.channels({ prefix: 'presence-', info: ['user_count'] }, token);
      for (const [name, attrs] of Object.entries(presence)) channels[name] = { ...channels[name], ...attrs };
    }
    this.listing = { at: Date.now(), channels };
    return channels;
  }

  private wire(): void {
    const c = this.client;
    const log = this.log;
    const tag = `[${this.conn.name}]`;
    this.subs.push(
      c.on('message', (m) => {
        // Decrypted data is marked, so nobody mistakes it for what travelled.
        log.message(m.channel, m.decrypted ? `${m.event} [decrypted]` : m.event, m.data, m.user_id);
        this.onMessage(m);
      }),
      c.on('state', (st) => {
        const socket = st.socketId ? ` (socket ${st.socketId})` : '';
        log.note(`${tag} ${st.current}${socket}${st.reason ? ` — ${st.reason}` : ''}`);
        this.onChange('state');
      }),
      c.on('reconnect', (p) =>
        log.note(
          `${tag} connection closed: ${c.lastClose?.explanation ?? p.code}; ${p.delayMs === 0 ? 'reconnecting now' : `reconnecting in ${(p.delayMs / 1000).toFixed(1)} s`} (attempt ${p.attempt})`,
        ),
      ),
      c.on('subscription', (e) => {
        if (e.kind === 'succeeded') log.note(`${tag} subscribed to ${e.channel}`);
        else if (e.kind === 'failed') log.note(`${tag} subscription to ${e.channel} failed: ${e.error.message}`);
        else if (e.kind === 'unsubscribed') log.note(`${tag} unsubscribed from ${e.channel}`);
        this.onChange(e.kind === 'count' ? 'members' : 'channels');
      }),
      c.on('members', (e) => {
        if (e.kind === 'added') log.note(`${tag} ${e.channel}: member ${e.member.id} joined`);
        else if (e.kind === 'removed') log.note(`${tag} ${e.channel}: member ${e.member.id} left`);
        this.onChange('members');
      }),
      c.on('error', (e) => log.note(`${tag} ${e.message}`)),
    );
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.client.dispose();
  }
}

/** One session per realtime connection, created on first use and dropped with the connection. */
export class RealtimeSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, { shape: string; session: RealtimeSession }>();
  private readonly changed = new vscode.EventEmitter<{ conn: RealtimeConnection; what: SessionChange }>();
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  private readonly user: PresenceUser;
  /** Also gets every message of every session (the Realtime Inspector). */
  messageTap: ((conn: RealtimeConnection, m: RealtimeMessage) => void) | undefined;

  constructor(
    private readonly s: Services,
    private readonly log: RealtimeLog,
  ) {
    this.user = presenceUser(s);
    this.sub = s.connections.onDidChange((svc) => svc === 'realtime' && this.prune());
  }

  /** Who this editor is on presence channels (a random id kept across sessions). */
  get presenceUser(): PresenceUser {
    return this.user;
  }

  get(conn: RealtimeConnection): RealtimeSession {
    const id = connectionId(conn);
    const existing = this.sessions.get(id);
    if (existing && existing.shape === shape(conn)) return existing.session;
    existing?.session.dispose();
    const session = new RealtimeSession(
      conn,
      this.s,
      this.log,
      this.user,
      (what) => this.changed.fire({ conn, what }),
      (m) => this.messageTap?.(conn, m),
    );
    this.sessions.set(id, { shape: shape(conn), session });
    return session;
  }

  /** The session if one exists (the tree asks without creating one). */
  peek(conn: Connection): RealtimeSession | undefined {
    const e = isRealtime(conn) ? this.sessions.get(connectionId(conn)) : undefined;
    return e && e.shape === shape(conn as RealtimeConnection) ? e.session : undefined;
  }

  all(): RealtimeSession[] {
    return [...this.sessions.values()].map((e) => e.session);
  }

  /** Sessions of removed or changed connections end (their sockets close). */
  private prune(): void {
    for (const [id, e] of this.sessions) {
      const conn = this.s.connections.list('realtime').find((c) => connectionId(c) === id);
      if (!isRealtime(conn) || shape(conn) !== e.shape) {
        e.session.dispose();
        this.sessions.delete(id);
      }
    }
  }

  dispose(): void {
    this.sub.dispose();
    for (const e of this.sessions.values()) e.session.dispose();
    this.sessions.clear();
    this.changed.dispose();
  }
}

function presenceUser(s: Services): PresenceUser {
  const KEY = 'apiWorkbench.realtime.presenceUserId';
  let id = s.context.globalState.get<string>(KEY);
  if (!id) {
    id = `vscode-${Math.random().toString(36).slice(2, 10)}`;
    void s.context.globalState.update(KEY, id);
  }
  return { id, info: { name: `VS Code (${vscode.env.appName})` } };
}

export function asRealtime(c: Connection | undefined): RealtimeConnection | undefined {
  return isRealtime(c) ? c : undefined;
}
