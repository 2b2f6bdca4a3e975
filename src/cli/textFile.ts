// Every file the CLI reads as text (notebooks, connections files, data rows, import and export
// inputs) is decoded here, so each accepts the same encodings and fails the same way: UTF-8 with or
// without a byte-order mark (Windows editors write one), UTF-16 with its BOM (PowerShell's `>`
// writes UTF-16 LE), and anything else that is not valid UTF-8 is an error naming the file, instead
// of U+FFFD characters that parse as nothing ("0 passed") or fail far from the cause. Each is read
// through core/fileGate.ts: a regular file of at most MAX_TEXT_FILE_BYTES, so a FIFO, /dev/stdin
// or /dev/zero given as --data, --baseline or a connections file is refused instead of hanging
// the run or filling memory.
import { FileRefusal, readRegularFileSync } from '../core/fileGate';
import { CliError } from './errors';

/** Notebooks, connections files, data rows and reports are text a person or a run wrote: far below this. */
export const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

/** Decodes a file's bytes as text by its BOM (UTF-8, UTF-16 LE/BE), else as strict UTF-8. */
export function decodeText(bytes: Uint8Array, file: string, what: string): string {
  const [b0, b1, b2] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return utf8(bytes.subarray(3), file, what);
  if (b0 === 0xff && b1 === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (b0 === 0xfe && b1 === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return utf8(bytes, file, what);
}

function utf8(bytes: Uint8Array, file: string, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const nul = bytes.indexOf(0);
    const hint = nul >= 0 && nul < 4 ? ' (it looks like UTF-16 without a byte-order mark: save it as UTF-8)' : ': save it as UTF-8';
    throw new CliError(`${file}: the ${what} is not UTF-8 text${hint}`);
  }
}

/** The bytes of a file a command-line option names; a file that cannot be read is a CliError naming it, the option's `what` and why. */
export function readInputFile(file: string, what: string): Buffer {
  try {
    return readRegularFileSync(file, MAX_TEXT_FILE_BYTES);
  } catch (e) {
    if (e instanceof FileRefusal) throw new CliError(`${file}: cannot read the ${what}: ${e.reason === 'missing' ? 'no such file' : e.message}`);
    throw e;
  }
}

/** Reads and decodes `file`; a file that cannot be read is a CliError naming it and why. */
export function readTextFile(file: string, what: string): string {
  return decodeText(readInputFile(file, what), file, what);
}

/** As readTextFile, but undefined for a file that does not exist (a recording not made yet). */
export function readInputFileIfExists(file: string, what: string): string | undefined {
  try {
    return decodeText(readRegularFileSync(file, MAX_TEXT_FILE_BYTES), file, what);
  } catch (e) {
    if (e instanceof FileRefusal && e.reason === 'missing') return undefined;
    if (e instanceof FileRefusal) throw new CliError(`${file}: cannot read the ${what}: ${e.message}`);
    throw e;
  }
}
