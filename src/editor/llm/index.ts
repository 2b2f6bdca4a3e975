// The Language Models view, its commands and the status bar item, on the editor foundation.
import { RequestHistory } from '../curl';
import type { ServiceActivation, Services, ServiceView } from '../services';
import { AnswerDocuments } from './answerDocuments';
import { llmCommands } from './commands';
import { ModelsSource } from './modelsSource';
import { ModelState } from './modelState';
import { LlmStatusBar } from './statusBar';

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const state = new ModelState(s.context.globalState);
  const docs = new AnswerDocuments();
  const status = new LlmStatusBar(s, state);
  const history = new RequestHistory('llm', s.history);
  view.provider.source = new ModelsSource(s, state);
  // Children loaded by the default source before this point are reloaded as models.
  view.provider.refresh();
  return { disposables: [state, docs, status, state.onDidChange(() => view.provider.rerender())], commands: llmCommands(s, state, docs, status, history) };
}
