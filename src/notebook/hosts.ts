// Ready-made pieces of a NotebookHost for front ends without an editor (the CLI, tests): a plain
// HttpClient, a host over a fixed list of connections, and the local sandbox's connections.
import { connectionRequestOptions } from '../core/connectionsAzure';
import { connectionOrigins, SERVICE_LABELS, type Connection, type HttpConnection, type ServiceId } from '../core/connections';
import { ApiError } from '../core/errors';
import { HttpClient } from '../core/http';
import { Redactor } from '../core/redact';
import { connectionLabel, CredentialOwners } from './credentialTaint';
import type { NotebookHost, NotebookHttpOptions } from './types';

/** A plain src/core/http.ts HttpClient for a connection (no shared limiter, no log). */
export function defaultHttpClient(connection: HttpConnection, options: NotebookHttpOptions): HttpClient {
  return new HttpClient({
    service: options.label,
    baseUrl: options.baseUrl,
    auth: connection.auth,
    credentials: options.credentials,
    credentialRefused: options.credentialRefused,
    timeoutMs: connection.timeoutMs,
    streamDeadlineMs: options.streamDeadlineMs,
    parseError: options.parseError,
    requestIdHeaders: options.requestIdHeaders,
    onRequest: options.onRequest,
    ...connectionRequestOptions(connection),
  });
}

/**
 * The client of an http cell: no connection, no key, nothing but the cell's own headers. Its timeout
 * is the cell's (RunOptions.cellTimeoutMs) or HttpClient's default.
 */
export function ownHttpClient(options: NotebookHttpOptions, redactor: Redactor): HttpClient {
  return new HttpClient({
    service: options.label,
    baseUrl: options.baseUrl,
    auth: { placement: 'none' },
    timeoutMs: options.streamDeadlineMs,
    streamDeadlineMs: options.streamDeadlineMs,
    parseError: options.parseError,
    requestIdHeaders: options.requestIdHeaders,
    onRequest: options.onRequest,
    redactor,
  });
}

export interface ConnectionsHostOptions {
  connections: readonly Connection[];
  /** Name of the active connection per service; the first of that service otherwise. */
  active?: Partial<Record<ServiceId, string>>;
  /** The key (realtime: app secret) of a connection; undefined = none. */
  key(connection: Connection): string | undefined | Promise<string | undefined>;
  /** After a 401 to `key`: true if asking `key` again may give another (a token); absent: never. */
  keyRefused?(connection: Connection, key: string): boolean;
  /** The encryption master key of a realtime connection (private-encrypted- channels); undefined = none. */
  encryptionMasterKey?(connection: Connection): string | undefined | Promise<string | undefined>;
  redactor?: Redactor;
  /**
   * Hosts http cells may send to (`api.example.com`, or `host:port` for that port only); every
   * other is refused, loopback included. The CLI's --allow-host and "hosts".
   */
  allowedHosts?: readonly string[];
  /** The environment `{{$env NAME}}` reads, and `{{$secret name}}` as AWB_SECRET_<NAME>. Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What `{{$env NAME}}` may read (see envRefusal): the names the user allowed, and the variables that hold credentials. */
  envPolicy?: EnvPolicy;
  /**
   * Credentials of the run known before any cell asks (keys read from keyEnv, tokens fetched at
   * start, the sandbox's keys), each with its owner as connectionLabel() names it. Keys released
   * later through `key` are added as they are released.
   */
  knownCredentials?: ReadonlyArray<{ value: string | undefined; owner: string }>;
  onRequest?: NotebookHost['onRequest'];
  onResult?: NotebookHost['onResult'];
  listenTape?: NotebookHost['listenTape'];
}

/**
 * A host over a fixed list of connections whose keys go only to the connection's own origins
 * (the CLI with --connections, tests).
 */
export function connectionsHost(opts: ConnectionsHostOptions): NotebookHost {
  const redactor = opts.redactor ?? new Redactor();
  const owners = new CredentialOwners();
  const own = (value: string | undefined, owner: string) => owners.own(value, owner);
  for (const c of opts.knownCredentials ?? []) own(c.value, c.owner);
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
      own(key, connectionLabel(connection));
      return key;
    },
    credentialRefused: opts.keyRefused && (({ connection, key }) => opts.keyRefused?.(connection, key) ?? false),
    async encryptionMasterKey(connection) {
      const key = await opts.encryptionMasterKey?.(connection);
      redactor.addSecret(key);
      own(key, connectionLabel(connection));
      return key;
    },
    approveHost: ({ host }) =>
      Promise.resolve(
        hostAllowed(opts.allowedHosts ?? [], host) ||
          `not sent: ${host} is not an allowed host: run with --allow-host ${host}, or add it to "hosts" in the --connections file`,
      ),
    env: (name) => opts.env?.[name],
    envRefusal: (name) => envRefusal(name, opts.envPolicy ?? { allowed: [], credentials: new Map() }),
    connectionCredentials: () => owners.byValue,
    secret(name) {
      const variable = secretEnvName(name);
      const value = opts.env?.[variable];
      if (value === undefined || value === '') return Promise.reject(new Error(`set the environment variable ${variable} to the secret "${name}"`));
      redactor.addSecret(value);
      return Promise.resolve(value);
    },
    onRequest: opts.onRequest,
    onResult: opts.onResult,
    listenTape: opts.listenTape,
  };
}

/**
 * What `{{$env NAME}}` may read where no one is asked per notebook (the CLI, the MCP server): only
 * names the user allowed (--allow-env, "env" in the connections file), and never a variable that
 * holds a credential of the run (a connection's keyEnv or encryptionMasterKeyEnv, the sandbox's
 * keys, Entra ID's client secret), even when allowed: a connection's key goes only to its own
 * requests. `{{$secret name}}` reads AWB_SECRET_<NAME>, a prefix that is itself the user's consent.
 */
export interface EnvPolicy {
  allowed: readonly string[];
  /** Variable → whose credential it holds, as connectionLabel() names it, or what it is ("Entra ID's client secret"). */
  credentials: ReadonlyMap<string, string>;
}

/** Why `{{$env name}}` may not be read under `policy` (a sentence), or undefined when it may. */
export function envRefusal(name: string, policy: EnvPolicy): string | undefined {
  const holds = policy.credentials.get(name);
  if (holds !== undefined)
    return `the environment variable ${name} holds the key of ${holds}, which goes only to that connection's own requests (use a cell of that connection)`;
  if (!policy.allowed.includes(name))
    return `the environment variable ${name} is not one this run may read: allow it with --allow-env ${name}, or add it to "env" in the --connections file`;
  return undefined;
}

/** The environment variable the CLI reads `{{$secret name}}` from: AWB_SECRET_ and the name in capitals, `-` and `.` as `_`. */
export function secretEnvName(name: string): string {
  return `AWB_SECRET_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
}

/** `host` (`api.example.com` or `127.0.0.1:8080`) is allowed when listed as is, or by its name alone. */
export function hostAllowed(allowed: readonly string[], host: string): boolean {
  const wanted = host.toLowerCase();
  const name = wanted.replace(/:\d+$/, '');
  return allowed.some((a) => {
    const entry = a.trim().toLowerCase();
    return entry === wanted || entry === name;
  });
}

export { SANDBOX_CONNECTION_NAME, sandboxConnections, type SandboxEndpoints } from '../core/connections';
