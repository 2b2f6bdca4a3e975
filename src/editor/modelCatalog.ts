import type * as vscode from 'vscode';
import { connectionId, type HttpConnection } from '../core/connections';
import type { ModelInfo } from '../services/llm';
import type { Services } from './services';
import { llmClient } from '../features/llm/clients';
import { Disposable } from './disposable';

/** How long a model list is reused before Ask or Compare lists the models again by itself. */
const MODELS_TTL_MS = 10 * 60_000;

interface Entry {
  at: number;
  models: Promise<ModelInfo[]>;
}

/**
 * The model list of each connection, fetched once and shared by Ask, Compare and the tree (the
 * chat-model provider keeps an instance of its own, in the notebook bundle):
 * GET /models is not sent again for every question. Refresh (tree, quick pick, Compare's button)
 * lists them again; a failed listing is not cached.
 */
export class ModelCatalog extends Disposable {
  private readonly cache = new Map<string, Entry>();

  constructor(private readonly s: Services) {
    super();
    // A changed connection (new base URL, other key) may list other models.
    this.register(
      s.connections.onDidChange((svc) => {
        if (svc === 'llm') this.cache.clear();
      }),
    );
  }

  /** The cached list, or a fresh one when there is none, it is old, or `refresh` is set. */
  list(conn: HttpConnection, opts: { refresh?: boolean; cancel?: vscode.CancellationToken } = {}): Promise<ModelInfo[]> {
    const id = connectionId(conn);
    const hit = this.cache.get(id);
    if (hit && !opts.refresh && Date.now() - hit.at < MODELS_TTL_MS) return hit.models;
    const models = llmClient(this.s, conn).listModels(opts.cancel);
    this.put(conn, models);
    return models;
  }

  /** A list fetched elsewhere (the tree) is the cached one from now on. */
  put(conn: HttpConnection, models: Promise<ModelInfo[]>): void {
    const id = connectionId(conn);
    const entry = { at: Date.now(), models };
    this.cache.set(id, entry);
    models.catch(() => {
      if (this.cache.get(id) === entry) this.cache.delete(id);
    });
  }

  override dispose(): void {
    super.dispose();
    this.cache.clear();
  }
}
