// Completions and hover inside a cell's script blocks (`< {% … %}` above the request line,
// `> {% … %}` after it): the member list of `pm.`, `client.`, `response.`, `request.` and what a
// hovered member does, from the one table in ../scriptApi.ts.
import { scriptMember, scriptMembersOf, type ScriptMember } from '../scriptApi';
import { range } from './cellLayout';
import type { Completion, Hover } from './types';

const OPEN = /^(\s*[<>]\s*\{%)/;

/**
 * Whether line `line`, column `col` of the cell is script code: after `{%` of a block that opened
 * on this line or above and has not closed (`%}`) before the cursor.
 */
export function inScriptBlock(lines: readonly string[], line: number, col: number): boolean {
  let open = false;
  for (let i = 0; i <= line && i < lines.length; i++) {
    let text = i === line ? lines[i].slice(0, col) : lines[i];
    if (!open) {
      const m = OPEN.exec(text);
      if (!m) continue;
      open = true;
      text = text.slice(m[1].length);
      if (i === line && col < m[1].length) return false;
    }
    if (text.includes('%}')) open = false;
  }
  return open;
}

/**
 * The member chain ending at `end` of `text`, calls written as `()` whatever their arguments:
 * `pm.expect(body.id).to.be` → `pm.expect().to.be`. Undefined when there is none.
 */
function chainBefore(text: string, end: number): string | undefined {
  const parts: string[] = [];
  let i = end;
  for (;;) {
    let call = false;
    // A call's arguments, skipped to their opening parenthesis.
    while (i > 0 && text[i - 1] === ')') {
      let depth = 0;
      for (; i > 0; i--) {
        const c = text[i - 1];
        if (c === ')') depth++;
        else if (c === '(' && --depth === 0) break;
      }
      if (depth !== 0) return undefined;
      i--;
      call = true;
    }
    let start = i;
    while (start > 0 && /[\w$]/.test(text[start - 1])) start--;
    if (start === i) return undefined;
    parts.unshift(text.slice(start, i) + (call ? '()' : ''));
    if (start > 0 && text[start - 1] === '.') i = start - 1;
    else return parts.join('.');
  }
}

function describe(m: ScriptMember): string[] {
  const name = m.path.replace('pm.expect().', 'pm.expect(…).');
  return [`**${name}**${m.signature ? ` \`${m.signature}\`` : ''}`, m.doc, ...(m.unsupported ? [`Not run here: ${m.unsupported}`] : [])];
}

/** Members after a `.` typed in a script block (nothing outside the table's roots). */
export function scriptCompletions(before: string, line: number): Completion[] {
  const word = /[\w$]*$/.exec(before)![0];
  const dot = before.length - word.length - 1;
  const r = range(line, before.length - word.length, before.length);
  const base = dot >= 0 && before[dot] === '.' ? chainBefore(before, dot) : '';
  if (base === undefined) return [];
  // A root is offered only once a word is started: bare letters are the script's own code.
  if (base === '' && word === '') return [];
  return scriptMembersOf(base).map((m, i) => {
    const label = m.path.slice(m.path.lastIndexOf('.') + 1);
    return {
      label,
      kind: m.signature ? 'verb' : 'field',
      detail: m.unsupported ? `not run here: ${m.unsupported}` : (m.signature ?? m.doc),
      documentation: describe(m).join('\n\n'),
      range: r,
      // What scripts can do first, then what they cannot.
      sortText: `${m.unsupported ? 1 : 0}${String(i).padStart(3, '0')}`,
    };
  });
}

/** What the hovered member of `pm`, `client`, `response` or `request` does. */
export function scriptHover(text: string, line: number, col: number): Hover | undefined {
  let start = col;
  let end = col;
  while (start > 0 && /[\w$]/.test(text[start - 1])) start--;
  while (end < text.length && /[\w$]/.test(text[end])) end++;
  if (start === end) return undefined;
  const path = chainBefore(text, end);
  const member = path && scriptMember(path);
  return member ? { range: range(line, start, end), lines: describe(member) } : undefined;
}
