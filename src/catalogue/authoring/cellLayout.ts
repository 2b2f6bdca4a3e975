// Where things are in a request cell's text, by line: the request (or realtime command) line, the
// headers under it, the body after the blank line, and the `??` checks at the end. The same cut
// as the engine's parser (src/notebook/cells.ts), kept tolerant of a half-typed cell.
import type { Position, Range } from './types';

export interface CellLayout {
  lines: string[];
  /** The first line that is not blank or a comment (the request or command line). */
  requestLine?: number;
  /** Header lines are requestLine+1 … headerEnd-1 (request cells only). */
  headerEnd: number;
  /** The body's first line, when there is one before the checks. */
  bodyStart?: number;
  /** The first line of the trailing `??` block (lines.length when none). */
  checksStart: number;
}

export const isComment = (t: string): boolean => t.startsWith('#') || t.startsWith('//');

export function splitCellLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export function cellLayout(text: string, language: string): CellLayout {
  const lines = splitCellLines(text);
  let checksStart = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (t === '' || isComment(t)) continue;
    if (!t.startsWith('??')) break;
    checksStart = i;
  }
  let requestLine: number | undefined;
  for (let i = 0; i < checksStart; i++) {
    const t = lines[i].trim();
    if (t !== '' && !isComment(t)) {
      requestLine = i;
      break;
    }
  }
  let headerEnd = requestLine === undefined ? 0 : requestLine + 1;
  let bodyStart: number | undefined;
  if (requestLine !== undefined) {
    if (language === 'realtime') {
      headerEnd = requestLine + 1;
      bodyStart = firstFilled(lines, requestLine + 1, checksStart);
    } else if (language !== 'vars') {
      while (headerEnd < checksStart && lines[headerEnd].trim() !== '') headerEnd++;
      bodyStart = firstFilled(lines, headerEnd, checksStart);
    }
  }
  return { lines, requestLine, headerEnd, bodyStart, checksStart };
}

function firstFilled(lines: readonly string[], from: number, to: number): number | undefined {
  for (let i = from; i < to; i++) if (lines[i].trim() !== '') return i;
  return undefined;
}

/** The offset's line and column in `text`. */
export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  return { line, col: offset - start };
}

export const range = (line: number, startCol: number, endCol = startCol, endLine = line): Range => ({
  start: { line, col: startCol },
  end: { line: endLine, col: endCol },
});

export const lineRange = (lines: readonly string[], line: number): Range => {
  const text = lines[line] ?? '';
  const indent = text.length - text.trimStart().length;
  return range(line, indent, text.length);
};

export interface Reference {
  /** As written between the braces, trimmed. */
  ref: string;
  line: number;
  /** Columns of the whole `{{…}}`. */
  start: number;
  end: number;
  /** Column where `ref` starts. */
  refStart: number;
}

const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every `{{…}}` of the cell, skipping comment lines. */
export function references(lines: readonly string[]): Reference[] {
  const out: Reference[] = [];
  lines.forEach((text, line) => {
    if (!text.includes('{{') || isComment(text.trim())) return;
    for (const m of text.matchAll(REFERENCE)) {
      const refStart = m.index + m[0].indexOf(m[1], 2);
      out.push({ ref: m[1], line, start: m.index, end: m.index + m[0].length, refStart });
    }
  });
  return out;
}

/** Text with every `{{…}}` replaced by `0` and spaces of the same length: still JSON where the value is, same offsets. */
export function blankReferences(text: string): string {
  return text.replace(/\{\{[^{}]*\}\}/g, (m) => '0' + ' '.repeat(m.length - 1));
}
