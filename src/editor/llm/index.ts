// The Language Models view, its commands and the status bar item, on the editor foundation.
import type * as vscode from 'vscode';
import { registerCommands } from '../commands';
import { RequestHistory } from '../curl';
import type { Services, ServiceView } from '../services';
import { AnswerDocuments } from './answerDocuments';
import { llmCommands } from './commands';
import { ModelsSource } from './modelsSource';
import { ModelState } from './modelState';
import { LlmStatusBar } from './statusBar';

export function activateLlm(s: Services, view: ServiceView): vscode.Disposable[] {
  const state = new ModelState(s.context.globalState);
  const docs = new AnswerDocuments();
  const status = new LlmStatusBar(s, state);
  const history = new RequestHistory('llm');
  view.provider.source = new ModelsSource(s, state);
  // Children loaded by the default source before this point are reloaded as models.
  view.provider.refresh();
  return [state, docs, status, state.onDidChange(() => view.provider.rerender()), ...registerCommands(llmCommands(s, state, docs, status, history), s.log)];
}
