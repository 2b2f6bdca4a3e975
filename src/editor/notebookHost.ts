// The notebook engine's NotebookHost built from the editor's Services: the user's connections,
// keys released by the CredentialGuard (origin approval; refused in restricted mode), realtime
// encryption master keys from SecretStorage, HttpClients
// from the shared factory (rate limits, logging, redaction); for http cells, hosts the user allowed
// per notebook and {{$secret}} values asked for once. The notebook controller, the Testing
// view and the history's re-run all run cells through it.
import * as path from 'node:path';
import vscode from 'vscode';
import type { Connection, ServiceId } from '../core/connections';
import { errorText } from '../core/errors';
import { historyEntryFromCellResult } from '../history/fromCellResult';
import { connectionLabel, CredentialOwners, type CellResult, type NotebookHost } from '../notebook/api';
import { plannedFromBody, usageFromAnswer } from '../services/llm/bodyCosts';
import { CostLedger } from '../features/llm/costLedger';
import { LlmCosts } from './llmCosts';
import type { Services } from './services';
import { HttpCellAccess } from './httpCellAccess';

/**
 * Language-model cells share the daily ledger and budget of Ask, Compare and the playground: the
 * same stored totals, through this bundle's own LlmCosts (one per window).
 */
const cellCosts = new WeakMap<Services, LlmCosts>();
function costsOf(s: Services): LlmCosts {
  let costs = cellCosts.get(s);
  if (!costs) cellCosts.set(s, (costs = new LlmCosts(s, new CostLedger(s.context.globalState))));
  return costs;
}

/** One per window: every runner of every notebook asks and remembers through it. */
const cellAccess = new WeakMap<Services, HttpCellAccess>();
export function httpCellAccess(s: Services): HttpCellAccess {
  let access = cellAccess.get(s);
  if (!access) cellAccess.set(s, (access = new HttpCellAccess(s.context.workspaceState, s.secrets)));
  return access;
}

/** Adds what an LLM cell's answer reports to today's total (a cell without usage adds nothing). */
function recordCellCost(s: Services, result: CellResult): void {
  if (result.service !== 'llm' || !result.response) return;
  const reported = usageFromAnswer(result.response.json);
  const model = reported?.model ?? plannedFromBody(result.request?.body)?.model;
  if (!reported || !model) return;
  void costsOf(s)
    .record(model, reported.usage)
    .catch((e: unknown) => s.log.warn(`Notebook: today's language-model cost total was not updated: ${errorText(e)}`));
}

/**
 * Adds a maps cell that Google would bill (a 2xx answer of a Places or Routes call) to the
 * window's session cost, beside the palette's own requests.
 */
function recordMapsCellCost(s: Services, result: CellResult): void {
  const status = result.response?.status;
  if (result.service !== 'maps' || !result.request || status === undefined || status < 200 || status >= 300) return;
  s.mapsCosts.recordRequest(result.request);
}

/** A run's file as the URI string approvals are kept under: runs given a path (the Testing view) share the notebook's answers. */
function notebookKey(file: string): string {
  return path.isAbsolute(file) ? vscode.Uri.file(file).toString() : file;
}

export interface EditorHostOptions {
  /** A cell finished. */
  onResult?(result: CellResult): void;
  /** false: the caller records the cell in the history itself (the history's re-run does, as a command). */
  recordInHistory?: boolean;
  /** The notebook's URI (string): http cells' approved hosts are remembered under it. Default: the run's file. */
  notebook?: string;
}

export function editorNotebookHost(s: Services, opts: EditorHostOptions = {}): NotebookHost {
  // Every key, token and master key this run hands out, with its connection: the engine's taint check
  // refuses a request that carries one of them to anything but its own connection (an http cell's
  // `{{$env OPENAI_API_KEY}}`, a value an earlier answer echoed), as the CLI's host does.
  const owners = new CredentialOwners();
  const owned = async <T extends string | undefined>(connection: Connection, key: Promise<T>): Promise<T> => {
    const value = await key;
    owners.own(value, connectionLabel(connection));
    return value;
  };
  // The keys stored for every connection, not only those this run has used: a cell run on its own
  // must not carry another connection's key either. Read from SecretStorage (no dialog), once per host.
  let stored: Promise<void> | undefined;
  const storedCredentials = async () => {
    for (const service of ['llm', 'maps', 'realtime'] as const) {
      for (const connection of s.connections.list(service)) {
        await owned(
          connection,
          s.secrets.get(connection).then((secret) => secret?.value),
        );
        if (service === 'realtime') await owned(connection, s.secrets.getAux(connection, 'encryptionMasterKey'));
      }
    }
  };
  return {
    redactor: s.redactor,
    connection: (service: ServiceId, name: string | undefined) => (name === undefined ? s.connections.active(service) : s.connections.get(service, name)),
    connectionNames: (service) => s.connections.list(service).map((c) => c.name),
    credentials: ({ connection, url }) => owned(connection, s.guard.keyFor(connection, url)),
    connectionCredentials: async () => {
      stored ??= storedCredentials();
      await stored;
      return owners.byValue;
    },
    credentialRefused: ({ connection, key }) => s.guard.credentialRefused(connection, key),
    assertMayConnect: (connection: Connection) => s.guard.assertTrusted(connection),
    // SecretStorage registers it with the redactor as it is read.
    encryptionMasterKey: async (connection: Connection) => {
      if (connection.service !== 'realtime') return undefined;
      s.guard.assertTrusted(connection);
      return owned(connection, s.secrets.getAux(connection, 'encryptionMasterKey'));
    },
    beforeModelRequest: async (_connection, body) => {
      const planned = plannedFromBody(body);
      if (!planned || (await costsOf(s).confirm([planned]))) return undefined;
      return 'not sent: it may pass your daily language-model budget (apiWorkbench.llm.dailyBudget)';
    },
    approveHost: (req) => httpCellAccess(s).approveHost(opts.notebook ?? notebookKey(req.cell.file), req),
    // Restricted mode runs no script, as it sends no request.
    mayRunScripts: () => (s.trusted() ? true : 'scripts do not run in restricted mode: trust this workspace to run them'),
    // The extension host's environment: what VS Code was started with.
    env: (name) => process.env[name],
    secret: (name) => httpCellAccess(s).secret(name),
    // Each cell lands in the history once, with its assertions (onResult), so the factory does not record it again.
    httpClient: (connection, options) => s.http.create(connection, { ...options, history: false }),
    onResult: (result) => {
      const entry = opts.recordInHistory === false ? undefined : historyEntryFromCellResult(result);
      if (entry) s.history.record(entry);
      recordCellCost(s, result);
      recordMapsCellCost(s, result);
      opts.onResult?.(result);
    },
  };
}
