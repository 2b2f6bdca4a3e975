// Keys for a front end without the editor's SecretStorage (the MCP server): a fixed key per
// connection, read once at start (from `keyEnv` variables, the sandbox), released only to that
// connection's own origins, exactly as `api-workbench run` releases them.
import { connectionId, connectionOrigins, SERVICE_LABELS, type Connection } from '../core/connections';
import { ApiError } from '../core/errors';
import type { KeySource } from '../features/httpClients';

export class OriginBoundKeys implements KeySource {
  /** keyOf: a stored key, or a token on its way (a token command or Entra ID, renewed near its expiry). */
  constructor(
    private readonly keyOf: (conn: Connection) => string | Promise<string> | undefined,
    /** After a 401 to a token (KeySource.credentialRefused); absent: keys are never renewed. */
    private readonly refused?: (conn: Connection, key: string) => boolean,
  ) {}

  credentialRefused(conn: Connection, key: string): boolean {
    return this.refused?.(conn, key) ?? false;
  }

  forConnection(conn: Connection): (url: URL) => Promise<string> {
    return (url) => this.keyFor(conn, url);
  }

  keyFor(conn: Connection, url: URL | string): Promise<string> {
    const service = `${SERVICE_LABELS[conn.service]} (${conn.name})`;
    const origin = new URL(String(url)).origin;
    if (!connectionOrigins(conn).includes(origin)) {
      return Promise.reject(
        new ApiError({
          kind: 'auth',
          service,
          code: 'origin_not_approved',
          message: `Not sent: the key of "${conn.name}" only goes to ${connectionOrigins(conn).join(', ')}, not ${origin}.`,
        }),
      );
    }
    const key = this.keyOf(conn);
    if (key === undefined)
      return Promise.reject(
        new ApiError({
          kind: 'auth',
          service,
          code: 'no_key',
          message: `No key for "${conn.name}" (${connectionId(conn)}): name the environment variable holding it in "keyEnv" of the --connections file, or give a "tokenCommand".`,
        }),
      );
    return Promise.resolve(key);
  }
}
