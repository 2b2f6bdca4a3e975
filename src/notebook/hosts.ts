// Ready-made pieces of a NotebookHost for front ends without an editor (the CLI, tests): a plain
// HttpClient, a host over a fixed list of connections, and the local sandbox's connections.
import { connectionOrigins, SERVICE_LABELS, type Connection, type HttpConnection, type ServiceId } from '../core/connections';
import { ApiError } from '../core/errors';
import { HttpClient } from '../core/http';
import { Redactor } from '../core/redact';
import type { NotebookHost, NotebookHttpOptions } from './types';

/** A plain src/core/http.ts HttpClient for a connection (no shared limiter, no log). */
export function defaultHttpClient(connection: HttpConnection, options: NotebookHttpOptions): HttpClient {
  return new HttpClient({
    service: options.label,
    baseUrl: options.baseUrl,
    auth: connection.auth,
    credentials: options.credentials,
    timeoutMs: connection.timeoutMs,
    streamDeadlineMs: options.streamDeadlineMs,
    parseError: options.parseError,
    requestIdHeaders: options.requestIdHeaders,
    onRequest: options.onRequest,
  });
}

export interface ConnectionsHostOptions {
  connections: readonly Connection[];
  /** Name of the active connection per service; the first of that service otherwise. */
  active?: Partial<Record<ServiceId, string>>;
  /** The key (realtime: app secret) of a connection; undefined = none. */
  key(connection: Connection): string | undefined | Promise<string | undefined>;
  /** The encryption master key of a realtime connection (private-encrypted- channels); undefined = none. */
  encryptionMasterKey?(connection: Connection): string | undefined | Promise<string | undefined>;
  redactor?: Redactor;
  onRequest?: NotebookHost['onRequest'];
  onResult?: NotebookHost['onResult'];
}

/**
 * A host over a fixed list of connections whose keys go only to the connection's own origins
 * (the CLI with --connections, tests).
 */
export function connectionsHost(opts: ConnectionsHostOptions): NotebookHost {
  const redactor = opts.redactor ?? new Redactor();
  return {
    redactor,
    connection(service, name) {
      const ofService = opts.connections.filter((c) => c.service === service);
      const wanted = name ?? opts.active?.[service];
      return wanted === undefined ? ofService[0] : ofService.find((c) => c.name === wanted);
    },
    connectionNames: (service) => opts.connections.filter((c) => c.service === service).map((c) => c.name),
    async credentials({ connection, url }) {
      if (!connectionOrigins(connection).includes(url.origin)) {
        throw new ApiError({
          kind: 'auth',
          service: `${SERVICE_LABELS[connection.service]} (${connection.name})`,
          code: 'origin_not_approved',
          message: `Not sent: the key of "${connection.name}" only goes to ${connectionOrigins(connection).join(', ')}, not ${url.origin}.`,
        });
      }
      const key = await opts.key(connection);
      redactor.addSecret(key);
      return key;
    },
    async encryptionMasterKey(connection) {
      const key = await opts.encryptionMasterKey?.(connection);
      redactor.addSecret(key);
      return key;
    },
    onRequest: opts.onRequest,
    onResult: opts.onResult,
  };
}

export { SANDBOX_CONNECTION_NAME, sandboxConnections, type SandboxEndpoints } from '../core/connections';
