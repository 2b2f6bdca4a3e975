// Keys of a --connections file's connections, read from the environment variables its "keyEnv"
// names: the one rule for `api-workbench run` and `api-workbench mcp`, checked before anything
// starts or is sent, each key registered with the redactor as it is read.
import { connectionId, type Connection, type ServiceId } from '../core/connections';
import { connectionLabel, type EnvPolicy } from '../notebook/runApi';
import type { Redactor } from '../core/redact';
import { CliError } from './errors';

/**
 * The key of each connection from the environment variable its "keyEnv" names; a variable that is
 * not set is an error naming it (a run or a server that started without a key would fail every call).
 */
export function keysFromEnv(
  connections: readonly { service: ServiceId; name: string }[],
  keyEnv: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
  redactor: Redactor,
): Map<string, string> {
  const keys = new Map<string, string>();
  for (const c of connections) {
    const variable = keyEnv.get(connectionId(c));
    if (variable === undefined) continue;
    const value = env[variable];
    if (value === undefined || value === '') {
      throw new CliError(`the key of the ${c.service} connection "${c.name}" is read from the environment variable ${variable}, which is not set`);
    }
    keys.set(connectionId(c), value);
    redactor.addSecret(value);
  }
  return keys;
}

/** Variables that hold a credential whatever the connections file says: the sandbox's keys (--sandbox reads them) and Entra ID's (DefaultAzureCredential reads them). */
const FIXED_CREDENTIAL_VARIABLES: ReadonlyArray<[string, string]> = [
  ...['SANDBOX_LLM_KEY', 'SANDBOX_MAPS_KEY', 'SANDBOX_REALTIME_KEY', 'SANDBOX_REALTIME_SECRET'].map((v): [string, string] => [v, 'the sandbox (--sandbox)']),
  ...['AZURE_CLIENT_SECRET', 'AZURE_CLIENT_CERTIFICATE_PASSWORD', 'AZURE_PASSWORD'].map((v): [string, string] => [v, 'Entra ID sign-in']),
];

export interface RunCredentials {
  /** What `{{$env NAME}}` of http cells may read: --allow-env and "env", never a credential's variable. */
  envPolicy: EnvPolicy;
  /** Every credential value known at start, with its owner, for the engine's taint check. */
  known: Array<{ value: string | undefined; owner: string }>;
}

/**
 * The credentials of a run or a server, for the two rules of http cells: by name (a keyEnv or
 * encryptionMasterKeyEnv of ANY connection of the file, used or not, and the fixed variables above
 * are never read by `{{$env}}`) and by value (each key, master key, token and sandbox key, and the
 * value of every keyEnv variable that is set, is refused in any request but its connection's).
 */
export async function runCredentials(opts: {
  file: { connections: readonly Connection[]; keyEnv: ReadonlyMap<string, string>; masterKeyEnv: ReadonlyMap<string, string>; env: readonly string[] };
  allowEnv: readonly string[];
  env: NodeJS.ProcessEnv;
  connections: readonly Connection[];
  key(c: Connection): string | undefined | Promise<string | undefined>;
  /** Connections whose key may be asked now without side effects (used ones: their tokens were fetched at start). */
  ready(c: Connection): boolean;
}): Promise<RunCredentials> {
  const credentials = new Map<string, string>(FIXED_CREDENTIAL_VARIABLES);
  const known: RunCredentials['known'] = [];
  for (const c of opts.file.connections) {
    for (const variable of [opts.file.keyEnv.get(connectionId(c)), opts.file.masterKeyEnv.get(connectionId(c))]) {
      if (variable === undefined) continue;
      credentials.set(variable, connectionLabel(c));
      known.push({ value: opts.env[variable], owner: connectionLabel(c) });
    }
  }
  for (const c of opts.connections) if (opts.ready(c)) known.push({ value: await opts.key(c), owner: connectionLabel(c) });
  return { envPolicy: { allowed: [...opts.allowEnv, ...opts.file.env], credentials }, known };
}
