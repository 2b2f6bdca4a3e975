// The connections file the CLI reads with --connections and the editor writes with "Export
// Connections for CI": each service's connection settings plus `keyEnv`, the environment variable
// that holds the connection's key (realtime: the app secret), or `tokenCommand` / `entra` for a
// bearer token obtained when the run starts. The file never holds a key.
import type { Connection, HttpConnection, RealtimeConnection, ServiceId } from './connections';
import { COGNITIVE_SERVICES_SCOPE } from './auth/resolver';
import { keyEnvVar } from './curl';

/**
 * The fields an entry may have (the settings' fields plus keyEnv, and for realtime
 * encryptionMasterKeyEnv: the variable holding the master key of private-encrypted- channels);
 * anything else is refused.
 */
export const CONNECTIONS_FILE_FIELDS = {
  http: [
    'name',
    'baseUrl',
    'baseUrls',
    'auth',
    'rateLimitPerMinute',
    'timeoutSeconds',
    'modelRateLimits',
    'listing',
    'azure',
    'keyEnv',
    'tokenCommand',
    'entra',
  ],
  realtime: ['name', 'appId', 'key', 'cluster', 'host', 'port', 'useTLS', 'authEndpoint', 'rateLimitPerMinute', 'listing', 'keyEnv', 'encryptionMasterKeyEnv'],
} as const;

export type ConnectionsFileJson = Partial<Record<ServiceId, Record<string, unknown>[]>>;

const DEFAULT_TIMEOUT_MS = 60_000;
/** The variable a realtime connection's app secret is read from: the first one's, and the default everywhere. */
export const PUSHER_SECRET_VAR = 'PUSHER_APP_SECRET';
const PUSHER_CLUSTER_HOST = /^ws-([a-z0-9-]+)\.pusher\.com$/;

/**
 * The file for these connections: names, URLs and key variable names, never a key. Connections the
 * extension manages (the local sandbox) are left out: the CLI has `--sandbox` for those.
 */
export function connectionsFileFor(connections: readonly Connection[]): { json: ConnectionsFileJson; keyVariables: string[] } {
  const json: ConnectionsFileJson = {};
  const used = new Set<string>();
  for (const c of connections) {
    if (c.source !== 'settings') continue;
    // A token from a command or Entra ID needs no variable: the CLI runs the same command or sign-in.
    if (c.service !== 'realtime' && c.credential) {
      (json[c.service] ??= []).push(httpEntry(c));
      continue;
    }
    const base = c.service === 'realtime' ? PUSHER_SECRET_VAR : keyEnvVar(c.service, c.auth, c.baseUrl);
    // The first connection needing a variable gets its usual name; others add their own name.
    let keyEnv = base;
    if (used.has(keyEnv))
      keyEnv = `${base}_${c.name
        .toUpperCase()
        .replace(/[^A-Z0-9]+/g, '_')
        .replace(/^_|_$/g, '')}`;
    for (let n = 2; used.has(keyEnv); n++) keyEnv = `${base}_${n}`;
    used.add(keyEnv);
    (json[c.service] ??= []).push({ ...(c.service === 'realtime' ? realtimeEntry(c) : httpEntry(c)), keyEnv });
  }
  return { json, keyVariables: [...used] };
}

/**
 * The variable Export Connections for CI names for a realtime connection's app secret (code copied
 * from the editor reads the one the CI file will set); PUSHER_APP_SECRET for one it leaves out.
 */
export function realtimeSecretVar(connections: readonly Connection[], conn: RealtimeConnection): string {
  const { json } = connectionsFileFor(connections);
  const entry = json.realtime?.find((e) => e.name === conn.name);
  return typeof entry?.keyEnv === 'string' ? entry.keyEnv : PUSHER_SECRET_VAR;
}

function httpEntry(c: HttpConnection): Record<string, unknown> {
  return {
    name: c.name,
    baseUrl: c.baseUrl,
    ...(Object.keys(c.baseUrls).length ? { baseUrls: c.baseUrls } : {}),
    auth: c.auth,
    rateLimitPerMinute: c.rateLimitPerMinute,
    ...(c.timeoutMs !== DEFAULT_TIMEOUT_MS ? { timeoutSeconds: c.timeoutMs / 1000 } : {}),
    ...(Object.keys(c.modelRateLimits).length ? { modelRateLimits: c.modelRateLimits } : {}),
    ...(c.listing !== 'service' ? { listing: c.listing } : {}),
    ...(c.azure ? { azure: c.azure } : {}),
    ...(c.credential?.kind === 'tokenCommand' ? { tokenCommand: c.credential.command } : {}),
    ...(c.credential?.kind === 'entra' ? { entra: c.credential.scope === COGNITIVE_SERVICES_SCOPE ? true : { scope: c.credential.scope } } : {}),
  };
}

function realtimeEntry(c: RealtimeConnection): Record<string, unknown> {
  const cluster = PUSHER_CLUSTER_HOST.exec(c.host)?.[1];
  const where = cluster && c.useTLS && c.port === 443 ? { cluster } : { host: c.host, port: c.port, useTLS: c.useTLS };
  return {
    name: c.name,
    appId: c.appId,
    key: c.key,
    ...where,
    ...(c.authEndpoint ? { authEndpoint: c.authEndpoint } : {}),
    rateLimitPerMinute: c.rateLimitPerMinute,
    ...(c.listing !== 'service' ? { listing: c.listing } : {}),
  };
}
