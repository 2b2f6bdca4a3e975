import type { Cancel } from '../core/cancellation';
import type { NotebookCellData, NotebookRunner, NotebookRunReport, RunOptions } from './api';

/** A runner over a notebook's cells (the editor keeps one per open notebook). */
export function createRunner(cells: readonly NotebookCellData[], opts: RunOptions): NotebookRunner {
  void cells;
  void opts;
  throw new Error('not implemented');
}

/** Parses `text` and runs every code cell in order (the CLI). Parse problems fail the report. */
export function runNotebook(text: string, opts: RunOptions, cancel?: Cancel): Promise<NotebookRunReport> {
  void text;
  void opts;
  void cancel;
  throw new Error('not implemented');
}
