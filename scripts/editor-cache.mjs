// Where scripts/setup.sh installs the editor builds the suite runs on (code-server, and the Node a
// newer one runs under): a per-user cache, not the clone, like Playwright's browsers. A build is
// ~400 MB with native modules compiled on install (1.5 to 6 minutes each), so every clone, git
// worktree and CI run on a machine shares one copy. AWB_EDITOR_CACHE overrides the place.
// The same rule is spelled in scripts/setup.sh (bash) and test/editor/harness/paths.ts (the driver).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function editorCacheDir() {
  if (process.env.AWB_EDITOR_CACHE) return path.resolve(process.env.AWB_EDITOR_CACHE);
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'api-workbench', 'editors');
}

/** What scripts/setup.sh installs for a build: code-server, the Node it runs under when not ours, and Chromium. */
export function hostInstalled(host) {
  const cache = editorCacheDir();
  const entry = path.join(cache, `code-server-${host.codeServer}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const node = host.node === null || existsSync(path.join(cache, `node-${host.node}`, 'node_modules', 'node', 'bin', 'node'));
  // The window the suite runs in is Debian's Chromium, which setup.sh installs with the other packages.
  return existsSync(entry) && node && existsSync('/usr/bin/chromium');
}
