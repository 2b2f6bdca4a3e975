// A pasted cURL command → a one-cell notebook (or the cell alone, for "Paste cURL as Cell").
import { isPlaceholder } from './credentials';
import { convertRequest, keepAsBlock, type Piece } from './convert';
import { parseCurl } from './curl';
import type { ImportOptions, ImportResult } from './types';
import { writeNotebook } from './write';

/** The cells a curl command becomes (one, or one per channel of a Pusher publish), and what was moved. */
export function curlToPieces(text: string, opts: ImportOptions = {}): { pieces: Piece[]; secrets: ImportResult['secrets']; report: string[] } {
  const source = opts.source ?? 'curl';
  const { request, basicAuth, ignored, bodyFile } = parseCurl(text, source);
  const report: string[] = [];
  const secrets: ImportResult['secrets'] = [];
  // As curl sends it (base64), so an http cell can send the stored secret as it is; `$USER:$PASS` stays readable.
  if (basicAuth !== undefined)
    request.headers.push(['Authorization', `Basic ${isPlaceholder(basicAuth) ? basicAuth : Buffer.from(basicAuth, 'utf8').toString('base64')}`]);
  // An option's value is never shown (--proxy-user holds a password); entries that explain themselves end in "(…)".
  if (ignored.length) report.push(`not carried over from the curl command: ${ignored.map((o) => (/\)$/.test(o) ? o : o.split(' ')[0])).join(', ')}`);
  const ctx = { connections: opts.connections ?? [], secrets, report, expand: (t: string) => t };
  const label = 'the curl command';
  const pieces = bodyFile
    ? [keepAsBlock(request, ctx, label, `the body is read from the file ${bodyFile} (-d @${bodyFile}): paste it into the cell`)]
    : convertRequest(request, ctx, label);
  return { pieces, secrets, report };
}

/** A curl command as a new notebook. */
export function importCurl(text: string, opts: ImportOptions = {}): ImportResult {
  const { pieces, secrets, report } = curlToPieces(text, opts);
  return writeNotebook(pieces, secrets, report);
}
