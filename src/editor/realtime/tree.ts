import vscode from 'vscode';
import { connectionId, type Connection } from '../../core/connections';
import { errorText } from '../../core/errors';
import { channelKind } from '../../services/realtime/protocol';
import { MessageNode, type ChildSource, type TreeNode } from '../tree';
import { asRealtime, type ChannelRow, type RealtimeSession, type RealtimeSessions } from './sessions';
import { userNodes } from './users';

const KIND_ICONS = { public: 'broadcast', private: 'lock', 'private-encrypted': 'shield', presence: 'organization' } as const;

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A presence member; "(you)" marks this editor. */
export class MemberNode implements TreeNode {
  readonly id: string;
  constructor(
    parent: string,
    readonly member: { id: string; info: unknown },
    private readonly me: boolean,
  ) {
    this.id = `${parent}/member/${member.id}`;
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.member.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const name = (this.member.info as { name?: unknown } | null | undefined)?.name;
    item.description = [typeof name === 'string' ? name : undefined, this.me ? '(you)' : undefined].filter(Boolean).join(' ');
    item.tooltip = this.member.info === undefined ? this.member.id : `${this.member.id}\n${JSON.stringify(this.member.info, null, 2)}`;
    item.iconPath = new vscode.ThemeIcon(this.me ? 'account' : 'person');
    item.contextValue = 'realtime.member';
    return item;
  }
}

/** A channel: occupied (per the REST API) and/or subscribed here; presence channels list members. */
export class ChannelNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly session: RealtimeSession,
    readonly row: ChannelRow,
  ) {
    this.id = `realtime:${connectionId(session.conn)}/ch/${row.name}`;
  }

  get name(): string {
    return this.row.name;
  }

  get conn(): Connection {
    return this.session.conn;
  }

  toTreeItem(): vscode.TreeItem {
    // Live state wins over what the listing said when the tree loaded.
    const sub = this.session.client.subscription(this.name);
    const kind = channelKind(this.name);
    const users = sub?.members?.length ?? this.row.userCount;
    const subscribers = sub?.subscriptionCount ?? this.row.subscriptionCount;
    const state = sub ? (sub.state === 'subscribed' ? 'subscribed' : sub.state === 'pending' ? 'subscribing…' : 'subscription failed') : undefined;
    const counts =
      kind === 'presence'
        ? users !== undefined
          ? plural(users, 'member', 'members')
          : undefined
        : subscribers !== undefined
          ? plural(subscribers, 'subscriber', 'subscribers')
          : undefined;
    const item = new vscode.TreeItem(
      this.name,
      kind === 'presence'
        ? sub?.state === 'subscribed'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.description = [state, counts, !this.row.occupied && !sub ? 'not occupied' : undefined].filter(Boolean).join(' · ');
    item.tooltip = new vscode.MarkdownString(
      [
        `**${this.name}** (${kind} channel)`,
        state ? `Here: ${state}${sub?.error ? ` — ${sub.error}` : ''}` : 'Not subscribed here',
        counts ? `Now: ${counts}` : undefined,
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    item.iconPath = new vscode.ThemeIcon(sub?.state === 'failed' ? 'warning' : KIND_ICONS[kind]);
    item.contextValue = sub && sub.state !== 'failed' ? 'realtime.channel.subscribed' : 'realtime.channel';
    return item;
  }

  async children(): Promise<TreeNode[]> {
    if (channelKind(this.name) !== 'presence') return [];
    try {
      const members = await this.session.members(this.name);
      const me = this.session.client.subscription(this.name)?.myId;
      if (members.length === 0) return [new MessageNode(`${this.id}/none`, 'empty', 'No members')];
      return members.map((m) => new MemberNode(this.id, m, m.id === me));
    } catch (e) {
      const text = errorText(e);
      return [new MessageNode(`${this.id}/error`, 'error', 'Could not list members', { description: text, tooltip: text })];
    }
  }
}

/** The realtime view below a connection: its channels (REST listing + subscriptions) and their members. */
export class ChannelsSource implements ChildSource {
  readonly describesConnectionState = true;
  emptyLabel = 'No occupied channels yet';
  /**
   * Reloads caused by live changes (a subscription, a member) may reuse the REST listing for a few
   * seconds; any other reload (Refresh, a new key) asks the API again.
   */
  private cacheOkUntil = 0;
  /** Whether each connection was live when its children were loaded (the Connect hint depends on it). */
  private readonly loadedLive = new Map<string, boolean>();

  constructor(private readonly sessions: RealtimeSessions) {}

  /** A session connected or disconnected since its children were loaded: they must load again, not just re-render. */
  liveChanged(): boolean {
    for (const [id, live] of this.loadedLive) {
      const session = this.sessions.all().find((x) => connectionId(x.conn) === id);
      if ((session?.live ?? false) !== live) return true;
    }
    return false;
  }

  /** The reloads of the next second come from live changes. */
  allowCachedListing(): void {
    this.cacheOkUntil = Date.now() + 1_000;
  }

  async load(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]> {
    const rt = asRealtime(conn);
    if (!rt) return [];
    const session = this.sessions.get(rt);
    const rows = await session.channels(Date.now() > this.cacheOkUntil, token);
    const nodes: TreeNode[] = [...userNodes(session), ...rows.map((r) => new ChannelNode(session, r))];
    const id = `realtime:${connectionId(conn)}`;
    this.loadedLive.set(connectionId(conn), session.live);
    if (!session.live) {
      nodes.unshift(
        new MessageNode(`${id}/connect`, 'info', 'Connect to subscribe and see live events', {
          command: { command: 'apiWorkbench.realtime.connect', title: 'Connect', arguments: [conn.name] },
        }),
      );
    } else if (rows.length === 0) {
      nodes.push(
        new MessageNode(`${id}/subscribe`, 'info', 'Subscribe to a channel…', { command: { command: 'apiWorkbench.realtime.subscribe', title: 'Subscribe' } }),
      );
    }
    return nodes;
  }

  describe(conn: Connection): string | undefined {
    return this.sessions.peek(conn)?.describe() ?? 'disconnected';
  }

  contextSuffix(conn: Connection): string | undefined {
    return this.sessions.peek(conn)?.live ? 'connected' : 'disconnected';
  }
}
