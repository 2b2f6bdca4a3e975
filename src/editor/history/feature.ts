// The request history's part of the foundation: the store (which the HttpClientFactory feeds),
// the History view, and stubs for the commands and the Testing view's notebook tests, whose code
// (with the notebook engine) is in the notebook's bundle dist/notebook.js, required on first use.
import vscode from 'vscode';
import { lazyCommandStubs, registerCommands, type CommandTable } from '../commands';
import { HISTORY_COMMANDS, HISTORY_VIEW_ID, NOTEBOOK_TEST_CONTROLLER_ID } from '../../features/ids';
import type { DiagnosticsLog } from '../log';
import type { Services } from '../services';
import type { CellResult } from '../../notebook/api';
import type { HistoryStore } from './store';
import { HistoryTreeProvider } from './tree';

export interface HistoryActivation {
  commands: CommandTable;
  tests: {
    resolve(item: vscode.TestItem | undefined): Promise<void>;
    run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void>;
    reportNotebookRun(uri: vscode.Uri, results: readonly CellResult[]): Promise<void>;
  };
  disposables: vscode.Disposable[];
}

/** `history` of dist/notebook.js (src/editor/history/index.ts). */
export interface HistoryModule {
  activate(s: Services, store: HistoryStore, controller: vscode.TestController): HistoryActivation;
}

/** The Testing view's controller of notebook assertions and its run profile (for tests and other extensions). */
export interface NotebookTesting {
  controller: vscode.TestController;
  profile: vscode.TestRunProfile;
  /** A notebook's cells ran in the editor: their checks show in the Testing view, as a run from there does. */
  reportNotebookRun(uri: vscode.Uri, results: readonly CellResult[]): Promise<void>;
}

export function wireHistory(
  s: Services,
  store: HistoryStore,
  load: () => HistoryModule,
  log: DiagnosticsLog,
): { testing: NotebookTesting; disposables: vscode.Disposable[] } {
  const tree = new HistoryTreeProvider(store);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: tree });
  const controller = vscode.tests.createTestController(NOTEBOOK_TEST_CONTROLLER_ID, 'API Notebooks');

  let activation: HistoryActivation | undefined;
  const ensure = (): HistoryActivation => {
    if (!activation) {
      const started = Date.now();
      activation = load().activate(s, store, controller);
      log.debug(`Loaded the history module in ${Date.now() - started} ms.`);
    }
    return activation;
  };

  controller.resolveHandler = (item) => ensure().tests.resolve(item);
  controller.refreshHandler = () => ensure().tests.resolve(undefined);
  const profile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => ensure().tests.run(request, token), true);

  const stubs = lazyCommandStubs(Object.values(HISTORY_COMMANDS), ensure);
  return {
    testing: { controller, profile, reportNotebookRun: (uri, results) => ensure().tests.reportNotebookRun(uri, results) },
    disposables: [
      tree,
      view,
      controller,
      profile,
      ...registerCommands(stubs, log),
      { dispose: () => activation?.disposables.forEach((d) => void d.dispose()) },
    ],
  };
}
