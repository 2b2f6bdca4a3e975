// Keyless Entra ID sign-in in the editor: VS Code's built-in "microsoft" authentication provider
// gives a session for the Cognitive Services scope; the account is shown on the connection. A
// token is asked for again (silently while a session exists) shortly before it expires, and
// signing out in VS Code's Accounts menu forgets every Entra token at once.
import vscode from 'vscode';
import type { EntraTokenProvider } from '../core/auth/resolver';
import { jwtExpiry, type Token } from '../core/auth/tokenCache';
import { Disposable } from './disposable';

export const MICROSOFT_AUTH_PROVIDER = 'microsoft';
/** A token whose expiry cannot be read is asked for again after this (the provider renews its own). */
const UNKNOWN_EXPIRY_RECHECK_MS = 10 * 60_000;

export class EntraSignIn extends Disposable {
  /** scope → the signed-in account's label, once a session was given for it. */
  private readonly accounts = new Map<string, string>();
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** A sign-in or sign-out: connections showing an account are redrawn. */
  readonly onDidChange = this.changed.event;

  constructor(onSignOut: () => void) {
    super();
    this.register(
      vscode.authentication.onDidChangeSessions((e) => {
        if (e.provider.id !== MICROSOFT_AUTH_PROVIDER) return;
        // Any change (sign-out, another account): tokens are asked for again on the next request.
        this.accounts.clear();
        onSignOut();
        this.changed.fire();
      }),
    );
  }

  /** The token provider the credential resolver calls; silent while a session exists, asks to sign in otherwise. */
  readonly provider: EntraTokenProvider = async (scope) => {
    const scopes = [scope];
    const session =
      (await vscode.authentication.getSession(MICROSOFT_AUTH_PROVIDER, scopes, { silent: true })) ??
      (await vscode.authentication.getSession(MICROSOFT_AUTH_PROVIDER, scopes, { createIfNone: true }));
    if (this.accounts.get(scope) !== session.account.label) {
      this.accounts.set(scope, session.account.label);
      this.changed.fire();
    }
    const token: Token = { value: session.accessToken, expiresAt: jwtExpiry(session.accessToken) ?? Date.now() + UNKNOWN_EXPIRY_RECHECK_MS };
    return token;
  };

  /** The account signed in for `scope`, if any yet. */
  account(scope: string): string | undefined {
    return this.accounts.get(scope);
  }
}
