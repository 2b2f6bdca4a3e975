// A user-defined playground tool that answers by running a named cell of an API notebook. The
// model's arguments become the cell's variables (`{{args.city}}`, `{{args}}` for all of them as
// JSON), the cell runs through the engine with the front end's NotebookHost (so keys come only from
// connections and the host's rules, origin approval and restricted mode, apply), and the cell's
// result is what the model is told. No vscode import: the editor hands in how a notebook is read.
import { createRunner, type CellResult, type NotebookCellData, type NotebookHost } from '../../notebook/api';
import type { ToolCell } from '../../services/llm/playgroundMessages';
import { errorText } from '../../core/errors';

/** What a cell tool tells the model and the user. */
export interface CellToolOutcome {
  ok: boolean;
  /** JSON text: the cell's JSON result (or its text as a JSON string), or `{ error }`. */
  result: string;
  ranOn: string;
}

/** A notebook as the tool runs it: as the user sees it now (unsaved edits included), in its environment. */
export interface ToolNotebook {
  /** The file name, for messages. */
  file: string;
  cells: NotebookCellData[];
  /** The notebook's active environment (its `vars env=…` cells apply), if one is chosen. */
  environment?: string;
}

export interface CellToolOptions {
  host: NotebookHost;
  /** Throws when the notebook cannot be read. */
  readNotebook(path: string): Promise<ToolNotebook>;
}

export type CellToolRunner = (cell: ToolCell, args: Record<string, unknown>) => Promise<CellToolOutcome>;

/** `{ city: "Lisbon", stops: ["a"] }` -> `args` (all, JSON), `args.city`, `args.stops`, `args.stops[0]`. */
export function argumentVariables(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = { args: JSON.stringify(args) };
  const add = (path: string, value: unknown): void => {
    out[path] = typeof value === 'string' ? value : JSON.stringify(value);
    if (Array.isArray(value)) value.forEach((v, i) => add(`${path}[${i}]`, v));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${path}.${k}`, v);
  };
  for (const [k, v] of Object.entries(args)) add(`args.${k}`, v);
  return out;
}

export function cellToolRunner(opts: CellToolOptions): CellToolRunner {
  return async (cell, args) => {
    const where = `cell "${cell.name}" of ${cell.notebook}`;
    const fail = (message: string, ranOn = `Notebook cell ${cell.name}`): CellToolOutcome => ({ ok: false, result: JSON.stringify({ error: message }), ranOn });
    let notebook: ToolNotebook;
    try {
      notebook = await opts.readNotebook(cell.notebook);
    } catch (e) {
      return fail(`the notebook ${cell.notebook} could not be read: ${errorText(e)}`);
    }
    const cells = notebook.cells;
    const index = cells.findIndex((c) => c.kind === 'code' && c.metadata.attributes?.name === cell.name);
    if (index < 0) {
      const names = cells.flatMap((c) => (c.kind === 'code' && c.metadata.attributes?.name ? [c.metadata.attributes.name] : []));
      return fail(
        `${notebook.file} has no cell named "${cell.name}" (${names.length ? `its named cells: ${names.join(', ')}` : "it has no named cells: add name=… to the cell's fence"}).`,
      );
    }
    const runner = createRunner(cells, { host: opts.host, file: notebook.file, variables: argumentVariables(args), environment: notebook.environment });
    let result: CellResult;
    try {
      result = await runner.runCell(index);
    } catch (e) {
      return fail(`${where} could not run: ${errorText(e)}`);
    } finally {
      runner.dispose();
    }
    const ranOn = `Notebook cell ${cell.name}${result.connection ? ` · ${result.connection}` : ''}`;
    if (!result.ok) return fail(`${where} failed: ${whyFailed(result)}`, ranOn);
    const res = result.response;
    const value: unknown = res?.json !== undefined ? res.json : (res?.text ?? (result.variables ? result.variables : null));
    return { ok: true, result: JSON.stringify(value), ranOn };
  };
}

function whyFailed(r: CellResult): string {
  if (r.error) return r.error;
  const broken = r.assertions.filter((a) => !a.passed).map((a) => `${a.source} (found ${a.actual})`);
  if (broken.length) return `assertions failed: ${broken.join('; ')}`;
  const body = r.response?.text ? `: ${r.response.text.slice(0, 300)}` : '';
  return r.response ? `HTTP ${r.response.status}${body}` : 'it did not run';
}
