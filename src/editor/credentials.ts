import * as vscode from 'vscode';
import { connectionOrigins, SERVICE_LABELS, type Connection } from '../core/connections';
import { ApiError } from '../core/errors';
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
  ) {}

  /** The credentials callback for an HttpClient of `conn`. */
  forConnection(conn: Connection): (url: URL) => Promise<string> {
    return (url) => this.keyFor(conn, url);
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
