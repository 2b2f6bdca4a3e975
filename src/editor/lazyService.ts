import type * as vscode from 'vscode';
import type { ServiceId } from '../core/connections';
import { COMMAND_IDS } from '../features/commandIds';
import { commandService } from '../features/ids';
import { lazyCommandStubs, registerCommands } from './commands';
import type { DiagnosticsLog } from './log';
import type { Services } from './services';
import type { ServiceActivation, ServiceModule, ServiceView } from './serviceModule';
import type { ChildSource } from './tree';

/**
 * Plugs a service module into its view without loading it: activation stays small and fast, and
 * the module (its own bundle) is required the first time it is needed —
 * - a connection of its view loads children (`source`, the view's tree source until then), or
 * - one of its commands runs (each id is registered now with a stub that loads the module and
 *   calls the module's handler; so a command that activated the extension still works), or
 * - one of its webview views is first shown (`webviewViewProvider`, registered at activation).
 * `alreadyRegistered` are the service's ids the foundation handles (connections and keys).
 */
export function lazyService(
  service: ServiceId,
  load: () => ServiceModule,
  s: Services,
  // The view is created with `source`, so it is reached only once the module loads.
  view: () => ServiceView,
  log: DiagnosticsLog,
  alreadyRegistered: ReadonlySet<string>,
): { source: ChildSource; disposables: vscode.Disposable[]; webviewViewProvider(viewId: string): vscode.WebviewViewProvider } {
  let activation: ServiceActivation | undefined;
  const ensure = (): ServiceActivation => {
    if (!activation) {
      const started = Date.now();
      activation = load().activate(s, view());
      log.debug(`Loaded the ${service} module in ${Date.now() - started} ms.`);
    }
    return activation;
  };

  const placeholder: ChildSource = {
    load(conn, token) {
      ensure();
      // The module installed its own source; a module that did not is a programming error.
      const { provider } = view();
      if (provider.source === placeholder) return Promise.reject(new Error(`The ${service} module did not provide its tree.`));
      return provider.source.load(conn, token);
    },
  };

  const ids = COMMAND_IDS.filter((id) => commandService(id) === service && !alreadyRegistered.has(id));
  const stubs = lazyCommandStubs(ids, ensure);

  return {
    source: placeholder,
    disposables: [...registerCommands(stubs, log), { dispose: () => activation?.disposables.forEach((d) => void d.dispose()) }],
    // VS Code resolves a webview view only when it is first shown: that is when the module loads.
    webviewViewProvider: (viewId) => ({
      resolveWebviewView(view) {
        const module = ensure();
        if (!module.resolveWebviewView) throw new Error(`The ${service} module has no view ${viewId}.`);
        module.resolveWebviewView(viewId, view);
      },
    }),
  };
}
