// The thin VS Code side of "cells that write themselves": completion, hover, definition and quick
// fix providers for the notebook's cell languages, and per-cell diagnostics while typing. All the
// knowledge is in src/catalogue; this file only converts positions and kinds.
import vscode from 'vscode';
import {
  cellCompletions,
  cellDefinition,
  cellDiagnostics,
  cellHover,
  type CellInput,
  type Completion,
  type CompletionKind,
  type Diagnostic,
  type Range,
  type Severity,
} from '../../../catalogue';
import { NOTEBOOK_LANGUAGES, NOTEBOOK_TYPE } from '../../../features/ids';
import type { AuthoringSources } from './sources';

const SELECTOR: vscode.DocumentSelector = NOTEBOOK_LANGUAGES.map((language) => ({ notebookType: NOTEBOOK_TYPE, language }));
/** Diagnostics of the edited cell wait for a pause in typing this long. */
export const AUTHORING_DEBOUNCE_MS = 250;
/** Characters after which suggestions open by themselves. */
const TRIGGERS = ['{', '.', '[', '"', ':', ',', ' ', '?'];

const KINDS: Record<CompletionKind, vscode.CompletionItemKind> = {
  method: vscode.CompletionItemKind.Keyword,
  path: vscode.CompletionItemKind.Reference,
  header: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
  field: vscode.CompletionItemKind.Field,
  variable: vscode.CompletionItemKind.Variable,
  cell: vscode.CompletionItemKind.Module,
  subject: vscode.CompletionItemKind.Keyword,
  operator: vscode.CompletionItemKind.Operator,
  verb: vscode.CompletionItemKind.Keyword,
  channel: vscode.CompletionItemKind.Constant,
  model: vscode.CompletionItemKind.EnumMember,
};

const SEVERITIES: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

/** The notebook cell a text document is, if it is one of an API notebook. */
function cellOf(doc: vscode.TextDocument): vscode.NotebookCell | undefined {
  for (const notebook of vscode.workspace.notebookDocuments) {
    if (notebook.notebookType !== NOTEBOOK_TYPE) continue;
    const cell = notebook.getCells().find((c) => c.document === doc);
    if (cell) return cell;
  }
  return undefined;
}

function inputOf(cell: vscode.NotebookCell): CellInput {
  return {
    index: cell.index,
    language: cell.document.languageId,
    value: cell.document.getText(),
    attributes: (cell.metadata as { attributes?: Record<string, string> }).attributes ?? {},
  };
}

/** A catalogue range in a cell's document (line -1, the hidden fence, shows on the first line). */
function toRange(r: Range, doc: vscode.TextDocument): vscode.Range {
  if (r.start.line < 0) return doc.lineCount ? doc.lineAt(0).range : new vscode.Range(0, 0, 0, 0);
  return new vscode.Range(r.start.line, r.start.col, r.end.line, r.end.col);
}

function toItem(c: Completion): vscode.CompletionItem {
  const item = new vscode.CompletionItem(c.label, KINDS[c.kind]);
  item.detail = c.detail;
  if (c.documentation) item.documentation = new vscode.MarkdownString(c.documentation);
  item.insertText = c.insertText ?? c.label;
  item.range = new vscode.Range(c.range.start.line, c.range.start.col, c.range.end.line, c.range.end.col);
  item.sortText = c.sortText;
  // The typed text may start with a quote or a brace the label lacks: filter on what replaces it.
  item.filterText = typeof item.insertText === 'string' ? item.insertText : c.label;
  return item;
}

export function registerAuthoring(sources: AuthoringSources): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('api-workbench-authoring');
  const fixes = new WeakMap<vscode.Diagnostic, Diagnostic>();
  const pending = new Map<string, NodeJS.Timeout>();

  const diagnose = (cell: vscode.NotebookCell) => {
    if (cell.kind !== vscode.NotebookCellKind.Code) return;
    const found = cellDiagnostics(inputOf(cell), sources.context(cell.notebook))
      // The parser's own problems are already shown by the notebook (src/editor/notebook/index.ts).
      .filter((d) => d.code !== 'syntax');
    diagnostics.set(
      cell.document.uri,
      found.map((d) => {
        const v = new vscode.Diagnostic(toRange(d.range, cell.document), d.message, SEVERITIES[d.severity]);
        v.source = 'API notebook';
        v.code = d.code;
        fixes.set(v, d);
        return v;
      }),
    );
  };
  const diagnoseNotebook = (notebook: vscode.NotebookDocument) => {
    if (notebook.notebookType === NOTEBOOK_TYPE) notebook.getCells().forEach(diagnose);
  };
  const schedule = (doc: vscode.TextDocument) => {
    const cell = cellOf(doc);
    if (!cell) return;
    const key = doc.uri.toString();
    clearTimeout(pending.get(key));
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        // A vars cell or a name changes what every other cell may refer to.
        if (doc.languageId === 'vars') diagnoseNotebook(cell.notebook);
        else diagnose(cell);
      }, AUTHORING_DEBOUNCE_MS),
    );
  };
  vscode.workspace.notebookDocuments.forEach(diagnoseNotebook);

  return [
    diagnostics,
    { dispose: () => pending.forEach((t) => clearTimeout(t)) },
    vscode.workspace.onDidOpenNotebookDocument(diagnoseNotebook),
    // The notebook's OpenAPI document, read in the background, changes what its http cells may say.
    sources.onDidLoadSpec(() => vscode.workspace.notebookDocuments.forEach(diagnoseNotebook)),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && schedule(e.document)),
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      // Cells added or removed, or a fence line rewritten (name=, connection=): every cell may change.
      if (e.contentChanges.length || e.cellChanges.some((c) => c.metadata)) diagnoseNotebook(e.notebook);
    }),
    vscode.workspace.onDidCloseNotebookDocument((doc) => doc.getCells().forEach((c) => diagnostics.delete(c.document.uri))),
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems(doc, position) {
          const cell = cellOf(doc);
          if (!cell) return undefined;
          return cellCompletions(inputOf(cell), doc.offsetAt(position), sources.context(cell.notebook)).map(toItem);
        },
      },
      ...TRIGGERS,
    ),
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover(doc, position) {
        const cell = cellOf(doc);
        const hover = cell && cellHover(inputOf(cell), doc.offsetAt(position), sources.context(cell.notebook));
        return hover ? new vscode.Hover(new vscode.MarkdownString(hover.lines.join('\n\n')), toRange(hover.range, doc)) : undefined;
      },
    }),
    vscode.languages.registerDefinitionProvider(SELECTOR, {
      provideDefinition(doc, position) {
        const cell = cellOf(doc);
        const def = cell && cellDefinition(inputOf(cell), doc.offsetAt(position), sources.context(cell.notebook));
        if (!cell || !def) return undefined;
        const target = cell.notebook.cellAt(def.cellIndex);
        return new vscode.Location(target.document.uri, toRange(def.range, target.document));
      },
    }),
    vscode.languages.registerCodeActionsProvider(
      SELECTOR,
      {
        provideCodeActions(doc, _range, context) {
          const cell = cellOf(doc);
          if (!cell) return [];
          return context.diagnostics.flatMap((v) =>
            (fixes.get(v)?.fixes ?? []).map((fix) => {
              const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
              const target = cell.notebook.cellAt(fix.cellIndex).document;
              action.edit = new vscode.WorkspaceEdit();
              action.edit.replace(target.uri, toRange(fix.edit.range, target), fix.edit.newText);
              action.diagnostics = [v];
              action.isPreferred = true;
              return action;
            }),
          );
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  ];
}
