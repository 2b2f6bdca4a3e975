// Every finding of a whole notebook file, located by file line: what `api-workbench check` prints.
// The cells' own diagnostics plus the notebook's (a fence never closed, two cells of one name).
import path from 'node:path';
import { cellStartLines, parseNotebook } from '../../notebook/api';
import type { SpecCatalogueCache } from '../specCatalogue';
import { notebookContext, type ContextSources } from './context';
import { cellDiagnostics } from './diagnostics';
import type { Diagnostic, Severity } from './types';

export interface NotebookFinding {
  /** 1-based line in the file. */
  line: number;
  /** 1-based column (1 for a whole line). */
  column: number;
  severity: Severity;
  message: string;
  code: string;
  cellIndex: number;
}

export function notebookDiagnostics(text: string, file: string, sources: ContextSources = {}): NotebookFinding[] {
  const parsed = parseNotebook(text, file);
  const starts = cellStartLines(parsed.cells);
  const ctx = notebookContext(parsed.cells, sources);
  const out: NotebookFinding[] = [];
  const at = (cellIndex: number, d: Diagnostic): NotebookFinding => ({
    // Line -1 is the fence, the file line the cell starts on; its text starts on the next.
    line: starts[cellIndex] + 1 + d.range.start.line,
    column: d.range.start.line < 0 ? 1 : d.range.start.col + 1,
    severity: d.severity,
    message: d.message,
    code: d.code,
    cellIndex,
  });
  parsed.cells.forEach((cell, index) => {
    if (cell.kind !== 'code') return;
    for (const d of cellDiagnostics({ index, language: cell.language, value: cell.value, attributes: cell.metadata.attributes ?? {} }, ctx))
      out.push(at(index, d));
  });
  // The parser's own problems that no cell reported (fence lines, duplicate names).
  for (const p of parsed.problems) {
    if (out.some((f) => f.line === p.line && f.message === p.message)) continue;
    out.push({ line: p.line, column: 1, severity: 'error', message: p.message, code: 'syntax', cellIndex: p.cellIndex });
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * `sources` that also answer for the OpenAPI document the notebook names, read first (from the
 * notebook's folder, through the file gate): `check` has time to wait, the editor does not.
 */
export async function withNotebookSpec(text: string, file: string, sources: ContextSources, specs: SpecCatalogueCache): Promise<ContextSources> {
  const folder = path.dirname(path.resolve(file));
  const spec = (ref: string) => specs.get(ref, folder);
  const named = notebookContext(parseNotebook(text, file).cells, { ...sources, spec }).spec;
  if (named) await specs.load(named.def.value, folder);
  return { ...sources, spec };
}
