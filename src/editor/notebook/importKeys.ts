// The keys an import or a pasted cURL held, which never reach the notebook: each gets a button that
// puts it where the cells read it from. A connection's key (a connection from settings at that host);
// a new connection with the key, for a public API's host no connection has yet (its cells then name
// it); or a `{{$secret name}}` an http cell reads. Nothing is stored without the click.
import vscode from 'vscode';
import { connectionOrigins, type Connection, type ServiceId } from '../../core/connections';
import type { ImportedSecret, ImportResult } from '../../notebook/api';
import { GOOGLE_MAPS_BASE_URLS } from '../../services/maps/client';
import { CONNECTION_COMMANDS } from '../../features/ids';
import type { Services } from '../services';

export const STORE_KEYS = 'Store as Connection Keys';
export const STORE_SECRETS = 'Store as Notebook Secrets';
export const ADD_CONNECTION = 'Add Connection with This Key';
export const UNDO_CELL_CONNECTIONS = 'Undo Cell Changes';
const CONNECT = 'Connect…';

/** A connection a public API's key can make by itself (the "Connect…" presets that need nothing typed). */
interface NewConnection {
  service: ServiceId;
  name: string;
  entry: { name: string; baseUrl: string; baseUrls?: Record<string, string>; auth: { placement: 'bearer' } | { placement: 'header'; name: string } };
}

function newConnectionFor(secret: ImportedSecret, taken: (service: ServiceId, name: string) => boolean): NewConnection | undefined {
  const unique = (service: ServiceId, base: string) => {
    let name = base;
    for (let i = 2; taken(service, name); i++) name = `${base} ${i}`;
    return name;
  };
  if (secret.service === 'llm' && secret.origin === 'https://api.openai.com') {
    const name = unique('llm', 'OpenAI');
    return { service: 'llm', name, entry: { name, baseUrl: 'https://api.openai.com/v1', auth: { placement: 'bearer' } } };
  }
  if (secret.service === 'maps' && /^https:\/\/[a-z]+\.googleapis\.com$/.test(secret.origin)) {
    const name = unique('maps', 'Google Maps Platform');
    return {
      service: 'maps',
      name,
      entry: { name, baseUrl: GOOGLE_MAPS_BASE_URLS.places, baseUrls: { ...GOOGLE_MAPS_BASE_URLS }, auth: { placement: 'header', name: 'X-Goog-Api-Key' } },
    };
  }
  return undefined;
}

/** The connections a found key was sent to: those of its service whose origins include where it went. */
function connectionsAt(s: Services, secret: ImportedSecret): Connection[] {
  if (!secret.service || !secret.origin) return [];
  return s.connections.list(secret.service).filter((c) => connectionOrigins(c).includes(secret.origin));
}

interface Sorted {
  /** Already the key of these connections: nothing to do. */
  held: string[];
  /** A connection from settings at that host takes it. */
  owned: Array<{ secret: ImportedSecret; owner: Connection }>;
  /** An http cell reads it as {{$secret name}}. */
  named: Array<ImportedSecret & { secretName: string }>;
  /** No connection has its host yet. */
  orphans: ImportedSecret[];
}

async function sort(s: Services, secrets: readonly ImportedSecret[]): Promise<Sorted> {
  const out: Sorted = { held: [], owned: [], named: [], orphans: [] };
  for (const secret of secrets) {
    if (secret.secretName) {
      out.named.push({ ...secret, secretName: secret.secretName });
      continue;
    }
    const at = connectionsAt(s, secret);
    const stored = await Promise.all(at.map(async (c) => ((await s.secrets.get(c))?.value === secret.value ? c : undefined)));
    const holder = stored.find((c): c is Connection => c !== undefined);
    // Only a connection from settings takes a key: the sandbox's are its own.
    const owner = holder ? undefined : at.find((c) => c.source === 'settings');
    if (holder) out.held.push(`"${holder.name}"`);
    else if (owner) out.owned.push({ secret, owner });
    else if (secret.service) out.orphans.push(secret);
  }
  out.held = [...new Set(out.held)];
  return out;
}

/**
 * Says what was left out (never the key) and what became of each key, with a button for each kind
 * of place it can go; after one is clicked, the rest are offered again. `newCells` are the cells the
 * import made: a connection made for their host is named in them.
 */
export async function offerKeys(s: Services, result: ImportResult, what: string, newCells: readonly vscode.NotebookCell[] = []): Promise<void> {
  for (const line of result.report) s.log.info(`Import (${what}): ${line}`);
  if (result.secrets.length === 0) return;
  const where = result.secrets.map((k) => `${k.header ?? k.param ?? k.variable ?? 'a value'}${k.origin ? ` for ${k.origin}` : ''}`).join(', ');
  const found = `${result.secrets.length === 1 ? 'A key was' : `${result.secrets.length} keys were`} found in ${what} and left out of the notebook (${where}).`;
  const sorted = await sort(s, result.secrets);
  const already = sorted.held.length
    ? ` ${sorted.held.length === result.secrets.length && result.secrets.length === 1 ? 'It is' : 'Some are'} already the key of ${sorted.held.join(', ')}: the cells use it from there.`
    : '';
  await offerRest(s, `${found}${already}`, sorted, newCells);
}

async function offerRest(s: Services, lead: string, sorted: Sorted, newCells: readonly vscode.NotebookCell[]): Promise<void> {
  const { owned, named, orphans } = sorted;
  const taken = (service: ServiceId, name: string) => s.connections.get(service, name) !== undefined;
  const creatable = orphans.flatMap((secret) => {
    const made = newConnectionFor(secret, taken);
    return made ? [{ secret, made }] : [];
  });
  const parts: string[] = [];
  const buttons: string[] = [];
  if (owned.length) {
    parts.push(
      `Store ${owned.length === 1 ? 'it' : `${owned.length} of them`} as the key of ${[...new Set(owned.map((o) => `"${o.owner.name}"`))].join(', ')}?`,
    );
    buttons.push(STORE_KEYS);
  }
  if (named.length) {
    parts.push(
      `${named.length === 1 ? 'The http cell reads' : 'The http cells read'} ${named.map((n) => `{{$secret ${n.secretName}}}`).join(', ')}: store ${named.length === 1 ? 'it' : 'them'} in SecretStorage under that name?`,
    );
    buttons.push(STORE_SECRETS);
  }
  if (creatable.length) {
    parts.push(
      `No connection has ${[...new Set(creatable.map((c) => c.secret.origin))].join(', ')} yet: add ${creatable.map((c) => `"${c.made.name}"`).join(', ')} with this key?`,
    );
    buttons.push(ADD_CONNECTION);
  } else if (orphans.length) {
    parts.push('Keys come from a connection: add one for where the key was sent, with its key.');
    buttons.push(CONNECT);
  }
  if (!buttons.length) {
    void vscode.window.showInformationMessage(lead);
    return;
  }
  const choice = await vscode.window.showWarningMessage(`${lead} ${parts.join(' ')}`, ...buttons);
  const rest: Sorted = { held: [], owned, named, orphans };
  if (choice === STORE_KEYS) {
    for (const { secret, owner } of owned) await s.secrets.set({ service: owner.service, name: owner.name }, secret.value, connectionOrigins(owner));
    rest.owned = [];
  } else if (choice === STORE_SECRETS) {
    for (const n of named) await s.secrets.setNotebookSecret(n.secretName, n.value);
    rest.named = [];
  } else if (choice === ADD_CONNECTION) {
    for (const { secret, made } of creatable) await addConnection(s, made, secret, newCells);
    rest.orphans = orphans.filter((o) => !creatable.some((c) => c.secret === o));
  } else if (choice === CONNECT) {
    const service = orphans[0].service;
    if (service) void vscode.commands.executeCommand(CONNECTION_COMMANDS[service].addConnection);
    return;
  } else return;
  if (rest.owned.length || rest.named.length || rest.orphans.length) await offerRest(s, 'Other keys were left out of the notebook too.', rest, newCells);
}

/** Adds the connection to settings with the key (approved for its hosts), and names it in the new cells that go to its host. */
async function addConnection(s: Services, made: NewConnection, secret: ImportedSecret, newCells: readonly vscode.NotebookCell[]): Promise<void> {
  await s.config.updateConnections(made.service, (list) => [...list, made.entry]);
  const conn = s.connections.get(made.service, made.name);
  if (!conn) throw new Error(`The new connection "${made.name}" could not be read back from settings: add it with Connect… instead.`);
  await s.secrets.set(conn, secret.value, connectionOrigins(conn));
  // Its cells: those written with its host, and relative ones (written so when the service had no connection at all).
  const cells = newCells.filter((cell) => {
    const firstLine = cell.document.lineAt(0).text;
    return (
      cell.kind === vscode.NotebookCellKind.Code &&
      cell.document.languageId === made.service &&
      (firstLine.includes(secret.origin) || /^\S+\s+\//.test(firstLine))
    );
  });
  const host = made.entry.baseUrl;
  if (!cells.length) {
    void vscode.window.showInformationMessage(`Added the connection "${made.name}" (${host}) with the key found in the import; no new cell goes to it.`);
    return;
  }
  const before = cells.map((cell) => ({ index: cell.index, metadata: cell.metadata }));
  const notebook = cells[0].notebook.uri;
  const edit = new vscode.WorkspaceEdit();
  edit.set(
    notebook,
    cells.map((cell) => {
      const attributes = (cell.metadata as { attributes?: Record<string, string> }).attributes;
      return vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, attributes: { ...attributes, connection: made.name } });
    }),
  );
  await vscode.workspace.applyEdit(edit);
  // Said, not silent: which connection was added and which cells now name it, with a way back.
  const which = cells.length === 1 ? `cell ${cells[0].index + 1} now uses it` : `cells ${cells.map((c) => c.index + 1).join(', ')} now use it`;
  void vscode.window
    .showInformationMessage(
      `Added the connection "${made.name}" (${host}) with the key found in the import; ${which} (connection=${made.name}).`,
      UNDO_CELL_CONNECTIONS,
    )
    .then(async (choice) => {
      if (choice !== UNDO_CELL_CONNECTIONS) return;
      const undo = new vscode.WorkspaceEdit();
      undo.set(
        notebook,
        before.map((b) => vscode.NotebookEdit.updateCellMetadata(b.index, b.metadata)),
      );
      await vscode.workspace.applyEdit(undo);
    });
}
