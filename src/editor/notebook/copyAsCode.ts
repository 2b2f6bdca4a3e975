// "Copy as Code…" on an llm, maps, realtime or http cell: a quick pick of the languages the cell can
// be written in (the last one used first), then the code on the clipboard and in an editor beside.
// The code is written by src/features/codegen, loaded on first use; keys stay environment reads.
import * as vscode from 'vscode';
import { keyEnvVar } from '../../core/curl';
import { notebookVariables, partOf, type ExportOptions, type NotebookCellData } from '../../notebook/api';
import type { CodeLanguage } from '../../features/codegen';
import { NOTEBOOK_TYPE } from '../../features/ids';
import type { CommandTable } from '../commands';
import type { Services } from '../services';
import type { NotebookRunController } from './controller';
import { engineCells } from './serializer';

const LAST_LANGUAGE_KEY = 'apiWorkbench.copyAsCode.lastLanguage';

/** What the command returns (to tests and other callers). */
export interface CopiedCode {
  language: CodeLanguage;
  text: string;
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

function targets(s: Services, cell: NotebookCellData): ExportOptions {
  const named = cell.metadata.attributes?.connection;
  const opts: ExportOptions = { redactor: s.redactor };
  for (const service of ['llm', 'maps'] as const) {
    const conn = named !== undefined && cell.language === service ? s.connections.get(service, named) : s.connections.active(service);
    if (conn && conn.service !== 'realtime') {
      const http = conn;
      opts[service] = {
        baseUrl: http.baseUrl,
        baseUrls: { ...http.baseUrls },
        auth: http.auth,
        envVar: keyEnvVar(service, http.auth, http.baseUrl),
        ...(http.azure ? { azure: { apiVersion: http.azure.apiVersion } } : {}),
      };
    }
  }
  return opts;
}

export function copyAsCodeCommands(s: Services, controller: NotebookRunController): CommandTable {
  return {
    // `language`: given by a caller instead of asking (tests, other commands).
    'apiWorkbench.notebook.copyCellAsCode': async (target?: unknown, language?: unknown): Promise<CopiedCode | undefined> => {
      const cell = cellOf(target);
      if (!cell || cell.notebook.notebookType !== NOTEBOOK_TYPE || cell.kind !== vscode.NotebookCellKind.Code)
        throw new Error('Select a request cell of an API notebook first (llm, maps, realtime or http).');
      const codegen = await import('../../features/codegen');
      const cells = engineCells(cell.notebook);
      const data = cells[cell.index];
      const named = data.metadata.attributes?.connection;
      const rt = data.language === 'realtime' ? (named !== undefined ? s.connections.get('realtime', named) : s.connections.active('realtime')) : undefined;
      const opts = {
        targets: targets(s, data),
        vars: notebookVariables(cells),
        redactor: s.redactor,
        realtime: rt?.service === 'realtime' ? rt : undefined,
        // What an earlier cell answered in this window's runs: its value, not a variable to set.
        known: (expr: string) => {
          const dot = expr.search(/[.[]/);
          const result = dot > 0 ? controller.lastResult(cell.notebook, expr.slice(0, dot)) : undefined;
          const value = result && partOf(result, expr.slice(dot));
          return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
        },
      };
      const offered = codegen.languagesForCell(data, opts);
      if (!offered.length) throw new Error(`Cell ${cell.index + 1} is not a request Copy as Code can write (a ${data.language} cell).`);
      const last = s.context.globalState.get<string>(LAST_LANGUAGE_KEY);
      let chosen: CodeLanguage | undefined;
      if (typeof language === 'string' && codegen.isCodeLanguage(language)) chosen = language;
      else {
        const ordered = [...offered].sort((a, b) => Number(b === last) - Number(a === last));
        const picked = await vscode.window.showQuickPick(
          ordered.map((id) => {
            const info = codegen.codeLanguage(id);
            return { label: info.label, description: id === last ? 'last used' : undefined, detail: `Needs ${info.needs}`, id };
          }),
          { title: `Copy cell ${cell.index + 1} as Code`, placeHolder: 'The language to write the request in (keys are read from environment variables)' },
        );
        chosen = picked?.id;
      }
      if (!chosen) return undefined;
      if (!offered.includes(chosen))
        throw new Error(`Cell ${cell.index + 1} cannot be written as ${codegen.codeLanguage(chosen).label}; pick one of: ${offered.join(', ')}.`);
      const text = await codegen.cellCode(data, chosen, opts);
      await s.context.globalState.update(LAST_LANGUAGE_KEY, chosen);
      await vscode.env.clipboard.writeText(text);
      const document = await vscode.workspace.openTextDocument({ language: codegen.codeLanguage(chosen).editorLanguage, content: text });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
      vscode.window.setStatusBarMessage(`$(clippy) Copied cell ${cell.index + 1} as ${codegen.codeLanguage(chosen).label}`, 5_000);
      return { language: chosen, text, document };
    },
  };
}
