import * as vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { errorText } from '../../core/errors';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import { copyAsCurl, type RequestHistory } from '../curl';
import type { Services } from '../services';
import type { AnswerDocuments } from './answerDocuments';
import { runAsk, type AskResult } from './ask';
import { asLlmConnection, llmClient } from './clients';
import type { ModelState } from './modelState';
import { askMessages, EXPLAIN_QUESTION, isLikelyChatModel, selectionMessages, type SelectionContext } from './prompts';
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

/** A model node from the tree, checked by shape (callers may come from another bundle). */
function modelIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const model = arg && typeof arg === 'object' ? (arg as { model?: unknown }).model : undefined;
  const id = model && typeof model === 'object' ? (model as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

export function llmCommands(s: Services, state: ModelState, docs: AnswerDocuments, status: LlmStatusBar, history: RequestHistory): CommandTable {
  // The last prompt typed is offered again (selected, so typing replaces it): a failed or
  // cancelled question never has to be retyped.
  let lastPrompt = '';
  let lastQuestion = '';

  async function connection(name: string | undefined): Promise<HttpConnection | undefined> {
    const conn = asLlmConnection(name ? connectionFromArg(s, 'llm', name) : s.connections.active('llm'));
    if (conn) return conn;
    if (name) throw new Error(`There is no language-model connection named "${name}".`);
    const choice = await vscode.window.showInformationMessage('No language-model connection yet.', 'Connect…', 'Try the Local Sandbox');
    if (choice === 'Connect…') await vscode.commands.executeCommand('apiWorkbench.llm.addConnection');
    if (choice === 'Try the Local Sandbox') await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
    return undefined;
  }

  /** Quick pick of the connection's chat models, the last choice first; a free-text box if listing fails. */
  async function pickModel(conn: HttpConnection): Promise<string | undefined> {
    const active = state.activeModel(conn);
    const fallback = state.defaultModel(conn);
    let listError: string | undefined;
    const models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Listing the models of ${conn.name}…` }, () =>
      llmClient(s, conn)
        .listModels()
        .catch((e: unknown) => {
          listError = errorText(e);
          return [];
        }),
    );
    const chat = models.filter((m) => isLikelyChatModel(m.id)).sort((a, b) => Number(b.id === active) - Number(a.id === active));
    if (chat.length > 0) {
      const picked = await vscode.window.showQuickPick(
        chat.map((m) => ({
          label: m.id,
          description: [m.id === active ? 'last used' : undefined, m.id === fallback ? '★ default' : undefined, m.owned_by ?? undefined].filter(Boolean).join(' · '),
          model: m.id,
        })),
        { title: `Model (${conn.name})`, placeHolder: 'Which model should answer?', ignoreFocusOut: true },
      );
      return picked?.model;
    }
    // Servers without GET /models (or without chat models in it): let the user type the id.
    const typed = await vscode.window.showInputBox({
      title: `Model (${conn.name})`,
      prompt: listError ? `Could not list models (${listError}). Type a model id:` : 'This server lists no chat models. Type a model id:',
      value: active ?? '',
      ignoreFocusOut: true,
    });
    return typed?.trim() || undefined;
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
    await state.setLast(conn, model);
    return runAsk(s, docs, { conn, model, messages: askMessages(prompt), prompt, cancel: a.cancel }, () => status.update(), history);
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
    await state.setLast(conn, model);
    const lines = selection.end.line - selection.start.line + 1;
    return runAsk(
      s,
      docs,
      { conn, model, messages: selectionMessages(question, sel), prompt: question, about: `${lines} line${lines === 1 ? '' : 's'} of ${sel.where}`, cancel: a.cancel },
      () => status.update(),
      history,
    );
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
    'apiWorkbench.llm.copyModelId': async (node?: unknown) => {
      const model = nodeModel(node);
      await vscode.env.clipboard.writeText(model);
      vscode.window.setStatusBarMessage(`Copied the model id "${model}".`, 3000);
    },
  };
}
