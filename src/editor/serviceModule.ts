// The contract between the extension and each service's editor module (src/editor/<service>/index.ts,
// bundled on its own and loaded when first needed): what it is given and what it hands back.
import type * as vscode from 'vscode';
import type { ServiceId } from '../core/connections';
import type { CommandTable } from './commands';
import type { Services } from './services';
import type { ServiceTreeProvider, TreeNode } from './tree';

export interface ServiceView {
  readonly provider: ServiceTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
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
