// The libraries a CLI run needs from the extension's own bundles beside it (dist/undici.js,
// dist/zod.js, dist/ws.js, dist/re2js.js: ~0.5 MB), loaded through V8's code cache. A run compiles
// them at every start otherwise, undici alone ~40 ms of a 20-cell run that took ~400 ms (issue 39).
// Node 22.1+ caches every module itself (module.enableCompileCache, started in dist/cli.js); on
// older Nodes this does the same for these files: the compiled code is written to the user's cache
// folder after a run that had none, and read by the next. A cache V8 refuses (another Node, other
// flags) is replaced; one that cannot be read or written is only a slower start.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

/** Caches to write when the run ends, so they hold the code the run compiled, not only the top level. */
const toWrite: Array<{ file: string; script: Script }> = [];

/** `require('./<name>')` from dist/, through the code cache where this Node has no cache of its own. */
export function requireVendor(name: string): unknown {
  const file = path.join(__dirname, name);
  const dir = compileCacheDir();
  if (dir === undefined) return createRequire(__filename)(file);
  const source = readFileSync(file, 'utf8');
  // By content: V8 checks a cache against the source's length only.
  const cacheFile = path.join(dir, `${name}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: this run writes it.
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    if (toWrite.length === 0) process.once('exit', writeCaches);
    toWrite.push({ file: cacheFile, script });
  }
  return module.exports;
}

function writeCaches(): void {
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
