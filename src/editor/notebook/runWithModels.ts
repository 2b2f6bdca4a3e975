// "Run with Models…": the editor's `--matrix model=…`. The user picks models of the active LLM
// connection; the notebook runs once per model with {{model}} set (on runners of their own, so the
// cells' outputs stay), and a table of checks × models (pass/fail, latency, tokens, cost) opens.
import * as path from 'node:path';
import vscode from 'vscode';
import { matrixTable } from '../../features/notebook/matrixTable';
import type { NotebookRunView } from '../../features/notebook/checkRows';
import { llmClient } from '../../features/llm/clients';
import { compareSelection } from '../../features/llm/compareRun';
import { modelPickItems } from '../modelPicks';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { CellResult } from '../../notebook/api';
import type { Services } from '../services';
import type { NotebookRunController } from './controller';
import { showReport } from '../reportDocuments';

export interface ModelsRun {
  runs: NotebookRunView[];
  /** The table as shown. */
  text: string;
  document: vscode.TextDocument;
}

/** Characters the table is kept within (check names shortened): an editor beside the notebook shows about this many. */
const TABLE_WIDTH = 100;

/** What the table counts: request cells, and a vars cell that failed; not skipped ones. */
const counts = (r: CellResult) => !r.skipped && (r.service !== 'vars' || !r.ok);

/** Run with Models is for chat cells: chat models only, two pre-selected (as Compare ticks them). */
async function pickModels(s: Services): Promise<string[] | undefined> {
  const conn = s.connections.active('llm');
  if (!conn || conn.service !== 'llm') throw new Error('No language-model connection: add one (API Workbench: Connect…) or start the Local Sandbox.');
  const models = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Listing the models of ${conn.name}…` }, () =>
    llmClient(s, conn).listModels(),
  );
  const picked = await vscode.window.showQuickPick(modelPickItems(models, ['chat'], { picked: compareSelection(models, []) }), {
    canPickMany: true,
    title: 'Run with Models',
    placeHolder: `Models of ${conn.name} to run the notebook with ({{model}} is set to each)`,
  });
  return picked?.flatMap((p) => p.model ?? []);
}

/** `models`: given by a caller (tests, other commands) instead of asking. */
export async function runWithModels(s: Services, controller: NotebookRunController, models?: readonly string[]): Promise<ModelsRun | undefined> {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  if (!notebook || notebook.notebookType !== NOTEBOOK_TYPE) throw new Error('Open an API notebook (*.awb.md) first, then Run with Models.');
  if (!notebook.getCells().some((c) => c.document.getText().includes('{{model}}')))
    throw new Error('No cell of this notebook uses {{model}}: write "model": "{{model}}" in a request body, then Run with Models.');
  const chosen = models ?? (await pickModels(s));
  if (!chosen || chosen.length === 0) return undefined;
  const file = notebook.uri.scheme === 'file' ? notebook.uri.fsPath : notebook.uri.toString();
  const runs = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Run with Models', cancellable: true },
    async (progress, token) => {
      const out: NotebookRunView[] = [];
      for (const [i, model] of chosen.entries()) {
        if (token.isCancellationRequested) break;
        progress.report({ message: `${model} (${i + 1} of ${chosen.length})`, increment: 100 / chosen.length });
        const results = await controller.runWith(notebook, { model }, token);
        out.push({ file, name: `${path.basename(file)} [model=${model}]`, matrix: { model }, cells: results.filter(counts) });
      }
      return out;
    },
  );
  const text = [`${path.basename(file)}: checks × models`, ...matrixTable({ suites: runs }, { maxWidth: TABLE_WIDTH })].join('\n') + '\n';
  // Full width: the table has a column per model.
  const document = await showReport(`${path.basename(file)} checks × models`, 'txt', s.redactor.text(text), { viewColumn: vscode.ViewColumn.Active });
  return { runs, text: document.getText(), document };
}
