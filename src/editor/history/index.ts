// The history's commands and the notebook tests. They carry the notebook engine, so they live in the
// notebook's bundle (dist/notebook.js, re-exported as `history`): loaded the first time one of them
// is used, never at activation.
// The store, the recorder and the tree are part of the foundation (see feature.ts).
import vscode from 'vscode';
import type { Services } from '../services';
import { historyCommands, HistoryDocuments, HISTORY_SCHEME } from './commands';
import type { HistoryActivation } from './feature';
import type { HistoryStore } from './store';
import { NotebookTests } from './testing';

export function activate(s: Services, store: HistoryStore, controller: vscode.TestController): HistoryActivation {
  const tests = new NotebookTests(s, controller);
  return {
    commands: historyCommands(s, store),
    tests,
    disposables: [tests, vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, new HistoryDocuments(store))],
  };
}
