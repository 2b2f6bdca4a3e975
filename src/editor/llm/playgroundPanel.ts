// The LLM playground panel of one model connection: hosts the webview, keeps the conversation (the
// host owns it; the webview draws it), runs exchanges with the model and its tool calls, and saves
// the conversation as a notebook cell. Every webview message is validated before it is acted on.
import vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { errorText } from '../../core/errors';
import { validate } from '../../core/validate';
import { costOf } from '../../services/llm/pricing';
import {
  hostToPlaygroundSchema,
  playgroundToHostSchema,
  type HostToPlayground,
  type PlaygroundSettings,
  type Turn,
} from '../../services/llm/playgroundMessages';
import { NOTEBOOK_TYPE } from '../../features/ids';
import { runInCommand } from '../../history/scope';
import type { Services } from '../services';
import { chatModelsOf } from '../../catalogue/modelKinds';
import { llmClient } from '../../features/llm/clients';
import { conversationToCell } from '../../features/llm/playgroundCell';
import { countableMessages } from '../../features/llm/costLedger';
import type { LlmCosts } from '../llmCosts';
import { editTurn, runExchange, type ExchangeOptions, type ExchangeOutcome } from '../../features/llm/playgroundConversation';
import { playgroundHtml } from '../../features/llm/playgroundHtml';
import { playgroundToolServices } from './playgroundServices';
import { ToolBox } from '../../features/llm/playgroundTools';
import type { CodeLanguage } from '../../features/codegen';
import type { CopiedCode } from '../codeCopy';
import { bundle } from '../bundles';

/** Redraws while an answer streams are coalesced to this interval. */
const REDRAW_MS = 50;

export class PlaygroundPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private turns: Turn[];
  private busy: AbortController | undefined;
  private running: Promise<ExchangeOutcome> | undefined;
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private renderedTurns = -1;
  private readonly renderWaiters: Array<{ turns: number; resolve: () => void }> = [];
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  /** Closed: a late answer or model list has nowhere to go (a disposed webview throws on post). */
  private closed = false;

  constructor(
    private readonly s: Services,
    readonly conn: HttpConnection,
    private settingsNow: PlaygroundSettings,
    turns: Turn[] = [],
    private readonly costs?: LlmCosts,
  ) {
    this.turns = turns;
    const media = vscode.Uri.joinPath(s.context.extensionUri, 'media', 'playground');
    const scripts = vscode.Uri.joinPath(s.context.extensionUri, 'dist', 'webview');
    this.panel = vscode.window.createWebviewPanel('apiWorkbench.llmPlayground', this.title(), vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [media, scripts],
    });
    const w = this.panel.webview;
    w.html = playgroundHtml(
      {
        cspSource: w.cspSource,
        css: w.asWebviewUri(vscode.Uri.joinPath(media, 'playground.css')).toString(),
        script: w.asWebviewUri(vscode.Uri.joinPath(scripts, 'playground.js')).toString(),
      },
      this.title(),
    );
    w.onDidReceiveMessage((m: unknown) => void this.receive(m).catch((e: unknown) => this.notice(errorText(e), 'error')));
    this.panel.onDidDispose(() => {
      this.closed = true;
      this.busy?.abort();
      clearTimeout(this.redrawTimer);
      this.disposed.fire();
      this.disposed.dispose();
    });
  }

  get settings(): PlaygroundSettings {
    return this.settingsNow;
  }

  /** The conversation as shown (a copy). */
  get conversation(): Turn[] {
    return structuredClone(this.turns);
  }

  /** Replaces the conversation (a cell reopened here) and redraws everything. */
  load(settings: PlaygroundSettings, turns: Turn[]): void {
    this.busy?.abort();
    this.settingsNow = settings;
    this.turns = turns;
    this.panel.title = this.title();
    void this.init();
  }

  /**
   * Handles one message from the webview (tests call it with the same messages). Resolves when
   * what it started is over, e.g. the whole exchange of a `send`.
   */
  async receive(raw: unknown): Promise<void> {
    const v = validate(playgroundToHostSchema, raw);
    if (!v.ok) {
      this.s.log.warn(`The playground sent an unexpected message (${v.problem}); ignored.`);
      return;
    }
    const m = v.value;
    switch (m.type) {
      case 'ready':
        return this.init();
      case 'settings':
        this.adopt(m.settings);
        return;
      case 'send':
      case 'resend': {
        this.adopt(m.settings);
        if (this.busy) return this.notice('The model is still answering: Stop it first, or wait.', 'error');
        if (!m.text.trim()) return this.notice('Type a message first.', 'error');
        this.turns = m.type === 'send' ? [...this.turns, { kind: 'user', text: m.text }] : editTurn(this.turns, m.index, m.text);
        // A message the user sends is a request of theirs: the History records it under the playground's command.
        await runInCommand('apiWorkbench.llm.openPlayground', () => this.exchange());
        return;
      }
      case 'stop':
        this.busy?.abort();
        await this.running;
        return;
      case 'clear':
        this.adopt(m.settings);
        this.busy?.abort();
        await this.running;
        this.turns = [];
        this.post({ type: 'turns', turns: [], busy: false });
        return;
      case 'saveAsCell':
        this.adopt(m.settings);
        await this.saveAsCell();
        return;
      case 'copyAsCode':
        this.adopt(m.settings);
        await this.copyAsCode();
        return;
      case 'loadSchemaFile':
        return this.loadSchemaFile();
      case 'rendered':
        this.renderedTurns = m.turns;
        for (const w of this.renderWaiters.splice(0)) {
          if (w.turns <= m.turns) w.resolve();
          else this.renderWaiters.push(w);
        }
    }
  }

  /** Resolves once the webview has drawn at least `turns` turns (tests, before a screenshot). */
  whenRendered(turns: number): Promise<void> {
    if (this.renderedTurns >= turns) return Promise.resolve();
    return new Promise((resolve) => this.renderWaiters.push({ turns, resolve }));
  }

  private async exchange(): Promise<void> {
    const abort = new AbortController();
    this.busy = abort;
    const run = async (): Promise<ExchangeOutcome> => {
      const describeError = (e: unknown) => this.s.redactor.text(errorText(e));
      let tools: ToolBox | undefined;
      try {
        if (this.settingsNow.tools.length || this.settingsNow.customTools.length)
          tools = await ToolBox.create(this.settingsNow.tools, this.settingsNow.customTools, playgroundToolServices(this.s), describeError);
      } catch (e) {
        this.turns.push({ kind: 'error', text: describeError(e) });
        return 'failed';
      }
      return runExchange({
        client: llmClient(this.s, this.conn),
        api: this.settingsNow.api,
        settings: this.settingsNow,
        turns: this.turns,
        tools,
        signal: abort.signal,
        onChange: () => this.scheduleRedraw(),
        describeError,
        ...(this.costs ? this.costHooks(this.costs) : {}),
      });
    };
    this.post({ type: 'turns', turns: this.turns, busy: true });
    this.running = run();
    try {
      const outcome = await this.running;
      this.s.log.info(`Playground (${this.conn.name}, ${this.settingsNow.model}): ${outcome}`);
    } finally {
      this.busy = undefined;
      this.running = undefined;
      clearTimeout(this.redrawTimer);
      this.redrawTimer = undefined;
      this.post({ type: 'turns', turns: this.turns, busy: false });
    }
  }

  /** The user's price table, the daily budget question and today's total: the same as Ask and Compare. */
  private costHooks(costs: LlmCosts): Pick<ExchangeOptions, 'price' | 'maySend' | 'onUsage'> {
    return {
      price: (model, usage) => costOf(model, usage, costs.prices())?.totalUsd,
      maySend: (req) =>
        costs.confirm([{ model: req.model, messages: countableMessages(req.messages), ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}) }]),
      onUsage: (model, usage) =>
        void costs.record(model, usage).catch((e: unknown) => this.s.log.warn(`Playground: today's cost total not updated: ${errorText(e)}`)),
    };
  }

  private scheduleRedraw(): void {
    this.redrawTimer ??= setTimeout(() => {
      this.redrawTimer = undefined;
      this.post({ type: 'turns', turns: this.turns, busy: this.busy !== undefined });
    }, REDRAW_MS);
  }

  private async init(): Promise<void> {
    // Chat models only, in the one order; with no model chosen yet, the first (best-known) one.
    const models = await llmClient(this.s, this.conn)
      .listModels()
      .then((list) => chatModelsOf(list, [this.settingsNow.model]).map((m) => m.id))
      .catch(() => [] as string[]);
    if (!this.settingsNow.model && models.length > 0) {
      this.settingsNow = { ...this.settingsNow, model: models[0] };
      this.panel.title = this.title();
    }
    this.post({ type: 'init', connection: this.conn.name, models, settings: this.settingsNow, turns: this.turns, busy: this.busy !== undefined });
  }

  private async saveAsCell(): Promise<void> {
    if (!this.turns.some((t) => t.kind === 'user')) return this.notice('There is nothing to save yet: send a message first.', 'error');
    let value: string;
    try {
      value = await conversationToCell(this.settingsNow, this.turns);
    } catch (e) {
      return this.notice(errorText(e), 'error');
    }
    const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, value, 'llm');
    if (this.conn.name !== this.s.connections.active('llm')?.name) data.metadata = { attributes: { connection: this.conn.name } };
    const nb = vscode.window.visibleNotebookEditors.find((e) => e.notebook.notebookType === NOTEBOOK_TYPE)?.notebook;
    if (nb) {
      const edit = new vscode.WorkspaceEdit();
      edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [data])]);
      await vscode.workspace.applyEdit(edit);
      this.notice(`Saved as a cell at the end of ${nb.uri.path.split('/').pop() ?? 'the notebook'}.`, 'info');
      return;
    }
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, new vscode.NotebookData([data]));
    await vscode.window.showNotebookDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
    this.notice('Saved as a cell in a new API notebook.', 'info');
  }

  /**
   * Copy as Code… of the conversation as the playground sends it (streamed, with its tools and
   * response format) to this panel's connection: the request is written as an llm cell pinned to
   * the connection, then Copy as Code writes that cell as it does a notebook's. `language` skips the
   * pick (tests, other callers).
   */
  async copyAsCode(language?: CodeLanguage): Promise<CopiedCode | undefined> {
    if (!this.turns.some((t) => t.kind === 'user')) {
      this.notice('There is nothing to copy yet: send a message first.', 'error');
      return undefined;
    }
    const value = await conversationToCell(this.settingsNow, this.turns, { stream: true });
    const cell = { kind: 'code' as const, language: 'llm', value, metadata: { attributes: { connection: this.conn.name } } };
    // The code generators ride in dist/notebook.js (with the history's Copy as Code): statically
    // imported here they put ~350 KB into dist/llm.js, loaded with every playground.
    return bundle('notebook').copyCellCode(this.s, cell, { cells: [cell], what: 'the conversation' }, language);
  }

  private async loadSchemaFile(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'JSON Schema': ['json'] }, title: 'JSON Schema of the answer' });
    if (!picked?.[0]) return;
    const bytes = await vscode.workspace.fs.readFile(picked[0]);
    this.post({ type: 'schemaText', text: new TextDecoder().decode(bytes) });
  }

  private notice(text: string, level: 'info' | 'error'): void {
    this.post({ type: 'notice', text, level });
  }

  private post(m: HostToPlayground): void {
    if (this.closed) return;
    // Checked on the way out too: a drawing bug should show here, not as a blank webview.
    const v = validate(hostToPlaygroundSchema, m);
    if (!v.ok) this.s.log.warn(`Playground message not sent: ${v.problem}`);
    // A webview closing at the same moment refuses the message: nothing is lost, the host keeps the turns.
    else this.panel.webview.postMessage(m).then(undefined, () => undefined);
  }

  /** The page's settings as they are now; the tab names the model picked there, not the one it opened with. */
  private adopt(settings: PlaygroundSettings): void {
    this.settingsNow = settings;
    this.panel.title = this.title();
  }

  private title(): string {
    return `Playground: ${this.settingsNow.model || 'model'} (${this.conn.name})`;
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    this.panel.dispose();
  }
}
