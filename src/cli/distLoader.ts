// How the command-line runner loads its own files from dist/: its chunks (dist/cli-*.js) and the
// libraries it shares with the extension (dist/undici.js, zod.js, ws.js, re2js.js). Node 20 keeps no
// compiled code between runs, and a 20-cell run spent ~45 ms compiling the same ~0.7 MB at every
// start (issue 39), so each file is compiled through V8's code cache: the compiled code is written
// to the user's cache folder after a run that had none, and read by the next. A cache V8 refuses
// (another Node, other flags) is replaced; one that cannot be read or written is only a slower start.
// Node 22.1+ caches every module itself (module.enableCompileCache, started in src/cli/start.ts):
// there, and when the user turns caching off, the files are required as usual.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

/**
 * The files of dist/ that may be loaded through the cache, each with a hash of its content, worked
 * out when the CLI was built (esbuild.mjs): V8 checks a cache against the source's length only, so a
 * cache is named by the content it was made from, with no hashing at every start.
 */
export type DistFiles = Readonly<Record<string, string>>;

interface Loaded {
  exports: unknown;
}

/** Caches to write when the run ends, so they hold the code the run compiled, not only the top level. */
const toWrite: Array<{ file: string; script: Script }> = [];

/** Requires dist/<main> and, through the `require` each file gets, every dist file it requires in turn. */
export function startFromDist(main: string, files: DistFiles): unknown {
  const nodeRequire = createRequire(path.join(__dirname, main));
  const dir = compileCacheDir();
  if (dir === undefined || !Object.hasOwn(files, main)) return nodeRequire(path.join(__dirname, main));
  const loaded = new Map<string, Loaded>();
  // A cache keeps the path of the file it was made from, and V8 names that path in stack traces:
  // each installed copy (global, a project's node_modules) keeps caches of its own.
  const place = placeHash(__dirname);

  // What `require` is inside a dist file: `./<file>.js` of the list through the cache, the rest as Node does.
  const distRequire = Object.assign(
    (id: string): unknown => {
      const name = /^\.\/([\w.-]+\.js)$/.exec(id)?.[1];
      return name !== undefined && Object.hasOwn(files, name) ? load(name) : nodeRequire(id);
    },
    { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions },
  );

  function load(name: string): unknown {
    const done = loaded.get(name);
    if (done) return done.exports;
    const file = path.join(__dirname, name);
    const source = readFileSync(file, 'utf8');
    const cacheFile = path.join(dir!, `${name}-${files[name]}-${place}.cache`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // None yet: this run writes it.
    }
    const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
    // Registered before it runs, as Node does: a file required again while it runs gets what it has so far.
    const module: Loaded = { exports: {} };
    loaded.set(name, module);
    (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, distRequire, module, file, __dirname);
    if (cachedData === undefined || script.cachedDataRejected) {
      if (toWrite.length === 0) process.once('exit', () => writeCaches(dir!, files, place));
      toWrite.push({ file: cacheFile, script });
    }
    return module.exports;
  }

  return load(main);
}

function writeCaches(dir: string, files: DistFiles, place: string): void {
  for (const { file, script } of toWrite) {
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // Written whole then renamed: a run reading it meanwhile sees the old one or the new one.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      renameSync(partial, file);
    } catch {
      // A read-only home or a full disk: the next run compiles again.
    }
  }
  // This copy's caches of files it no longer has (an upgrade changed them) are dropped, so the
  // folder does not grow with every version. Caches are written only after a run that missed one.
  try {
    const current = new Set(Object.entries(files).map(([name, hash]) => `${name}-${hash}-${place}.cache`));
    for (const f of readdirSync(dir)) if (f.endsWith(`-${place}.cache`) && !current.has(f)) rmSync(path.join(dir, f), { force: true });
  } catch {
    // Another run is pruning too, or the folder is gone: nothing lost.
  }
}

/** A short name for the folder a copy of the CLI is installed in (FNV-1a: no node:crypto at start). */
function placeHash(folder: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < folder.length; i++) h = Math.imul(h ^ folder.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The user's own cache folder (never a shared temporary one: code read from a cache is run), per
 * Node version, or none when Node caches itself (22.1+) or the user turned caching off.
 */
function compileCacheDir(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.API_WORKBENCH_NO_COMPILE_CACHE) return undefined;
  if (nodeCachesItself()) return undefined;
  const home = os.homedir();
  const base =
    process.platform === 'win32'
      ? (process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : (process.env.XDG_CACHE_HOME ?? path.join(home, '.cache'));
  return path.join(base, 'api-workbench', `v8-${process.version}-${process.arch}`);
}

function nodeCachesItself(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:module's enableCompileCache exists from Node 22.1
  return typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
}
