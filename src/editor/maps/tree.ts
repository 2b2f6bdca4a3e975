import vscode from 'vscode';
import { connectionId, type Connection } from '../../core/connections';
import type { Resource } from '../../services/resources';
import type { Services } from '../services';
import { MessageNode, type ChildSource, type TreeNode } from '../tree';
import { dollars, type SessionCosts } from '../../features/maps/costs';
import { CAPABILITIES, type MapsResult } from '../../features/maps/results';
import type { ResultStore } from './results';

export const SHOW_RESULT_COMMAND = 'apiWorkbench.maps.showResult';
const LISTING_TTL_MS = 60_000;

/** A recent result; clicking it shows it on the map. */
export class ResultNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly conn: Connection,
    readonly result: MapsResult,
  ) {
    this.id = `maps:${connectionId(conn)}/result/${result.id}`;
  }

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.result.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = this.result.description;
    item.tooltip = new vscode.MarkdownString(this.result.tooltip);
    item.iconPath = new vscode.ThemeIcon(this.result.icon);
    item.contextValue = 'maps.result';
    item.command = { command: SHOW_RESULT_COMMAND, title: 'Show on Map', arguments: [this] };
    return item;
  }
}

/** Places / Routes / Address Validation / Geocoding, with their recent results below. */
export class CapabilityNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly conn: Connection,
    readonly capability: (typeof CAPABILITIES)[number],
    private readonly results: ResultStore,
  ) {
    this.id = `maps:${connectionId(conn)}/cap/${capability.id}`;
  }

  private list(): MapsResult[] {
    return this.results.list(connectionId(this.conn), this.capability.id);
  }

  toTreeItem(): vscode.TreeItem {
    const n = this.list().length;
    const item = new vscode.TreeItem(this.capability.label, n ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.description = n ? `${n} recent` : 'no results yet';
    item.iconPath = new vscode.ThemeIcon(this.capability.icon);
    item.contextValue = 'maps.capability';
    return item;
  }

  children(): TreeNode[] {
    return this.list().map((r) => new ResultNode(this.conn, r));
  }
}

/** This session's requests and their estimated cost on Google's list prices, per SKU below. */
export class CostNode implements TreeNode {
  readonly id: string;
  constructor(
    conn: Connection,
    private readonly costs: SessionCosts,
  ) {
    this.id = `maps:${connectionId(conn)}/cost`;
  }

  toTreeItem(): vscode.TreeItem {
    const lines = this.costs.list();
    const item = new vscode.TreeItem('This session', lines.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = this.costs.summary();
    item.tooltip = new vscode.MarkdownString(
      "Estimated at Google's list prices per 1,000 (setting `apiWorkbench.maps.skuPrices`), before the monthly free usage; the sandbox itself is free.",
    );
    item.iconPath = new vscode.ThemeIcon('credit-card');
    item.contextValue = 'maps.cost';
    return item;
  }

  children(): TreeNode[] {
    return this.costs.list().map(
      (l) =>
        new MessageNode(`${this.id}/${l.sku}`, 'info', l.sku, {
          description: `${l.count} × · ${l.units !== l.count ? `${l.units} elements · ` : ''}${dollars(l.cost)} ($${l.pricePer1000.toFixed(2)} / 1,000)`,
        }),
    );
  }
}

/**
 * The maps view's children of a connection: the capabilities. By default the built-in four
 * (Google has no listing); a connection set to the uniform resource listing shows what the
 * provider lists instead, which also tells at once whether the key works.
 */
export class MapsTreeSource implements ChildSource {
  emptyLabel = 'No capabilities';
  /** Every new result re-renders the tree; the listing is asked again only after a while, not each time. */
  private readonly listed = new Map<string, { at: number; resources: Resource[] }>();

  constructor(
    private readonly s: Services,
    private readonly results: ResultStore,
    private readonly costs: SessionCosts,
  ) {}

  async load(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]> {
    return [...(await this.capabilities(conn, token)), new CostNode(conn, this.costs)];
  }

  private async capabilities(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]> {
    if (conn.service !== 'maps' || conn.listing !== 'resources') return CAPABILITIES.map((c) => new CapabilityNode(conn, c, this.results));
    const id = `${connectionId(conn)} ${conn.baseUrl}`;
    let cached = this.listed.get(id);
    if (!cached || Date.now() - cached.at >= LISTING_TTL_MS) {
      cached = { at: Date.now(), resources: await this.s.http.resources(conn).list(token) };
      this.listed.set(id, cached);
    }
    return cached.resources.map((r) => {
      const known = CAPABILITIES.find((c) => c.id === r.id);
      if (known) return new CapabilityNode(conn, known, this.results);
      // Listed by the provider but not built into this view: shown, not usable here.
      return new MessageNode(`maps:${connectionId(conn)}/listed/${r.id}`, 'info', r.name, { description: r.detail ?? r.kind });
    });
  }
}
