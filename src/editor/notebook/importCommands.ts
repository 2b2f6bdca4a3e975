// "Import .http / Postman Collection…", "Paste cURL as Cell" and converting a cell holding a cURL command. The conversion is the engine's
// (src/notebook/import); here: the file or clipboard and the new cells; the keys found, which are
// never written into the notebook, are offered to store (importKeys.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SERVICE_IDS } from '../../core/connections';
import {
  detectFormat,
  ImportError,
  importCurl,
  importOpenApi,
  importText,
  knownConnectionsOf,
  type ImportResult,
  type KnownConnection,
} from '../../notebook/api';
import type { CommandTable } from '../commands';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { Services } from '../services';
import type { AwbSerializer } from './serializer';
import { offerKeys } from './importKeys';
import { openUntitledNotebook } from './untitledNotebook';
import { importedNotebookBase } from '../../features/notebook/notebookFileName';

/** Every configured connection's base URLs, so requests to the sandbox or a proxy become cells. */
function knownConnections(s: Services): KnownConnection[] {
  return knownConnectionsOf(SERVICE_IDS.flatMap((service) => s.connections.list(service)));
}

async function convert(run: () => ImportResult | Promise<ImportResult>): Promise<ImportResult> {
  try {
    return await run();
  } catch (e) {
    // Malformed input: the message names the line or field; nothing was opened or inserted.
    if (e instanceof ImportError) throw new Error(`Nothing imported: ${e.message}`, { cause: e });
    throw e;
  }
}

export function importCommands(s: Services, serializer: AwbSerializer): CommandTable {
  return {
    'apiWorkbench.notebook.importFile': async (target?: unknown) => {
      const uri =
        target instanceof vscode.Uri
          ? target
          : (
              await vscode.window.showOpenDialog({
                canSelectMany: false,
                openLabel: 'Import',
                filters: { 'Requests (.http, .rest, Postman collection, OpenAPI)': ['http', 'rest', 'json', 'yaml', 'yml'] },
              })
            )?.[0];
      if (!uri) return undefined;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const name = path.posix.basename(uri.path);
      const format = detectFormat(name, text);
      const opts = { source: name, connections: knownConnections(s) };
      // An OpenAPI document's $refs are files beside it: read from its folder through the file gate.
      const result = await convert(() =>
        format === 'openapi' ? importOpenApi(text, uri.fsPath, { ...opts, specRef: `./${name}` }) : importText(format, text, opts),
      );
      const doc = await openUntitledNotebook(serializer.deserializeNotebook(new TextEncoder().encode(result.text)), importedNotebookBase(name), uri);
      await vscode.window.showNotebookDocument(doc);
      await offerKeys(s, result, name, doc.getCells());
      return doc;
    },
    'apiWorkbench.notebook.pasteCurl': async () => {
      const editor = vscode.window.activeNotebookEditor;
      if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) throw new Error('Open an API notebook first: the cURL command becomes a cell of it.');
      const text = await vscode.env.clipboard.readText();
      if (!isCurlCommand(text)) throw new Error('The clipboard holds no cURL command (it should start with "curl").');
      const at = editor.selection.isEmpty ? editor.notebook.cellCount : editor.selection.end;
      return curlIntoNotebook(s, serializer, editor.notebook, text, { start: at, end: at }, 'the clipboard');
    },
  };
}

/** Text that is a cURL command line (optionally after a `$ ` prompt). */
export function isCurlCommand(text: string): boolean {
  return /^\s*(\$\s+)?curl\s/.test(text);
}

/**
 * Puts the cells a cURL command becomes in place of `range` of the notebook's cells (an empty range
 * inserts), offers to store a key found in it, and returns the first new cell.
 */
export async function curlIntoNotebook(
  s: Services,
  serializer: AwbSerializer,
  notebook: vscode.NotebookDocument,
  text: string,
  range: { start: number; end: number },
  what: string,
): Promise<vscode.NotebookCell> {
  const result = await convert(() => importCurl(text, { source: what, connections: knownConnections(s) }));
  const cells = serializer.deserializeNotebook(new TextEncoder().encode(result.text)).cells;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(range.start, range.end), cells)]);
  await vscode.workspace.applyEdit(edit);
  await offerKeys(s, result, what, notebook.getCells(new vscode.NotebookRange(range.start, range.start + cells.length)));
  return notebook.cellAt(range.start);
}
