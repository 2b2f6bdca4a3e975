// A request cell's body as it goes on the wire. Text as written, variables filled in; a multipart
// body (REST Client / httpYac style) joined with CRLF, each `< ./path` line inside a part replaced
// by that file's bytes; a body that is only `< ./path` is the file itself. Files are read from the
// notebook's folder (by their real path, regular files only: core/fileGate.ts) before anything is
// sent: a missing one fails the cell at its line. Which lines are files is decided from the text as
// written, before variables are filled in: an earlier cell's answer (`{{s.text}}` = "< ./key.pem")
// cannot choose a file, and a file's path cannot hold a variable.
import { FileRefusal, readFileInside } from '../core/fileGate';
import { formatBytes } from '../core/httpExchange';
import { hasReference, NotebookError, substitute, type VariableScope } from './variables';

/** A file larger than this is refused: it would be held in memory whole, twice (bytes and request). */
const MAX_INCLUDED_FILE_BYTES = 64 * 1024 * 1024;
const FILE_LINE = /^<\s+(\S.*?)\s*$/;

export interface AssembledBody {
  /** Text, or bytes when a file is included or the body is multipart (CRLF on the wire). */
  body: string | Uint8Array | undefined;
  /** The body for the request record: included files as `< ./path (N bytes)`. */
  text: string | undefined;
}

export interface BodySource {
  /** The body as written; undefined = none. */
  raw: string | undefined;
  /** File line of its first line. */
  line: number;
  /** The request's Content-Type header, variables filled in. */
  contentType: string | undefined;
  scope: VariableScope;
  /** RunOptions.baseDir: the notebook's folder. */
  baseDir: string | undefined;
}

export async function assembleBody(src: BodySource): Promise<AssembledBody> {
  if (src.raw === undefined) return { body: undefined, text: undefined };
  const multipart = /^\s*multipart\/form-data\s*;/i.test(src.contentType ?? '');
  const raw = src.raw.split(/\r\n|\r|\n/);
  if (!multipart && !(raw.length === 1 && FILE_LINE.test(raw[0]))) {
    const text = substitute(src.raw, src.line, src.scope);
    return { body: text, text };
  }
  // Line by line, so an error (a variable, a file) names the line it is on.
  const chunks: Uint8Array[] = [];
  const shown: string[] = [];
  const crlf = Buffer.from('\r\n');
  for (let i = 0; i < raw.length; i++) {
    if (i > 0) chunks.push(crlf);
    const file = FILE_LINE.exec(raw[i])?.[1];
    if (file === undefined) {
      const line = substitute(raw[i], src.line + i, src.scope);
      chunks.push(Buffer.from(line));
      shown.push(line);
      continue;
    }
    const bytes = await readIncluded(file, src, src.line + i);
    chunks.push(bytes);
    shown.push(`${raw[i]} (${formatBytes(bytes.byteLength)})`);
  }
  return { body: Buffer.concat(chunks), text: shown.join('\n') };
}

/** The bytes of `< ./file`, only from the notebook's folder or below (a notebook from elsewhere cannot send ~/.ssh). */
export async function readIncluded(file: string, src: BodySource, line: number): Promise<Uint8Array> {
  const fail = (detail: string): never => {
    throw new NotebookError(src.scope.file, line, `"< ${file}": ${detail}; nothing was sent`);
  };
  if (src.baseDir === undefined) return fail('this reads a file next to the notebook: save the notebook first');
  if (hasReference(file)) return fail('a variable cannot choose the file: write its path out');
  try {
    return await readFileInside(file, {
      folder: src.baseDir,
      folderName: "the notebook's folder",
      use: 'sent',
      example: './data/sample.wav',
      maxBytes: MAX_INCLUDED_FILE_BYTES,
    });
  } catch (e) {
    if (e instanceof FileRefusal) return fail(e.message);
    throw e;
  }
}
