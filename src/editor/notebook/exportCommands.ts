// Back out of the editor: "Copy Cell as cURL", "Export Notebook as .http File…", and a cell that
// holds a pasted cURL command turned into request cells (a quick fix on the cell, plus the
// command it runs). The conversions are the engine's (src/notebook/import); the key is always an
// environment-variable reference: the connection's key never leaves the secret storage.
import * as path from 'node:path';
import vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { keyEnvVar } from '../../core/curl';
import { cellToCurl, exportHttpFile, serializeNotebook, type ExportOptions, type ExportTarget } from '../../notebook/api';
import type { CommandTable } from '../commands';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { Services } from '../services';
import { notebookOf } from './environments';
import { curlIntoNotebook, isCurlCommand } from './importCommands';
import { engineCells, type AwbSerializer } from './serializer';

export const CONVERT_CURL_COMMAND = 'apiWorkbench.notebook.convertCurlCell';

/** What "Copy Cell as cURL" returns (to tests and other callers). */
export interface CopiedCellCurl {
  text: string;
  envVar: string;
}

function httpConnection(s: Services, service: 'llm' | 'maps', name: string | undefined): HttpConnection | undefined {
  const conn = name === undefined ? s.connections.active(service) : s.connections.get(service, name);
  return conn && conn.service !== 'realtime' ? conn : undefined;
}

function targetOf(conn: HttpConnection): ExportTarget {
  return { baseUrl: conn.baseUrl, baseUrls: { ...conn.baseUrls }, auth: conn.auth };
}

/** The active connection of each service sets the hosts and the key's header (OpenAI's and Google's by default). */
function exportOptions(s: Services): ExportOptions {
  const opts: ExportOptions = { redactor: s.redactor };
  for (const service of ['llm', 'maps'] as const) {
    const conn = httpConnection(s, service, undefined);
    if (conn) opts[service] = targetOf(conn);
  }
  return opts;
}

function isCell(v: unknown): v is vscode.NotebookCell {
  return typeof v === 'object' && v !== null && 'notebook' in v && 'document' in v && 'index' in v;
}

/** A cell (cell toolbar), a cell document's URI (quick fix), or the active notebook's selected cell. */
function cellOf(target: unknown): vscode.NotebookCell | undefined {
  if (isCell(target)) return target;
  if (target instanceof vscode.Uri) {
    for (const nb of vscode.workspace.notebookDocuments) {
      const cell = nb.getCells().find((c) => c.document.uri.toString() === target.toString());
      if (cell) return cell;
    }
    return undefined;
  }
  const editor = vscode.window.activeNotebookEditor;
  return editor && editor.notebook.notebookType === NOTEBOOK_TYPE && editor.notebook.cellCount > 0 ? editor.notebook.cellAt(editor.selection.start) : undefined;
}

/** The quick fix on a cell whose text is a cURL command (pasted into a cell instead of with "Paste cURL as Cell"). */
export class CurlCellActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument): vscode.CodeAction[] {
    if (!isCurlCommand(document.getText())) return [];
    const action = new vscode.CodeAction('Convert cURL to request cell', vscode.CodeActionKind.QuickFix);
    action.command = { command: CONVERT_CURL_COMMAND, title: 'Convert cURL to request cell', arguments: [document.uri] };
    action.isPreferred = true;
    return [action];
  }
}

export function exportCommands(s: Services, serializer: AwbSerializer): CommandTable {
  return {
    'apiWorkbench.notebook.copyCellAsCurl': async (target?: unknown): Promise<CopiedCellCurl | undefined> => {
      const cell = cellOf(target);
      if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE) throw new Error('Select a cell of an API notebook first.');
      const language = cell.document.languageId;
      if (cell.kind !== vscode.NotebookCellKind.Code || (language !== 'llm' && language !== 'maps')) {
        throw new Error(
          `Only llm and maps cells can be copied as cURL${cell.kind === vscode.NotebookCellKind.Code ? `: a ${language} cell's requests are signed or sent over a socket` : ''}.`,
        );
      }
      const named = (cell.metadata.attributes as Record<string, string> | undefined)?.connection;
      const conn = httpConnection(s, language, named);
      const [data] = engineCells(cell.notebook).slice(cell.index, cell.index + 1);
      const text = cellToCurl(data, { redactor: s.redactor, ...(conn ? { [language]: targetOf(conn) } : {}) });
      if (text === undefined) throw new Error('This cell is not a request yet (it should start with a line such as "POST /chat/completions").');
      const envVar = conn ? keyEnvVar(language, conn.auth, conn.baseUrl) : language === 'maps' ? 'GOOGLE_MAPS_API_KEY' : 'OPENAI_API_KEY';
      await vscode.env.clipboard.writeText(text);
      vscode.window.setStatusBarMessage(`$(clippy) Copied cell ${cell.index + 1} as cURL: it reads the key from $${envVar}`, 5_000);
      return { text, envVar };
    },
    'apiWorkbench.notebook.exportHttp': async (target?: unknown, destination?: unknown): Promise<vscode.Uri | undefined> => {
      const doc = notebookOf(target) ?? vscode.window.activeNotebookEditor?.notebook;
      if (!doc || doc.notebookType !== NOTEBOOK_TYPE) throw new Error('Open an API notebook (*.awb.md) first.');
      const base = path.posix.basename(doc.uri.path).replace(/\.awb\.md$|\.md$/i, '') || 'requests';
      const folder = doc.uri.scheme === 'file' ? vscode.Uri.joinPath(doc.uri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
      const uri =
        destination instanceof vscode.Uri
          ? destination
          : await vscode.window.showSaveDialog({
              title: 'Export Notebook as .http File',
              saveLabel: 'Export',
              filters: { 'HTTP requests': ['http'] },
              ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${base}.http`) } : {}),
            });
      if (!uri) return undefined;
      const text = exportHttpFile(serializeNotebook({ cells: engineCells(doc), metadata: {} }), exportOptions(s));
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      await vscode.window.showTextDocument(uri, { preview: false });
      s.log.info(
        `Exported ${path.posix.basename(doc.uri.path)} to ${uri.scheme === 'file' ? uri.fsPath : uri.toString()}: keys are {{$processEnv …}} references.`,
      );
      return uri;
    },
    [CONVERT_CURL_COMMAND]: async (target?: unknown): Promise<vscode.NotebookCell | undefined> => {
      const cell = cellOf(target);
      if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE) throw new Error('Select the API notebook cell holding the cURL command first.');
      const text = cell.document.getText();
      if (!isCurlCommand(text)) throw new Error('This cell holds no cURL command (it should start with "curl").');
      return curlIntoNotebook(s, serializer, cell.notebook, text, { start: cell.index, end: cell.index + 1 }, `cell ${cell.index + 1}`);
    },
  };
}
