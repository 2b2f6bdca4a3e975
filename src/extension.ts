// Composition root: builds the services in dependency order (log first), wires the three views
// and every command, and reports activation failures to the user.
import vscode from 'vscode';
import { SERVICE_IDS, type ServiceId } from './core/connections';
import { errorText } from './core/errors';
import { CONTEXT_KEYS, REALTIME_INSPECTOR_VIEW_ID, VIEW_IDS } from './features/ids';
import { Redactor } from './core/redact';
import type { HttpClientFactory } from './features/httpClients';
import type { SessionCosts } from './features/maps/costs';
import { lazyCommandStubs, registerCommands, type CommandTable } from './editor/commands';
import { Config } from './editor/config';
import { FOUNDATION_COMMAND_IDS, foundationIdsMismatch } from './features/foundationCommandIds';
import { ConnectionStore } from './editor/connections';
import { createCredentialGuard } from './editor/credentials';
import { bundle } from './editor/bundles';
import { wireHistory, type NotebookTesting } from './editor/history/feature';
import { HistoryStore } from './editor/history/store';
import { DiagnosticsLog } from './editor/log';
import { wireNetworkSettings } from './editor/network';
import { lazyService } from './editor/lazyService';
import type { NotebookFeature } from './editor/notebook/index';
import { openNotebookFromEnvironment, registerNotebook } from './editor/notebook/register';
import { SandboxController } from './editor/sandbox';
import { SecretStore } from './editor/secrets';
import type { Services } from './editor/services';
import type { ServiceModule, ServiceViews } from './editor/serviceModule';
import { ServiceTreeProvider, type TreeNode } from './editor/tree';
import { registerAgentTools, type AgentToolsRegistration } from './editor/agents/register';

/** What activate() returns: used by the in-editor tests (and other extensions) to reach the services. */
export interface ExtensionApi {
  services: Services;
  views: ServiceViews;
  /** The notebook assertions in the Testing view. */
  testing: NotebookTesting;
  /**
   * The API notebook feature (loaded on first call): its controller's onDidFinishCell / runCell /
   * runAll are the hooks for the history view and the Testing API.
   */
  notebook(): NotebookFeature;
  /** The language-model tools for agents, as VS Code calls them. */
  agentTools: AgentToolsRegistration;
}

let services: Services | undefined;

/** Each service's editor module, from its own bundle on first use (src/editor/bundles.ts). */
const SERVICE_MODULES: Record<ServiceId, () => ServiceModule> = {
  llm: () => bundle('llm'),
  maps: () => bundle('maps'),
  realtime: () => bundle('realtime'),
};

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi | undefined> {
  const redactor = new Redactor();
  const log = new DiagnosticsLog(redactor);
  context.subscriptions.push(log);
  try {
    const api = await wire(context, redactor, log);
    services = api.services;
    return api;
  } catch (e) {
    log.error('Activation failed', e);
    const text = `API Workbench failed to start: ${errorText(e)}`;
    void vscode.window.showErrorMessage(text, 'Show Log').then((c) => c && log.show());
    return undefined;
  }
}

async function wire(context: vscode.ExtensionContext, redactor: Redactor, log: DiagnosticsLog): Promise<ExtensionApi> {
  const config = new Config((problem) => {
    log.warn(problem);
    void vscode.window.showWarningMessage(problem, 'Open Settings').then((c) => c && vscode.commands.executeCommand('workbench.action.openSettingsJson'));
  });
  // Before any client exists: every request and socket goes through the user's proxy settings.
  context.subscriptions.push(wireNetworkSettings(redactor, log));
  const secrets = new SecretStore(context.secrets, redactor);
  const connections = new ConnectionStore(config, context.globalState);
  const { guard, entra } = createCredentialGuard(secrets, redactor);
  const history = new HistoryStore(context, config, log);
  const sandbox = new SandboxController(context.extensionPath, connections, secrets, config, log);
  context.subscriptions.push(config, secrets, connections, sandbox, history, entra);

  // The client factory and the maps tally come from dist/foundation.js when first used (the first
  // request, the first maps request counted): activation needs neither.
  let http: HttpClientFactory | undefined;
  let mapsCosts: SessionCosts | undefined;
  const s: Services = {
    context,
    log,
    redactor,
    config,
    connections,
    secrets,
    guard,
    get http() {
      if (!http) {
        http = new (bundle('foundation').HttpClientFactory)(guard, log, redactor);
        // Every client the factory makes records its requests (the history is read lazily, on first use).
        http.history = history;
      }
      return http;
    },
    sandbox,
    history,
    get mapsCosts() {
      const foundation = bundle('foundation');
      return (mapsCosts ??= new foundation.SessionCosts(() => foundation.priceTable(config.get('maps.skuPrices'))));
    },
    trusted: () => vscode.workspace.isTrusted,
  };

  const setRestricted = () => void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.restricted, !vscode.workspace.isTrusted);
  setRestricted();

  const views = {} as ServiceViews;
  // The foundation's handlers (connections and keys) are loaded when one first runs, and reach the
  // views only then.
  let foundationCommands: CommandTable | undefined;
  const loadFoundationCommands = (): { commands: CommandTable } => {
    if (!foundationCommands) {
      const table = bundle('foundation').connectionCommands(s, views);
      const mismatch = foundationIdsMismatch(table);
      if (mismatch) throw new Error(mismatch);
      foundationCommands = table;
    }
    return { commands: foundationCommands };
  };
  const registered = new Set<string>(FOUNDATION_COMMAND_IDS);
  context.subscriptions.push(...registerCommands(lazyCommandStubs(FOUNDATION_COMMAND_IDS, loadFoundationCommands), log));
  for (const service of SERVICE_IDS) {
    // Each service module plugs its tree source, commands and UI into its view, loaded on first use.
    const lazy = lazyService(service, SERVICE_MODULES[service], s, () => views[service], log, registered);
    const provider = new ServiceTreeProvider(service, s, lazy.source);
    const view = vscode.window.createTreeView<TreeNode>(VIEW_IDS[service], { treeDataProvider: provider, showCollapseAll: true });
    context.subscriptions.push(provider, view, ...lazy.disposables);
    views[service] = { provider, view };
    // The signed-in Entra account is shown on its connections.
    context.subscriptions.push(entra.onDidChange(() => provider.refresh()));
    if (service === 'realtime') {
      // In the panel; its page is rebuilt from the module's store whenever it is shown again.
      context.subscriptions.push(vscode.window.registerWebviewViewProvider(REALTIME_INSPECTOR_VIEW_ID, lazy.webviewViewProvider(REALTIME_INSPECTOR_VIEW_ID)));
    }
  }
  const { testing, disposables: historyDisposables } = wireHistory(s, history, () => bundle('notebook').history, log);
  context.subscriptions.push(...historyDisposables);
  const notebook = registerNotebook(
    s,
    () => bundle('notebook'),
    (doc, results) => testing.reportNotebookRun(doc.uri, results),
  );
  context.subscriptions.push(...notebook.disposables);
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      setRestricted();
      for (const id of SERVICE_IDS) views[id].provider.refresh();
    }),
  );

  const agentTools = registerAgentTools(s);
  context.subscriptions.push(...agentTools.disposables);

  // Primes the redactor with every stored key, so even a line logged before the first request is clean.
  await Promise.all(SERVICE_IDS.flatMap((id) => connections.list(id).map((c) => secrets.get(c))));
  await sandbox.adoptFromEnvironment();
  void openNotebookFromEnvironment(s);
  log.info(`Activated (VS Code ${vscode.version}${vscode.workspace.isTrusted ? '' : ', restricted mode'}).`);
  return { services: s, views, testing, notebook: notebook.feature, agentTools };
}

export async function deactivate(): Promise<void> {
  // Stopping clears the sandbox's keys from SecretStorage; they are useless once it is gone.
  await services?.sandbox.stop();
  await services?.history.flush();
}
