// The notebook engine's NotebookHost built from the editor's Services: the user's connections,
// keys released by the CredentialGuard (origin approval; refused in restricted mode), realtime
// encryption master keys from SecretStorage, HttpClients
// from the shared factory (rate limits, logging, redaction). The notebook controller, the Testing
// view and the history's re-run all run cells through it.
import type { Connection, ServiceId } from '../core/connections';
import { historyEntryFromCellResult } from '../history/fromCellResult';
import type { CellResult, NotebookHost } from '../notebook/api';
import type { Services } from './services';

export interface EditorHostOptions {
  /** A cell finished. */
  onResult?(result: CellResult): void;
  /** false: the caller records the cell in the history itself (the history's re-run does, as a command). */
  recordInHistory?: boolean;
}

export function editorNotebookHost(s: Services, opts: EditorHostOptions = {}): NotebookHost {
  return {
    redactor: s.redactor,
    connection: (service: ServiceId, name: string | undefined) => (name === undefined ? s.connections.active(service) : s.connections.get(service, name)),
    connectionNames: (service) => s.connections.list(service).map((c) => c.name),
    credentials: ({ connection, url }) => s.guard.keyFor(connection, url),
    assertMayConnect: (connection: Connection) => s.guard.assertTrusted(connection),
    // SecretStorage registers it with the redactor as it is read.
    encryptionMasterKey: async (connection: Connection) => {
      if (connection.service !== 'realtime') return undefined;
      s.guard.assertTrusted(connection);
      return s.secrets.getAux(connection, 'encryptionMasterKey');
    },
    // Each cell lands in the history once, with its assertions (onResult), so the factory does not record it again.
    httpClient: (connection, options) => s.http.create(connection, { ...options, history: false }),
    onResult: (result) => {
      const entry = opts.recordInHistory === false ? undefined : historyEntryFromCellResult(result);
      if (entry) s.history.record(entry);
      opts.onResult?.(result);
    },
  };
}
