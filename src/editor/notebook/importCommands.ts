// "Import .http / Postman / OpenAPI…" (a file, or an OpenAPI document at a URL), "Paste cURL as
// Cell" and converting a cell holding a cURL command. The conversion is the engine's
// (src/notebook/import); here: the file, the URL or the clipboard and the new cells; the keys
// found, which are never written into the notebook, are offered to store (importKeys.ts).
import * as path from 'node:path';
import vscode from 'vscode';
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
import { downloadSpec, importFetchedSpec, specNameOf, specUrl } from '../../features/notebook/openApiUrl';

const FROM_FILE = 'A file…';
const FROM_URL = 'An OpenAPI document at a URL…';

/** What to import when the command was run without a target: a file (the open dialog) or a URL (typed). */
async function askSource(): Promise<vscode.Uri | URL | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      { label: FROM_FILE, description: '.http, .rest, Postman collection, OpenAPI (YAML or JSON)' },
      { label: FROM_URL, description: 'fetched through your network settings, after you allow its host' },
    ],
    { title: 'Import requests', placeHolder: 'Import from…' },
  );
  if (choice?.label === FROM_URL) {
    const typed = await vscode.window.showInputBox({
      title: 'Import OpenAPI from a URL',
      prompt: 'The address of an OpenAPI 3.x or Swagger 2.0 document (YAML or JSON)',
      placeHolder: 'https://api.example.com/openapi.yaml',
      ignoreFocusOut: true,
      validateInput: (text) => {
        try {
          specUrl(text);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    return typed === undefined ? undefined : specUrl(typed);
  }
  if (choice?.label !== FROM_FILE) return undefined;
  return (
    await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Import',
      filters: { 'Requests (.http, .rest, Postman collection, OpenAPI)': ['http', 'rest', 'json', 'yaml', 'yml'] },
    })
  )?.[0];
}

/** The document at `url`, after the user allowed its host (nothing is fetched in an untrusted workspace). */
async function fetchSpec(s: Services, url: URL): Promise<string> {
  if (!s.trusted()) throw new Error('Restricted mode: this workspace is not trusted, so nothing is fetched. Trust the workspace to import from a URL.');
  const choice = await vscode.window.showWarningMessage(
    `Fetch the OpenAPI document from ${url.host}?`,
    { modal: true, detail: `${url.href} is read (GET, no credentials) to write a new notebook. Only allow hosts you trust.` },
    'Fetch',
  );
  if (choice !== 'Fetch') throw new Error(`Nothing imported: you did not allow fetching from ${url.host}.`);
  return downloadSpec(url, { redactor: s.redactor, log: (e) => s.log.request(e) });
}

/** A URL given as the command's argument: a string or a Uri with an http(s) scheme. */
function urlTarget(target: unknown): URL | undefined {
  if (typeof target === 'string' && /^https?:\/\//i.test(target)) return specUrl(target);
  if (target instanceof vscode.Uri && (target.scheme === 'http' || target.scheme === 'https')) return specUrl(target.toString(true));
  return undefined;
}

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
      const source = urlTarget(target) ?? (target instanceof vscode.Uri ? target : await askSource());
      if (source instanceof URL) return importFromUrl(s, serializer, source);
      const uri = source;
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

/**
 * An OpenAPI document at a URL as a new notebook. The notebook names the spec `./<name>`: saved
 * beside the notebook, it gives the cells completions, diagnostics and `matches spec`.
 */
async function importFromUrl(s: Services, serializer: AwbSerializer, url: URL): Promise<vscode.NotebookDocument> {
  const text = await fetchSpec(s, url);
  const name = specNameOf(url);
  const result = await convert(() => importFetchedSpec(text, url, { connections: knownConnections(s) }));
  const doc = await openUntitledNotebook(serializer.deserializeNotebook(new TextEncoder().encode(result.text)), importedNotebookBase(name));
  await vscode.window.showNotebookDocument(doc);
  void vscode.window.showInformationMessage(
    `Imported ${url.href}. Save the document as ${name} beside the notebook for completions, diagnostics and "?? json matches spec" from it.`,
  );
  await offerKeys(s, result, name, doc.getCells());
  return doc;
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
