// Cells with a cursor written as `¦`, and a notebook context around them, for the authoring tests.
import type { CellResult, NotebookCellData } from '../../../src/notebook/api';
import { notebookContext, type AuthoringContext, type CellInput, type ContextSources } from '../../../src/catalogue';

export const CURSOR = '¦';

/** The cell (without the cursor mark) and the cursor's offset. */
export function at(language: string, text: string, attributes: Record<string, string> = {}, index = 1): { cell: CellInput; offset: number } {
  const offset = text.indexOf(CURSOR);
  if (offset === -1) throw new Error('the test text has no cursor mark');
  return { cell: { index, language, value: text.replace(CURSOR, ''), attributes }, offset };
}

export function code(language: string, value: string, attributes: Record<string, string> = {}): NotebookCellData {
  return { kind: 'code', language, value, metadata: { attributes } };
}

/** A result as the engine keeps it for a named cell. */
export function result(json: unknown, headers: Record<string, string> = {}): CellResult {
  return {
    file: 'n.awb.md',
    cellIndex: 0,
    line: 1,
    service: 'llm',
    startedAt: '2026-01-01T00:00:00Z',
    ok: true,
    assertions: [],
    durationMs: 5,
    response: { status: 200, headers, text: JSON.stringify(json), json, size: 10, truncated: false, durationMs: 5 },
  };
}

/** vars cell 0 (city, question), a named llm cell `models` (1) and maps cell `place` (2), with results. */
export function context(sources: ContextSources = {}): AuthoringContext {
  const cells = [
    code('vars', 'city = Lisbon\nquestion = What to see in'),
    code('llm', 'GET /models', { name: 'models' }),
    code('maps', 'POST /v1/places:searchText\nX-Goog-FieldMask: places.id\n\n{"textQuery": "x"}', { name: 'place' }),
  ];
  const results: Record<string, CellResult> = {
    models: result({ object: 'list', data: [{ id: 'sandbox-chat' }, { id: 'gpt-4o-mini' }] }, { 'x-request-id': 'r1' }),
  };
  return notebookContext(cells, { result: (n) => results[n], ...sources });
}
