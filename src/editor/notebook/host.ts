// The engine's NotebookHost built from the extension's services: the same connections, origin
// approval, restricted mode, rate limits, request log and redactor as every other feature.
import type { Connection, ServiceId } from '../../core/connections';
import type { CellResult, CellRef, NotebookHost, RequestRecord } from '../../notebook/api';
import type { Services } from '../services';

export interface HostHooks {
  onRequest?(cell: CellRef, request: RequestRecord): void;
  onResult?(result: CellResult): void;
}

export function editorHost(s: Services, hooks: HostHooks = {}): NotebookHost {
  return {
    connection: (service: ServiceId, name: string | undefined) => (name ? s.connections.get(service, name) : s.connections.active(service)),
    connectionNames: (service) => s.connections.list(service).map((c) => c.name),
    // Throws the restricted-mode error in an untrusted workspace and asks before a new origin.
    credentials: ({ connection, url }) => s.guard.keyFor(connection, url),
    assertMayConnect: (connection: Connection) => s.guard.assertTrusted(connection),
    httpClient: (connection, options) => s.http.create(connection, options),
    redactor: s.redactor,
    onRequest: (cell, request) => hooks.onRequest?.(cell, request),
    onResult: (result) => hooks.onResult?.(result),
  };
}
