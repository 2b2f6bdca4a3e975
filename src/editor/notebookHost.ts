// The notebook engine's NotebookHost built from the editor's Services: the user's connections,
// keys released by the CredentialGuard (origin approval, restricted mode), HttpClients from the
// shared factory (rate limits, logging, redaction). One file, so a second front end in the editor
// (the notebook controller) can share it.
import type { CellResult, NotebookHost } from '../notebook/api';
import type { Services } from './services';

export interface EditorHostOptions {
  /** A cell finished: the history records it (with its assertions). */
  onResult?(result: CellResult): void;
}

export function editorNotebookHost(s: Services, opts: EditorHostOptions = {}): NotebookHost {
  return {
    redactor: s.redactor,
    connection: (service, name) => (name === undefined ? s.connections.active(service) : s.connections.get(service, name)),
    connectionNames: (service) => s.connections.list(service).map((c) => c.name),
    credentials: ({ connection, url }) => s.guard.keyFor(connection, url),
    assertMayConnect: (connection) => s.guard.assertTrusted(connection),
    // The notebook records each request with its cell's assertions (onResult), so the factory does not record it again.
    httpClient: (connection, options) => s.http.create(connection, { ...options, history: false }),
    onResult: opts.onResult && ((result) => opts.onResult?.(result)),
  };
}
