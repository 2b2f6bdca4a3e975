import vscode from 'vscode';
import { connectionId, needsKey, usesStoredKey, type Connection, type ServiceId } from '../core/connections';
import { errorText } from '../core/errors';
import { CONNECTION_COMMANDS } from '../features/ids';
import type { Services } from './services';

/**
 * Tree building blocks shared by the three views. A view is: connection nodes (from the store), and
 * below the expanded ones whatever the service's ChildSource returns. Loading, empty, signed-out,
 * restricted and error states are nodes with command links, never dialogs.
 */
export interface TreeNode {
  /** Stable across refreshes, so expansion and selection survive. */
  readonly id: string;
  toTreeItem(): vscode.TreeItem | Promise<vscode.TreeItem>;
  children?(): vscode.ProviderResult<TreeNode[]>;
}

export type MessageKind = 'loading' | 'empty' | 'error' | 'signed-out' | 'info';

const MESSAGE_ICONS: Record<MessageKind, vscode.ThemeIcon> = {
  loading: new vscode.ThemeIcon('loading~spin'),
  empty: new vscode.ThemeIcon('circle-slash'),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  'signed-out': new vscode.ThemeIcon('key'),
  info: new vscode.ThemeIcon('info'),
};

export class MessageNode implements TreeNode {
  constructor(
    readonly id: string,
    readonly kind: MessageKind,
    readonly label: string,
    readonly opts: { description?: string; tooltip?: string; command?: vscode.Command } = {},
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = MESSAGE_ICONS[this.kind];
    item.description = this.opts.description;
    item.tooltip = this.opts.tooltip ?? this.opts.description;
    item.command = this.opts.command;
    item.contextValue = `message.${this.kind}`;
    return item;
  }
}

/** What a service contributes to its view below each connection. */
export interface ChildSource {
  /** Loads the children of an expanded connection. Errors become an error node with a Retry link. */
  load(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]>;
  /** Shown when load() returns nothing. */
  emptyLabel?: string;
  /** Extra text after the connection name (e.g. realtime state and socket id). */
  describe?(conn: Connection): string | undefined;
  /**
   * describe() says whether the connection is connected (realtime's socket): the row shows that one
   * state, not also "✓ connected" for a listing that succeeded over REST.
   */
  readonly describesConnectionState?: boolean;
  /** contextValue suffix for the connection node, e.g. "connected" → "realtime.connection.connected". */
  contextSuffix?(conn: Connection): string | undefined;
}

export type Loaded = { state: 'loading' } | { state: 'done'; nodes: TreeNode[] } | { state: 'error'; error: unknown };

export class ConnectionNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly conn: Connection,
    private readonly provider: ServiceTreeProvider,
  ) {
    this.id = `conn/${connectionId(conn)}`;
  }

  async toTreeItem(): Promise<vscode.TreeItem> {
    const active = this.provider.isActive(this.conn);
    const keyless = !needsKey(this.conn);
    const credential = this.provider.services.guard.describeCredential(this.conn);
    const hasKey = !usesStoredKey(this.conn) || (await this.provider.services.secrets.has(this.conn));
    const item = new vscode.TreeItem(this.conn.name, active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const where = this.conn.service === 'realtime' ? `${this.conn.host}:${this.conn.port} · app ${this.conn.appId}` : safeHost(this.conn.baseUrl);
    const extra = this.provider.source.describe?.(this.conn);
    const token = this.conn.service === 'realtime' ? undefined : this.conn.credential;
    // The signed-in Entra account is on the row itself; a token command's line is in the tooltip.
    const how = token?.kind === 'entra' ? credential : token ? 'token command' : undefined;
    const checked = this.provider.checkState(this.conn);
    item.description = [
      active ? '● active' : undefined,
      extra ?? where,
      hasKey ? how : 'no key',
      checked && (checked === 'failed' ? '⚠ check failed' : this.provider.source.describesConnectionState ? undefined : '✓ connected'),
    ]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = new vscode.MarkdownString(
      [
        `**${this.conn.name}**${this.conn.source === 'sandbox' ? ' (local sandbox)' : ''}`,
        this.conn.service === 'realtime' ? `Host: \`${this.conn.host}:${this.conn.port}\` · app \`${this.conn.appId}\`` : `Base URL: \`${this.conn.baseUrl}\``,
        `Key: ${keyless ? 'none needed (auth placement "none")' : (credential ?? (hasKey ? 'stored in SecretStorage' : 'not set'))}`,
        active ? 'Active connection' : 'Not active — switch with *Switch Active Connection…*',
      ].join('\n\n'),
    );
    item.iconPath = new vscode.ThemeIcon(this.conn.source === 'sandbox' ? 'beaker' : hasKey ? 'plug' : 'debug-disconnect');
    const suffix = this.provider.source.contextSuffix?.(this.conn);
    item.contextValue = `${this.conn.service}.connection${suffix ? `.${suffix}` : ''}`;
    return item;
  }

  children(): Promise<TreeNode[]> {
    return this.provider.childrenOf(this);
  }
}

/** Google's maps capabilities are built in: listing them asks the server nothing, so it proves nothing. */
export function listingMakesRequest(conn: Connection): boolean {
  return !(conn.service === 'maps' && conn.listing !== 'resources');
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * The TreeDataProvider of one service view. Children of a connection load in the background: the
 * first call returns a loading node at once, the result replaces it when it arrives.
 */
export class ServiceTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly loaded = new Map<string, Loaded>();
  /**
   * The last check's outcome per connection, with the connection as it was checked: a refresh (the new
   * setting itself, another view's change) forgets `loaded`, and a collapsed node loads nothing until
   * opened, yet the check still holds for that same connection.
   */
  private readonly checked = new Map<string, { definition: string; state: 'done' | 'error' }>();
  private readonly inflight = new Map<string, vscode.CancellationTokenSource>();
  private readonly subs: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private nodes = new Map<string, ConnectionNode>();

  constructor(
    readonly service: ServiceId,
    readonly services: Services,
    public source: ChildSource,
  ) {
    this.subs.push(
      services.connections.onDidChange((s) => s === service && this.refresh()),
      services.secrets.onDidChange((c) => c.service === service && this.refresh()),
    );
  }

  isActive(conn: Connection): boolean {
    return this.services.connections.active(this.service)?.name === conn.name;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem | Promise<vscode.TreeItem> {
    return node.toTreeItem();
  }

  getChildren(node?: TreeNode): vscode.ProviderResult<TreeNode[]> {
    if (node) return node.children?.() ?? [];
    // Untrusted: an empty tree lets the view's restricted-mode welcome content (with its
    // Manage Workspace Trust button) explain why nothing is shown.
    if (!this.services.trusted()) return [];
    const conns = this.services.connections.list(this.service);
    this.nodes = new Map(
      conns.map((c) => [connectionId(c), this.nodes.get(connectionId(c))?.conn === c ? this.nodes.get(connectionId(c))! : new ConnectionNode(c, this)]),
    );
    return [...this.nodes.values()];
  }

  /** The node of a connection, for reveal() and targeted refreshes. */
  nodeFor(conn: Connection): ConnectionNode | undefined {
    return this.nodes.get(connectionId(conn));
  }

  async childrenOf(node: ConnectionNode): Promise<TreeNode[]> {
    const conn = node.conn;
    const id = connectionId(conn);
    if (usesStoredKey(conn) && !(await this.services.secrets.has(conn))) {
      const what = conn.service === 'realtime' ? 'App Secret' : 'API Key';
      return [
        new MessageNode(`${id}/signed-out`, 'signed-out', `Set ${what}…`, {
          description: 'no key stored',
          command: { command: CONNECTION_COMMANDS[conn.service].setKey, title: `Set ${what}`, arguments: [node] },
        }),
      ];
    }
    const state = this.loaded.get(id);
    if (!state) {
      // The result reaches the tree through finish(); nobody waits here.
      void this.startLoad(node);
      return [new MessageNode(`${id}/loading`, 'loading', 'Loading…')];
    }
    if (state.state === 'loading') return [new MessageNode(`${id}/loading`, 'loading', 'Loading…')];
    if (state.state === 'error') {
      const e = state.error;
      const text = errorText(e);
      return [
        new MessageNode(`${id}/error`, 'error', 'Could not load — click to retry', {
          description: text,
          tooltip: text,
          command: { command: CONNECTION_COMMANDS[conn.service].refresh, title: 'Retry' },
        }),
      ];
    }
    if (state.nodes.length === 0) return [new MessageNode(`${id}/empty`, 'empty', this.source.emptyLabel ?? 'Nothing here yet')];
    return state.nodes;
  }

  /**
   * Loads `conn`'s listing now and waits for it: the check after adding a connection. The tree
   * shows the same result ("connected" only once a request succeeded).
   */
  async check(conn: Connection): Promise<Loaded> {
    // A load of its own: the tree's loads are cancelled by every refresh (the new setting, the stored key).
    const cts = new vscode.CancellationTokenSource();
    let result: Loaded;
    try {
      result = { state: 'done', nodes: await this.source.load(conn, cts.token) };
    } catch (error) {
      result = { state: 'error', error };
    } finally {
      cts.dispose();
    }
    const id = connectionId(conn);
    this.checked.set(id, { definition: JSON.stringify(conn), state: result.state === 'done' ? 'done' : 'error' });
    if (!this.inflight.has(id)) {
      this.loaded.set(id, result);
      const node = this.nodes.get(id);
      if (node) this.changed.fire(node);
    }
    return result;
  }

  /** "connected" after a listing request succeeded, "failed" after it failed; undefined before (or with nothing to ask). */
  checkState(conn: Connection): 'connected' | 'failed' | undefined {
    const id = connectionId(conn);
    const check = this.checked.get(id);
    const loadedState = this.loaded.get(id)?.state;
    const state = loadedState === 'done' || loadedState === 'error' ? loadedState : check?.definition === JSON.stringify(conn) ? check.state : loadedState;
    if (state === 'error') return 'failed';
    return state === 'done' && listingMakesRequest(conn) ? 'connected' : undefined;
  }

  private startLoad(node: ConnectionNode): Promise<Loaded> {
    const id = connectionId(node.conn);
    this.inflight.get(id)?.cancel();
    const cts = new vscode.CancellationTokenSource();
    this.inflight.set(id, cts);
    this.loaded.set(id, { state: 'loading' });
    return this.source.load(node.conn, cts.token).then(
      (nodes) => this.finish(id, cts, { state: 'done', nodes }, node),
      (error: unknown) => this.finish(id, cts, { state: 'error', error }, node),
    );
  }

  private finish(id: string, cts: vscode.CancellationTokenSource, result: Loaded, node: ConnectionNode): Loaded {
    if (this.inflight.get(id) !== cts) return result;
    this.inflight.delete(id);
    cts.dispose();
    this.loaded.set(id, result);
    this.changed.fire(this.nodes.get(id) ?? node);
    return result;
  }

  /** Reloads everything (debounced: a burst of changes refreshes once). */
  refresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      for (const cts of this.inflight.values()) cts.cancel();
      this.inflight.clear();
      this.loaded.clear();
      this.changed.fire(undefined);
    }, 50);
  }

  /** Re-renders without reloading (e.g. a realtime state change). */
  rerender(node?: TreeNode): void {
    this.changed.fire(node);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const cts of this.inflight.values()) cts.cancel();
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
