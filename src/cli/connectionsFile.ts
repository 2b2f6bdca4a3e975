// --connections <file.json>: the editor's connection settings of each service, plus `keyEnv`, the
// environment variable that holds the connection's key (realtime: the app secret; and
// `encryptionMasterKeyEnv`, the one holding the encryption master key), or in its place
// `tokenCommand` (a command printing a bearer token) or `entra` (Entra ID sign-in). Keys are read
// only from those variables: a key-like field in the file is refused, so a file checked into a
// repository cannot carry one. A top-level "hosts" list names the hosts ```http cells may send to,
// and "env" the environment variables their `{{$env NAME}}` may read.
import * as z from 'zod/mini';
import { connectionId, parseConnectionsSetting, SERVICE_IDS, type Connection, type ServiceId } from '../core/connections';
import { CONNECTIONS_FILE_FIELDS } from '../core/connectionsFile';
import { describeIssues } from '../core/validate';
import { isHostName } from './args';
import { CliError } from './errors';
import { readTextFile } from './textFile';
import { jsonErrorText } from '../core/quote';

export interface ConnectionsFile {
  connections: Connection[];
  /** connectionId → the environment variable named by its keyEnv. */
  keyEnv: Map<string, string>;
  /** connectionId → the environment variable named by its encryptionMasterKeyEnv (realtime only). */
  masterKeyEnv: Map<string, string>;
  /** "hosts": where http cells may send (as --allow-host). */
  hosts: string[];
  /** "env": the environment variables `{{$env NAME}}` of http cells may read (as --allow-env). */
  env: string[];
}

const SECRET_FIELD = /key|secret|token|password/i;

const fileSchema = z.strictObject({
  llm: z.optional(z.array(z.unknown())),
  maps: z.optional(z.array(z.unknown())),
  realtime: z.optional(z.array(z.unknown())),
  hosts: z.optional(z.array(z.string().check(z.refine(isHostName, 'must be a host name, or host:port (e.g. api.example.com)')))),
  env: z.optional(z.array(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')))),
});

/**
 * A key pasted where its variable's name belongs (`"keyEnv": "sk_live_51H…"`) is refused without
 * being repeated: it has the form of a name (letters, digits, _), so the form alone cannot tell.
 * Known key prefixes, and a long run of mixed letters and digits between underscores, can:
 * OPENAI_API_KEY_2 has none.
 */
export function looksLikeKey(value: string): boolean {
  if (/^(sk|rk|pk)[-_]|^AIza|^(ghp|gho|ghs|ghu|github_pat|glpat|xox[abpr])[-_]/i.test(value)) return true;
  return value.split('_').some((part) => part.length >= 16 && /[0-9]/.test(part) && /[A-Za-z]/.test(part));
}

const NOT_A_NAME = 'must name an environment variable (letters, digits, _), not hold the key itself';
const envVarName = () => z.optional(z.string().check(z.refine((v) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) && !looksLikeKey(v), NOT_A_NAME)));
const keyEnvSchema = z.object({ keyEnv: envVarName(), encryptionMasterKeyEnv: envVarName() });

function entryLabel(service: ServiceId, index: number, entry: unknown): string {
  const name = entry && typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined;
  return `${service}[${index}]${typeof name === 'string' ? ` ("${name}")` : ''}`;
}

/** Reads and checks the file; every problem is a CliError naming the file and the field. */
export function loadConnectionsFile(file: string): ConnectionsFile {
  const text = readTextFile(file, 'connections file');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not valid JSON (${jsonErrorText(e)})`);
  }
  const top = fileSchema.safeParse(raw);
  if (!top.success) throw new CliError(`${file}: ${describeIssues(top.error.issues)} (the file holds "llm", "maps" and "realtime" lists, "hosts" and "env")`);

  const problems: string[] = [];
  const connections: Connection[] = [];
  const keyEnv = new Map<string, string>();
  const masterKeyEnv = new Map<string, string>();
  for (const service of SERVICE_IDS) {
    const entries = top.data[service] ?? [];
    entries.forEach((entry, i) => {
      const label = entryLabel(service, i, entry);
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
        problems.push(`${label}: expected an object`);
        return;
      }
      const known: readonly string[] = service === 'realtime' ? CONNECTIONS_FILE_FIELDS.realtime : CONNECTIONS_FILE_FIELDS.http;
      for (const field of Object.keys(entry)) {
        if (known.includes(field)) continue;
        problems.push(
          SECRET_FIELD.test(field)
            ? `${label}.${field}: keys never go in this file: put the key in an environment variable and name it in "keyEnv"`
            : `${label}.${field}: unknown field (known: ${known.join(', ')})`,
        );
      }
      const k = keyEnvSchema.safeParse(entry);
      if (!k.success) problems.push(`${label}.${describeIssues(k.error.issues)}`);
      const tokenField = ['tokenCommand', 'entra'].find((f) => f in entry && (entry as Record<string, unknown>)[f] !== false);
      if (tokenField && k.success && k.data.keyEnv)
        problems.push(`${label}: give either "keyEnv" or "${tokenField}", not both (a token takes the key's place)`);
      // One entry at a time, so a problem's label is this file's index, not the setting's.
      const parsed = parseConnectionsSetting(service, [entry]);
      for (const p of parsed.problems) problems.push(`${label}.${p.replace(/^entry 1( \("[^"]*"\))?: /, '')}`);
      for (const c of parsed.connections) {
        if (connections.some((o) => o.service === c.service && o.name === c.name)) {
          problems.push(`${label}.name: another ${service} connection is already named "${c.name}"`);
          continue;
        }
        connections.push(c);
        if (k.success && k.data.keyEnv) keyEnv.set(connectionId(c), k.data.keyEnv);
        if (k.success && k.data.encryptionMasterKeyEnv) masterKeyEnv.set(connectionId(c), k.data.encryptionMasterKeyEnv);
      }
    });
  }
  if (problems.length) throw new CliError(problems.map((p) => `${file}: ${p}`).join('\n'));
  return { connections, keyEnv, masterKeyEnv, hosts: top.data.hosts ?? [], env: top.data.env ?? [] };
}
