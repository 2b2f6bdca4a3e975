// Part of the extension's main bundle: plugs the API notebook in without loading it. The serializer
// and every notebook command are stubs that require the feature's bundle (dist/notebook.js) the
// first time a notebook opens or a command runs, so activation stays light.
import vscode from 'vscode';
import { COMMAND_IDS } from '../../features/commandIds';
import { lazyCommandStubs, registerCommands } from '../commands';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { Services } from '../services';
import type { NotebookFeature } from './index';
import { errorText } from '../../core/errors';
import type { CellResult } from '../../notebook/api';

export interface NotebookModule {
  activate(s: Services): NotebookFeature;
}

/** `npm start` names the example notebook here: the workbench cannot open a notebook before extensions load. */
export const OPEN_NOTEBOOK_ENV = 'API_WORKBENCH_OPEN_NOTEBOOK';

/**
 * Opens the notebook `npm start` asked for (once per window: skipped when VS Code already restored
 * it from the last session).
 */
export async function openNotebookFromEnvironment(s: Services): Promise<void> {
  const file = process.env[OPEN_NOTEBOOK_ENV];
  if (!file) return;
  const uri = vscode.Uri.file(file);
  const open = vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputNotebook && t.input.uri.toString() === uri.toString()),
  );
  if (open) return;
  try {
    // Pinned: a preview tab would give way to the next editor the workbench opens at startup.
    await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE, { preview: false });
  } catch (e) {
    s.log.warn(`Could not open ${file}: ${errorText(e)}`);
  }
}

export function registerNotebook(
  s: Services,
  load: () => NotebookModule,
  onDidRun?: (notebook: vscode.NotebookDocument, results: readonly CellResult[]) => unknown,
): { feature: () => NotebookFeature; disposables: vscode.Disposable[] } {
  let feature: NotebookFeature | undefined;
  const ensure = (): NotebookFeature => {
    if (!feature) {
      const started = Date.now();
      feature = load().activate(s);
      if (onDidRun)
        feature.disposables.push(
          feature.controller.onDidRun((e) =>
            Promise.resolve(onDidRun(e.notebook, e.results)).catch((err: unknown) =>
              s.log.warn(`Testing view: a notebook run was not shown: ${errorText(err)}`),
            ),
          ),
        );
      s.log.debug(`Loaded the notebook module in ${Date.now() - started} ms.`);
    }
    return feature;
  };

  const serializer: vscode.NotebookSerializer = {
    deserializeNotebook: (content) => ensure().serializer.deserializeNotebook(content),
    serializeNotebook: (data) => ensure().serializer.serializeNotebook(data),
  };

  const stubs = lazyCommandStubs(
    COMMAND_IDS.filter((c) => c.startsWith('apiWorkbench.notebook.')),
    ensure,
  );

  return {
    feature: ensure,
    disposables: [
      vscode.workspace.registerNotebookSerializer(NOTEBOOK_TYPE, serializer, { transientOutputs: true }),
      ...registerCommands(stubs, s.log),
      { dispose: () => feature?.disposables.forEach((d) => void d.dispose()) },
    ],
  };
}
