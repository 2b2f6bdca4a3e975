// The libraries a script may `require`: crypto-js and lodash run as source inside the engine (never
// the host's copies). The shipped build carries them beside its bundle in dist/scripts/ (copied by
// esbuild.mjs); a build that bundles packages out (the unit tests) reads them from node_modules.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SCRIPT_LIBRARIES = ['crypto-js', 'lodash'] as const;
export type ScriptLibrary = (typeof SCRIPT_LIBRARIES)[number];

/** The package file each library is read from when there is no shipped copy. */
const PACKAGE_FILE: Record<ScriptLibrary, string> = { 'crypto-js': 'crypto-js/crypto-js.js', lodash: 'lodash/lodash.min.js' };

/** The folder next to the bundle that holds the engine's files (dist/scripts). */
export function shippedScriptsDir(): string {
  return path.join(__dirname, 'scripts');
}

const cache = new Map<ScriptLibrary, string>();

export function isScriptLibrary(name: string): name is ScriptLibrary {
  return (SCRIPT_LIBRARIES as readonly string[]).includes(name);
}

/** The library's source text, read once per process. */
export function librarySource(name: ScriptLibrary): string {
  let text = cache.get(name);
  if (text === undefined) {
    const shipped = path.join(shippedScriptsDir(), `${name}.js`);
    text = readFileSync(existsSync(shipped) ? shipped : require.resolve(PACKAGE_FILE[name]), 'utf8');
    cache.set(name, text);
  }
  return text;
}
