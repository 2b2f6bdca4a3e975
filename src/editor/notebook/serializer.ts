// `*.awb.md` <-> VS Code notebook cells through the engine's format (byte-stable round trip).
// Cell metadata carries the engine's CellMetadata untouched: VS Code hands it back on save, which
// is how an unchanged cell is written back byte for byte. Outputs never go into the file.
import vscode from 'vscode';
import { cellStartLines, notebookProblems, parseNotebook, serializeNotebook, type NotebookCellData, type NotebookProblem } from '../../notebook/api';

/** Keeps a leading BOM in the text, so it is written back too. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

export const SERIALIZER_OPTIONS: vscode.NotebookDocumentContentOptions = { transientOutputs: true };

export class AwbSerializer implements vscode.NotebookSerializer {
  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    const parsed = parseNotebook(decoder.decode(content));
    const data = new vscode.NotebookData(parsed.cells.map(toVsCell));
    data.metadata = { ...parsed.metadata };
    return data;
  }

  serializeNotebook(data: vscode.NotebookData): Uint8Array {
    return encoder.encode(serializeNotebook({ cells: data.cells.map(fromVsCell), metadata: data.metadata ?? {} }));
  }
}

export function toVsCell(cell: NotebookCellData): vscode.NotebookCellData {
  const kind = cell.kind === 'markup' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
  const c = new vscode.NotebookCellData(kind, cell.value, cell.language);
  c.metadata = cell.metadata;
  return c;
}

export function fromVsCell(cell: vscode.NotebookCellData): NotebookCellData {
  const code = cell.kind === vscode.NotebookCellKind.Code;
  return { kind: code ? 'code' : 'markup', language: code ? cell.languageId : 'markdown', value: cell.value, metadata: cell.metadata ?? {} };
}

/** The engine's view of an open document's cells (what the runner is given after each edit). */
export function engineCells(doc: vscode.NotebookDocument): NotebookCellData[] {
  return doc.getCells().map((c) => {
    const code = c.kind === vscode.NotebookCellKind.Code;
    return { kind: code ? 'code' : 'markup', language: code ? c.document.languageId : 'markdown', value: c.document.getText(), metadata: c.metadata };
  });
}

/**
 * The parse problems of a document as it is now, each placed in its cell: `line` is 0-based in the
 * cell's text (a code cell's text starts on the line after its opening fence).
 */
export function documentProblems(doc: vscode.NotebookDocument): Array<{ cell: vscode.NotebookCell; line: number; message: string }> {
  const cells = engineCells(doc);
  const starts = cellStartLines(cells);
  return notebookProblems(cells, doc.uri.toString()).flatMap((p: NotebookProblem) => {
    const cell = p.cellIndex < doc.cellCount ? doc.cellAt(p.cellIndex) : undefined;
    if (!cell) return [];
    const offset = cells[p.cellIndex].kind === 'code' ? 1 : 0;
    const line = Math.max(0, Math.min(p.line - starts[p.cellIndex] - offset, cell.document.lineCount - 1));
    return [{ cell, line, message: p.message }];
  });
}
