// "Copy as Code…" on an llm, maps, realtime or http cell (../codeCopy.ts writes it).
// "Export Notebook as Code…": the whole notebook as one program (Python or JavaScript, plain or
// SDK) in an editor beside. The code is written by src/features/codegen, loaded on first use; keys
// stay environment reads.
import vscode from 'vscode';
import { connectionId } from '../../core/connections';
import { realtimeSecretVar } from '../../core/connectionsFile';
import { partOf, serializeNotebook, type ExportOptions, type ExportTarget } from '../../notebook/api';
import type { ProgramFormat } from '../../features/codegen/notebookProgram';
import { NOTEBOOK_TYPE } from '../../features/ids';
import { copyCellCode, targetOf, type CopiedCode } from '../codeCopy';
import type { CommandTable } from '../commands';
import type { Services } from '../services';
import type { NotebookRunController } from './controller';
import { notebookOf } from './environments';
import { engineCells } from './serializer';

const LAST_PROGRAM_KEY = 'apiWorkbench.exportAsCode.lastFormat';

export type { CopiedCode };

/** What Export Notebook as Code… returns (to tests and other callers). */
export interface ExportedProgram {
  format: ProgramFormat;
  text: string;
  /** The cells the program leaves out, each with why. */
  skipped: string[];
  document: vscode.TextDocument;
}

function isCell(v: unknown): v is vscode.NotebookCell {
  return typeof v === 'object' && v !== null && 'notebook' in v && 'document' in v && 'index' in v;
}

function cellOf(target: unknown): vscode.NotebookCell | undefined {
  if (isCell(target)) return target;
  const editor = vscode.window.activeNotebookEditor;
  return editor && editor.notebook.notebookType === NOTEBOOK_TYPE && editor.notebook.cellCount > 0 ? editor.notebook.cellAt(editor.selection.start) : undefined;
}

/** A whole notebook's targets: the active connection of each service, and every other one for cells that name theirs. */
function notebookTargets(s: Services): ExportOptions {
  const opts: ExportOptions = { redactor: s.redactor };
  const named = new Map<string, ExportTarget>();
  for (const service of ['llm', 'maps'] as const) {
    for (const conn of s.connections.list(service)) if (conn.service !== 'realtime') named.set(connectionId(conn), targetOf(service, conn));
    const active = s.connections.active(service);
    if (active && active.service !== 'realtime') opts[service] = targetOf(service, active);
  }
  return { ...opts, connections: named };
}

export function copyAsCodeCommands(s: Services, controller: NotebookRunController): CommandTable {
  return {
    // `language`: given by a caller instead of asking (tests, other commands).
    'apiWorkbench.notebook.copyCellAsCode': async (target?: unknown, language?: unknown): Promise<CopiedCode | undefined> => {
      const cell = cellOf(target);
      if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE || cell.kind !== vscode.NotebookCellKind.Code)
        throw new Error('Select a request cell of an API notebook first (llm, maps, realtime or http).');
      const cells = engineCells(cell.notebook);
      // What an earlier cell answered in this window's runs: its value, not a variable to set.
      const known = (expr: string) => {
        const dot = expr.search(/[.[]/);
        const result = dot > 0 ? controller.lastResult(cell.notebook, expr.slice(0, dot)) : undefined;
        const value = result && partOf(result, expr.slice(dot));
        return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
      };
      return copyCellCode(s, cells[cell.index], { cells, what: `cell ${cell.index + 1}`, known }, language);
    },
    // `format`: given by a caller instead of asking (tests, other commands).
    'apiWorkbench.notebook.exportAsCode': async (target?: unknown, format?: unknown): Promise<ExportedProgram | undefined> => {
      const doc = notebookOf(target) ?? vscode.window.activeNotebookEditor?.notebook;
      if (!doc || doc.notebookType !== NOTEBOOK_TYPE) throw new Error('Open an API notebook (*.awb.md) first.');
      const [{ codeLanguage }, { notebookProgram, PROGRAM_FORMATS, PROGRAM_NEEDS }] = await Promise.all([
        import('../../features/codegen'),
        import('../../features/codegen/notebookProgram'),
      ]);
      const last = s.context.globalState.get<string>(LAST_PROGRAM_KEY);
      let chosen = PROGRAM_FORMATS.find((f) => f === format);
      if (!chosen) {
        const ordered = [...PROGRAM_FORMATS].sort((a, b) => Number(b === last) - Number(a === last));
        const picked = await vscode.window.showQuickPick(
          ordered.map((id) => ({
            label: codeLanguage(id).label,
            description: id === last ? 'last used' : undefined,
            detail: `Needs ${PROGRAM_NEEDS[id]}`,
            id,
          })),
          {
            title: 'Export Notebook as Code',
            placeHolder: 'One program that runs the cells in order and exits non-zero when a ?? check fails (keys are read from environment variables)',
          },
        );
        chosen = picked?.id;
      }
      if (!chosen) return undefined;
      const realtime = s.connections.active('realtime');
      const program = notebookProgram(serializeNotebook({ cells: engineCells(doc), metadata: {} }), chosen, {
        targets: notebookTargets(s),
        realtime: realtime?.service === 'realtime' ? realtime : undefined,
        realtimeSecretVar: realtime?.service === 'realtime' ? realtimeSecretVar(s.connections.list('realtime'), realtime) : undefined,
        redactor: s.redactor,
      });
      await s.context.globalState.update(LAST_PROGRAM_KEY, chosen);
      const document = await vscode.workspace.openTextDocument({ language: codeLanguage(chosen).editorLanguage, content: program.code });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
      const skipped = program.skipped.length ? `; ${program.skipped.length} cell(s) skipped, each says why in the code` : '';
      vscode.window.setStatusBarMessage(`$(code) Exported the notebook as ${codeLanguage(chosen).label}${skipped}`, 8_000);
      return { format: chosen, text: program.code, skipped: program.skipped, document };
    },
  };
}
