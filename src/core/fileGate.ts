// The one way a file named by a notebook or by a command-line option is read: regular files only
// (never a folder, a FIFO, a socket, /dev/zero or /dev/stdin: a pipe would hang the run past its
// timeout, a device would fill memory), at most a stated number of bytes, and, for a path a
// notebook writes, only inside the notebook's folder by the file's REAL path, so a link
// (`./link.txt` → ../outside/secret.txt, or a linked folder) cannot lead out of it.
//
// No gap between check and open: the real path is resolved and checked, that path is opened
// (O_NOFOLLOW: its last part cannot have become a link since; O_NONBLOCK: opening a FIFO does not
// wait for a writer), and the OPEN file is checked again: its own path (/proc/self/fd on Linux) must
// still be inside the folder, or elsewhere its device and inode must be those of the checked path.
// Messages never quote a file's content, only its name as written.
// node:fs/promises is reached through fs.promises, which Node loads on first use: it and readline,
// which it loads, are ~3 ms of every CLI start, and most runs read no file this way.
import { closeSync, constants, fstatSync, openSync, promises as fsp, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from './numbers';
import { sharedAcrossBundles } from './sharedClass';

export type FileRefusalReason = 'outside' | 'missing' | 'not-regular' | 'too-large' | 'unreadable';

/** A file that was not read, and why: its message follows the path as written and a colon (`"< ./x.wav": no such file in /work`). */
export class FileRefusal extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.FileRefusal');
  }

  constructor(
    readonly reason: FileRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'FileRefusal';
  }
}

export interface InsideFolder {
  /** The folder, e.g. the notebook's. */
  folder: string;
  /** How messages name it: "the notebook's folder". */
  folderName: string;
  /** What happens to the file, for messages: "sent", "read". */
  use: string;
  /** A path to suggest when one is refused: "./data/sample.wav". */
  example: string;
  maxBytes: number;
}

// Not every platform has every flag (Windows has neither O_NOFOLLOW nor O_NONBLOCK): 0 leaves it out.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const CHUNK = 64 * 1024;

function isInside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function codeOf(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function outside(o: InsideFolder, through?: string): FileRefusal {
  return new FileRefusal(
    'outside',
    `only files in ${o.folderName} (or below) can be ${o.use}${through ? `; this path leads out of it through ${through}` : ''}: write a path like ${o.example}`,
  );
}

function notRegular(use: string): FileRefusal {
  return new FileRefusal('not-regular', `not a regular file (a folder, a device, a pipe or a socket): only regular files can be ${use}`);
}

function tooLarge(use: string, maxBytes: number, size?: number): FileRefusal {
  const what = size === undefined ? `more than ${formatBytes(maxBytes)}` : formatBytes(size);
  return new FileRefusal('too-large', `${what}: at most ${formatBytes(maxBytes)} can be ${use}`);
}

function failed(e: unknown, where: string): FileRefusal {
  if (e instanceof FileRefusal) return e;
  const code = codeOf(e);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileRefusal('missing', `no such file in ${where}`);
  // ELOOP: the last part became a link after the check (O_NOFOLLOW), or a loop of links.
  if (code === 'ELOOP') return new FileRefusal('outside', 'a link that changed while it was opened, or a loop of links: not read');
  return new FileRefusal('unreadable', `not readable (${code ?? String(e)})`);
}

/** The path the kernel has for an open file (Linux); undefined where there is none to ask. */
async function openedPath(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await fsp.realpath(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The same file (device and inode): what was opened is what was checked. */
function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

async function readAtMost(handle: FileHandle, maxBytes: number, use: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    // The size stat gave is not trusted: a file may grow while it is read, and /proc files say 0.
    if (total > maxBytes) throw tooLarge(use, maxBytes);
    chunks.push(buffer.subarray(0, bytesRead));
  }
}

/**
 * The bytes of `file`, a path written in a notebook, relative to `o.folder`: a regular file whose
 * real path is inside the folder, at most `o.maxBytes`. Throws FileRefusal.
 */
export async function readFileInside(file: string, o: InsideFolder): Promise<Buffer> {
  const folder = path.resolve(o.folder);
  const written = path.resolve(folder, file);
  if (path.isAbsolute(file) || !isInside(folder, written)) throw outside(o);
  let handle: FileHandle | undefined;
  try {
    const realFolder = await fsp.realpath(folder);
    const real = await fsp.realpath(written);
    if (!isInside(realFolder, real)) throw outside(o, 'a link');
    handle = await fsp.open(real, OPEN_FLAGS | NO_FOLLOW);
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(o.use);
    const opened = await openedPath(handle.fd);
    if (opened !== undefined ? !isInside(realFolder, opened) : !sameFile(info, await fsp.stat(real))) throw outside(o, 'a link that changed');
    if (info.size > o.maxBytes) throw tooLarge(o.use, o.maxBytes, info.size);
    return await readAtMost(handle, o.maxBytes, o.use);
  } catch (e) {
    throw failed(e, folder);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The bytes of a file named by a command-line option or a setting (`--baseline`, `--data`, a
 * connections file, a notebook): any folder, but a regular file of at most `maxBytes`. Throws
 * FileRefusal (`--baseline /dev/zero: not a regular file …`).
 */
export function readRegularFileSync(file: string, maxBytes: number, use = 'read'): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(file, OPEN_FLAGS);
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegular(use);
    if (info.size > maxBytes) throw tooLarge(use, maxBytes, info.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK);
      const bytesRead = readSync(fd, buffer, 0, CHUNK, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(use, maxBytes);
      chunks.push(buffer.subarray(0, bytesRead));
    }
  } catch (e) {
    throw failed(e, path.dirname(path.resolve(file)));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
