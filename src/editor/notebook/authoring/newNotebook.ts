// New API Notebook: an untitled notebook already named `Untitled-N.awb.md`, so saving it offers
// that name, extension included: a user who types only "tour" no longer gets a plain Markdown file
// the notebook does not open.
import * as vscode from 'vscode';
import { NOTEBOOK_EXTENSION } from '../../../notebook/api';
import { NEW_NOTEBOOK_TEMPLATE } from '../../../features/notebook/template';
import type { AwbSerializer } from '../serializer';

/** `Untitled-1.awb.md`, or the first number no open notebook has. */
function untitledUri(): vscode.Uri {
  const taken = new Set(vscode.workspace.notebookDocuments.filter((d) => d.isUntitled).map((d) => d.uri.path));
  for (let n = 1; ; n++) {
    const path = `Untitled-${n}${NOTEBOOK_EXTENSION}`;
    if (!taken.has(path)) return vscode.Uri.from({ scheme: 'untitled', path });
  }
}

export async function newNotebook(serializer: AwbSerializer): Promise<vscode.NotebookDocument> {
  const doc = await vscode.workspace.openNotebookDocument(untitledUri());
  const data = serializer.deserializeNotebook(new TextEncoder().encode(NEW_NOTEBOOK_TEMPLATE));
  const edit = new vscode.WorkspaceEdit();
  edit.set(doc.uri, [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(0, doc.cellCount), data.cells)]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The new notebook could not be filled from the template.');
  await vscode.window.showNotebookDocument(doc);
  return doc;
}
