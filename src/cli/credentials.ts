// The run's tokens: each connection whose key is a token (from a "tokenCommand", or Entra ID with
// "entra") gets one before anything is sent, so a command that fails (`please run az login`) or a
// sign-in that cannot be made stops the run with exit 2 and its own message, and nothing leaves.
// Later requests reuse the token until shortly before the expiry it reported.
import { CredentialResolver, describeTokenSource, type EntraTokenProvider } from '../core/auth/resolver';
import type { Connection } from '../core/connections';
import { errorText } from '../core/errors';
import type { Redactor } from '../core/redact';
import { cliEntraProvider } from './entra';
import { CliError } from './errors';

export interface CliCredentials {
  resolver: CredentialResolver;
  /** The token of a connection that takes one; undefined for the others (their key comes from keyEnv). */
  token(c: Connection): Promise<string> | undefined;
  /** After a 401: a token connection's refused token is forgotten (true: send once more); false for a key. */
  refused(c: Connection, key: string): boolean;
}

export async function prepareTokens(
  used: readonly Connection[],
  env: NodeJS.ProcessEnv,
  redactor: Redactor,
  entra: EntraTokenProvider = cliEntraProvider(env),
): Promise<CliCredentials> {
  const resolver = new CredentialResolver({ redactor, commandOptions: { env, cwd: process.cwd() }, entra });
  const token = (c: Connection) => (c.service !== 'realtime' && c.credential ? resolver.token(c.credential) : undefined);
  for (const c of used) {
    try {
      await token(c);
    } catch (e) {
      if (c.service === 'realtime' || !c.credential) throw e;
      throw new CliError(
        `the ${c.service} connection "${c.name}" gets its token from ${describeTokenSource(c.credential)}, which failed: ${redactor.text(errorText(e))}\nnothing was sent`,
      );
    }
  }
  const refused = (c: Connection, key: string) => (c.service !== 'realtime' && c.credential ? resolver.refused(c.credential, key) : false);
  return { resolver, token, refused };
}
