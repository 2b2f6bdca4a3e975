// The notebook controller: runs cells through one engine runner per open notebook (kept in step
// with edits), streams LLM text and LISTEN messages into the cell while it runs, and stops a cell
// when the user presses stop (what arrived stays). Other features hook in through onDidFinishCell
// and runCell (history, Testing API).
import * as path from 'node:path';
import vscode from 'vscode';
import { mapTiles, scriptLimits } from '../../features/settings';
import { createRunner, hasScriptBlock, type CellProgress, type CellResult, type CodeLanguage, type NotebookRunner, type RunOptions } from '../../notebook/api';
import { RESULT_MIME, type ResultPayload } from '../../webview/result/protocol';
import { CONNECTION_COMMANDS, EXTENSION_ID, NOTEBOOK_CONTROLLER_ID, NOTEBOOK_LANGUAGES, NOTEBOOK_TYPE } from '../../features/ids';
import type { Services } from '../services';
import type { Environments } from './environments';
import { editorNotebookHost, httpCellAccess } from '../notebookHost';
import { recordingListenTape } from '../../features/notebook/recordingScope';
import type { ServiceId } from '../../core/connections';
import { parsePriceSetting, type PriceTable } from '../../features/llm/costLedger';
import { plainSummary, resultPayload, runningPayload, type LiveState } from '../../features/notebook/payload';
import { engineCells } from './serializer';
import { errorText } from '../../core/errors';

/** Bytes of a body the engine keeps per result: enough for "Open Whole Body in Editor" on big answers. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** How many whole bodies stay in memory for "Open Whole Body in Editor" (the newest). */
const KEPT_BODIES = 20;
/** The button of the error for a request whose host no connection has. */
const CONNECT = 'Connect…';
/** Live output is replaced at most this often while a cell streams. */
const LIVE_UPDATE_MS = 150;

export interface FinishedCell {
  notebook: vscode.NotebookDocument;
  cell: vscode.NotebookCell;
  result: CellResult;
}

interface LiveCell extends LiveState {
  execution: vscode.NotebookCellExecution;
  resultId: string;
  service: CodeLanguage;
  name?: string;
  timer?: NodeJS.Timeout;
  token?: vscode.CancellationToken;
}

/** One open notebook: its runner, re-fed with the cells after every edit. */
class Session implements vscode.Disposable {
  readonly runner: NotebookRunner;
  stale = false;
  readonly live = new Map<number, LiveCell>();
  /** Cancelled by stop(); a fresh one for the next run. */
  stop = new vscode.CancellationTokenSource();

  constructor(
    readonly doc: vscode.NotebookDocument,
    make: (session: Session) => NotebookRunner,
  ) {
    this.runner = make(this);
  }

  sync(): void {
    if (!this.stale) return;
    this.runner.setCells(engineCells(this.doc));
    this.stale = false;
  }

  /** The token a run honours: the cell's own (VS Code's stop button) or stop() of the notebook. */
  token(execution: vscode.NotebookCellExecution): vscode.CancellationToken {
    if (this.stop.token.isCancellationRequested) {
      this.stop.dispose();
      this.stop = new vscode.CancellationTokenSource();
    }
    const both = new vscode.CancellationTokenSource();
    const subs = [execution.token.onCancellationRequested(() => both.cancel()), this.stop.token.onCancellationRequested(() => both.cancel())];
    if (execution.token.isCancellationRequested) both.cancel();
    void both.token.onCancellationRequested(() => subs.forEach((d) => void d.dispose()));
    return both.token;
  }

  dispose(): void {
    this.stop.cancel();
    this.stop.dispose();
    this.runner.dispose();
  }
}

export class NotebookRunController implements vscode.Disposable {
  readonly controller: vscode.NotebookController;
  private readonly sessions = new Map<string, Session>();
  private readonly finished = new vscode.EventEmitter<FinishedCell>();
  /** A cell finished (its output is final): for the history view and the Testing API. */
  readonly onDidFinishCell = this.finished.event;
  private readonly ran = new vscode.EventEmitter<{ notebook: vscode.NotebookDocument; results: readonly CellResult[] }>();
  /** A run (one cell, or Run All) ended: the Testing view shows its checks. */
  readonly onDidRun = this.ran.event;
  private readonly bodies = new Map<string, { text: string; json: boolean }>();
  /** The result id last shown in each cell. */
  private readonly cellResults = new WeakMap<vscode.NotebookCell, string>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Notebooks this controller is selected for (VS Code only lets a selected controller run cells). */
  private readonly selected = new Set<string>();
  private readonly selectionChanged = new vscode.EventEmitter<void>();
  private executionOrder = 0;
  private nextResult = 0;

  constructor(
    private readonly s: Services,
    private readonly environments: Environments,
  ) {
    this.controller = vscode.notebooks.createNotebookController(NOTEBOOK_CONTROLLER_ID, NOTEBOOK_TYPE, 'API Workbench');
    this.controller.supportedLanguages = [...NOTEBOOK_LANGUAGES];
    this.controller.supportsExecutionOrder = true;
    this.controller.description = 'Runs LLM, maps, realtime and HTTP cells';
    this.controller.executeHandler = async (cells, notebook) => {
      await this.execute(cells, notebook);
    };
    this.disposables.push(
      this.controller,
      this.finished,
      this.ran,
      this.selectionChanged,
      this.controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
        if (selected) this.selected.add(notebook.uri.toString());
        else this.selected.delete(notebook.uri.toString());
        this.selectionChanged.fire();
      }),
      // The only controller for API notebooks: VS Code picks it without asking.
      vscode.workspace.onDidOpenNotebookDocument((doc) => this.prefer(doc)),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        const session = this.sessions.get(e.notebook.uri.toString());
        if (session && (e.contentChanges.length || e.cellChanges.some((c) => c.document || c.metadata))) session.stale = true;
      }),
      vscode.workspace.onDidCloseNotebookDocument((doc) => {
        this.sessions.get(doc.uri.toString())?.dispose();
        this.sessions.delete(doc.uri.toString());
      }),
      // Named results of the old environment are dropped by the runner; sockets and the rest stay.
      environments.onDidChange((uri) => this.sessions.get(uri.toString())?.runner.setEnvironment(environments.get(uri))),
    );
    vscode.workspace.notebookDocuments.forEach((doc) => this.prefer(doc));
  }

  private prefer(doc: vscode.NotebookDocument): void {
    if (doc.notebookType !== NOTEBOOK_TYPE) return;
    this.controller.updateNotebookAffinity(doc, vscode.NotebookControllerAffinity.Preferred);
    // A notebook with scripts gets its runner now: it loads the script engine before the first Run.
    if (doc.getCells().some((c) => c.kind === vscode.NotebookCellKind.Code && hasScriptBlock(c.document.getText()))) this.session(doc);
  }

  /** Selects this controller for a notebook (shown in an editor) when VS Code has not yet. */
  private async ensureSelected(notebook: vscode.NotebookDocument): Promise<void> {
    const key = notebook.uri.toString();
    if (this.selected.has(key)) return;
    const editor =
      vscode.window.visibleNotebookEditors.find((e) => e.notebook === notebook) ??
      (await vscode.window.showNotebookDocument(notebook, { preserveFocus: true }));
    if (vscode.window.activeNotebookEditor !== editor)
      await vscode.window.showNotebookDocument(notebook, { viewColumn: editor.viewColumn, preserveFocus: false });
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => void sub.dispose(), 5_000);
      const sub = this.selectionChanged.event(() => {
        if (!this.selected.has(key)) return;
        clearTimeout(timer);
        sub.dispose();
        resolve();
      });
    });
    await vscode.commands.executeCommand('notebook.selectKernel', { id: NOTEBOOK_CONTROLLER_ID, extension: EXTENSION_ID });
    if (!this.selected.has(key)) await Promise.race([done, new Promise((r) => setTimeout(r, 5_000))]);
  }

  /** Stops every running cell of a notebook (as the stop button does); what arrived stays. */
  stop(notebook: vscode.NotebookDocument): void {
    this.sessions.get(notebook.uri.toString())?.stop.cancel();
  }

  /** Runs one cell of a notebook as the run button would (output, execution order, events). */
  async runCell(notebook: vscode.NotebookDocument, index: number): Promise<CellResult | undefined> {
    await this.ensureSelected(notebook);
    const results = await this.execute([notebook.cellAt(index)], notebook);
    return results[0];
  }

  /** Runs every code cell in order, as "Run All" does. */
  async runAll(notebook: vscode.NotebookDocument): Promise<CellResult[]> {
    await this.ensureSelected(notebook);
    return this.execute(
      notebook.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code),
      notebook,
    );
  }

  /**
   * Runs every code cell once more on a runner of its own with `variables` set (Run with Models):
   * the notebook's outputs and named results stay as they were.
   */
  async runWith(notebook: vscode.NotebookDocument, variables: Record<string, string>, token: vscode.CancellationToken): Promise<CellResult[]> {
    const runner = createRunner(engineCells(notebook), { ...this.runOptions(notebook), variables });
    try {
      return await runner.runAll(token);
    } finally {
      runner.dispose();
    }
  }

  /** The whole (redacted) body of a result, for "Open Whole Body in Editor". */
  body(resultId: string): { text: string; json: boolean } | undefined {
    return this.bodies.get(resultId);
  }

  /** The last result of the cell named `name` in this notebook's runs (Copy as Code fills in what later cells read from it). */
  lastResult(doc: vscode.NotebookDocument, name: string): CellResult | undefined {
    return this.sessions.get(doc.uri.toString())?.runner.lastResult(name);
  }

  /** The result id last shown in a cell. */
  resultOf(cell: vscode.NotebookCell): string | undefined {
    return this.cellResults.get(cell);
  }

  private session(doc: vscode.NotebookDocument): Session {
    const key = doc.uri.toString();
    let session = this.sessions.get(key);
    if (!session) {
      session = new Session(doc, (sess) => createRunner(engineCells(doc), { ...this.runOptions(doc), onProgress: (p) => this.progress(sess, p) }));
      this.sessions.set(key, session);
    }
    return session;
  }

  private runOptions(doc: vscode.NotebookDocument): RunOptions {
    return {
      // A LISTEN inside Record Run / Run from Recording is recorded or replayed; elsewhere it listens live.
      host: { ...editorNotebookHost(this.s, { notebook: doc.uri.toString() }), listenTape: recordingListenTape },
      // Error locations name the file the user sees: an unsaved notebook by its name (`tour.awb.md`), not its `untitled:` URI.
      file: doc.uri.scheme === 'file' ? doc.uri.fsPath : path.posix.basename(doc.uri.path),
      // `< ./file` in a request body (and a `matches schema` file) is read next to the notebook; an untitled one has no folder.
      baseDir: doc.uri.scheme === 'file' ? path.dirname(doc.uri.fsPath) : undefined,
      environment: this.environments.get(doc.uri),
      maxBodyBytes: MAX_BODY_BYTES,
      scriptLimits: scriptLimits(this.s.config),
    };
  }

  private async execute(cells: readonly vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<CellResult[]> {
    const session = this.session(notebook);
    // A host refused in an earlier run is asked about again; within this run, once.
    httpCellAccess(this.s).forgetRefusals(notebook.uri.toString());
    const queue = cells
      .filter((c) => c.kind === vscode.NotebookCellKind.Code)
      .map((cell) => ({ cell, execution: this.controller.createNotebookCellExecution(cell) }));
    // A LISTEN goes on listening while the cells below it run (a PUBLISH meant for it among them):
    // the next cell starts once it is subscribed; the run ends when every cell has.
    const pending: Array<Promise<CellResult | undefined>> = [];
    let stopped = false;
    for (const { cell, execution } of queue) {
      if (stopped || execution.token.isCancellationRequested) {
        // The user stopped a cell of this run: the cells queued after it do not run.
        execution.start(Date.now());
        execution.end(undefined, Date.now());
        continue;
      }
      const run = this.startOne(session, cell, execution);
      const result = run.result.then((r) => {
        if (r?.cancelled) stopped = true;
        return r;
      });
      pending.push(result);
      await Promise.race([run.ready, result]);
    }
    const results = (await Promise.all(pending)).filter((r): r is CellResult => r !== undefined);
    if (results.length) this.ran.fire({ notebook, results });
    return results;
  }

  /** Starts a cell; `ready` as the engine's startCell (a LISTEN once subscribed, others when done). */
  private startOne(
    session: Session,
    cell: vscode.NotebookCell,
    execution: vscode.NotebookCellExecution,
  ): { ready: Promise<void>; result: Promise<CellResult | undefined> } {
    let started!: (ready: Promise<void>) => void;
    const engineReady = new Promise<Promise<void>>((resolve) => (started = resolve));
    const result = this.runOne(session, cell, execution, started);
    // runOne fails (or ends) before it starts the engine's cell when the engine itself breaks.
    const ready = Promise.race([engineReady.then((r) => r), result.then(() => undefined)]);
    return { ready, result };
  }

  private async runOne(
    session: Session,
    cell: vscode.NotebookCell,
    execution: vscode.NotebookCellExecution,
    started: (ready: Promise<void>) => void,
  ): Promise<CellResult | undefined> {
    execution.executionOrder = ++this.executionOrder;
    execution.start(Date.now());
    const resultId = `r${Date.now().toString(36)}-${++this.nextResult}`;
    const service = cell.document.languageId as CodeLanguage;
    const name = (cell.metadata.attributes as Record<string, string> | undefined)?.name;
    const live: LiveCell = { execution, resultId, service, ...(name ? { name } : {}) };
    session.live.set(cell.index, live);
    try {
      await execution.clearOutput();
      session.sync();
      const token = session.token(execution);
      live.token = token;
      const run = session.runner.startCell(cell.index, token);
      started(run.ready);
      const result = await run.result;
      clearTimeout(live.timer);
      this.keepBody(resultId, result);
      this.cellResults.set(cell, resultId);
      await execution.replaceOutput(
        this.output(
          resultPayload(resultId, result, live, result.service === 'maps' ? this.tiles() : undefined, result.service === 'llm' ? this.prices() : undefined),
        ),
      );
      execution.end(result.cancelled ? undefined : result.ok, Date.now());
      if (result.needsConnection) this.offerConnection(result.needsConnection, result.error ?? '');
      this.finished.fire({ notebook: session.doc, cell, result });
      return result;
    } catch (e) {
      clearTimeout(live.timer);
      // The engine reports request failures in the result; this is a failure of the engine itself.
      const text = this.s.redactor.text(errorText(e));
      this.s.log.error(`Notebook cell ${cell.index + 1} failed: ${text}`);
      await execution.replaceOutput(new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error({ name: 'Error', message: text })]));
      execution.end(false, Date.now());
      return undefined;
    } finally {
      session.live.delete(cell.index);
    }
  }

  /** The request names a host no connection has: the error offers the Connect… command of its service. */
  private offerConnection({ service, host }: { service: ServiceId; host: string }, error: string): void {
    const message = this.s.redactor.text(error);
    void vscode.window.showErrorMessage(message, CONNECT).then((choice) => {
      // The host goes along: Connect… offers it first (an Ollama port gets the Ollama preset, filled in).
      if (choice === CONNECT) void vscode.commands.executeCommand(CONNECTION_COMMANDS[service].addConnection, { host });
    });
  }

  private progress(session: Session, p: CellProgress): void {
    const live = session.live.get(p.cell.cellIndex);
    if (!live) return;
    if (p.kind === 'text') live.answer = p.text;
    else if (p.kind === 'message') {
      (live.messages ??= []).push(p.message);
      if (live.messages.length > 1000) live.messages.splice(0, live.messages.length - 500);
      live.count = p.count;
    } else return;
    live.timer ??= setTimeout(() => {
      live.timer = undefined;
      if (!session.live.has(p.cell.cellIndex)) return;
      void live.execution.replaceOutput(this.output(runningPayload(live.resultId, live.service, live.name, live)));
    }, LIVE_UPDATE_MS);
  }

  /** The user's LLM price table (problems in it are reported where Ask and Compare read it). */
  private prices(): PriceTable {
    return parsePriceSetting(this.s.config.get('llm.prices')).table;
  }

  /** The map tab's tiles: the maps panel's settings (user settings only: a workspace cannot redirect them). */
  private tiles(): { url: string | null; attribution: string } {
    return mapTiles(this.s.config);
  }

  private keepBody(resultId: string, result: CellResult): void {
    if (!result.response) return;
    this.bodies.set(resultId, { text: result.response.text, json: result.response.json !== undefined });
    for (const key of this.bodies.keys()) {
      if (this.bodies.size <= KEPT_BODIES) break;
      this.bodies.delete(key);
    }
  }

  /** The viewer's payload plus a plain-text summary for any other viewer; redacted once more. */
  private output(p: ResultPayload): vscode.NotebookCellOutput {
    const json = this.s.redactor.text(JSON.stringify(p));
    const summary = this.s.redactor.text(plainSummary(p));
    return new vscode.NotebookCellOutput(
      [new vscode.NotebookCellOutputItem(new TextEncoder().encode(json), RESULT_MIME), vscode.NotebookCellOutputItem.text(summary, 'text/plain')],
      { resultId: p.resultId },
    );
  }

  dispose(): void {
    for (const s of this.sessions.values()) s.dispose();
    this.sessions.clear();
    for (const d of this.disposables) d.dispose();
  }
}
