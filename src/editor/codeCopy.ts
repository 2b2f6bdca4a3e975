// Copy as Code of one request, written as a notebook cell: a notebook's cell (Copy Cell as Code…)
// or a History entry (History › Copy as Code…). A quick pick of the languages it can be written in
// (the last one used first), then the code on the clipboard and in an editor beside. The code is
// written by src/features/codegen, loaded on first use; keys stay environment reads.
import vscode from 'vscode';
import { realtimeSecretVar } from '../core/connectionsFile';
import { keyEnvVar } from '../core/curl';
import type { HttpConnection } from '../core/connections';
import { notebookVariables, type ExportOptions, type ExportTarget, type KnownValue, type NotebookCellData } from '../notebook/api';
import type { CodeLanguage } from '../features/codegen';
import type { Services } from './services';

const LAST_LANGUAGE_KEY = 'apiWorkbench.copyAsCode.lastLanguage';

/** What Copy as Code returns (to tests and other callers). */
export interface CopiedCode {
  language: CodeLanguage;
  text: string;
  document: vscode.TextDocument;
}

/** A connection as the place its requests go in generated code, the key read from the variable Export for CI names. */
export function targetOf(service: 'llm' | 'maps', http: HttpConnection): ExportTarget {
  return {
    baseUrl: http.baseUrl,
    baseUrls: { ...http.baseUrls },
    auth: http.auth,
    envVar: keyEnvVar(service, http.auth, http.baseUrl),
    ...(http.azure ? { azure: { apiVersion: http.azure.apiVersion } } : {}),
  };
}

function targets(s: Services, cell: NotebookCellData): ExportOptions {
  const named = cell.metadata.attributes?.connection;
  const opts: ExportOptions = { redactor: s.redactor };
  for (const service of ['llm', 'maps'] as const) {
    const conn = named !== undefined && cell.language === service ? s.connections.get(service, named) : s.connections.active(service);
    if (conn && conn.service !== 'realtime') opts[service] = targetOf(service, conn);
  }
  return opts;
}

/**
 * Copy as Code of one cell (a notebook's, or a History entry's as a cell): the languages it can be
 * written in (the last one used first, unless `language` is given), then the code on the clipboard
 * and in an editor beside. `what` names it in the pick and messages ("cell 3", "the request").
 */
export async function copyCellCode(
  s: Services,
  data: NotebookCellData,
  context: { cells: readonly NotebookCellData[]; what: string; known?: KnownValue },
  language?: unknown,
): Promise<CopiedCode | undefined> {
  const codegen = await import('../features/codegen');
  const named = data.metadata.attributes?.connection;
  const rt = data.language === 'realtime' ? (named !== undefined ? s.connections.get('realtime', named) : s.connections.active('realtime')) : undefined;
  const opts = {
    targets: targets(s, data),
    vars: notebookVariables(context.cells),
    redactor: s.redactor,
    realtime: rt?.service === 'realtime' ? rt : undefined,
    realtimeSecretVar: rt?.service === 'realtime' ? realtimeSecretVar(s.connections.list('realtime'), rt) : undefined,
    known: context.known,
  };
  const offered = codegen.languagesForCell(data, opts);
  const What = context.what.charAt(0).toUpperCase() + context.what.slice(1);
  if (!offered.length) throw new Error(`${What} is not a request Copy as Code can write (a ${data.language} cell).`);
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
      { title: `Copy ${context.what} as Code`, placeHolder: 'The language to write the request in (keys are read from environment variables)' },
    );
    chosen = picked?.id;
  }
  if (!chosen) return undefined;
  if (!offered.includes(chosen)) throw new Error(`${What} cannot be written as ${codegen.codeLanguage(chosen).label}; pick one of: ${offered.join(', ')}.`);
  const text = await codegen.cellCode(data, chosen, opts);
  await s.context.globalState.update(LAST_LANGUAGE_KEY, chosen);
  await vscode.env.clipboard.writeText(text);
  const document = await vscode.workspace.openTextDocument({ language: codegen.codeLanguage(chosen).editorLanguage, content: text });
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  vscode.window.setStatusBarMessage(`$(clippy) Copied ${context.what} as ${codegen.codeLanguage(chosen).label}`, 5_000);
  return { language: chosen, text, document };
}
