// Script blocks of a request cell, in the `.http` convention so files round-trip with IntelliJ,
// httpYac and REST Client: `< {% … %}` (or `< ./pre.js`) above the request line runs before the
// request is built; `> {% … %}` (or `> ./check.js`) after the request runs on its answer. The lines
// they take are blanked for the request's own reading, so every other line keeps its number.
import type { ScriptPhase } from './model';
import { scriptSyntaxError } from './syntax';

export interface CellScript {
  phase: ScriptPhase;
  /** File line of the script's first line of code (inline), or of the `< ./file` line. */
  line: number;
  /** Inline code, as written between `{%` and `%}`. */
  source?: string;
  /** A script file, relative to the notebook's folder. */
  file?: string;
}

export interface ExtractedScripts {
  /** The cell's lines with every script line replaced by an empty one. */
  lines: string[];
  scripts: CellScript[];
  problems: Array<{ line: number; message: string }>;
}

const INLINE_START = /^([<>])\s*\{%(.*)$/;
const SCRIPT_FILE = /^([<>])\s+(\S+\.[cm]?js)\s*$/;
const isBlankOrComment = (t: string) => t === '' || t.startsWith('#') || t.startsWith('//');

/** Whether a cell's text has a script block at all (a quick look: extractScripts reads them). */
export function hasScriptBlock(text: string): boolean {
  return text.split(/\r?\n/).some((line) => {
    const t = line.trim();
    return INLINE_START.test(t) || SCRIPT_FILE.test(t);
  });
}

/** Takes the script blocks out of a request cell's lines (`lineOf(i)` is line i's file line). */
export function extractScripts(lines: readonly string[], lineOf: (i: number) => number): ExtractedScripts {
  const out: ExtractedScripts = { lines: [...lines], scripts: [], problems: [] };
  let seenRequest = false;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    const inline = INLINE_START.exec(t);
    const file = inline ? undefined : SCRIPT_FILE.exec(t);
    const marker = inline?.[1] ?? file?.[1];
    // Before the request line only `<` starts a script; after it only `>` (a `<` there includes a body file).
    if (!marker || (marker === '<') === seenRequest) {
      if (!seenRequest && !isBlankOrComment(t) && !t.startsWith('??')) seenRequest = true;
      continue;
    }
    const phase = marker === '<' ? 'pre' : 'post';
    if (file) {
      out.scripts.push({ phase, line: lineOf(i), file: file[2] });
      out.lines[i] = '';
      continue;
    }
    const start = i;
    const rest = inline![2];
    const code: string[] = [];
    let closed = false;
    if (rest.trimEnd().endsWith('%}')) {
      code.push(rest.trimEnd().slice(0, -2));
      closed = true;
    } else {
      code.push(rest);
      for (i++; i < lines.length; i++) {
        const end = lines[i].trimEnd();
        if (end.endsWith('%}')) {
          // `%}` alone on its line ends the code on the line before.
          if (end.slice(0, -2).trim() !== '') code.push(end.slice(0, -2));
          closed = true;
          break;
        }
        code.push(lines[i]);
      }
    }
    for (let k = start; k <= Math.min(i, lines.length - 1); k++) out.lines[k] = '';
    if (!closed) {
      out.problems.push({ line: lineOf(start), message: `the script opened here with ${marker} {% is never closed: end it with %}` });
      continue;
    }
    // An empty first line (`< {%` alone) is dropped, so the code's line 1 is the line after the marker.
    const dropFirst = code.length > 1 && code[0].trim() === '';
    const script: CellScript = { phase, line: lineOf(start) + (dropFirst ? 1 : 0), source: (dropFirst ? code.slice(1) : code).join('\n') };
    out.scripts.push(script);
    const syntax = scriptSyntaxError(script.source!);
    if (syntax)
      out.problems.push({
        line: script.line + syntax.line - 1,
        message: `the ${phase === 'pre' ? 'pre-request' : 'response'} script does not parse: ${syntax.message}; fix this line before the cell can run`,
      });
  }
  return out;
}
