import vscode from 'vscode';
import { connectionId, type Connection } from '../../core/connections';
import type { ModelInfo } from '../../services/llm';
import { orderModels } from '../../catalogue/modelKinds';
import type { Services } from '../services';
import type { ChildSource, TreeNode } from '../tree';
import { asLlmConnection, llmClient } from '../../features/llm/clients';
import type { ModelCatalog } from '../modelCatalog';
import type { ModelState } from './modelState';

/** A model below a connection; tree commands (Ask This Model, Set as Default, Copy Id) receive it. */
export class ModelNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly conn: Connection,
    readonly model: ModelInfo,
    private readonly state: ModelState,
    /** What the uniform listing says about the model (it has no owner or date). */
    private readonly detail?: string,
  ) {
    this.id = `${connectionId(conn)}/model/${model.id}`;
  }

  toTreeItem(): vscode.TreeItem {
    const isDefault = this.state.defaultModel(this.conn) === this.model.id;
    const item = new vscode.TreeItem(this.model.id, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const created = this.model.created ? new Date(this.model.created * 1000).toISOString().slice(0, 10) : undefined;
    item.description = [isDefault ? '★ default' : undefined, this.detail ?? this.model.owned_by ?? undefined, created].filter(Boolean).join(' · ');
    const facts = this.detail !== undefined ? [this.detail] : [`Owner: ${this.model.owned_by ?? 'not reported'}`, `Created: ${created ?? 'not reported'}`];
    item.tooltip = new vscode.MarkdownString(
      [`**${this.model.id}**`, ...facts, isDefault ? 'Default model of this connection' : undefined].filter(Boolean).join('\n\n'),
    );
    item.iconPath = new vscode.ThemeIcon(isDefault ? 'star-full' : 'hubot');
    item.contextValue = isDefault ? 'llm.model.default' : 'llm.model';
    return item;
  }
}

/**
 * Children of an LLM connection: its models (GET /models, or the uniform resource listing when
 * the connection is set to it), loaded when expanded or refreshed.
 */
export class ModelsSource implements ChildSource {
  readonly emptyLabel = 'No models available';

  constructor(
    private readonly s: Services,
    private readonly state: ModelState,
    private readonly catalog?: ModelCatalog,
  ) {}

  async load(conn: Connection, token: vscode.CancellationToken): Promise<TreeNode[]> {
    const llm = asLlmConnection(conn);
    if (!llm) return [];
    if (llm.listing === 'resources') {
      const resources = await this.s.http.resources(llm).list(token);
      return resources.filter((r) => r.kind === 'model').map((r) => new ModelNode(conn, { id: r.id }, this.state, r.detail ?? ''));
    }
    // Loading the tree (or refreshing it) lists the models afresh; Ask and Compare reuse that list.
    const listing = llmClient(this.s, llm).listModels(token);
    this.catalog?.put(llm, listing);
    const models = await listing;
    // Chat models first (the one order), so the models Ask offers are at the top.
    return orderModels(models, [this.state.defaultModel(conn)]).map((m) => new ModelNode(conn, m, this.state));
  }

  describe(conn: Connection): string | undefined {
    const model = this.state.activeModel(conn);
    const llm = asLlmConnection(conn);
    const host = llm ? safeHost(llm.baseUrl) : undefined;
    return [model, host].filter(Boolean).join(' · ') || undefined;
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
