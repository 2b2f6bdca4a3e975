// A pasted cURL command → a one-cell notebook (or the cell alone, for "Paste cURL as Cell").
import { convertRequest, type Piece } from './convert';
import { parseCurl } from './curl';
import type { ImportOptions, ImportResult } from './types';
import { writeNotebook } from './write';

/** The cells a curl command becomes (one, or one per channel of a Pusher publish), and what was moved. */
export function curlToPieces(text: string, opts: ImportOptions = {}): { pieces: Piece[]; secrets: ImportResult['secrets']; report: string[] } {
  const source = opts.source ?? 'curl';
  const { request, basicAuth, ignored } = parseCurl(text, source);
  const report: string[] = [];
  const secrets: ImportResult['secrets'] = [];
  if (basicAuth !== undefined) request.headers.push(['Authorization', `Basic ${basicAuth}`]);
  if (ignored.length) report.push(`curl options not carried over: ${ignored.map((o) => o.split(' ')[0]).join(' ')}`);
  const pieces = convertRequest(request, { connections: opts.connections ?? [], secrets, report, expand: (t) => t }, 'the curl command');
  return { pieces, secrets, report };
}

/** A curl command as a new notebook. */
export function importCurl(text: string, opts: ImportOptions = {}): ImportResult {
  const { pieces, secrets, report } = curlToPieces(text, opts);
  return writeNotebook(pieces, secrets, report);
}
