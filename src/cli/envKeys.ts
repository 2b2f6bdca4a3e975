// Keys of a --connections file's connections, read from the environment variables its "keyEnv"
// names: the one rule for `api-workbench run` and `api-workbench mcp`, checked before anything
// starts or is sent, each key registered with the redactor as it is read.
import { connectionId, type ServiceId } from '../core/connections';
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
