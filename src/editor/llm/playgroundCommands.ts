// Commands that open the playground: for a connection and model (palette, or a model in the Language
// Models view), and from an llm notebook cell (cell toolbar or the code lens "Open in Playground").
import vscode from 'vscode';
import type { HttpConnection } from '../../core/connections';
import { defaultSettings } from '../../services/llm/playgroundMessages';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import type { Services } from '../services';
import { asLlmConnection } from '../../features/llm/clients';
import type { ModelState } from './modelState';
import { cellToConversation } from '../../features/llm/playgroundCell';
import type { LlmCosts } from '../llmCosts';
import { PlaygroundPanel } from './playgroundPanel';

export const OPEN_PLAYGROUND = 'apiWorkbench.llm.openPlayground';
export const OPEN_CELL_IN_PLAYGROUND = 'apiWorkbench.llm.openCellInPlayground';

/** Optional arguments of Open LLM Playground (tests, other commands). */
interface PlaygroundArgs {
  connection?: string;
  model?: string;
}

function modelOfNode(arg: unknown): string | undefined {
  const model = arg && typeof arg === 'object' ? (arg as { model?: unknown }).model : undefined;
  const id = model && typeof model === 'object' ? (model as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** A cell named by a command argument (a NotebookCell, a TextDocument, text, or the active cell): its text and pinned connection. */
function cellOf(arg: unknown): { text: string; connection?: string } | undefined {
  if (typeof arg === 'string') return { text: arg };
  const o = arg && typeof arg === 'object' ? (arg as { document?: { getText?: unknown }; getText?: unknown; metadata?: unknown }) : undefined;
  if (o?.document && typeof o.document.getText === 'function')
    return { text: (o.document as vscode.TextDocument).getText(), connection: pinnedConnection(o.metadata) };
  if (o && typeof o.getText === 'function') return { text: (o as vscode.TextDocument).getText() };
  const nb = vscode.window.activeNotebookEditor;
  const cell = nb?.notebook.cellAt(nb.selection.start);
  if (cell?.document.languageId === 'llm') return { text: cell.document.getText(), connection: pinnedConnection(cell.metadata) };
  return undefined;
}

/** The `connection=` fence attribute of a cell (the engine's CellMetadata), if any. */
function pinnedConnection(metadata: unknown): string | undefined {
  const attributes = metadata && typeof metadata === 'object' ? (metadata as { attributes?: unknown }).attributes : undefined;
  const name = attributes && typeof attributes === 'object' ? (attributes as { connection?: unknown }).connection : undefined;
  return typeof name === 'string' && name ? name : undefined;
}

export function playgroundCommands(s: Services, state: ModelState, costs?: LlmCosts): { commands: CommandTable; disposables: vscode.Disposable[] } {
  const panels = new Set<PlaygroundPanel>();

  function connectionOf(name: string | undefined, node?: unknown): HttpConnection {
    const conn = asLlmConnection(
      (node ? connectionFromArg(s, 'llm', node) : undefined) ?? (name ? connectionFromArg(s, 'llm', name) : s.connections.active('llm')),
    );
    if (!conn)
      throw new Error(
        name
          ? `There is no language-model connection named "${name}".`
          : 'Connect a language model first (or start the Local Sandbox), then open the playground.',
      );
    return conn;
  }

  function open(
    conn: HttpConnection,
    settings = defaultSettings(state.activeModel(conn) ?? '', conn.llmApi ?? 'chat'),
    turns?: Parameters<PlaygroundPanel['load']>[1],
  ): PlaygroundPanel {
    const panel = new PlaygroundPanel(s, conn, settings, turns, costs);
    panels.add(panel);
    panel.onDidDispose(() => panels.delete(panel));
    return panel;
  }

  const commands: CommandTable = {
    [OPEN_PLAYGROUND]: (arg?: unknown) => {
      const nodeModel = modelOfNode(arg);
      const a: PlaygroundArgs = nodeModel || !arg || typeof arg !== 'object' ? {} : arg;
      const conn = connectionOf(typeof a.connection === 'string' ? a.connection : undefined, nodeModel ? arg : undefined);
      const model = nodeModel ?? (typeof a.model === 'string' ? a.model : undefined) ?? state.activeModel(conn) ?? state.defaultModel(conn) ?? '';
      return open(conn, defaultSettings(model, conn.llmApi ?? 'chat'));
    },
    [OPEN_CELL_IN_PLAYGROUND]: (arg?: unknown) => {
      const cell = cellOf(arg);
      if (cell === undefined) throw new Error('Select an llm cell that sends POST /chat/completions or POST /responses, then open it in the playground.');
      const { text } = cell;
      const conn = connectionOf(cell.connection);
      // NotAConversationCell's message is written for the user; the command layer shows it as is.
      const { settings, turns } = cellToConversation(text, state.activeModel(conn) ?? '');
      return open(conn, settings, turns);
    },
  };

  const lens: vscode.CodeLensProvider = {
    provideCodeLenses(doc) {
      const first = doc.getText(new vscode.Range(0, 0, Math.min(doc.lineCount, 5), 0));
      if (!/^\s*POST\s+\S*\/(chat\/completions|responses)\b/im.test(first)) return [];
      return [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: '$(beaker) Open in Playground',
          command: OPEN_CELL_IN_PLAYGROUND,
          arguments: [doc.getText()],
        }),
      ];
    },
  };
  return {
    commands,
    disposables: [vscode.languages.registerCodeLensProvider({ language: 'llm' }, lens), { dispose: () => [...panels].forEach((p) => p.dispose()) }],
  };
}
