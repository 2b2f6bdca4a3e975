// Ready-made pieces of a NotebookHost for front ends without an editor (the CLI, tests): a plain
// HttpClient, a host over a fixed list of connections, and the local sandbox's connections.
import { connectionOrigins, httpConnectionFromSetting, realtimeConnectionFromSetting, SERVICE_LABELS, type Connection, type HttpConnection, type ServiceId } from '../core/connections';
import { ApiError } from '../core/errors';
import { HttpClient } from '../core/http';
import { Redactor } from '../core/redact';
import type { NotebookHost, NotebookHttpOptions } from './api';

/** A plain src/core/http.ts HttpClient for a connection (no shared limiter, no log). */
export function defaultHttpClient(connection: HttpConnection, options: NotebookHttpOptions): HttpClient {
  return new HttpClient({
    service: options.label,
    baseUrl: options.baseUrl,
    auth: connection.auth,
    credentials: options.credentials,
    timeoutMs: connection.timeoutMs,
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
    onRequest: opts.onRequest,
    onResult: opts.onResult,
  };
}

/** What `startSandbox` / `node dist/sandbox.js` reports (the shape of SandboxInfo). */
export interface SandboxEndpoints {
  llm: { baseUrl: string; apiKey: string };
  maps: { baseUrl: string; apiKey: string };
  realtime: { host: string; port: number; appId: string; key: string; secret: string };
}

export const SANDBOX_CONNECTION_NAME = 'Local Sandbox';

/** The sandbox's three connections (named "Local Sandbox", as in the editor) and their keys, for connectionsHost. */
export function sandboxConnections(info: SandboxEndpoints): { connections: Connection[]; key: (connection: Connection) => string | undefined } {
  const name = SANDBOX_CONNECTION_NAME;
  const made = [
    httpConnectionFromSetting('llm', { name, baseUrl: info.llm.baseUrl, auth: { placement: 'bearer' } }, 'sandbox'),
    httpConnectionFromSetting('maps', { name, baseUrl: info.maps.baseUrl, auth: { placement: 'header', name: 'X-Goog-Api-Key' } }, 'sandbox'),
    realtimeConnectionFromSetting({ name, appId: info.realtime.appId, key: info.realtime.key, host: info.realtime.host, port: info.realtime.port, useTLS: false }, 'sandbox'),
  ];
  const connections = made.filter((c): c is Connection => typeof c !== 'string');
  const keys: Record<ServiceId, string> = { llm: info.llm.apiKey, maps: info.maps.apiKey, realtime: info.realtime.secret };
  return { connections, key: (c) => (c.name === name ? keys[c.service] : undefined) };
}
