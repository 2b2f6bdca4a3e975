import * as vscode from 'vscode';
import { connectionId, type Connection } from '../../core/connections';
import type { ChildSource, TreeNode } from '../tree';
import { CAPABILITIES, type MapsResult, type ResultStore } from './results';

export const SHOW_RESULT_COMMAND = 'apiWorkbench.maps.showResult';

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

/** The maps view's children of a connection: the capabilities (static: Google has no listing). */
export class MapsTreeSource implements ChildSource {
  emptyLabel = 'No capabilities';
  constructor(private readonly results: ResultStore) {}

  load(conn: Connection): Promise<TreeNode[]> {
    return Promise.resolve(CAPABILITIES.map((c) => new CapabilityNode(conn, c, this.results)));
  }
}
