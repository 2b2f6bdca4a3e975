import type * as vscode from 'vscode';
import type { Redactor } from '../core/redact';
import type { HttpClientFactory } from '../features/httpClients';
import type { SessionCosts } from '../features/maps/costs';
import type { Config } from './config';
import type { ConnectionStore } from './connections';
import type { CredentialGuard } from './credentials';
import type { HistoryStore } from './history/store';
import type { DiagnosticsLog } from './log';
import type { SandboxController } from './sandbox';
import type { SecretStore } from './secrets';

/**
 * Everything the service modules (src/editor/<service>/) build on, created once in activate() in
 * dependency order. Passed explicitly: there are no global singletons.
 */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: DiagnosticsLog;
  readonly redactor: Redactor;
  readonly config: Config;
  readonly connections: ConnectionStore;
  readonly secrets: SecretStore;
  readonly guard: CredentialGuard;
  readonly http: HttpClientFactory;
  readonly sandbox: SandboxController;
  /**
   * The request history (History view). Every HttpClient from `http` lands in it by itself; the
   * notebook records its cells with `history.record(historyEntryFromCellResult(result))`.
   */
  readonly history: HistoryStore;
  /**
   * This window's maps spend (the Maps view's "This session"): one tally that the palette commands,
   * notebook `maps` cells and the playground's maps tools, each in a bundle of its own, all add to.
   */
  readonly mapsCosts: SessionCosts;
  /** Workspace trust; false = restricted mode (no stored key leaves). */
  trusted(): boolean;
}
