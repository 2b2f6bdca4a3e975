// The Language Models view, its commands and the status bar item, on the editor foundation.
import { RequestHistory } from '../curl';
import type { Services } from '../services';
import type { ServiceActivation, ServiceView } from '../serviceModule';
import { AnswerDocuments } from './answerDocuments';
import { llmCommands } from './commands';
import { ComparePanel } from './comparePanel';
import { CostLedger } from '../../features/llm/costLedger';
import { LlmCosts } from '../llmCosts';
import { ModelCatalog } from '../modelCatalog';
import { ModelsSource } from './modelsSource';
import { ModelState } from './modelState';
import { playgroundCommands } from './playgroundCommands';
import { LlmStatusBar } from './statusBar';

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const state = new ModelState(s.context.globalState);
  // The cost API (budget question, record, prices) every LLM feature shares: see costs.ts.
  const costs = new LlmCosts(s, new CostLedger(s.context.globalState));
  const status = new LlmStatusBar(s, state, costs);
  const history = new RequestHistory('llm', s.history);
  const docs = new AnswerDocuments(history);
  const catalog = new ModelCatalog(s);
  const compare = new ComparePanel(s, catalog, costs, state);
  view.provider.source = new ModelsSource(s, state, catalog);
  // Children loaded by the default source before this point are reloaded as models.
  view.provider.refresh();
  const playground = playgroundCommands(s, state, costs);
  return {
    disposables: [state, docs, status, catalog, compare, state.onDidChange(() => view.provider.rerender()), ...playground.disposables],
    commands: { ...llmCommands(s, { state, docs, status, history, catalog, costs, compare }), ...playground.commands },
  };
}
