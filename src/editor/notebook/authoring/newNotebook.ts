// New API Notebook: a real `<name>.awb.md` file from the start, never an untitled one. VS Code's
// Save As dialog preselects the name without its last extension (`Untitled-2.awb`), so a user who
// typed "tour" got `tour.md`, a plain Markdown file that does not open as a notebook again.
// In a workspace the user types only the name; without one, the save dialog picks the place and
// the name is completed to `.awb.md` whatever was typed.
import * as os from 'node:os';
import vscode from 'vscode';
import {
  DEFAULT_NOTEBOOK_NAME,
  notebookBaseName,
  notebookFileName,
  notebookNameProblem,
  uniqueNotebookName,
} from '../../../features/notebook/notebookFileName';
import { NEW_NOTEBOOK_TEMPLATE } from '../../../features/notebook/template';
import { exists } from '../untitledNotebook';

/** The folder of the active editor's file, else the first workspace folder. */
function targetFolder(): vscode.WorkspaceFolder | undefined {
  const active = vscode.window.activeNotebookEditor?.notebook.uri ?? vscode.window.activeTextEditor?.document.uri;
  return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
}

/** `<folder>/<name>.awb.md`, the name asked for (prefilled with a free one) unless given; undefined when cancelled. */
async function inFolder(folder: vscode.WorkspaceFolder, given: string | undefined): Promise<vscode.Uri | undefined> {
  const fileIn = (name: string) => vscode.Uri.joinPath(folder.uri, notebookFileName(name));
  const problem = async (name: string) =>
    notebookNameProblem(name) ?? ((await exists(fileIn(name))) ? `${notebookFileName(name)} already exists in ${folder.name}: give another name.` : undefined);
  if (given !== undefined) {
    const refused = await problem(given);
    if (refused) throw new Error(`New API Notebook: ${refused}`);
    return fileIn(given);
  }
  const name = await vscode.window.showInputBox({
    title: 'New API Notebook',
    prompt: `The notebook is created as <name>.awb.md in ${folder.name}`,
    value: await uniqueNotebookName(DEFAULT_NOTEBOOK_NAME, (f) => exists(vscode.Uri.joinPath(folder.uri, f))),
    validateInput: problem,
  });
  return name === undefined ? undefined : fileIn(name);
}

/** Without a workspace: the save dialog, its chosen name completed to `.awb.md` (a free one when that file is there). */
async function fromSaveDialog(): Promise<vscode.Uri | undefined> {
  const chosen = await vscode.window.showSaveDialog({
    title: 'New API Notebook',
    saveLabel: 'Create',
    defaultUri: vscode.Uri.joinPath(vscode.Uri.file(os.homedir()), notebookFileName(DEFAULT_NOTEBOOK_NAME)),
    filters: { 'API notebook': ['awb.md'] },
  });
  if (!chosen) return undefined;
  const typed = chosen.path.slice(chosen.path.lastIndexOf('/') + 1);
  const refused = notebookNameProblem(typed);
  if (refused) throw new Error(`New API Notebook: ${refused}`);
  // The dialog already asked before replacing the file it shows; a completed name is another file.
  if (notebookFileName(typed) === typed) return chosen;
  const folder = vscode.Uri.joinPath(chosen, '..');
  const name = await uniqueNotebookName(notebookBaseName(typed), (f) => exists(vscode.Uri.joinPath(folder, f)));
  return vscode.Uri.joinPath(folder, notebookFileName(name));
}

/** Creates the notebook file from the template and opens it as the notebook; `name`: given by a caller instead of asking (tests, other commands). */
export async function newNotebook(name?: string): Promise<vscode.NotebookDocument | undefined> {
  const folder = targetFolder();
  const uri = folder ? await inFolder(folder, name) : await fromSaveDialog();
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(NEW_NOTEBOOK_TEMPLATE));
  const doc = await vscode.workspace.openNotebookDocument(uri);
  await vscode.window.showNotebookDocument(doc);
  return doc;
}
