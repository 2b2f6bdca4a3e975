// The API notebook feature (its own bundle, dist/notebook.js, loaded when an `*.awb.md` notebook
// opens or a notebook command runs): controller, environments, problems as diagnostics, the
// response viewer's messages and the notebook commands. The history's commands and notebook tests
// ride in the same bundle (`history` below) because they run the same engine: one copy in the .vsix.
import * as path from 'node:path';
import vscode from 'vscode';
import { errorText } from '../../core/errors';
import { validate } from '../../core/validate';
import { rendererMessageSchema, type HostMessage, type RendererMessage } from '../../webview/result/protocol';
import type { CommandTable } from '../commands';
import { NOTEBOOK_TYPE, RESULT_RENDERER_ID } from '../../features/ids';
import type { Services } from '../services';
import { NotebookRunController } from './controller';
import { runWithModels } from './runWithModels';
import { CurlCellActions, exportCommands } from './exportCommands';
import { copyAsCodeCommands } from './copyAsCode';
import { recordingCommands } from './recording';
import { importCommands } from './importCommands';
import { Environments, notebookOf } from './environments';
import { AwbSerializer, documentProblems } from './serializer';
import { AuthoringSources } from './authoring/sources';
import { registerAuthoring } from './authoring/providers';
import { CellStatusBar, cellNameCommands } from './authoring/cellNames';
import { newNotebook } from './authoring/newNotebook';
import { openUntitledNotebook } from './untitledNotebook';
import { notebookBaseName } from '../../features/notebook/notebookFileName';

/** The example notebook (examples/ in the extension; the repository's own copy at its root). */
const EXAMPLE_FILE = 'sandbox-tour.awb.md';

export { type FinishedCell } from './controller';
/** The playground's notebook-cell tools run on this bundle's engine (dist/llm.js requires it on first use). */
export { cellToolRunner } from '../../features/llm/playgroundCellTool';
export { editorNotebookHost } from '../notebookHost';
export { toolNotebookReader } from './toolNotebooks';
/** The agent tools (language-model tools) run on this bundle's engine and service clients. */
export { agentToolsFor } from '../agents/tools';
/** The chat-model provider's connection side (VS Code 1.104+ lists the LLM connections' models as chat models). */
export { chatModelBackendFor } from '../agents/chatModelBackend';
/** Copy as Code (the code generators, httpsnippet): the playground in dist/llm.js requires it from here on first use. */
export { copyCellCode } from '../codeCopy';
/** dist/notebook.js also carries the history module (see src/extension.ts). */
export * as history from '../history/index';

export interface NotebookFeature {
  serializer: AwbSerializer;
  controller: NotebookRunController;
  environments: Environments;
  /** Each code cell's name, connection and environment in its status bar. */
  cellStatus: CellStatusBar;
  commands: CommandTable;
  /** What the response viewer reported (newest last; for tests and diagnostics). */
  rendered: Array<Extract<RendererMessage, { type: 'rendered' }>>;
  /** Switches the response viewer to a tab ('body', 'headers', 'map', …) of every result, or of one. */
  showTab(tab: string, resultId?: string): Thenable<boolean>;
  disposables: vscode.Disposable[];
}

const PROBLEMS_DEBOUNCE_MS = 300;

export function activate(s: Services): NotebookFeature {
  const serializer = new AwbSerializer();
  const environments = new Environments(s.context.workspaceState);
  const controller = new NotebookRunController(s, environments);
  const diagnostics = vscode.languages.createDiagnosticCollection('api-workbench-notebook');
  const messaging = vscode.notebooks.createRendererMessaging(RESULT_RENDERER_ID);
  const rendered: NotebookFeature['rendered'] = [];

  const showProblems = (doc: vscode.NotebookDocument) => {
    if (doc.notebookType !== NOTEBOOK_TYPE) return;
    for (const cell of doc.getCells()) diagnostics.delete(cell.document.uri);
    const byCell = new Map<vscode.NotebookCell, vscode.Diagnostic[]>();
    for (const p of documentProblems(doc)) {
      const d = new vscode.Diagnostic(p.cell.document.lineAt(p.line).range, p.message, vscode.DiagnosticSeverity.Error);
      d.source = 'API notebook';
      byCell.set(p.cell, [...(byCell.get(p.cell) ?? []), d]);
    }
    for (const [cell, ds] of byCell) diagnostics.set(cell.document.uri, ds);
  };
  const pending = new Map<string, NodeJS.Timeout>();
  const scheduleProblems = (doc: vscode.NotebookDocument) => {
    clearTimeout(pending.get(doc.uri.toString()));
    pending.set(
      doc.uri.toString(),
      setTimeout(() => {
        showProblems(doc);
        // VS Code asks again for a cell's status items only when told: a cell whose URL was made
        // relative kept showing "not sent with Local Sandbox" after it had run there.
        cellStatus.refresh();
      }, PROBLEMS_DEBOUNCE_MS),
    );
  };
  vscode.workspace.notebookDocuments.forEach(showProblems);

  const commands: CommandTable = {
    ...importCommands(s, serializer),
    ...exportCommands(s, serializer),
    ...copyAsCodeCommands(s, controller),
    ...recordingCommands(s, controller),
    ...cellNameCommands(s),
    // `name`: given by a caller instead of asking (tests, other commands).
    'apiWorkbench.notebook.new': (name?: unknown) => newNotebook(typeof name === 'string' ? name : undefined),
    'apiWorkbench.notebook.openExample': async () => {
      // The workspace's own copy when it has one (saved earlier, or the repository's), not a second dirty one.
      const own = (await vscode.workspace.findFiles(`**/${EXAMPLE_FILE}`, '**/node_modules/**', 1))[0];
      // Else an unsaved copy named like the example: running or editing it never writes into the extension's folder.
      const file = vscode.Uri.file(path.join(s.context.extensionPath, 'examples', EXAMPLE_FILE));
      const doc = own
        ? await vscode.workspace.openNotebookDocument(own)
        : await openUntitledNotebook(serializer.deserializeNotebook(await vscode.workspace.fs.readFile(file)), notebookBaseName(EXAMPLE_FILE));
      await vscode.window.showNotebookDocument(doc);
      return doc;
    },
    'apiWorkbench.notebook.selectEnvironment': (target?: unknown, name?: string) => environments.pick(target, name),
    // `models`: given by a caller instead of asking (tests, other commands).
    'apiWorkbench.notebook.runWithModels': (_target?: unknown, models?: readonly string[]) => runWithModels(s, controller, models),
    'apiWorkbench.notebook.openWholeBody': async (target?: unknown) => {
      const resultId = resultIdOf(target, controller);
      if (!resultId) throw new Error('Select a notebook cell with a response first.');
      const body = controller.body(resultId);
      if (!body) throw new Error('That response is no longer kept in memory: run the cell again.');
      const doc = await vscode.workspace.openTextDocument({ language: body.json ? 'json' : 'plaintext', content: body.text });
      await vscode.window.showTextDocument(doc, { preview: false });
      return doc;
    },
  };

  // Completions, hover, definitions and diagnostics while a cell is typed (src/catalogue).
  const authoring = new AuthoringSources(s, controller, environments);
  const cellStatus = new CellStatusBar(s);

  const disposables: vscode.Disposable[] = [
    environments,
    controller,
    authoring,
    ...registerAuthoring(authoring),
    cellStatus,
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, cellStatus),
    s.connections.onDidChange(() => cellStatus.refresh()),
    diagnostics,
    vscode.languages.registerCodeActionsProvider({ notebookType: NOTEBOOK_TYPE }, new CurlCellActions(), { providedCodeActionKinds: CurlCellActions.kinds }),
    vscode.workspace.onDidOpenNotebookDocument(showProblems),
    vscode.workspace.onDidChangeNotebookDocument((e) => scheduleProblems(e.notebook)),
    vscode.workspace.onDidCloseNotebookDocument((doc) => doc.getCells().forEach((c) => diagnostics.delete(c.document.uri))),
    messaging.onDidReceiveMessage(({ message }) => {
      const v = validate(rendererMessageSchema, message);
      if (!v.ok) {
        s.log.warn(`Response viewer: ignored a malformed message (${v.problem})`);
        return;
      }
      if (v.value.type === 'openBody') void vscode.commands.executeCommand('apiWorkbench.notebook.openWholeBody', { resultId: v.value.resultId });
      else if (v.value.type === 'showOnMap') {
        const { title, markers, lines } = v.value;
        // The maps module owns the one map panel (and its tile settings): it loads on first use.
        vscode.commands
          .executeCommand('apiWorkbench.maps.showGeometry', { title, markers, lines })
          .then(undefined, (e: unknown) => s.log.warn(`Show on Map Panel: ${errorText(e)}`));
      } else {
        rendered.push(v.value);
        if (rendered.length > 200) rendered.splice(0, 100);
      }
    }),
    { dispose: () => pending.forEach((t) => clearTimeout(t)) },
  ];
  const showTab = (tab: string, resultId?: string) =>
    messaging.postMessage({ type: 'selectTab', tab, ...(resultId ? { resultId } : {}) } satisfies HostMessage);
  return { serializer, controller, environments, cellStatus, commands, rendered, showTab, disposables };
}

/** `{ resultId }` (the viewer's button), a cell (cell toolbar), or the active notebook's selected cell. */
function resultIdOf(target: unknown, controller: NotebookRunController): string | undefined {
  if (typeof target === 'object' && target !== null && typeof (target as { resultId?: unknown }).resultId === 'string')
    return (target as { resultId: string }).resultId;
  const editor = vscode.window.activeNotebookEditor;
  const cell = isCell(target) ? target : editor && notebookOf(editor.notebook.uri) ? editor.notebook.cellAt(editor.selection.start) : undefined;
  if (!cell) return undefined;
  const fromOutput = cell.outputs.map((o): unknown => o.metadata?.resultId).find((id): id is string => typeof id === 'string');
  return fromOutput ?? controller.resultOf(cell);
}

function isCell(v: unknown): v is vscode.NotebookCell {
  return typeof v === 'object' && v !== null && 'notebook' in v && 'document' in v && 'index' in v;
}
