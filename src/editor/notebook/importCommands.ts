// "Import .http / Postman Collection…", "Paste cURL as Cell" and converting a cell holding a cURL command. The conversion is the engine's
// (src/notebook/import); here: the file or clipboard, the new cells, and the keys found, which are
// never written into the notebook: the user may store each as its connection's key instead.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { connectionOrigins, SERVICE_IDS, type Connection } from '../../core/connections';
import {
  detectFormat,
  ImportError,
  importCurl,
  importText,
  knownConnectionsOf,
  type ImportedSecret,
  type ImportResult,
  type KnownConnection,
} from '../../notebook/api';
import type { CommandTable } from '../commands';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { Services } from '../services';
import type { AwbSerializer } from './serializer';

const STORE_KEYS = 'Store as Connection Keys';

/** Every configured connection's base URLs, so requests to the sandbox or a proxy become cells. */
function knownConnections(s: Services): KnownConnection[] {
  return knownConnectionsOf(SERVICE_IDS.flatMap((service) => s.connections.list(service)));
}

function convert(run: () => ImportResult): ImportResult {
  try {
    return run();
  } catch (e) {
    // Malformed input: the message names the line or field; nothing was opened or inserted.
    if (e instanceof ImportError) throw new Error(`Nothing imported: ${e.message}`, { cause: e });
    throw e;
  }
}

/** The connections a found key was sent to: those of its service whose origins include where it went. */
function connectionsAt(s: Services, secret: ImportedSecret): Connection[] {
  if (!secret.service || !secret.origin) return [];
  return s.connections.list(secret.service).filter((c) => connectionOrigins(c).includes(secret.origin));
}

/**
 * Says what was left out (never the key) and what became of each key: already the key of its
 * connection (the sandbox's, say: nothing to do), or stored there with the button.
 */
async function offerKeys(s: Services, result: ImportResult, what: string): Promise<void> {
  for (const line of result.report) s.log.info(`Import (${what}): ${line}`);
  if (result.secrets.length === 0) return;
  const found = await Promise.all(
    result.secrets.map(async (secret) => {
      const at = connectionsAt(s, secret);
      const stored = await Promise.all(at.map(async (c) => ((await s.secrets.get(c))?.value === secret.value ? c : undefined)));
      const holder = stored.find((c): c is Connection => c !== undefined);
      // Only a connection from settings takes a key: the sandbox's are its own.
      return { secret, holder, owner: holder ? undefined : at.find((c) => c.source === 'settings') };
    }),
  );
  const owned = found.filter((o): o is typeof o & { owner: Connection } => o.owner !== undefined);
  const held = [...new Set(found.flatMap((o) => (o.holder ? [`"${o.holder.name}"`] : [])))];
  const where = result.secrets.map((k) => `${k.header ?? k.param ?? k.variable ?? 'a value'}${k.origin ? ` for ${k.origin}` : ''}`).join(', ');
  const message = `${result.secrets.length === 1 ? 'A key was' : `${result.secrets.length} keys were`} found in ${what} and left out of the notebook (${where}).`;
  const already = held.length
    ? ` ${held.length === found.length && found.length === 1 ? 'It is' : 'Some are'} already the key of ${held.join(', ')}: the cells use it from there.`
    : '';
  if (owned.length) {
    const choice = await vscode.window.showWarningMessage(
      `${message}${already} Store ${owned.length === 1 ? 'it' : 'them'} as the key of ${owned.map((o) => `"${o.owner.name}"`).join(', ')}?`,
      STORE_KEYS,
    );
    if (choice !== STORE_KEYS) return;
    for (const { secret, owner } of owned) await s.secrets.set({ service: owner.service, name: owner.name }, secret.value, connectionOrigins(owner));
    return;
  }
  if (held.length === found.length) void vscode.window.showInformationMessage(`${message}${already}`);
  else void vscode.window.showWarningMessage(`${message}${already} Keys come from a connection: add one for where the key was sent, with its key.`);
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
                filters: { 'Requests (.http, .rest, Postman collection)': ['http', 'rest', 'json'] },
              })
            )?.[0];
      if (!uri) return undefined;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const name = path.posix.basename(uri.path);
      const result = convert(() => importText(detectFormat(name, text), text, { source: name, connections: knownConnections(s) }));
      const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, serializer.deserializeNotebook(new TextEncoder().encode(result.text)));
      await vscode.window.showNotebookDocument(doc);
      await offerKeys(s, result, name);
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
  const result = convert(() => importCurl(text, { source: what, connections: knownConnections(s) }));
  const cells = serializer.deserializeNotebook(new TextEncoder().encode(result.text)).cells;
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.replaceCells(new vscode.NotebookRange(range.start, range.end), cells)]);
  await vscode.workspace.applyEdit(edit);
  await offerKeys(s, result, what);
  return notebook.cellAt(range.start);
}
