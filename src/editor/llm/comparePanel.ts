import vscode from 'vscode';
import { CancelledError } from '../../core/cancellation';
import type { HttpConnection } from '../../core/connections';
import { errorText } from '../../core/errors';
import { validate } from '../../core/validate';
import { compareToHostSchema, type HostToCompare, type RenderedColumn } from '../../services/llm/compareMessages';
import { runInCommand } from '../../history/scope';
import type { Services } from '../services';
import { llmClient } from '../../features/llm/clients';
import { compareHtml } from '../../features/llm/compareHtml';
import { compareModelsProblem, compareSelection, MAX_COMPARE_MODELS, runCompare, type ColumnResult } from '../../features/llm/compareRun';
import type { LlmCosts } from '../llmCosts';
import type { ModelCatalog } from '../modelCatalog';
import type { ModelState } from './modelState';
import { askMessages } from '../../features/llm/prompts';
import { chatModelsOf } from '../../catalogue/modelKinds';

/** What a finished compare run gives back (to tests and callers): the results and what the panel shows. */
export interface CompareOutcome {
  connection: string;
  results: ColumnResult[];
  /** Each column as the webview rendered it (undefined if the panel was closed meanwhile). */
  rendered?: RenderedColumn[];
  /** Set when the run did not start (budget declined, bad model choice). */
  notStarted?: string;
}

const RENDER_TIMEOUT_MS = 10_000;

/**
 * The one Compare panel: a prompt sent to 2–4 models of one connection, streamed side by side.
 * The webview only asks (run, stop, refresh); every request is made here, through the connection's
 * shared HTTP client (quota, approved key, log), and each column's failure stays in its column.
 */
export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private markReady: (() => void) | undefined;
  private conn: HttpConnection | undefined;
  /** The models the panel last ticked for the user (for tests and diagnostics). */
  preselected: readonly string[] = [];
  private runId = 0;
  private running: { abort: AbortController; done: Promise<CompareOutcome> } | undefined;
  private readonly rendered = new Map<number, (columns: RenderedColumn[]) => void>();

  constructor(
    private readonly s: Services,
    private readonly catalog: ModelCatalog,
    private readonly costs: LlmCosts,
    private readonly state: ModelState,
  ) {}

  /** Opens (or reveals) the panel on `conn`; with a prompt and models, runs them and resolves when rendered. */
  async open(conn: HttpConnection, run?: { prompt: string; models: string[] }): Promise<CompareOutcome | undefined> {
    const changed = this.conn?.name !== conn.name;
    this.conn = conn;
    const panel = this.ensurePanel();
    panel.title = `Compare · ${conn.name}`;
    panel.reveal(panel.viewColumn ?? vscode.ViewColumn.Active, false);
    await this.ready;
    if (changed) await this.sendModels(false);
    return run ? this.run(run.prompt, run.models) : undefined;
  }

  /** Stops the running comparison; every column keeps what arrived. */
  stop(): void {
    this.running?.abort.abort(new CancelledError());
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const scripts = vscode.Uri.joinPath(this.s.context.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      'apiWorkbench.llm.compare',
      'Compare',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [scripts],
      },
    );
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
    panel.webview.html = compareHtml(panel.webview.asWebviewUri(vscode.Uri.joinPath(scripts, 'compare.js')).toString()).html;
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m));
    panel.onDidDispose(() => {
      this.stop();
      this.panel = undefined;
      this.conn = undefined;
      for (const resolve of this.rendered.values()) resolve([]);
      this.rendered.clear();
    });
    this.panel = panel;
    return panel;
  }

  private post(m: HostToCompare): void {
    void this.panel?.webview.postMessage(m);
  }

  private async sendModels(refresh: boolean): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    try {
      const preferred = [this.state.defaultModel(conn), this.state.lastModel(conn)];
      const chat = chatModelsOf(await this.catalog.list(conn, { refresh }), preferred);
      const models = chat.map((m) => m.id);
      const selected = compareSelection(chat, preferred, undefined, this.costs.prices());
      this.preselected = selected;
      this.post({ type: 'models', connection: conn.name, models, selected });
    } catch (e) {
      this.post({
        type: 'models',
        connection: conn.name,
        models: [],
        selected: [],
        error: `Could not list the models of ${conn.name}: ${this.s.redactor.text(errorText(e))}`,
      });
    }
  }

  private onMessage(raw: unknown): void {
    const v = validate(compareToHostSchema, raw);
    if (!v.ok) {
      this.s.log.warn(`Compare view sent an unexpected message (${v.problem}); ignored.`);
      return;
    }
    const m = v.value;
    switch (m.type) {
      case 'ready':
        this.markReady?.();
        if (this.conn) void this.sendModels(false);
        return;
      case 'run':
        // Each model's request is the user's: the History records them under Compare's command.
        void runInCommand('apiWorkbench.llm.compare', () => this.run(m.prompt, m.models)).catch((e: unknown) => this.s.log.error(`Compare: ${errorText(e)}`));
        return;
      case 'stop':
        this.stop();
        return;
      case 'refreshModels':
        void this.sendModels(true);
        return;
      case 'rendered':
        this.rendered.get(m.runId)?.(m.columns);
        this.rendered.delete(m.runId);
        return;
      case 'error':
        this.s.log.warn(`Compare view: ${m.message}`);
    }
  }

  private async run(prompt: string, models: string[]): Promise<CompareOutcome> {
    const conn = this.conn;
    if (!conn) throw new Error('The Compare panel has no connection.');
    if (this.running) {
      this.post({ type: 'notice', text: 'A comparison is still running: Stop it first, or wait for it to finish.' });
      return { connection: conn.name, results: [], notStarted: 'busy' };
    }
    const problem = compareModelsProblem(models);
    if (problem) {
      this.post({ type: 'notice', text: problem });
      return { connection: conn.name, results: [], notStarted: problem };
    }
    const messages = askMessages(prompt);
    if (!(await this.costs.confirm(models.map((model) => ({ model, messages }))))) {
      const text = 'Not sent: the comparison might pass your daily budget (apiWorkbench.llm.dailyBudget).';
      this.post({ type: 'notice', text });
      return { connection: conn.name, results: [], notStarted: text };
    }
    const runId = ++this.runId;
    const abort = new AbortController();
    const rendered = new Promise<RenderedColumn[] | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), RENDER_TIMEOUT_MS);
      this.rendered.set(runId, (columns) => {
        clearTimeout(timer);
        resolve(columns);
      });
    });
    const done = (async (): Promise<CompareOutcome> => {
      this.post({ type: 'run', runId, prompt, models: models.slice(0, MAX_COMPARE_MODELS) });
      const client = llmClient(this.s, conn);
      const prices = this.costs.prices();
      const results = await runCompare(client, { models, messages, signal: abort.signal }, prices, (e) => {
        // A server may echo a key in its error text: nothing unredacted reaches the page or the log.
        const event =
          e.type === 'failed'
            ? { ...e, failure: { ...e.failure, message: this.s.redactor.text(e.failure.message), description: this.s.redactor.text(e.failure.description) } }
            : e;
        this.post({ type: 'column', runId, event });
        if (event.type === 'done') void this.costs.record(models[event.column], event.stats.usage);
        if (event.type === 'failed') this.s.log.warn(`Compare ${models[event.column]} (${conn.name}): ${event.failure.description}`);
      });
      this.post({ type: 'finished', runId });
      return { connection: conn.name, results, rendered: await rendered };
    })();
    this.running = { abort, done };
    try {
      return await done;
    } finally {
      this.running = undefined;
    }
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
