// An unsaved API notebook that already has its name: `untitled:<folder>/<name>.awb.md`. An untitled
// notebook made from NotebookData is called `Untitled-1.md`, which Save As proposes and VS Code then
// refuses ("patterns: *.awb.md"), and its errors name `untitled:Untitled-1.md?api-workbench-notebook`.
import * as path from 'node:path';
import vscode from 'vscode';
import { notebookFileName, uniqueNotebookName } from '../../features/notebook/notebookFileName';

/** True when something is at `uri` (a file the user would otherwise overwrite, a name already taken). */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The folder a new notebook made from `source` belongs in: the source's own, else the first workspace folder. */
function folderFor(source: vscode.Uri | undefined): vscode.Uri | undefined {
  if (source?.scheme === 'file') {
    const inWorkspace = vscode.workspace.getWorkspaceFolder(source);
    // A file from outside the workspace (a download) proposes the workspace, where the notebook is used.
    if (inWorkspace || !vscode.workspace.workspaceFolders?.length) return vscode.Uri.joinPath(source, '..');
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/**
 * Opens `data` as an unsaved notebook named `<base>.awb.md` (`<base>-2.awb.md`… when a file or an
 * open notebook has that name) next to `source`; Save proposes that name and folder.
 */
export async function openUntitledNotebook(data: vscode.NotebookData, base: string, source?: vscode.Uri): Promise<vscode.NotebookDocument> {
  const folder = folderFor(source);
  const uriOf = (fileName: string) => vscode.Uri.from({ scheme: 'untitled', path: folder ? path.posix.join(folder.path, fileName) : fileName });
  const openPaths = new Set(vscode.workspace.notebookDocuments.map((d) => d.uri.path));
  const name = await uniqueNotebookName(
    base,
    async (f) => openPaths.has(uriOf(f).path) || (folder !== undefined && (await exists(vscode.Uri.joinPath(folder, f)))),
  );
  const doc = await vscode.workspace.openNotebookDocument(uriOf(notebookFileName(name)));
  const edit = new vscode.WorkspaceEdit();
  edit.set(doc.uri, [
    vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(0, doc.cellCount), data.cells),
    ...(data.metadata ? [vscode.NotebookEdit.updateNotebookMetadata(data.metadata)] : []),
  ]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not fill the new notebook ${notebookFileName(name)}.`);
  return doc;
}
