// What the authoring providers read about a notebook, kept in memory so a provider never waits:
// the named cells' last results (from the run controller's events), the connections' names, their
// model lists and the realtime connection's channels (the list the realtime tree shows), refreshed in
// the background with a key only where the user already allowed it (no approval dialog ever comes
// from typing).
import path from 'node:path';
import vscode from 'vscode';
import { notebookContext, OfferCache, offerKey, SpecCatalogueCache, type AuthoringContext, type ModelOffer, type SpecState } from '../../../catalogue';
import { connectionId, type HttpConnection, type RealtimeConnection } from '../../../core/connections';
import { errorText } from '../../../core/errors';
import { needsKey } from '../../../core/connections';
import { CODE_LANGUAGES, hasScriptBlock, type CellResult, type NotebookCellData } from '../../../notebook/api';
import { realtimeRestFor } from '../../../features/realtime/restClient';
import { LlmClient, openAiErrorParser } from '../../../services/llm';
import type { Services } from '../../services';
import type { NotebookRunController } from '../controller';
import type { Environments } from '../environments';

export class AuthoringSources implements vscode.Disposable {
  readonly offers = new OfferCache();
  /** notebook URI → cell name → last result. */
  private readonly results = new Map<string, Map<string, CellResult>>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly specLoaded = new vscode.EventEmitter<void>();
  /** A notebook's OpenAPI document was read (or failed to be) after a provider had answered without it. */
  readonly onDidLoadSpec = this.specLoaded.event;
  private readonly specs = new SpecCatalogueCache(() => this.specLoaded.fire());

  constructor(
    private readonly s: Services,
    controller: NotebookRunController,
    private readonly environments: Environments,
  ) {
    this.disposables.push(
      controller.onDidFinishCell(({ notebook, result }) => {
        if (!result.name) return;
        const key = notebook.uri.toString();
        const byName = this.results.get(key) ?? new Map<string, CellResult>();
        byName.set(result.name, result);
        this.results.set(key, byName);
      }),
      vscode.workspace.onDidCloseNotebookDocument((doc) => this.results.delete(doc.uri.toString())),
      s.connections.onDidChange((service) => {
        for (const c of s.connections.list(service)) this.offers.forget(offerKey(service, c.name));
      }),
    );
  }

  /** The context of `notebook` as it is now. */
  context(notebook: vscode.NotebookDocument): AuthoringContext {
    const cells: NotebookCellData[] = notebook.getCells().map((c) => {
      const text = c.document.getText();
      return {
        kind: c.kind === vscode.NotebookCellKind.Code ? 'code' : 'markup',
        language: c.document.languageId,
        // Read for the context: vars and realtime cells, and a request cell's scripts (the variables
        // they set, else {{name}} below is flagged unknown); other text is not needed.
        value: c.document.languageId === 'vars' || c.document.languageId === 'realtime' || hasScriptBlock(text) ? text : '',
        metadata: { attributes: (c.metadata as { attributes?: Record<string, string> }).attributes ?? {} },
      };
    });
    const results = this.results.get(notebook.uri.toString());
    return notebookContext(cells, {
      environment: this.environments.get(notebook.uri),
      result: (name) => results?.get(name),
      models: (service, name) => (service === 'llm' ? this.models(name) : undefined),
      channels: (name) => this.channels(name),
      connectionNames: (service) =>
        (CODE_LANGUAGES as readonly string[]).includes(service) && service !== 'vars' && service !== 'http'
          ? this.s.connections.list(service as 'llm' | 'maps' | 'realtime').map((c) => c.name)
          : undefined,
      mask: (text) => this.s.redactor.text(text),
      spec: (ref) => this.spec(notebook, ref),
    });
  }

  /** The spec a notebook names, read from the notebook's folder (a notebook never saved has none). */
  private spec(notebook: vscode.NotebookDocument, ref: string): SpecState {
    if (notebook.uri.scheme !== 'file') return { kind: 'failed', message: `the spec "${ref}" is read from the notebook's folder: save the notebook first` };
    return this.specs.get(ref, path.dirname(notebook.uri.fsPath));
  }

  /** The cached models of a connection (the active one when unnamed); starts a background refresh when old. */
  private models(name: string | undefined): readonly ModelOffer[] | undefined {
    const conn = name === undefined ? this.s.connections.active('llm') : this.s.connections.get('llm', name);
    if (conn?.service !== 'llm') return undefined;
    const key = offerKey('llm', conn.name);
    this.offers
      .refresh(key, 'models', () => this.listModels(conn))
      ?.catch((e: unknown) => this.s.log.debug(`Models of "${conn.name}" for completions: ${errorText(e)}`));
    return this.offers.modelsOf(key);
  }

  /** The cached channels of a realtime connection (the active one when unnamed); starts a background refresh when old. */
  private channels(name: string | undefined): readonly string[] | undefined {
    const conn = name === undefined ? this.s.connections.active('realtime') : this.s.connections.get('realtime', name);
    if (conn?.service !== 'realtime') return undefined;
    const key = offerKey('realtime', conn.name);
    this.offers
      .refresh(key, 'channels', () => this.listChannels(conn))
      ?.catch((e: unknown) => this.s.log.debug(`Channels of "${conn.name}" for completions: ${errorText(e)}`));
    return this.offers.channelsOf(key);
  }

  /** The occupied channels, listed as the realtime tree lists them (the uniform listing or the signed REST API). */
  private async listChannels(conn: RealtimeConnection): Promise<string[]> {
    if (conn.listing === 'resources') return (await this.s.http.resources(conn).list()).filter((r) => r.kind === 'channel').map((r) => r.id);
    const rest = realtimeRestFor(this.s, conn, undefined, () => this.quietKey(conn, new URL(conn.restBaseUrl)));
    return Object.keys(await rest.channels());
  }

  private async listModels(conn: HttpConnection): Promise<ModelOffer[]> {
    const http = this.s.http.create(conn, {
      parseError: openAiErrorParser,
      history: false,
      credentials: needsKey(conn) ? (url) => this.quietKey(conn, url) : undefined,
    });
    const models = await new LlmClient(http, { rateLimitKey: `${this.s.http.rateLimitKey(conn)}:authoring` }).listModels();
    return models.map((m) => ({ id: m.id, ...(m.owned_by ? { ownedBy: m.owned_by } : {}) }));
  }

  /** The stored key when the workspace is trusted and the origin already approved; never asks. */
  private async quietKey(conn: HttpConnection | RealtimeConnection, url: URL): Promise<string> {
    if (!this.s.trusted()) throw new Error('restricted mode');
    const stored = await this.s.secrets.get(conn);
    if (!stored || !stored.origins.includes(url.origin)) throw new Error(`no approved key for ${connectionId(conn)} at ${url.origin}`);
    return stored.value;
  }

  dispose(): void {
    this.specLoaded.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
