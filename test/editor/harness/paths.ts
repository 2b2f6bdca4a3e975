import os from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import hostsManifest from '../../../scripts/editor-hosts.json';

/**
 * A code-server build the suite runs on: the oldest supported VS Code and the newest the npm
 * registry has (scripts/editor-hosts.json, shared with scripts/setup.sh and scripts/test.mjs).
 */
export interface EditorHost {
  /** "oldest" or "newest". */
  id: string;
  codeServer: string;
  /** The VS Code version that code-server release is built from (checked against the install). */
  vscode: string;
  /** Version of the npm package `node` that code-server runs under; null = the Node running us. */
  node: string | null;
  /**
   * Extra code-server arguments when a test suite runs. Newer VS Code honours the URL payload's
   * extensionDevelopmentPath/extensionTestsPath only with the server's enable-smoke-test-driver
   * (its web environment service ignores them in a built product otherwise).
   */
  testArgs: string[];
}

export const EDITOR_HOSTS: readonly EditorHost[] = hostsManifest.hosts;

/** By id ("oldest", "newest") or code-server version; undefined = the oldest (the engines.vscode floor). */
export function editorHost(idOrVersion?: string): EditorHost {
  const wanted = idOrVersion ?? 'oldest';
  const host = EDITOR_HOSTS.find((h) => h.id === wanted || h.codeServer === wanted);
  if (!host) throw new Error(`unknown editor host "${wanted}": one of ${EDITOR_HOSTS.map((h) => `${h.id} (${h.codeServer})`).join(', ')}`);
  return host;
}

export function describeHost(host: EditorHost): string {
  return `VS Code ${host.vscode} (code-server ${host.codeServer})`;
}

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

/**
 * Where scripts/setup.sh installs the editor builds: a per-user cache shared by every clone (the same
 * rule as scripts/editor-cache.mjs and scripts/setup.sh; AWB_EDITOR_CACHE overrides it).
 */
export function editorCacheDir(): string {
  if (process.env.AWB_EDITOR_CACHE) return path.resolve(process.env.AWB_EDITOR_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'api-workbench', 'editors');
}

export function codeServerDir(host: EditorHost): string {
  return path.join(editorCacheDir(), `code-server-${host.codeServer}`, 'node_modules', 'code-server');
}

export function codeServerEntry(host: EditorHost): string {
  const entry = path.join(codeServerDir(host), 'out', 'node', 'entry.js');
  if (!existsSync(entry)) {
    throw new Error(`code-server ${host.codeServer} is not installed at ${codeServerDir(host)}: run scripts/setup.sh first`);
  }
  return entry;
}

/** The Node binary code-server runs under: ours, or the one scripts/setup.sh installed from npm `node@<version>`. */
export function hostNode(host: EditorHost): string {
  if (host.node === null) return process.execPath;
  const bin = path.join(editorCacheDir(), `node-${host.node}`, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) throw new Error(`Node ${host.node} for code-server ${host.codeServer} is not installed at ${bin}: run scripts/setup.sh first`);
  return bin;
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
