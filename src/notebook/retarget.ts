// A service cell that names a real host (an imported `GET https://api.openai.com/v1/models`) is never
// sent with a connection to another host, such as the sandbox: its key only goes to its own origin.
// This finds such cells and rewrites the request line relative to the service's API base
// (`GET /models`), so the cell runs with whichever connection it is given.
import { connectionOrigins, type Connection, type ServiceId } from '../core/connections';
import { analyseCell } from './cells';
import { classify } from './import/classify';
import type { NotebookCellData } from './types';

export interface ForeignTarget {
  service: ServiceId;
  /** The host the cell names, e.g. api.openai.com. */
  host: string;
  /** The URL as written in the cell. */
  absolute: string;
  /** The same request relative to the service's API base, e.g. `/models`. */
  relative: string;
  /** 0-based line of the request in the cell's text. */
  line: number;
}

/**
 * The absolute URL of an llm or maps cell that `connection` would refuse to send its key to, with
 * its path relative to the service's API base; undefined for a relative cell, one the connection
 * serves, or a URL outside the service's API (nothing to rewrite it to).
 */
export function foreignTarget(cell: NotebookCellData, connection: Connection | undefined): ForeignTarget | undefined {
  if (cell.kind !== 'code' || (cell.language !== 'llm' && cell.language !== 'maps')) return undefined;
  const spec = analyseCell(cell, 0).spec;
  if (spec?.kind !== 'http' || !/^https?:\/\//i.test(spec.target)) return undefined;
  let url: URL;
  try {
    url = new URL(spec.target);
  } catch {
    return undefined;
  }
  if (connection && connectionOrigins(connection).includes(url.origin)) return undefined;
  const target = classify(url, []);
  if (target.kind !== 'service' || target.service !== cell.language) return undefined;
  // The base (origin and API path, e.g. https://api.openai.com/v1) is plain ASCII, as written.
  const base = url.href.slice(0, target.baseLength);
  if (spec.target.slice(0, base.length).toLowerCase() !== base.toLowerCase()) return undefined;
  const rest = spec.target.slice(base.length);
  const relative = rest.startsWith('/') ? rest : `/${rest}`;
  return { service: target.service, host: url.host, absolute: spec.target, relative, line: spec.line - 1 };
}

/** The cell's text with the request line's absolute URL replaced by its relative path. */
export function withRelativeTarget(value: string, t: ForeignTarget): string {
  const lines = value.split(/(\r\n|\r|\n)/);
  // split with a capture group keeps the line ends at odd indexes: line n is at 2n.
  const at = t.line * 2;
  lines[at] = lines[at].replace(t.absolute, t.relative);
  return lines.join('');
}
