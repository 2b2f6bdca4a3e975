// dist/cli.js, the `api-workbench` command (package.json "bin"): sets up the process, then requires
// the runner itself (src/cli/main.ts, built into dist/cli-main.js and the chunks it requires).
import { setFlagsFromString } from 'node:v8';
import { startFromDist, type DistFiles } from './distLoader';

/** dist/cli-*.js and the shared libraries, with a hash of each (esbuild.mjs; empty in --watch builds). */
declare const __CLI_FILES__: DistFiles;

// undici parses HTTP with llhttp compiled to WebAssembly. V8 first compiles it with its baseline
// compiler (Liftoff), then again with its optimizing one, whose work costs a short-lived 10 to 30 MiB
// of memory in the middle of the run: the largest part of this process's peak (cli.bench.ts). A run
// of a notebook sends too few requests for the faster parser to pay that back, so it is not built.
// Set before any code is compiled: V8 refuses a code cache made under other flags, so setting it
// later would have every cache of the files loaded before it refused at every start.
setFlagsFromString('--liftoff-only');

// Node 22.1+ keeps compiled code between runs itself (older ones: src/cli/distLoader.ts).
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:module's enableCompileCache exists from Node 22.1
  (require('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();
} catch {
  // Not there, or the cache folder cannot be made: only a slower start.
}

try {
  startFromDist('cli-main.js', __CLI_FILES__);
} catch (e) {
  process.stderr.write(`api-workbench: could not start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
