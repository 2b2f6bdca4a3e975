// The active environment of each API notebook: the names come from the notebook's
// `vars env=<name>` cells; the choice is remembered per file and shown in the status bar.
import vscode from 'vscode';
import { CONTEXT_HAS_ENVIRONMENTS, NOTEBOOK_TYPE } from '../../features/ids';

const STATE_KEY = 'apiWorkbench.notebook.environments';
const NONE = '(no environment)';

/** The environment names a notebook's vars cells declare, in order of appearance. */
export function declaredEnvironments(doc: vscode.NotebookDocument): string[] {
  const names: string[] = [];
  for (const cell of doc.getCells()) {
    if (cell.kind !== vscode.NotebookCellKind.Code || cell.document.languageId !== 'vars') continue;
    const env = (cell.metadata.attributes as Record<string, string> | undefined)?.env;
    if (env && !names.includes(env)) names.push(env);
  }
  return names;
}

/** A notebook's chosen environment as remembered in `state` (the workspace state), for readers outside the controller. */
export function environmentOf(state: vscode.Memento, uri: vscode.Uri): string | undefined {
  return state.get<Record<string, string>>(STATE_KEY, {})[uri.toString()];
}

export class Environments implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with the notebook whose environment changed. */
  readonly onDidChange = this.changed.event;
  private readonly status = vscode.window.createStatusBarItem('apiWorkbench.notebook.environment', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly state: vscode.Memento) {
    this.status.name = 'API Notebook Environment';
    this.status.command = 'apiWorkbench.notebook.selectEnvironment';
    this.disposables.push(
      this.status,
      this.changed,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.refresh()),
      vscode.workspace.onDidChangeNotebookDocument((e) => e.notebook === vscode.window.activeNotebookEditor?.notebook && this.refresh()),
    );
    this.refresh();
  }

  /** The environment a notebook runs with (undefined: only vars cells without `env` apply). */
  get(uri: vscode.Uri): string | undefined {
    return environmentOf(this.state, uri);
  }

  async set(uri: vscode.Uri, env: string | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, string>>(STATE_KEY, {}) };
    if (env) all[uri.toString()] = env;
    else delete all[uri.toString()];
    await this.state.update(STATE_KEY, all);
    this.changed.fire(uri);
    this.refresh();
  }

  /**
   * The toolbar / palette command. `name` (tests, links) sets it without asking; otherwise a quick
   * pick offers the notebook's declared environments.
   */
  async pick(target?: unknown, name?: string): Promise<string | undefined> {
    const doc = notebookOf(target) ?? vscode.window.activeNotebookEditor?.notebook;
    if (!doc || doc.notebookType !== NOTEBOOK_TYPE) throw new Error('Open an API notebook (*.awb.md) first.');
    if (name === undefined) {
      const names = declaredEnvironments(doc);
      const current = this.get(doc.uri);
      const items: vscode.QuickPickItem[] = [NONE, ...names].map((n) => ({ label: n, description: n === (current ?? NONE) ? 'active' : undefined }));
      const choice = await vscode.window.showQuickPick(items, {
        title: 'Environment of this notebook',
        placeHolder: names.length ? 'Which `vars env=…` cells apply' : 'This notebook declares no environments (add a cell ```vars env=staging)',
      });
      if (!choice) return undefined;
      name = choice.label === NONE ? '' : choice.label;
    }
    await this.set(doc.uri, name || undefined);
    return name || undefined;
  }

  private refresh(): void {
    const doc = vscode.window.activeNotebookEditor?.notebook;
    if (!doc || doc.notebookType !== NOTEBOOK_TYPE) {
      this.status.hide();
      return;
    }
    const names = declaredEnvironments(doc);
    void vscode.commands.executeCommand('setContext', CONTEXT_HAS_ENVIRONMENTS, names.length > 0);
    const env = this.get(doc.uri);
    this.status.text = `$(server-environment) ${env ?? 'No environment'}`;
    this.status.tooltip = names.length
      ? `API notebook environment (declared: ${names.join(', ')}). Click to change.`
      : 'This API notebook declares no environments.';
    this.status.show();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** The notebook a toolbar/palette command was invoked on (VS Code passes `{ notebookEditor: { notebookUri } }` or a URI). */
export function notebookOf(target: unknown): vscode.NotebookDocument | undefined {
  let uri: vscode.Uri | undefined;
  if (target instanceof vscode.Uri) uri = target;
  else if (typeof target === 'object' && target !== null) {
    const t = target as { notebookEditor?: { notebookUri?: unknown }; notebook?: { uri?: unknown }; uri?: unknown };
    const u = t.notebookEditor?.notebookUri ?? t.notebook?.uri ?? t.uri;
    if (u instanceof vscode.Uri) uri = u;
  }
  return uri ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString()) : undefined;
}
