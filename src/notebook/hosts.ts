import type { Connection, HttpConnection, ServiceId } from '../core/connections';
import type { HttpClient } from '../core/http';
import type { Redactor } from '../core/redact';
import type { NotebookHost, NotebookHttpOptions } from './api';

/** A plain src/core/http.ts HttpClient for a connection (no shared limiter, no log). */
export function defaultHttpClient(connection: HttpConnection, options: NotebookHttpOptions): HttpClient {
  void connection;
  void options;
  throw new Error('not implemented');
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
  void opts;
  throw new Error('not implemented');
}

/** What `startSandbox` / `node dist/sandbox.js` reports (the shape of SandboxInfo). */
export interface SandboxEndpoints {
  llm: { baseUrl: string; apiKey: string };
  maps: { baseUrl: string; apiKey: string };
  realtime: { host: string; port: number; appId: string; key: string; secret: string };
}

/** The sandbox's three connections (named "Local Sandbox") and their keys, for connectionsHost. */
export function sandboxConnections(info: SandboxEndpoints): { connections: Connection[]; key(connection: Connection): string | undefined } {
  void info;
  throw new Error('not implemented');
}
