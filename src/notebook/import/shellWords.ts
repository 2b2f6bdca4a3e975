// Splits a POSIX-shell command line into words the way bash would before running it, without
// expanding anything: `$OPENAI_API_KEY` stays as written (it names a key, never holds one).
// Reading stops at the first pipe, redirection or command separator (`| jq .`, `> out.json`,
// `&& echo`): what follows is not part of the request.
import { ImportError } from './types';

export interface ShellWord {
  text: string;
  /** 1-based line the word starts on. */
  line: number;
}

export interface ShellCommand {
  words: ShellWord[];
  /** The operator reading stopped at (`|`, `>`, `;`, `&&`…), when there was one. */
  stoppedAt?: { operator: string; line: number };
}

/** Comments and blank lines only: what may follow a command in a snippet file (`# [END …]`). */
const ONLY_COMMENTS = /^(\s*(#[^\n]*)?\n)*\s*(#[^\n]*)?$/;

/** The operator starting at `i` when it ends the command; `&` inside a word (`?a=1&b=2`) is kept, as users mean it. */
function operatorAt(text: string, i: number): string | undefined {
  const c = text[i];
  if (c === '|' || c === ';') return text[i + 1] === c ? c + c : c;
  if (c === '>' || c === '<') return text[i + 1] === c || text[i + 1] === '&' ? c + text[i + 1] : c;
  if (c === '&' && (text[i + 1] === '&' || text[i + 1] === '>' || i + 1 >= text.length || /\s/.test(text[i + 1]))) return text[i + 1] === '&' ? '&&' : '&';
  return undefined;
}

/** Words of `text`; a backslash-newline joins lines, `#` at a word start begins a comment. */
export function shellWords(text: string, source: string): ShellCommand {
  const words: ShellWord[] = [];
  let line = 1;
  let i = 0;
  let current: string | undefined;
  let startLine = 1;
  const push = () => {
    if (current !== undefined) words.push({ text: current, line: startLine });
    current = undefined;
  };
  const begin = () => {
    if (current === undefined) {
      current = '';
      startLine = line;
    }
  };
  const unterminated = (quote: string, from: number): never => {
    throw new ImportError(source, `line ${from}`, `the ${quote} quote opened here is never closed`);
  };
  while (i < text.length) {
    const c = text[i];
    // A backslash-newline joins lines; so does cmd.exe's caret (`curl … ^`), as Windows docs write them.
    if ((c === '\\' || (c === '^' && current === undefined)) && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\n' ? 2 : 3;
      line++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      // An unescaped line end ends the command; a pasted prompt often has one at the end.
      push();
      if (c === '\r' && text[i + 1] === '\n') i++;
      i++;
      line++;
      // A line that starts with an option continues the command whose backslashes were lost in a
      // copy (docs and chat answers print them so): no command starts with `-H`.
      if (words.length > 0 && /^[ \t]*-/.test(text.slice(i))) continue;
      if (words.length > 0 && !ONLY_COMMENTS.test(text.slice(i).replace(/\r\n?/g, '\n'))) {
        throw new ImportError(source, `line ${line}`, 'more than one command: put a backslash at the end of each line that continues the curl command');
      }
      continue;
    }
    if (c === ' ' || c === '\t') {
      push();
      i++;
      continue;
    }
    const operator = operatorAt(text, i);
    if (operator) {
      // `2>` and `2>&1`: the descriptor number belongs to the redirection, not to the command.
      if ((operator.startsWith('>') || operator.startsWith('<')) && current !== undefined && /^\d+$/.test(current)) current = undefined;
      push();
      return { words, stoppedAt: { operator, line } };
    }
    if (c === '#' && current === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    begin();
    if (c === "'") {
      const from = line;
      const end = text.indexOf("'", i + 1);
      if (end === -1) unterminated('single', from);
      const piece = text.slice(i + 1, end);
      line += (piece.match(/\n/g) ?? []).length;
      current += piece;
      i = end + 1;
    } else if (c === '$' && text[i + 1] === "'") {
      const from = line;
      const { value, end } = ansiC(text, i + 2);
      if (end === -1) unterminated("$'", from);
      line += (text.slice(i, end).match(/\n/g) ?? []).length;
      current += value;
      i = end + 1;
    } else if (c === '"') {
      const from = line;
      i++;
      let closed = false;
      while (i < text.length) {
        const d = text[i];
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < text.length) {
          const n = text[i + 1];
          if (n === '\n') line++;
          // Inside double quotes a backslash only escapes $ ` " \ and a line end.
          if (n === '\n') i += 2;
          else if ('$`"\\'.includes(n)) {
            current += n;
            i += 2;
          } else {
            current += d;
            i++;
          }
          continue;
        }
        if (d === '\n') line++;
        current += d;
        i++;
      }
      if (!closed) unterminated('double', from);
    } else if (c === '\\') {
      if (i + 1 < text.length) current += text[i + 1];
      i += 2;
    } else {
      current += c;
      i++;
    }
  }
  push();
  return { words };
}

const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  v: '\v',
};

/** `$'…'` (bash ANSI-C quoting): the value, and the index of the closing quote (-1 when none). */
function ansiC(text: string, from: number): { value: string; end: number } {
  let value = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'") return { value, end: i };
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1];
      const hex = n === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2)) : null;
      if (hex) {
        value += String.fromCharCode(parseInt(hex[0], 16));
        i += 1 + hex[0].length;
      } else {
        value += ANSI_ESCAPES[n] ?? `\\${n}`;
        i++;
      }
      continue;
    }
    value += c;
  }
  return { value, end: -1 };
}

/**
 * True when `text` ends inside a quoted argument (`--data-raw '{` with the JSON on the next
 * lines): the command goes on past the line's end even without a backslash.
 */
export function endsInsideQuote(text: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"') quote = c;
    // A comment runs to the line's end: its quotes open nothing.
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end;
    }
  }
  return quote !== undefined;
}
