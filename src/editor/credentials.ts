import vscode from 'vscode';
import { CredentialResolver, describeTokenSource, type TokenSource } from '../core/auth/resolver';
import type { Redactor } from '../core/redact';
import { connectionOrigins, SERVICE_LABELS, type Connection } from '../core/connections';
import { ApiError, errorText } from '../core/errors';
import { EntraSignIn } from './entraSignIn';
import type { SecretStore } from './secrets';

/**
 * Decides whether a stored key may be sent to a URL. A key is bound to the origins it was entered
 * for; any other origin needs the user's explicit approval first (asked once, remembered with the
 * key). In an untrusted workspace no key is released at all (restricted mode).
 */
export class CredentialGuard {
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly isTrusted: () => boolean = () => vscode.workspace.isTrusted,
    /** Tokens from a command or Entra ID (connections with `tokenCommand` / `entra`). */
    private readonly tokens?: { resolver: CredentialResolver; entra?: EntraSignIn },
  ) {}

  /** How a token connection authenticates, for its tree item: "Entra ID: alice@contoso.com"; undefined for a stored key. */
  describeCredential(conn: Connection): string | undefined {
    if (conn.service === 'realtime' || !conn.credential) return undefined;
    if (conn.credential.kind === 'tokenCommand') return `token from \`${conn.credential.command}\``;
    const account = this.tokens?.entra?.account(conn.credential.scope);
    return account ? `Entra ID: ${account}` : 'Entra ID: not signed in yet';
  }

  /** The credentials callback for an HttpClient of `conn`. */
  forConnection(conn: Connection): (url: URL) => Promise<string> {
    return (url) => this.keyFor(conn, url);
  }

  /** After a 401: a token connection's refused token is forgotten and the request may go once more; a stored key is not. */
  credentialRefused(conn: Connection, key: string): boolean {
    if (conn.service === 'realtime' || !conn.credential || !this.tokens) return false;
    return this.tokens.resolver.refused(conn.credential, key);
  }

  /**
   * Throws the restricted-mode error in an untrusted workspace. For traffic that carries no stored
   * key itself but belongs to a connection that has one (the realtime WebSocket), so restricted
   * mode stops it the same way.
   */
  assertTrusted(conn: Connection): void {
    if (this.isTrusted()) return;
    throw new ApiError({
      kind: 'auth',
      service: `${SERVICE_LABELS[conn.service]} (${conn.name})`,
      message: 'Restricted mode: this workspace is not trusted, so no request is sent with your stored keys. Trust the workspace to continue.',
    });
  }

  async keyFor(conn: Connection, url: URL | string): Promise<string> {
    const service = `${SERVICE_LABELS[conn.service]} (${conn.name})`;
    this.assertTrusted(conn);
    if (conn.service !== 'realtime' && conn.credential) return this.tokenFor(conn, conn.credential, new URL(String(url)), service);
    const stored = await this.secrets.get(conn);
    if (!stored) {
      const what = conn.service === 'realtime' ? 'app secret' : 'API key';
      throw new ApiError({
        kind: 'auth',
        service,
        code: 'no_key',
        message: `No ${what} is stored for "${conn.name}". Run "Set ${conn.service === 'realtime' ? 'App Secret' : 'API Key'}…" first.`,
      });
    }
    const origin = new URL(String(url)).origin;
    if (stored.origins.includes(origin)) return stored.value;
    if (!(await this.approve(conn, origin, stored.origins))) {
      throw new ApiError({
        kind: 'auth',
        service,
        code: 'origin_not_approved',
        message: `Not sent: you have not approved sending the key of "${conn.name}" to ${origin}.`,
      });
    }
    await this.secrets.approveOrigin(conn, origin);
    return stored.value;
  }

  /** A token goes only to the connection's own origins (no approval for others: a new sign-in is cheap, a leaked token is not). */
  private async tokenFor(conn: Connection, source: TokenSource, url: URL, service: string): Promise<string> {
    const origins = connectionOrigins(conn);
    if (!origins.includes(url.origin)) {
      throw new ApiError({
        kind: 'auth',
        service,
        code: 'origin_not_approved',
        message: `Not sent: the token of "${conn.name}" only goes to ${origins.join(', ')}, not ${url.origin}.`,
      });
    }
    if (!this.tokens) throw new ApiError({ kind: 'auth', service, code: 'no_key', message: `${describeTokenSource(source)} is not available here.` });
    try {
      return await this.tokens.resolver.token(source);
    } catch (e) {
      throw new ApiError({
        kind: 'auth',
        service,
        code: 'token_failed',
        message: `No token for "${conn.name}": ${describeTokenSource(source)} failed: ${errorText(e)}`,
      });
    }
  }

  private approve(conn: Connection, origin: string, known: string[]): Promise<boolean> {
    const id = `${conn.service}:${conn.name}:${origin}`;
    let p = this.pending.get(id);
    if (!p) {
      const entered = known.length ? known.join(', ') : connectionOrigins(conn).join(', ');
      p = Promise.resolve(
        vscode.window.showWarningMessage(
          `Send the key of "${conn.name}" to ${origin}?`,
          { modal: true, detail: `This key was entered for ${entered}. Only allow hosts you trust: the key will be sent to ${origin} from now on.` },
          'Allow',
        ),
      ).then((choice) => choice === 'Allow');
      this.pending.set(id, p);
      void p.finally(() => this.pending.delete(id));
    }
    return p;
  }
}

/**
 * The editor's guard with its token sources: token commands run with the editor's environment,
 * Entra ID through VS Code's "microsoft" sign-in, whose sign-out forgets the Entra tokens.
 */
export function createCredentialGuard(secrets: SecretStore, redactor: Redactor): { guard: CredentialGuard; entra: EntraSignIn } {
  const entra = new EntraSignIn(() => resolver.clearEntra());
  const resolver: CredentialResolver = new CredentialResolver({ redactor, entra: entra.provider, commandOptions: { env: process.env } });
  return { guard: new CredentialGuard(secrets, undefined, { resolver, entra }), entra };
}
