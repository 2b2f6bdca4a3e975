import vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { errorText } from '../../core/errors';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import { copyAsCurl, type RequestHistory } from '../curl';
import type { Services } from '../services';
import type { AnswerDocuments } from './answerDocuments';
import { runAsk, type AskResult } from './ask';
import { asLlmConnection } from '../../features/llm/clients';
import type { ComparePanel } from './comparePanel';
import type { LlmCosts } from '../llmCosts';
import type { ModelCatalog } from '../modelCatalog';
import type { ModelState } from './modelState';
import { askMessages, EXPLAIN_QUESTION, selectionMessages, type SelectionContext } from '../../features/llm/prompts';
import { modelPickItems, type ModelPickItem } from '../modelPicks';
import type { LlmStatusBar } from './statusBar';

/** Optional arguments of the Ask commands (keybindings, other commands, tests). */
export interface AskArgs {
  prompt?: string;
  /** For Ask About Selection: the question (the selection comes from the active editor). */
  question?: string;
  model?: string;
  /** Connection name; the active connection otherwise. */
  connection?: string;
  cancel?: vscode.CancellationToken;
}

function askArgs(arg: unknown): AskArgs {
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  const token = a.cancel as vscode.CancellationToken | undefined;
  return {
    prompt: str(a.prompt),
    question: str(a.question),
    model: str(a.model),
    connection: str(a.connection),
    cancel: token && typeof token.onCancellationRequested === 'function' ? token : undefined,
  };
}

/** Compare's optional arguments: with a prompt and 2–4 models it runs at once (tests, keybindings). */
function compareArgs(arg: unknown): { connection?: string; prompt?: string; models?: string[] } {
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as Record<string, unknown>;
  const models = Array.isArray(a.models) ? a.models.filter((m): m is string => typeof m === 'string' && m.trim() !== '') : undefined;
  return {
    connection: typeof a.connection === 'string' ? a.connection : undefined,
    prompt: typeof a.prompt === 'string' && a.prompt.trim() ? a.prompt : undefined,
    models,
  };
}

/** A model node from the tree, checked by shape (callers may come from another bundle). */
function modelIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const model = arg && typeof arg === 'object' ? (arg as { model?: unknown }).model : undefined;
  const id = model && typeof model === 'object' ? (model as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** What the LLM commands share beyond Services (created in index.ts). */
export interface LlmParts {
  state: ModelState;
  docs: AnswerDocuments;
  status: LlmStatusBar;
  history: RequestHistory;
  catalog: ModelCatalog;
  costs: LlmCosts;
  compare: ComparePanel;
}

const REFRESH_ITEM = '$(refresh) List the models again';

export function llmCommands(s: Services, parts: LlmParts): CommandTable {
  const { state, docs, status, history, catalog, costs, compare } = parts;
  // The last prompt typed is offered again (selected, so typing replaces it): a failed or
  // cancelled question never has to be retyped.
  let lastPrompt = '';
  let lastQuestion = '';
  /** The model last picked in Ask, per connection: offered first, but it does not become the active model. */
  const lastAsked = new Map<string, string>();

  async function connection(name: string | undefined): Promise<HttpConnection | undefined> {
    const conn = asLlmConnection(name ? connectionFromArg(s, 'llm', name) : s.connections.active('llm'));
    if (conn) return conn;
    if (name) throw new Error(`There is no language-model connection named "${name}".`);
    const choice = await vscode.window.showInformationMessage('No language-model connection yet.', 'Connect…', 'Try the Local Sandbox');
    if (choice === 'Connect…') await vscode.commands.executeCommand('apiWorkbench.llm.addConnection');
    if (choice === 'Try the Local Sandbox') await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
    return undefined;
  }

  /**
   * Quick pick of the connection's chat models (the cached list; its last item lists them again),
   * the last choice first; a free-text box if listing fails.
   */
  async function pickModel(conn: HttpConnection): Promise<string | undefined> {
    const recent = lastAsked.get(conn.name) ?? state.activeModel(conn);
    const fallback = state.defaultModel(conn);
    for (let refresh = false; ; refresh = true) {
      let listError: string | undefined;
      const models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Listing the models of ${conn.name}…` }, () =>
        catalog.list(conn, { refresh }).catch((e: unknown) => {
          listError = errorText(e);
          return [];
        }),
      );
      // Only chat models can answer a question: the others are not offered, chat ones in the one order.
      const items = modelPickItems(models, ['chat'], { recent, fallback });
      if (items.length > 0) {
        const picked = await vscode.window.showQuickPick<ModelPickItem>(
          [...items, { label: '', kind: vscode.QuickPickItemKind.Separator }, { label: REFRESH_ITEM, description: 'GET /models', model: undefined }],
          { title: `Model (${conn.name})`, placeHolder: 'Which model should answer?', ignoreFocusOut: true },
        );
        if (picked?.label === REFRESH_ITEM) continue;
        return picked?.model;
      }
      // Servers without GET /models (or without chat models in it): let the user type the id.
      const typed = await vscode.window.showInputBox({
        title: `Model (${conn.name})`,
        prompt: listError ? `Could not list models (${listError}). Type a model id:` : 'This server lists no chat models. Type a model id:',
        value: recent ?? '',
        ignoreFocusOut: true,
      });
      return typed?.trim() || undefined;
    }
  }

  /**
   * Ask never changes the active model behind the user's back: a connection without a default gets
   * the first model that answered as its default, and the user is told; otherwise the default stays.
   * A model that failed is never made the default (nor offered first next time).
   */
  async function noteModelChoice(conn: HttpConnection, model: string, result: AskResult): Promise<void> {
    if (result.outcome === 'failed') return;
    lastAsked.set(conn.name, model);
    const current = state.defaultModel(conn);
    if (!current) {
      await state.setDefault(conn, model);
      void vscode.window.showInformationMessage(
        `"${model}" is now the default model of "${conn.name}" (it had none). Change it with "Set as Default Model" on a model in the Language Models view.`,
      );
    } else if (current !== model) {
      vscode.window.setStatusBarMessage(`Asking "${model}"; the default model of "${conn.name}" stays "${current}".`, 5000);
    }
  }

  /** The budget question, when a daily budget is set and this request might pass it. */
  function withinBudget(model: string, messages: { content: string }[]): Promise<boolean> {
    return costs.confirm([{ model, messages }]);
  }

  async function ask(arg: unknown, presetModel?: string, presetConn?: HttpConnection): Promise<AskResult | undefined> {
    const a = askArgs(arg);
    const conn = presetConn ?? (await connection(a.connection));
    if (!conn) return undefined;
    let prompt = a.prompt;
    if (!prompt) {
      prompt = await vscode.window.showInputBox({
        title: `Ask ${presetModel ?? a.model ?? state.activeModel(conn) ?? 'a model'} (${conn.name})`,
        prompt: 'Your question',
        value: lastPrompt,
        valueSelection: [0, lastPrompt.length],
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Type a question, or press Escape'),
      });
      if (!prompt?.trim()) return undefined;
    }
    lastPrompt = prompt;
    const model = presetModel ?? a.model ?? (await pickModel(conn));
    if (!model) return undefined;
    const messages = askMessages(prompt);
    if (!(await withinBudget(model, messages))) return undefined;
    const result = await runAsk(s, docs, { conn, model, messages, prompt, cancel: a.cancel, costs }, () => status.update(), history);
    await noteModelChoice(conn, model, result);
    return result;
  }

  async function askAboutSelection(arg: unknown, fixedQuestion?: string): Promise<AskResult | undefined> {
    const a = askArgs(arg);
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) throw new Error('Select some text in an editor first, then ask about it.');
    const { document, selection } = editor;
    const sel: SelectionContext = {
      code: document.getText(selection),
      languageId: document.languageId,
      where: `${vscode.workspace.asRelativePath(document.uri)}:${selection.start.line + 1}-${selection.end.line + 1}`,
    };
    const conn = await connection(a.connection);
    if (!conn) return undefined;
    let question = fixedQuestion ?? a.question;
    if (!question) {
      question = await vscode.window.showInputBox({
        title: `Ask about ${sel.where}`,
        prompt: 'Your question about the selection',
        value: lastQuestion,
        valueSelection: [0, lastQuestion.length],
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Type a question, or press Escape'),
      });
      if (!question?.trim()) return undefined;
      lastQuestion = question;
    }
    const model = a.model ?? state.activeModel(conn) ?? (await pickModel(conn));
    if (!model) return undefined;
    const lines = selection.end.line - selection.start.line + 1;
    const messages = selectionMessages(question, sel);
    if (!(await withinBudget(model, messages))) return undefined;
    const result = await runAsk(
      s,
      docs,
      { conn, model, messages, prompt: question, about: `${lines} line${lines === 1 ? '' : 's'} of ${sel.where}`, cancel: a.cancel, costs },
      () => status.update(),
      history,
    );
    await noteModelChoice(conn, model, result);
    return result;
  }

  function nodeConnection(arg: unknown): HttpConnection {
    const conn = asLlmConnection(connectionFromArg(s, 'llm', arg) ?? s.connections.active('llm'));
    if (!conn) throw new Error('This model belongs to a connection that no longer exists. Refresh the view.');
    return conn;
  }

  function nodeModel(arg: unknown): string {
    const id = modelIdOf(arg);
    if (!id) throw new Error('Run this command from a model in the Language Models view.');
    return id;
  }

  return {
    'apiWorkbench.llm.ask': (arg?: unknown) => ask(arg),
    'apiWorkbench.llm.askAboutSelection': (arg?: unknown) => askAboutSelection(arg),
    'apiWorkbench.llm.explainSelection': (arg?: unknown) => askAboutSelection(arg, EXPLAIN_QUESTION),
    'apiWorkbench.llm.askModel': (node?: unknown, arg?: unknown) => ask(arg, nodeModel(node), nodeConnection(node)),
    'apiWorkbench.llm.setDefaultModel': async (node?: unknown) => {
      const conn = nodeConnection(node);
      const model = nodeModel(node);
      await state.setDefault(conn, model);
      vscode.window.setStatusBarMessage(`"${model}" is now the default model of "${conn.name}".`, 4000);
    },
    'apiWorkbench.llm.copyAsCurl': (arg?: unknown) => copyAsCurl(s, history, { firstCommand: { title: 'Ask…', command: 'apiWorkbench.llm.ask' } }, arg),
    'apiWorkbench.llm.compare': async (arg?: unknown) => {
      const a = compareArgs(arg);
      const conn = await connection(a.connection);
      if (!conn) return undefined;
      return compare.open(conn, a.prompt && a.models ? { prompt: a.prompt, models: a.models } : undefined);
    },
    'apiWorkbench.llm.showAnswers': async () => {
      if (await docs.show()) return true;
      const choice = await vscode.window.showInformationMessage('No answers yet in this window: they gather in one Answers tab as you ask.', 'Ask…');
      if (choice) await vscode.commands.executeCommand('apiWorkbench.llm.ask');
      return false;
    },
    'apiWorkbench.llm.copyModelId': async (node?: unknown) => {
      const model = nodeModel(node);
      await vscode.env.clipboard.writeText(model);
      vscode.window.setStatusBarMessage(`Copied the model id "${model}".`, 3000);
    },
  };
}
