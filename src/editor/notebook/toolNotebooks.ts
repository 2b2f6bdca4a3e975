// The notebooks whose cells the playground's user-defined tools run, read the way the user sees
// them: an open notebook's cells as they are now (unsaved edits included), otherwise the file on
// disk; either way in the environment the user chose for that notebook.
import * as path from 'node:path';
import vscode from 'vscode';
import { parseNotebook } from '../../notebook/api';
import type { ToolNotebook } from '../../features/llm/playgroundCellTool';
import type { Services } from '../services';
import { environmentOf } from './environments';
import { engineCells } from './serializer';

export function toolNotebookReader(s: Services): (notebookPath: string) => Promise<ToolNotebook> {
  return async (notebookPath) => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const candidates = path.isAbsolute(notebookPath) ? [vscode.Uri.file(notebookPath)] : folders.map((f) => vscode.Uri.joinPath(f.uri, notebookPath));
    if (candidates.length === 0) throw new Error('a relative notebook path needs an open workspace folder');
    for (const uri of candidates) {
      const file = vscode.workspace.asRelativePath(uri);
      const environment = environmentOf(s.context.workspaceState, uri);
      const open = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
      if (open) return { file, cells: engineCells(open), environment };
      let bytes: Uint8Array;
      try {
        bytes = await vscode.workspace.fs.readFile(uri);
      } catch {
        continue;
      }
      return { file, cells: parseNotebook(new TextDecoder().decode(bytes), file).cells, environment };
    }
    throw new Error(path.isAbsolute(notebookPath) ? 'no such file' : `no such file in ${folders.map((f) => f.name).join(', ')}`);
  };
}
