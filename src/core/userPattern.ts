// Every regular expression a user writes (a notebook's `matches /re/` check, the Realtime
// Inspector's filter, a JSON Schema `pattern` the playground checks answers with) runs here, on
// RE2JS: a port of RE2 whose matching time grows linearly with the text, whatever the pattern. With
// JavaScript's own engine, `(a+)+$` against "aaaa…!" never returns and `.*error.*` over a long line
// takes quadratic time; a CLI run would ignore its timeout and Ctrl-C, and the editor would freeze.
// RE2 has no backreferences or lookaround (they are what cannot be bounded): a pattern using them
// is refused with a message naming it, never run unbounded.
import type * as Re2js from 're2js';
import { estimateProgramSize } from './patternSize';
import { sharedAcrossBundles } from './sharedClass';

export class PatternError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.PatternError');
  }

  constructor(
    readonly source: string,
    readonly reason: string,
  ) {
    super(`/${source}/ cannot be used: ${reason}`);
    this.name = 'PatternError';
  }
}

export interface UserPattern {
  readonly source: string;
  /** True when the pattern matches anywhere in `text` (as JavaScript's RegExp.test). */
  test(text: string): boolean;
}

let re2jsModule: typeof Re2js | undefined;

/**
 * RE2JS (~150 KB) is loaded by the first pattern compiled, not by everything that can compile one:
 * a CLI run whose checks have no `matches /re/` never parses it (issue 39). esbuild.mjs points this
 * require at dist/re2js.js, shared by the editor's bundles and the CLI.
 */
function re2js(): typeof Re2js.RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  return (re2jsModule ??= require('re2js') as typeof Re2js).RE2JS;
}

const UNSUPPORTED = /invalid escape sequence: `\\[1-9]|unsupported Perl syntax: `\(\?[=!<]|invalid named capture: `\(\?<[=!]/;

/**
 * Compiles `source` with JavaScript-style `flags` (i, m, s; g, y, d and u change nothing for a
 * yes/no test: RE2 always reads Unicode). Throws PatternError when it is not a pattern RE2 reads.
 */
export function compileUserPattern(source: string, flags = ''): UserPattern {
  const unknown = [...flags].filter((f) => !'imsugyd'.includes(f));
  if (unknown.length) throw new PatternError(source, `unknown flag ${unknown.join('')} (use i, m or s)`);
  const searched = withoutEdgeWildcards(source);
  if (searched === '') return { source, test: () => true };
  if (!flags.includes('i') && isPlainLiteral(searched)) return { source, test: (text) => text.includes(searched) };
  const size = estimateProgramSize(searched);
  if (size > MAX_PROGRAM_SIZE) {
    throw new PatternError(
      source,
      `pattern too large: its counted repetitions expand to ${size.toLocaleString('en-US')} instructions (limit ${MAX_PROGRAM_SIZE.toLocaleString('en-US')}); use + or * instead of large {n,m} counts, or fewer of them`,
    );
  }
  let re: Re2js.RE2JS;
  try {
    const engine = re2js();
    re = engine.compile(
      searched,
      (flags.includes('i') ? engine.CASE_INSENSITIVE : 0) | (flags.includes('m') ? engine.MULTILINE : 0) | (flags.includes('s') ? engine.DOTALL : 0),
    );
  } catch (e) {
    // RE2JS writes the flags into the pattern it quotes (`(?i)…`): the user wrote no such thing.
    const text = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, '').replace(/`\(\?[ims]+\)/g, '`');
    throw new PatternError(
      source,
      UNSUPPORTED.test(text) ? `backreferences and lookaround cannot be checked in bounded time; write the pattern without them (${text})` : text,
    );
  }
  const find = (text: string) => {
    if (size > SMALL_PROGRAM && size * text.length > MAX_STEPS) {
      throw new PatternError(
        source,
        `searching ${text.length.toLocaleString('en-US')} characters with a pattern of ${size.toLocaleString('en-US')} instructions could take ${Math.round(size * text.length).toLocaleString('en-US')} steps (limit ${MAX_STEPS.toLocaleString('en-US')}); check a smaller part of the answer (a JSON path) or shorten the pattern's {n,m} counts`,
      );
    }
    return re.matcher(text).find();
  };
  // A plain word searched without case (the usual Inspector filter) is a substring search on ASCII
  // text, many times faster; other text goes to RE2, whose case folding is Unicode's.
  if (flags.includes('i') && isPlainLiteral(searched) && ASCII.test(searched)) {
    const lower = searched.toLowerCase();
    return { source, test: (text) => (ASCII.test(text) ? text.toLowerCase().includes(lower) : find(text)) };
  }
  return { source, test: find };
}

const ASCII = /^\p{ASCII}*$/u;

// Each character searched may step every instruction of the program once (~13 ns each here, more
// for programs too big for the CPU cache), and a search cannot be interrupted: a CLI run's --timeout
// and Ctrl-C, and the editor, wait for it. The limits keep any one search under about half a second.
/** Larger programs are refused when compiled (`.{0,1000}` is ~2,000; sixty `[ab]{1,1000}` 120,000). */
const MAX_PROGRAM_SIZE = 5_000;
/** Instructions × characters allowed for one search by a program larger than SMALL_PROGRAM. */
const MAX_STEPS = 40_000_000;
/**
 * Programs this small are not limited by the length of the text: the ones people write (a word, a
 * date, `"id":"[0-9a-f]{32}"`) run on RE2's DFA and prefilters in milliseconds over megabytes.
 */
const SMALL_PROGRAM = 300;

/** `/re/flags` as a check writes it, or undefined when `value` is not in that form. */
export function parseSlashPattern(value: string): { source: string; flags: string } | undefined {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(value);
  return m ? { source: m[1], flags: m[2] } : undefined;
}

/**
 * For a yes/no search a leading or trailing `.*` changes nothing (it may match the empty string),
 * but it costs a pass over the line for each start: `.*error.*` is searched as `error`.
 */
function withoutEdgeWildcards(source: string): string {
  let s = source;
  while (s.startsWith('.*') && !s.startsWith('.*?') && !s.startsWith('.**')) s = s.slice(2);
  while (s.endsWith('.*') && !escaped(s, s.length - 2)) s = s.slice(0, -2);
  return s;
}

/** Whether the character at `i` is escaped (preceded by an odd number of backslashes). */
function escaped(s: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

function isPlainLiteral(source: string): boolean {
  return !/[\\^$.|?*+()[\]{}]/.test(source);
}
