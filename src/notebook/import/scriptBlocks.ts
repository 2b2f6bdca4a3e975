// Imported scripts become the cell's own script blocks, so they run with no edit: Postman's
// prerequest/test scripts (collection, then folder, then request: Postman's order) and a .http
// file's `< {% %}` / `> {% %}` handlers, written back in the `.http` convention.
import type { CellScript } from '../scripts/cellScripts';
import type { Piece } from './convert';
import type { Script } from './httpLines';

/** The code of a Postman event, or undefined when it has none. */
export function postmanEventCode(exec: string | string[] | undefined): string | undefined {
  const code = Array.isArray(exec) ? exec.join('\n') : (exec ?? '');
  return code.trim() === '' ? undefined : code;
}

/** `< {% … %}` / `> {% … %}` around code; undefined when the code itself holds `%}` (it would end the block early). */
export function inlineBlock(marker: '<' | '>', code: string): string | undefined {
  return code.includes('%}') ? undefined : `${marker} {%\n${code.replace(/\s+$/, '')}\n%}`;
}

/** A .http file's script as a cell writes it: its `{% %}` block as written, or `> ./file.js`. */
export function httpScriptBlock(marker: '<' | '>', script: Script): string {
  const text = script.text.trim();
  return /^[<>]\s*\{%/.test(text) ? `${marker}${text.slice(1)}` : `${marker} ${text}`;
}

/** Puts the blocks into the request cell among `pieces`; false when there is none (the request stayed Markdown). */
export function attachScripts(pieces: Piece[], pre: readonly string[], post: readonly string[]): boolean {
  if (pre.length === 0 && post.length === 0) return true;
  const cell = pieces.find((p) => p.kind !== 'markdown');
  if (!cell) return false;
  cell.value = [...pre, cell.value].join('\n') + post.map((b) => `\n\n${b}`).join('');
  return true;
}

/** A cell's script as the .http export writes it back: `< {% … %}` / `> {% … %}`, or `< ./file.js`. */
export function exportedScript(script: CellScript): string {
  const marker = script.phase === 'pre' ? '<' : '>';
  return script.source !== undefined ? `${marker} {%\n${script.source}\n%}` : `${marker} ${script.file}`;
}
