// Every id the extension shares with VS Code besides commands (commandIds.ts): views, settings,
// context keys for `when` clauses, memento keys and the SecretStorage prefix. Typed, so a typo fails
// to compile; test/unit/foundation/manifest.test.ts checks them against package.json.
// (vscode-free so the unit suite can import it.)
// Type-only imports: this file is in the activation bundle, which must not pull in the engine.
import type { ServiceId } from '../core/connections';
import type { CodeLanguage } from '../notebook/api';
import type { CommandId } from './commandIds';

export const VIEW_CONTAINER_ID = 'apiWorkbench';

/** The tree view of each service. */
export const VIEW_IDS = {
  llm: 'apiWorkbench.llm',
  maps: 'apiWorkbench.maps',
  realtime: 'apiWorkbench.realtime',
} as const satisfies Record<ServiceId, string>;

/** The request history (every request from a command or a notebook). */
export const HISTORY_VIEW_ID = 'apiWorkbench.history';

/**
 * The Realtime Inspector: a webview view in its own container of the panel (beside the Output),
 * so the message table sits under the editor rather than in a tab.
 */
export const REALTIME_INSPECTOR_CONTAINER_ID = 'apiWorkbenchRealtimeInspector';
export const REALTIME_INSPECTOR_VIEW_ID = 'apiWorkbench.realtimeInspector';
/** The command VS Code makes for every view (`<view id>.focus`): opens the panel on the inspector. */
export const REALTIME_INSPECTOR_FOCUS_COMMAND = `${REALTIME_INSPECTOR_VIEW_ID}.focus` as const;

/** Every view of the container, in the order package.json lists them. */
export const ALL_VIEW_IDS: readonly string[] = [...Object.values(VIEW_IDS), HISTORY_VIEW_ID];

/** `<publisher>.<name>` of package.json. */
export const EXTENSION_ID = 'api-workbench.api-workbench';

/** The notebook type of `*.awb.md` files (package.json contributes.notebooks), its controller and viewer. */
export const NOTEBOOK_TYPE = 'api-workbench-notebook';
export const NOTEBOOK_FILE_PATTERN = '*.awb.md';
export const NOTEBOOK_CONTROLLER_ID = 'api-workbench-notebook-controller';
export const RESULT_RENDERER_ID = 'api-workbench.result-viewer';
export const RESULT_MIME = 'application/vnd.api-workbench.result+json';
/** The language ids of code cells: the fence languages themselves (the engine's CODE_LANGUAGES; checked by the unit test). */
export const NOTEBOOK_LANGUAGES = ['llm', 'maps', 'realtime', 'vars', 'http'] as const satisfies readonly CodeLanguage[];
/** Context key: the active notebook is an API notebook with environments to pick from. */
export const CONTEXT_HAS_ENVIRONMENTS = 'apiWorkbench.notebook.hasEnvironments';

/** The Testing view's controller of notebook assertions. */
export const NOTEBOOK_TEST_CONTROLLER_ID = 'apiWorkbench.notebookTests';

/** The settings section; every key below is relative to it. */
export const CONFIG_SECTION = 'apiWorkbench';

export const SETTING_KEYS = [
  'llm.connections',
  'maps.connections',
  'realtime.connections',
  'sandbox.port',
  'maps.fieldMaskPreset',
  'maps.fieldMasks',
  'maps.tileUrl',
  'maps.tileAttribution',
  'maps.openResponsesIn',
  'maps.skuPrices',
  'history.keepResponses',
  'history.maxEntries',
  'llm.prices',
  'llm.dailyBudget',
  'agents.mcpServer',
  'scripts.timeLimitMs',
  'scripts.memoryLimitMb',
  'scripts.outputLimitKb',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const CONNECTIONS_SETTING = {
  llm: 'llm.connections',
  maps: 'maps.connections',
  realtime: 'realtime.connections',
} as const satisfies Record<ServiceId, SettingKey>;

/** Context keys set with `setContext` and read by `when` clauses in package.json. */
export const CONTEXT_KEYS = {
  restricted: 'apiWorkbench.restricted',
  hasConnection: {
    llm: 'apiWorkbench.llm.hasConnection',
    maps: 'apiWorkbench.maps.hasConnection',
    realtime: 'apiWorkbench.realtime.hasConnection',
  } satisfies Record<ServiceId, string>,
  realtimeConnected: 'apiWorkbench.realtime.connected',
  webhookReceiverRunning: 'apiWorkbench.realtime.webhookReceiverRunning',
  /** The local sandbox runs (started here or adopted from `npm start`): ticks the walkthrough's step. */
  sandboxRunning: 'apiWorkbench.sandboxRunning',
} as const;

/** globalState keys (never secrets: those go to SecretStorage under SECRET_KEY_PREFIX). */
export const STATE_KEYS = {
  activeConnection: 'apiWorkbench.activeConnection',
  defaultModel: 'apiWorkbench.llm.defaultModel',
  lastModel: 'apiWorkbench.llm.lastModel',
  presenceUserId: 'apiWorkbench.realtime.presenceUserId',
} as const;

export const SECRET_KEY_PREFIX = 'apiWorkbench.secret.';
/** Secrets a connection has besides its key (e.g. the realtime encryption master key). */
export const SECRET_AUX_PREFIX = 'apiWorkbench.secretAux.';
/** `{{$secret name}}` of notebook http cells, stored by name (shared by every notebook of this machine). */
export const NOTEBOOK_SECRET_PREFIX = 'apiWorkbench.notebookSecret.';
/** workspaceState: notebook URI → the hosts its http cells may send to (what the user allowed). */
export const APPROVED_HOSTS_STATE_KEY = 'apiWorkbench.notebook.approvedHosts';

/** Status bar item ids (users can hide each one by its id). */
export const STATUS_BAR_IDS = {
  llm: 'apiWorkbench.llm.status',
  realtimeLog: 'apiWorkbench.realtime.log',
} as const;

/** The History view's commands. */
export const HISTORY_COMMANDS = {
  show: 'apiWorkbench.history.show',
  rerun: 'apiWorkbench.history.rerun',
  addToNotebook: 'apiWorkbench.history.addToNotebook',
  saveLastAsCell: 'apiWorkbench.history.saveLastAsCell',
  saveAsCell: 'apiWorkbench.history.saveAsCell',
  copyAsCode: 'apiWorkbench.history.copyAsCode',
  clear: 'apiWorkbench.history.clear',
} as const satisfies Record<string, CommandId>;

/** "Copy as cURL" of the services whose requests can be copied. */
export const COPY_AS_CURL_COMMANDS = {
  llm: 'apiWorkbench.llm.copyAsCurl',
  maps: 'apiWorkbench.maps.copyAsCurl',
} as const satisfies Record<'llm' | 'maps', CommandId>;

/** The service a command belongs to (`apiWorkbench.<service>.<verb>`), or undefined for global ones. */
export function commandService(id: CommandId): ServiceId | undefined {
  const part = id.split('.')[1];
  return part === 'llm' || part === 'maps' || part === 'realtime' ? part : undefined;
}

/** The connection-management commands every service has, spelled out so each id is a typed literal. */
export type ConnectionVerb = 'addConnection' | 'selectConnection' | 'setKey' | 'importKeyFromEnv' | 'clearKey' | 'removeConnection' | 'refresh';

export const CONNECTION_COMMANDS = {
  llm: {
    addConnection: 'apiWorkbench.llm.addConnection',
    selectConnection: 'apiWorkbench.llm.selectConnection',
    setKey: 'apiWorkbench.llm.setKey',
    importKeyFromEnv: 'apiWorkbench.llm.importKeyFromEnv',
    clearKey: 'apiWorkbench.llm.clearKey',
    removeConnection: 'apiWorkbench.llm.removeConnection',
    refresh: 'apiWorkbench.llm.refresh',
  },
  maps: {
    addConnection: 'apiWorkbench.maps.addConnection',
    selectConnection: 'apiWorkbench.maps.selectConnection',
    setKey: 'apiWorkbench.maps.setKey',
    importKeyFromEnv: 'apiWorkbench.maps.importKeyFromEnv',
    clearKey: 'apiWorkbench.maps.clearKey',
    removeConnection: 'apiWorkbench.maps.removeConnection',
    refresh: 'apiWorkbench.maps.refresh',
  },
  realtime: {
    addConnection: 'apiWorkbench.realtime.addConnection',
    selectConnection: 'apiWorkbench.realtime.selectConnection',
    setKey: 'apiWorkbench.realtime.setKey',
    importKeyFromEnv: 'apiWorkbench.realtime.importKeyFromEnv',
    clearKey: 'apiWorkbench.realtime.clearKey',
    removeConnection: 'apiWorkbench.realtime.removeConnection',
    refresh: 'apiWorkbench.realtime.refresh',
  },
} as const satisfies Record<ServiceId, Record<ConnectionVerb, CommandId>>;
