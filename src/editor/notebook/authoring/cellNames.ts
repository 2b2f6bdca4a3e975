// Names you can see: a cell's name, connection and environment live in its fence line, which the
// notebook hides, so each code cell shows them in its status bar; clicking one renames the cell
// or switches its connection or environment (the fence line is written anew on save).
import vscode from 'vscode';
import { declaredEnvironments } from '../environments';
import { NOTEBOOK_TYPE } from '../../../features/ids';
import type { CommandTable } from '../../commands';
import type { Services } from '../../services';
import { foreignTarget, withRelativeTarget, type ForeignTarget, type NotebookCellData } from '../../../notebook/api';

type Attributes = Record<string, string>;

const attributesOf = (cell: vscode.NotebookCell): Attributes => ({ ...((cell.metadata as { attributes?: Attributes }).attributes ?? {}) });
const CELL_NAME = /^[A-Za-z_][\w-]*$/;
const SERVICES = ['llm', 'maps', 'realtime'] as const;
type ConnectedService = (typeof SERVICES)[number];
const isConnected = (language: string): language is ConnectedService => (SERVICES as readonly string[]).includes(language);

export class CellStatusBar implements vscode.NotebookCellStatusBarItemProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCellStatusBarItems = this.changed.event;

  constructor(private readonly s: Services) {}

  /** Connections or environments changed: every cell's items are shown again. */
  refresh(): void {
    this.changed.fire();
  }

  provideCellStatusBarItems(cell: vscode.NotebookCell): vscode.NotebookCellStatusBarItem[] {
    if (cell.kind !== vscode.NotebookCellKind.Code) return [];
    const attributes = attributesOf(cell);
    const language = cell.document.languageId;
    const item = (text: string, tooltip: string, command: string) => {
      const i = new vscode.NotebookCellStatusBarItem(text, vscode.NotebookCellStatusBarAlignment.Left);
      i.tooltip = tooltip;
      i.command = { title: tooltip, command, arguments: [cell] };
      return i;
    };
    if (language === 'vars') {
      const env = attributes.env;
      return [
        item(
          `$(server-environment) ${env ?? 'every environment'}`,
          env ? `Applies when the environment is "${env}". Click to change.` : 'Applies in every environment. Click to limit it to one.',
          'apiWorkbench.notebook.chooseCellEnvironment',
        ),
      ];
    }
    const out = [
      item(
        `$(tag) ${attributes.name ?? 'unnamed'}`,
        attributes.name
          ? `Other cells use its result as {{${attributes.name}.json…}}. Click to rename.`
          : 'Name this cell to use its result in other cells. Click to name it.',
        'apiWorkbench.notebook.nameCell',
      ),
    ];
    if (isConnected(language)) {
      const named = attributes.connection;
      const active = this.s.connections.active(language)?.name;
      const sentWith = named ?? active;
      const foreign = foreignTarget(engineCell(cell), sentWith === undefined ? undefined : this.s.connections.get(language, sentWith));
      // An absolute URL to another host is never sent with this connection: say so, not "(active)".
      if (foreign && sentWith !== undefined) {
        out.push(
          item(
            `$(warning) ${foreign.host}: not sent with ${sentWith}`,
            `The key of "${sentWith}" only goes to its own host, so this request to ${foreign.host} is not sent. Click to run it against ${sentWith} (the URL made relative: ${foreign.relative}) or pick another connection.`,
            'apiWorkbench.notebook.chooseCellConnection',
          ),
        );
        return out;
      }
      out.push(
        item(
          `$(plug) ${named ?? (active ? `${active} (active)` : 'no connection')}`,
          named ? `Sent with the connection "${named}". Click to switch.` : 'Sent with the active connection. Click to pin one.',
          'apiWorkbench.notebook.chooseCellConnection',
        ),
      );
    }
    return out;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

type RetargetScope = 'cell' | 'notebook';

const engineCell = (cell: vscode.NotebookCell): NotebookCellData => ({
  kind: 'code',
  language: cell.document.languageId,
  value: cell.document.getText(),
  metadata: cell.metadata,
});

/** The notebook's `language` cells that name a host their connection (pinned, else the active one) does not serve. */
function foreignCells(notebook: vscode.NotebookDocument, language: ConnectedService, s: Services): Array<{ cell: vscode.NotebookCell; target: ForeignTarget }> {
  const active = s.connections.active(language)?.name;
  return notebook.getCells().flatMap((cell) => {
    if (cell.kind !== vscode.NotebookCellKind.Code || cell.document.languageId !== language) return [];
    const name = attributesOf(cell).connection ?? active;
    const target = foreignTarget(engineCell(cell), name === undefined ? undefined : s.connections.get(language, name));
    return target ? [{ cell, target }] : [];
  });
}

/** In one edit: each cell's URL made relative and the connection named in its fence line. Returns the connection. */
async function runAgainst(connection: string, cells: ReadonlyArray<{ cell: vscode.NotebookCell; target: ForeignTarget }>): Promise<string> {
  const edit = new vscode.WorkspaceEdit();
  for (const { cell, target } of cells) {
    const line = cell.document.lineAt(target.line);
    edit.replace(cell.document.uri, line.range, withRelativeTarget(line.text, { ...target, line: 0 }));
  }
  const notebook = cells[0]?.cell.notebook;
  if (notebook)
    edit.set(
      notebook.uri,
      cells.map(({ cell }) => vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, attributes: { ...attributesOf(cell), connection } })),
    );
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The cells could not be changed (is the notebook read-only?).');
  return connection;
}

/** The cell a status bar item or the palette means: the argument, or the active notebook's selected cell. */
function targetCell(arg: unknown): vscode.NotebookCell {
  if (typeof arg === 'object' && arg !== null && 'notebook' in arg && 'document' in arg && 'index' in arg) return arg as vscode.NotebookCell;
  const editor = vscode.window.activeNotebookEditor;
  if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) throw new Error('Select a cell of an API notebook (*.awb.md) first.');
  return editor.notebook.cellAt(editor.selection.start);
}

/** Rewrites one attribute of a cell's fence line (undefined removes it), keeping the others in order. */
async function setAttribute(cell: vscode.NotebookCell, key: string, value: string | undefined): Promise<void> {
  const attributes = attributesOf(cell);
  if (value === undefined) delete attributes[key];
  else attributes[key] = value;
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, attributes })]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The cell could not be changed (is the notebook read-only?).');
}

export function cellNameCommands(s: Services): CommandTable {
  return {
    /** `name`: set without asking (tests, links); '' removes the name. */
    'apiWorkbench.notebook.nameCell': async (arg?: unknown, name?: string) => {
      const cell = targetCell(arg);
      if (cell.kind !== vscode.NotebookCellKind.Code || cell.document.languageId === 'vars')
        throw new Error('Only request cells have names (a vars cell has an environment).');
      const taken = new Set(
        cell.notebook
          .getCells()
          .filter((c) => c !== cell)
          .map((c) => attributesOf(c).name),
      );
      const chosen =
        name ??
        (await vscode.window.showInputBox({
          title: 'Name of this cell',
          prompt: 'Other cells use its last result as {{name.json.…}}; empty removes the name',
          value: attributesOf(cell).name ?? '',
          validateInput: (v) =>
            v === ''
              ? undefined
              : !CELL_NAME.test(v)
                ? 'Use letters, digits, _ and -, starting with a letter'
                : taken.has(v)
                  ? `Another cell is named "${v}"`
                  : undefined,
        }));
      if (chosen === undefined) return undefined;
      if (chosen !== '' && (!CELL_NAME.test(chosen) || taken.has(chosen)))
        throw new Error(`"${chosen}" cannot name this cell: use a name no other cell has, of letters, digits, _ and -.`);
      await setAttribute(cell, 'name', chosen || undefined);
      return chosen || undefined;
    },
    /**
     * `name`: the connection to pin without asking; '' follows the active one again. `scope`: run this
     * cell ('cell') or every cell to a real host ('notebook') against the active connection, without asking.
     */
    'apiWorkbench.notebook.chooseCellConnection': async (arg?: unknown, name?: string, scopeArg?: RetargetScope) => {
      let scope = scopeArg;
      const cell = targetCell(arg);
      const language = cell.document.languageId;
      if (!isConnected(language)) throw new Error('Only llm, maps and realtime cells use a connection.');
      let chosen = name;
      const active = s.connections.active(language)?.name;
      const foreign = active !== undefined ? foreignCells(cell.notebook, language, s) : [];
      const here = foreign.find((f) => f.cell === cell);
      if (chosen === undefined) {
        const retarget: Array<vscode.QuickPickItem & { scope: RetargetScope }> = here
          ? [
              { label: `$(debug-start) Run against ${active}`, description: `${here.target.host} → ${here.target.relative}`, scope: 'cell' },
              ...(foreign.length > 1
                ? [
                    {
                      label: `$(run-all) Run all ${foreign.length} ${language} cells to real hosts against ${active}`,
                      description: 'paths made relative',
                      scope: 'notebook' as const,
                    },
                  ]
                : []),
            ]
          : [];
        const items: vscode.QuickPickItem[] = [
          ...retarget,
          { label: 'Active connection', description: active ? `now ${active}` : 'none yet' },
          ...s.connections.list(language).map((c) => ({ label: c.name, description: c.name === attributesOf(cell).connection ? 'pinned' : undefined })),
        ];
        const pick = await vscode.window.showQuickPick(items, { title: 'Connection of this cell', placeHolder: 'The cell is sent with this connection' });
        if (!pick) return undefined;
        if ('scope' in pick) scope = pick.scope as RetargetScope;
        else chosen = pick === items[retarget.length] ? '' : pick.label;
      }
      if (scope && active !== undefined) return runAgainst(active, scope === 'cell' ? foreign.filter((f) => f.cell === cell) : foreign);
      await setAttribute(cell, 'connection', chosen || undefined);
      return chosen || undefined;
    },
    /** `env`: set without asking; '' makes the vars cell apply in every environment. */
    'apiWorkbench.notebook.chooseCellEnvironment': async (arg?: unknown, env?: string) => {
      const cell = targetCell(arg);
      if (cell.document.languageId !== 'vars') throw new Error('Only vars cells belong to an environment.');
      let chosen = env;
      if (chosen === undefined) {
        const every = 'Every environment';
        const items = [every, ...declaredEnvironments(cell.notebook)].map((label) => ({ label }));
        const pick = await vscode.window.showQuickPick([...items, { label: 'New environment…' }], { title: 'Environment of this vars cell' });
        if (!pick) return undefined;
        chosen =
          pick.label === every
            ? ''
            : pick.label === 'New environment…'
              ? await vscode.window.showInputBox({
                  title: 'New environment',
                  prompt: 'e.g. staging',
                  validateInput: (v) => (CELL_NAME.test(v) ? undefined : 'Use letters, digits, _ and -'),
                })
              : pick.label;
        if (chosen === undefined) return undefined;
      }
      await setAttribute(cell, 'env', chosen || undefined);
      return chosen || undefined;
    },
  };
}
