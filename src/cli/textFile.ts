// Every file the CLI reads as text (notebooks, connections files, data rows, import and export
// inputs) is decoded here, so each accepts the same encodings and fails the same way: UTF-8 with or
// without a byte-order mark (Windows editors write one), UTF-16 with its BOM (PowerShell's `>`
// writes UTF-16 LE), and anything else that is not valid UTF-8 is an error naming the file, instead
// of U+FFFD characters that parse as nothing ("0 passed") or fail far from the cause.
import { readFileSync } from 'node:fs';
import { CliError } from './errors';

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

/** Reads and decodes `file`; a file that cannot be read is a CliError naming it and why. */
export function readTextFile(file: string, what: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new CliError(`${file}: cannot read the ${what} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return decodeText(bytes, file, what);
}
