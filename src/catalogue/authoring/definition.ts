// Go to definition: from `{{city}}` to its line in a vars cell, from `{{models.…}}` to that cell.
import { cellLayout, positionAt, range, references } from './cellLayout';
import { resolveReference } from './resolve';
import type { AuthoringContext, CellInput, Definition } from './types';

export function cellDefinition(cell: CellInput, offset: number, ctx: AuthoringContext): Definition | undefined {
  const pos = positionAt(cell.value, offset);
  const ref = references(cellLayout(cell.value, cell.language).lines).find((r) => r.line === pos.line && r.start <= pos.col && pos.col <= r.end);
  if (!ref) return undefined;
  const r = resolveReference(ref.ref, ctx);
  if (r.kind === 'variable') return { cellIndex: r.def.cellIndex, range: range(r.def.line, 0) };
  if (r.kind === 'cell' || r.kind === 'cellWithoutPart') return { cellIndex: r.cell.cellIndex, range: range(0, 0) };
  return undefined;
}
