// The `*.awb.md` file format: Markdown whose fenced blocks tagged llm/maps/realtime/vars are code
// cells. Reading keeps, per cell, the exact bytes it came from (CellLayout), so writing an unchanged
// notebook gives back the same bytes: CRLF, a missing final newline, ~~~ and longer fences,
// blank lines between cells. An edited cell is written afresh from its value and attributes.
import { quoteCut } from '../core/quote';
import {
  CODE_LANGUAGES,
  type CellLayout,
  type CellMetadata,
  type CodeLanguage,
  type NotebookCellData,
  type NotebookData,
  type NotebookProblem,
  type ParsedNotebook,
} from './types';
import { analyseCell } from './cells';

type Eol = CellLayout['eol'];

interface Line {
  /** The line without its end. */
  text: string;
  eol: '' | Eol;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  while (pos < text.length) {
    let end = pos;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    let eol: Line['eol'] = '';
    if (end < text.length) eol = text[end] === '\r' ? (text[end + 1] === '\n' ? '\r\n' : '\r') : '\n';
    lines.push({ text: text.slice(pos, end), eol });
    pos = end + eol.length;
  }
  return lines;
}

const joinLines = (lines: readonly Line[]): string => lines.map((l) => l.text + l.eol).join('');
const isBlank = (l: Line): boolean => /^[ \t]*$/.test(l.text);

interface Fence {
  char: '`' | '~';
  length: number;
  info: string;
}

/** An opening fence per CommonMark: up to 3 spaces, 3+ backticks or tildes, an info string (no backtick after backticks). */
export function openingFence(line: string): Fence | undefined {
  const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
  if (!m) return undefined;
  const char = m[1][0] as Fence['char'];
  if (char === '`' && m[2].includes('`')) return undefined;
  return { char, length: m[1].length, info: m[2].trim() };
}

export function closesFence(line: string, fence: Fence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1][0] === fence.char && m[1].length >= fence.length;
}

function codeLanguageOf(info: string): CodeLanguage | undefined {
  const word = info.split(/\s+/, 1)[0];
  return (CODE_LANGUAGES as readonly string[]).includes(word) ? (word as CodeLanguage) : undefined;
}

export interface FenceInfo {
  language: string;
  attributes: Record<string, string>;
  problems: string[];
}

/** `maps name=lisbon connection="Work account"` → language and attributes. */
export function parseFenceInfo(info: string): FenceInfo {
  const language = info.split(/\s+/, 1)[0];
  const attributes: Record<string, string> = {};
  const problems: string[] = [];
  const rest = info.slice(language.length);
  const token = /\s*([A-Za-z][\w-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"']+))|\s*(\S+)/gy;
  let m: RegExpExecArray | null;
  while ((m = token.exec(rest)) !== null) {
    if (m[5] !== undefined) {
      problems.push(`cannot read "${quoteCut(m[5])}" on the fence line: attributes are written key=value or key="value with spaces"`);
      continue;
    }
    if (m[1] in attributes) problems.push(`the attribute "${quoteCut(m[1])}" is given twice`);
    attributes[m[1]] = m[2] ?? m[3] ?? m[4];
  }
  return { language, attributes, problems };
}

export function formatAttributes(attributes: Record<string, string> | undefined): string {
  return Object.entries(attributes ?? {})
    .map(([k, v]) => (/^[^\s"']+$/.test(v) ? `${k}=${v}` : v.includes('"') ? `${k}='${v}'` : `${k}="${v}"`))
    .join(' ');
}

function sameAttributes(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ea = Object.entries(a ?? {});
  const eb = Object.entries(b ?? {});
  return ea.length === eb.length && ea.every(([k, v], i) => eb[i][0] === k && eb[i][1] === v);
}

interface Segment {
  kind: 'markup' | 'code';
  /** Index of the first line. */
  start: number;
  lines: Line[];
}

/** Cuts the file into code-cell fences and the Markdown between them. */
function segments(lines: readonly Line[]): { segments: Segment[]; unclosed: Set<number> } {
  const out: Segment[] = [];
  const unclosed = new Set<number>();
  let markdownStart = 0;
  let i = 0;
  const flushMarkdown = (to: number) => {
    if (to > markdownStart) out.push({ kind: 'markup', start: markdownStart, lines: lines.slice(markdownStart, to) });
  };
  while (i < lines.length) {
    const fence = openingFence(lines[i].text);
    if (!fence) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !closesFence(lines[end].text, fence)) end++;
    const closed = end < lines.length;
    const after = closed ? end + 1 : end;
    if (codeLanguageOf(fence.info)) {
      flushMarkdown(i);
      if (!closed) unclosed.add(out.length);
      out.push({ kind: 'code', start: i, lines: lines.slice(i, after) });
      markdownStart = after;
    }
    // Any other fenced block stays in its Markdown cell, content and all.
    i = after;
  }
  flushMarkdown(lines.length);
  return { segments: out, unclosed };
}

function firstEol(text: string, fallback: Eol = '\n'): Eol {
  const m = /\r\n|\r|\n/.exec(text);
  return m ? (m[0] as Eol) : fallback;
}

/** Reads a `*.awb.md` file into cells. Never throws: problems are listed per cell. */
export function parseNotebook(text: string, file = 'notebook.awb.md'): ParsedNotebook {
  const lines = splitLines(text);
  const eol = firstEol(text);
  const { segments: segs, unclosed } = segments(lines);
  const cells: NotebookCellData[] = [];
  const starts: number[] = [];
  const problems: NotebookProblem[] = [];
  let pendingBefore = '';

  for (let s = 0; s < segs.length; s++) {
    const seg = segs[s];
    if (seg.kind === 'markup') {
      let a = 0;
      let b = seg.lines.length;
      while (a < b && isBlank(seg.lines[a])) a++;
      while (b > a && isBlank(seg.lines[b - 1])) b--;
      if (a === b) {
        // Only blank lines: they belong to the cell before (or, at the top, the cell after).
        const blank = joinLines(seg.lines);
        const prev = cells.at(-1)?.metadata.layout;
        if (prev) prev.after += blank;
        else pendingBefore += blank;
        continue;
      }
      const core = seg.lines.slice(a, b);
      const value = core.map((l) => l.text).join('\n');
      const layout: CellLayout = {
        before: pendingBefore + joinLines(seg.lines.slice(0, a)),
        core: joinLines(core),
        after: joinLines(seg.lines.slice(b)),
        value,
        info: '',
        eol: firstEol(joinLines(core), eol),
      };
      pendingBefore = '';
      starts.push(seg.start + a);
      cells.push({ kind: 'markup', language: 'markdown', value, metadata: { layout } });
      continue;
    }
    const fence = openingFence(seg.lines[0].text)!;
    const info = parseFenceInfo(fence.info);
    const closed = !unclosed.has(s);
    const content = seg.lines.slice(1, closed ? -1 : undefined);
    const value = content.map((l) => l.text).join('\n');
    const core = joinLines(seg.lines);
    const layout: CellLayout = { before: pendingBefore, core, after: '', value, info: fence.info, eol: firstEol(core, eol) };
    pendingBefore = '';
    const metadata: CellMetadata = { attributes: info.attributes, layout };
    const cellIndex = cells.length;
    starts.push(seg.start);
    cells.push({ kind: 'code', language: info.language, value, metadata });
    const line = seg.start + 1;
    for (const message of info.problems) problems.push({ file, line, message, cellIndex });
    if (!closed) problems.push({ file, line, message: `the ${fence.char.repeat(fence.length)} fence opened here is never closed`, cellIndex });
  }
  if (pendingBefore) {
    // A file of nothing but blank lines still round-trips: one empty Markdown cell holds them.
    cells.push({
      kind: 'markup',
      language: 'markdown',
      value: '',
      metadata: { layout: { before: pendingBefore, core: '', after: '', value: '', info: '', eol } },
    });
    starts.push(0);
  }
  problems.push(...cellProblems(cells, starts, file));
  return { cells, metadata: { eol }, problems };
}

/** `starts`: the 0-based line each cell starts on. */
function cellProblems(cells: readonly NotebookCellData[], starts: readonly number[], file: string): NotebookProblem[] {
  const out: NotebookProblem[] = [];
  const names = new Map<string, number>();
  cells.forEach((cell, cellIndex) => {
    if (cell.kind !== 'code') return;
    const line = starts[cellIndex] + 1;
    for (const p of analyseCell(cell, line).problems) out.push({ file, line: p.line, message: p.message, cellIndex });
    const name = cell.metadata.attributes?.name;
    if (name === undefined) return;
    const first = names.get(name);
    if (first !== undefined) out.push({ file, line, message: `another cell (line ${first}) is already named "${quoteCut(name)}"`, cellIndex });
    else names.set(name, line);
  });
  return out.sort((a, b) => a.line - b.line);
}

/** The problems of cells as they are now (after edits in the editor), located in the file they serialise to. */
export function notebookProblems(cells: readonly NotebookCellData[], file = 'notebook.awb.md'): NotebookProblem[] {
  return cellProblems(
    cells,
    cellStartLines(cells).map((line) => line - 1),
    file,
  );
}

/** Re-serialises one code cell from its value and attributes, keeping its fence style where it can. */
function renderCode(cell: NotebookCellData, layout: CellLayout | undefined, eol: Eol): string {
  const char = layout && openingFence(firstLine(layout.core))?.char === '~' ? '~' : '`';
  const lines = cell.value === '' ? [] : cell.value.split(/\r\n|\r|\n/);
  let longest = 2;
  for (const l of lines) {
    const m = /^ {0,3}([`~]+)/.exec(l);
    if (m && m[1][0] === char) longest = Math.max(longest, m[1].length);
  }
  const fence = char.repeat(longest + 1);
  const attrs = formatAttributes(cell.metadata.attributes);
  const info = attrs ? `${cell.language} ${attrs}` : cell.language;
  return [fence + info, ...lines, fence].join(eol) + eol;
}

function firstLine(text: string): string {
  return /^[^\r\n]*/.exec(text)![0];
}

function unchanged(cell: NotebookCellData, layout: CellLayout): boolean {
  if (cell.value !== layout.value) return false;
  if (cell.kind === 'markup') return layout.info === '';
  const info = parseFenceInfo(layout.info);
  return info.language === cell.language && sameAttributes(info.attributes, cell.metadata.attributes);
}

/** Each cell's text as written: [blank lines before, its own text, blank lines after]. */
function chunks(data: Pick<NotebookData, 'cells'> & Partial<Pick<NotebookData, 'metadata'>>): Array<[string, string, string]> {
  const docEol = data.metadata?.eol ?? data.cells.find((c) => c.metadata.layout)?.metadata.layout?.eol ?? '\n';
  const out: Array<[string, string, string]> = [];
  let endsOpen = false;
  let empty = true;
  for (const cell of data.cells) {
    const layout = cell.metadata.layout;
    let piece: [string, string, string];
    if (layout && unchanged(cell, layout)) piece = [layout.before, layout.core, layout.after];
    else {
      const eol = layout?.eol ?? docEol;
      const core = cell.kind === 'code' ? renderCode(cell, layout, eol) : cell.value === '' ? '' : cell.value.split(/\r\n|\r|\n/).join(eol) + eol;
      // A new cell gets a blank line before it, so it stays a cell of its own when read again.
      piece = [layout ? layout.before : empty ? '' : eol, core, layout?.after ?? ''];
    }
    const text = piece.join('');
    // The cell before ended the file without a line end; something follows it now.
    if (endsOpen && text) piece[0] = docEol + piece[0];
    if (text) {
      endsOpen = !/[\r\n]$/.test(text);
      empty = false;
    }
    out.push(piece);
  }
  return out;
}

/** Writes cells back; unchanged cells give back the bytes they were read from. */
export function serializeNotebook(data: Pick<NotebookData, 'cells'> & Partial<Pick<NotebookData, 'metadata'>>): string {
  return chunks(data)
    .map((c) => c.join(''))
    .join('');
}

function lineBreaks(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length;
}

/** The 1-based line each cell starts on (a code cell: its opening fence) in the serialised file. */
export function cellStartLines(cells: readonly NotebookCellData[]): number[] {
  let line = 1;
  return chunks({ cells: [...cells] }).map(([before, core, after]) => {
    const start = line + lineBreaks(before);
    line = start + lineBreaks(core) + lineBreaks(after);
    return start;
  });
}
