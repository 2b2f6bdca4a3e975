import * as path from 'node:path';
import vscode from 'vscode';
import { entryToCell, entryToCellText, NotACellError, type CellOptions } from '../../history/cell';
import { historyEntryFromCellResult } from '../../history/fromCellResult';
import type { HistoryEntry } from '../../history/model';
import { renderEntry } from '../../history/render';
import { createRunner, type NotebookCellData } from '../../notebook/api';
import type { CommandTable } from '../commands';
import { HISTORY_COMMANDS, NOTEBOOK_TYPE } from '../../features/ids';
import { editorNotebookHost } from '../notebookHost';
import { copyCellCode, type CopiedCode } from '../codeCopy';
import type { Services } from '../services';
import type { HistoryStore } from './store';

export const HISTORY_SCHEME = 'api-workbench-history';

/** Where "Add to Notebook" put the cell: a notebook (cell index) or a text document (the cell's first line). */
export interface AddedCell {
  uri: vscode.Uri;
  kind: 'notebook' | 'text';
  /** The cell's text as the `*.awb.md` file has it. */
  text: string;
}

/** Shows each entry as a read-only Markdown document (api-workbench-history:/<id>/<method path>.md). */
export class HistoryDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: HistoryStore) {}

  static uriOf(entry: HistoryEntry): vscode.Uri {
    const title = `${entry.method} ${entry.url.replace(/^\w+:\/\/[^/]+/, '').split('?')[0]}`
      .replace(/[\\/:*?"<>|#%]+/g, ' ')
      .trim()
      .slice(0, 60);
    return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${entry.id}/${title || 'request'}.md` });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const id = uri.path.split('/')[1] ?? '';
    const entry = await this.store.get(id);
    return entry ? renderEntry(entry) : 'This request is no longer in the history.';
  }
}

/** A tree node, a command link's argument or an id: whatever names an entry. */
async function entryFromArg(store: HistoryStore, arg: unknown): Promise<HistoryEntry | undefined> {
  if (typeof arg === 'string') return store.get(arg);
  if (arg && typeof arg === 'object' && typeof (arg as { id?: unknown }).id === 'string') return store.get((arg as { id: string }).id);
  return undefined;
}

export function historyCommands(s: Services, store: HistoryStore): CommandTable {
  const need = async (arg: unknown): Promise<HistoryEntry> => {
    const entry = (await entryFromArg(store, arg)) ?? (arg === undefined ? store.last() : undefined);
    if (!entry) throw new Error(arg === undefined ? 'The history is empty: send a request first.' : 'This request is no longer in the history.');
    return entry;
  };

  /** Which of the connection's base URLs the path is relative to, and whether the cell must name the connection. */
  const cellOptions = (entry: HistoryEntry, pin: boolean): CellOptions => {
    // An http cell's request names its whole URL and no connection.
    if (entry.service === 'http') return {};
    const conn = entry.connection === undefined ? undefined : s.connections.get(entry.service, entry.connection);
    const baseUrls = conn && conn.service !== 'realtime' ? [conn.baseUrl, ...Object.values(conn.baseUrls)] : [];
    const active = s.connections.active(entry.service);
    return { baseUrls, connection: conn && (pin || active?.name !== conn.name) ? conn.name : undefined };
  };

  const show = async (arg?: unknown) => {
    const entry = await need(arg);
    const doc = await vscode.workspace.openTextDocument(HistoryDocuments.uriOf(entry));
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    return doc.uri;
  };

  const rerun = async (arg?: unknown): Promise<HistoryEntry | undefined> => {
    const entry = await need(arg);
    const cell = entryToCell(entry, cellOptions(entry, true));
    let recorded: HistoryEntry | undefined;
    const host = editorNotebookHost(s, {
      recordInHistory: false,
      onResult: (result) => {
        const e = historyEntryFromCellResult(result);
        // A re-run is the user's own request again, not a notebook's.
        if (e) store.record((recorded = { ...e, origin: 'command', cell: undefined, connection: e.connection ?? entry.connection }));
      },
    });
    const runner = createRunner([cell], { host, file: `History: ${entry.method} ${entry.url}` });
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Re-running ${entry.method} ${entry.url}`, cancellable: true },
        (_p, token) => runner.runCell(0, token),
      );
      if (result.error !== undefined && !result.cancelled) void vscode.window.showErrorMessage(s.redactor.text(result.error));
    } finally {
      runner.dispose();
    }
    if (recorded) await show(recorded);
    return recorded;
  };

  /** The entry as a notebook cell; undefined (after saying why) when it cannot be one. */
  const cellOrWarning = (entry: Parameters<typeof entryToCell>[0]): NotebookCellData | undefined => {
    try {
      return entryToCell(entry, cellOptions(entry, false));
    } catch (e) {
      if (e instanceof NotACellError) return void vscode.window.showWarningMessage(e.message);
      throw e;
    }
  };

  const addToNotebook = async (arg?: unknown): Promise<AddedCell | undefined> => {
    const entry = await need(arg);
    const cell = cellOrWarning(entry);
    return cell && addCell(cell, entryToCellText(entry, cellOptions(entry, false)));
  };

  /** The request a document shows (an answer's or response's title bar passes the document's URI), or the entry `arg` names. */
  const shownOrNamed = async (arg: unknown): Promise<HistoryEntry> => {
    if (!(arg instanceof vscode.Uri)) return need(arg);
    const entry = await store.entryForDocument(arg);
    if (!entry)
      throw new Error('The request shown here is not in the history (it was not recorded, or was removed): use History › Add to Notebook on another one.');
    return entry;
  };

  /**
   * "Save as Notebook Cell…" where a command shows its result (an answer's or response's title bar:
   * the document's own request; a notification: `{ id }`), into a notebook the user picks.
   * `destination` (a notebook or `*.awb.md` URI, or 'new') skips the question.
   */
  const saveAsCell = async (arg?: unknown, destination?: unknown): Promise<AddedCell | undefined> => {
    const entry = await shownOrNamed(arg);
    const cell = cellOrWarning(entry);
    if (!cell) return undefined;
    const target = destination instanceof vscode.Uri || destination === 'new' ? destination : await pickNotebook();
    if (!target) return undefined;
    return addCellTo(target, cell, entryToCellText(entry, cellOptions(entry, false)));
  };

  return {
    // Copy as Code of an entry, or of the request behind the document shown (an LLM answer's or a maps
    // result's title bar): the request as the cell Add to Notebook would write, to the entry's
    // connection. `language` skips the pick.
    [HISTORY_COMMANDS.copyAsCode]: async (arg?: unknown, language?: unknown): Promise<CopiedCode | undefined> => {
      const cell = cellOrWarning(await shownOrNamed(arg));
      return cell && copyCellCode(s, cell, { cells: [cell], what: 'the request' }, language);
    },
    [HISTORY_COMMANDS.saveAsCell]: saveAsCell,
    [HISTORY_COMMANDS.show]: show,
    [HISTORY_COMMANDS.rerun]: rerun,
    [HISTORY_COMMANDS.addToNotebook]: addToNotebook,
    [HISTORY_COMMANDS.saveLastAsCell]: () => addToNotebook(undefined),
    [HISTORY_COMMANDS.clear]: async () => {
      await store.clear();
      vscode.window.setStatusBarMessage('$(clear-all) Cleared the request history', 3_000);
    },
  };
}

const NEW_NOTEBOOK = 'new';
/** Workspace notebooks offered besides the open ones. */
const MAX_FILES = 50;

/** Asks which notebook gets the cell: the open API notebooks, the workspace's `*.awb.md` files, or a new one. */
async function pickNotebook(): Promise<vscode.Uri | typeof NEW_NOTEBOOK | undefined> {
  const open = vscode.workspace.notebookDocuments.filter((d) => d.notebookType === NOTEBOOK_TYPE);
  const openKeys = new Set(open.map((d) => d.uri.toString()));
  const files = (await vscode.workspace.findFiles('**/*.awb.md', '**/node_modules/**', MAX_FILES)).filter((u) => !openKeys.has(u.toString()));
  type Item = vscode.QuickPickItem & { target: vscode.Uri | typeof NEW_NOTEBOOK };
  const items: Item[] = [
    { label: '$(new-file) New API Notebook', target: NEW_NOTEBOOK },
    ...open.map((d) => ({
      label: `$(notebook) ${path.posix.basename(d.uri.path)}`,
      description: d.isUntitled ? 'unsaved' : vscode.workspace.asRelativePath(d.uri),
      detail: 'open',
      target: d.uri,
    })),
    ...files.map((u) => ({ label: `$(file) ${path.posix.basename(u.path)}`, description: vscode.workspace.asRelativePath(u), target: u })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Save as Notebook Cell',
    placeHolder: 'The API notebook (*.awb.md) the request is added to',
  });
  return picked?.target;
}

/** Appends the cell to the chosen notebook (opening it if needed) or to a new untitled one, and shows it. */
async function addCellTo(target: vscode.Uri | typeof NEW_NOTEBOOK, cell: NotebookCellData, text: string): Promise<AddedCell> {
  const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell.value, cell.language);
  data.metadata = { ...cell.metadata };
  if (target === NEW_NOTEBOOK) {
    const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, new vscode.NotebookData([data]));
    await vscode.window.showNotebookDocument(doc);
    return { uri: doc.uri, kind: 'notebook', text };
  }
  const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === target.toString()) ?? (await vscode.workspace.openNotebookDocument(target));
  if (nb.notebookType !== NOTEBOOK_TYPE) throw new Error(`${path.posix.basename(target.path)} is not an API notebook (*.awb.md).`);
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [data])]);
  await vscode.workspace.applyEdit(edit);
  const editor = await vscode.window.showNotebookDocument(nb);
  editor.revealRange(new vscode.NotebookRange(nb.cellCount - 1, nb.cellCount), vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  return { uri: nb.uri, kind: 'notebook', text };
}

/**
 * Appends the cell to the `*.awb.md` notebook in front (or the `*.awb.md` text editor), otherwise
 * to a new untitled API notebook.
 */
async function addCell(cell: NotebookCellData, text: string): Promise<AddedCell> {
  const nb = vscode.window.activeNotebookEditor?.notebook;
  const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell.value, cell.language);
  data.metadata = { ...cell.metadata };
  if (nb && nb.notebookType === NOTEBOOK_TYPE) {
    const edit = new vscode.WorkspaceEdit();
    edit.set(nb.uri, [vscode.NotebookEdit.insertCells(nb.cellCount, [data])]);
    await vscode.workspace.applyEdit(edit);
    vscode.window.setStatusBarMessage(`$(notebook) Added the request to ${nb.uri.path.split('/').pop() ?? 'the notebook'}`, 4_000);
    return { uri: nb.uri, kind: 'notebook', text };
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.path.endsWith('.awb.md')) {
    const doc = editor.document;
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    const sep = doc.getText() === '' ? '' : doc.getText().endsWith('\n') ? '\n' : '\n\n';
    await editor.edit((b) => b.insert(end, sep + text));
    return { uri: doc.uri, kind: 'text', text };
  }
  const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, new vscode.NotebookData([data]));
  await vscode.window.showNotebookDocument(doc);
  return { uri: doc.uri, kind: 'notebook', text };
}
