// What "N passed, N failed" counts, the one rule for every front end that says it
// (`api-workbench run`, the run_notebook agent tool).
import type { CellResult } from './types';

/** Counted in "N passed, N failed": request cells, plus a vars cell that failed. Skipped ones are not. */
export function countsAsCell(r: CellResult): boolean {
  return !r.skipped && (r.service !== 'vars' || !r.ok);
}
