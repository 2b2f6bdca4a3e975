import type * as vscode from 'vscode';
import type { ServiceId } from '../core/connections';
import type { Redactor } from '../core/redact';
import type { CommandTable } from './commands';
import type { HttpClientFactory } from './clients';
import type { Config } from './config';
import type { ConnectionStore } from './connections';
import type { CredentialGuard } from './credentials';
import type { HistoryStore } from './history/store';
import type { DiagnosticsLog } from './log';
import type { SandboxController } from './sandbox';
import type { SecretStore } from './secrets';
import type { ServiceTreeProvider } from './tree';

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
  /** Workspace trust; false = restricted mode (no stored key leaves). */
  trusted(): boolean;
}

export interface ServiceView {
  readonly provider: ServiceTreeProvider;
  readonly view: vscode.TreeView<import('./tree').TreeNode>;
}

export type ServiceViews = Record<ServiceId, ServiceView>;

/** What a service module's activate() hands back; the extension registers the commands. */
export interface ServiceActivation {
  disposables: vscode.Disposable[];
  commands: CommandTable;
  /** Fills a webview view of the module's (registered at activation, resolved once first shown). */
  resolveWebviewView?(viewId: string, view: vscode.WebviewView): void;
}

/**
 * A service's editor module (src/editor/<service>/index.ts). Each is bundled on its own
 * (dist/<service>.js) and loaded the first time its view needs data or one of its commands runs.
 */
export interface ServiceModule {
  activate(s: Services, view: ServiceView): ServiceActivation;
}
