// A request cell's body as it goes on the wire. Text as written, variables filled in; a multipart
// body (REST Client / httpYac style) joined with CRLF, each `< ./path` line inside a part replaced
// by that file's bytes; a body that is only `< ./path` is the file itself. Files are read from the
// notebook's folder before anything is sent: a missing one fails the cell at its line.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../core/httpExchange';
import { NotebookError, substitute, type VariableScope } from './variables';

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
  const lines = raw.map((l, i) => substitute(l, src.line + i, src.scope));
  const chunks: Uint8Array[] = [];
  const shown: string[] = [];
  const crlf = Buffer.from('\r\n');
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) chunks.push(crlf);
    const file = FILE_LINE.exec(lines[i])?.[1];
    if (file === undefined) {
      chunks.push(Buffer.from(lines[i]));
      shown.push(lines[i]);
      continue;
    }
    const bytes = await readIncluded(file, src, src.line + i);
    chunks.push(bytes);
    shown.push(`${lines[i]} (${formatBytes(bytes.byteLength)})`);
  }
  return { body: Buffer.concat(chunks), text: shown.join('\n') };
}

/** The bytes of `< ./file`, only from the notebook's folder or below (a notebook from elsewhere cannot send ~/.ssh). */
export async function readIncluded(file: string, src: BodySource, line: number): Promise<Uint8Array> {
  const fail = (detail: string): never => {
    throw new NotebookError(src.scope.file, line, `${detail}; nothing was sent`);
  };
  if (src.baseDir === undefined) return fail(`"< ${file}" reads a file next to the notebook: save the notebook first`);
  const root = path.resolve(src.baseDir);
  const full = path.resolve(root, file);
  const inside = path.relative(root, full);
  if (path.isAbsolute(file) || inside.startsWith('..') || path.isAbsolute(inside)) {
    return fail(`"< ${file}": only files in the notebook's folder (or below) can be sent; write a path like ./data/sample.wav`);
  }
  try {
    const info = await stat(full);
    if (!info.isFile()) return fail(`"< ${file}" is not a file`);
    if (info.size > MAX_INCLUDED_FILE_BYTES)
      return fail(`"< ${file}" is ${formatBytes(info.size)}: at most ${formatBytes(MAX_INCLUDED_FILE_BYTES)} can be sent`);
    return await readFile(full);
  } catch (e) {
    if (e instanceof NotebookError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? `"< ${file}": no such file in ${root}` : `"< ${file}" cannot be read (${code ?? String(e)})`);
  }
}
