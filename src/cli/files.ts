// The notebooks a run covers: files as given, and every *.awb.md under a folder (sorted, so runs
// are repeatable; node_modules and dot folders skipped).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { NOTEBOOK_EXTENSION } from '../notebook/runApi';
import { CliError } from './errors';

function walk(dir: string, out: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full, out);
    else if (e.isFile() && e.name.endsWith(NOTEBOOK_EXTENSION)) out.push(full);
  }
}

export function notebookFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      throw new CliError(`${p}: no such file or folder`);
    }
    if (!isDir) {
      out.push(p);
      continue;
    }
    const before = out.length;
    walk(p, out);
    if (out.length === before) throw new CliError(`${p}: no *${NOTEBOOK_EXTENSION} notebooks in this folder`);
  }
  return [...new Set(out)];
}
