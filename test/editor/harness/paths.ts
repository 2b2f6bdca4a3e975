import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The code-server release the project tests against (VS Code 1.100.3, the oldest supported; needs Node 20). */
export const CODE_SERVER_VERSION = '4.100.3';

/**
 * The checkout root, found by walking up from the running bundle: the same code runs from
 * out/test/editor/*.js, out/test/editor/harness/*.js and out/test/bench/*.js.
 */
export function repoRoot(from: string = __dirname): string {
  let dir = path.resolve(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && /"name":\s*"api-workbench"/.test(readFileSync(manifest, 'utf8'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no api-workbench package.json above ${from}`);
    dir = parent;
  }
}

/** Where scripts/setup.sh installs code-server (git-ignored cache). */
export function codeServerDir(root: string = repoRoot()): string {
  return path.join(root, '.vscode-test', `code-server-${CODE_SERVER_VERSION}`, 'node_modules', 'code-server');
}

export function codeServerEntry(root: string = repoRoot()): string {
  const entry = path.join(codeServerDir(root), 'out', 'node', 'entry.js');
  if (!existsSync(entry)) {
    throw new Error(`code-server ${CODE_SERVER_VERSION} is not installed at ${codeServerDir(root)}: run scripts/setup.sh first`);
  }
  return entry;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags verified to work with Debian Chromium headless on these machines (see shared/vscode-host.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
