// Every string anywhere in a value (member names included) through a Redactor, copying only what
// changes: a big parsed answer with nothing to mask comes back as it was, not as a second tree of
// hundreds of thousands of objects. A 20 MB answer has millions of strings, so the walk can be
// done in time slices (redactTreeSliced) to leave the extension host's event loop free.
import type { Redactor } from './redact';
import { runAtOnce, runSliced, TimeSlicer } from './timeSlicer';

/**
 * Longer strings (a whole answer's text) are redacted a piece at a time. A piece is one block of
 * the event loop: 1 MB took ~58 ms on a busy 2-core machine (the big-answer bench's p99 lag, issue
 * 39), 256 KB ~7 ms, near the slicer's 8 ms.
 */
const LONG_TEXT_CHARS = 256 * 1024;

/** The value with every string redacted, in one go (small values: messages, requests). */
export function redactTree<T>(value: T, redactor: Redactor): T {
  return runAtOnce(walk(value, new Walk(redactor, alwaysFalse, alwaysFalse))) as T;
}

/**
 * What quickWalk() may do in one go, in characters of text, a member or element counting as
 * MEMBER_CHARS: a few milliseconds even on a slow core, and more than most answers are (a list of
 * ~100 models is ~20 KB). A 20 MB answer of a few hundred long strings walked at once blocked the
 * event loop for 90 ms (the big-answer bench); past this, the sliced walk does it all.
 */
const QUICK_CHARS = 64 * 1024;
const MEMBER_CHARS = 16;

/** The same, pausing for the event loop whenever a slice is used up. */
export function redactTreeSliced<T>(value: T, redactor: Redactor, slicer = new TimeSlicer()): Promise<T> {
  const quick = quickWalk(value, new Walk(redactor, alwaysFalse, alwaysFalse), 0, { left: QUICK_CHARS });
  if (quick !== TOO_BIG) return Promise.resolve(quick as T);
  return runSliced(
    walk(
      value,
      new Walk(
        redactor,
        () => slicer.due(),
        () => slicer.expired(),
      ),
    ),
    slicer,
  ) as Promise<T>;
}

class Walk {
  /** Member names repeat in every element of a big array: each is redacted once per walk. */
  private readonly names = new Map<string, string>();

  constructor(
    readonly redactor: Redactor,
    /** After a small step (a member, an element). */
    readonly due: () => boolean,
    /** After a big step (a piece of a long text). */
    readonly expired: () => boolean,
  ) {}

  name(k: string): string {
    let v = this.names.get(k);
    if (v === undefined) this.names.set(k, (v = this.redactor.text(k)));
    return v;
  }
}

const alwaysFalse = () => false;

/** What quickWalk() returns for a value it leaves to the sliced walk. */
const TOO_BIG = Symbol('too big for one go');

/**
 * walk() as a plain recursive function, for values with at most `budget.left` characters of text
 * (MEMBER_CHARS for each member and element): a cell's result, nearly always. A generator per array
 * and object, and a check of the clock every 64 steps, made redaction ~5% of a 20-cell CLI run
 * (issue 39). Gives TOO_BIG as soon as the value turns out bigger; walk() then does it all, in slices
 * (the short strings it met again from the Redactor's memo).
 */
function quickWalk(v: unknown, w: Walk, depth: number, budget: { left: number }): unknown {
  if (typeof v === 'string') return v.length > LONG_TEXT_CHARS || (budget.left -= v.length) < 0 ? TOO_BIG : w.redactor.text(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_TREE_DEPTH) return DEEPER_THAN_SHOWN;
  const out = Array.isArray(v) ? new ListCopy(v) : new RecordCopy(v as Record<string, unknown>, w);
  for (let i = 0; i < out.size; i++) {
    const x = (budget.left -= MEMBER_CHARS) < 0 ? TOO_BIG : quickWalk(out.item(i), w, depth + 1, budget);
    if (x === TOO_BIG) return TOO_BIG;
    out.set(i, x);
  }
  return out.result();
}

/** An array as it was, or a copy from its first element that changed. */
class ListCopy {
  private copy: unknown[] | undefined;
  constructor(private readonly list: unknown[]) {}
  get size(): number {
    return this.list.length;
  }
  item(i: number): unknown {
    return this.list[i];
  }
  set(i: number, x: unknown): void {
    if (x !== this.list[i]) (this.copy ??= this.list.slice())[i] = x;
  }
  result(): unknown {
    return this.copy ?? this.list;
  }
}

/** An object as it was, or a copy from its first member whose name or value changed (names redacted too). */
class RecordCopy {
  private readonly keys: string[];
  private copy: Array<[string, unknown]> | undefined;
  constructor(
    private readonly record: Record<string, unknown>,
    private readonly w: Walk,
  ) {
    this.keys = Object.keys(record);
  }
  get size(): number {
    return this.keys.length;
  }
  item(i: number): unknown {
    return this.record[this.keys[i]];
  }
  set(i: number, x: unknown): void {
    const k = this.keys[i];
    const key = this.w.name(k);
    if (!this.copy && (key !== k || x !== this.record[k])) this.copy = this.keys.slice(0, i).map((p): [string, unknown] => [p, this.record[p]]);
    this.copy?.push([key, x]);
  }
  result(): unknown {
    return this.copy ? Object.fromEntries(this.copy) : this.record;
  }
}

/** Strings short enough for one Redactor.text() call: the common case, kept out of the generator. */
function isShortText(v: unknown): v is string {
  return typeof v === 'string' && v.length <= LONG_TEXT_CHARS;
}

/** A long string, an array or an object. */
function holdsText(v: unknown): boolean {
  return typeof v === 'string' || (v !== null && typeof v === 'object');
}

/**
 * Arrays and objects inside each other that the walk goes into: each level is a generator inside
 * the last, and a server's answer 10,000 levels deep overflowed the stack. What is deeper is
 * replaced by DEEPER_THAN_SHOWN (shown, not redacted: nothing of it is kept); the answer's text
 * still has it all, redacted as a string.
 */
export const MAX_TREE_DEPTH = 256;
export const DEEPER_THAN_SHOWN = `(nested deeper than ${MAX_TREE_DEPTH} levels: not shown)`;

function* walk(v: unknown, w: Walk, depth = 0): Generator<void, unknown> {
  if (typeof v === 'string') return v.length > LONG_TEXT_CHARS ? yield* longText(v, w) : w.redactor.text(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_TREE_DEPTH) return DEEPER_THAN_SHOWN;
  const out = Array.isArray(v) ? new ListCopy(v) : new RecordCopy(v as Record<string, unknown>, w);
  for (let i = 0; i < out.size; i++) {
    const item = out.item(i);
    out.set(i, isShortText(item) ? w.redactor.text(item) : holdsText(item) ? yield* walk(item, w, depth + 1) : item);
    if (w.due()) yield;
  }
  return out.result();
}

/**
 * Redactor.text() of a long text, a piece at a time, cut just before a `"` that follows `",`
 * (between two strings of a JSON text), where no pattern match can be cut in two: bearer tokens
 * and query values hold no `"`, and a secret-named member's value would have to be exactly ","
 * (that cut is skipped). A secret value can only span a cut if it holds `,"`: then secrets are
 * masked in one pass over the whole text first. A text with no such place (not JSON) is done in
 * one piece.
 */
function* longText(text: string, w: Walk): Generator<void, string> {
  const r = w.redactor;
  const whole = r.secretsHold(',"');
  const masked = whole ? r.maskSecrets(text) : text;
  const pieces: string[] = [];
  let changed = masked !== text;
  for (let from = 0; from < masked.length;) {
    const to = cutAfter(masked, from + LONG_TEXT_CHARS);
    const piece = masked.slice(from, to);
    const done = whole ? r.maskPatterns(piece) : r.text(piece);
    changed ||= done !== piece;
    pieces.push(done);
    from = to;
    if (w.expired()) yield;
  }
  return changed ? pieces.join('') : text;
}

/** The first safe cut at or after `at`, or the text's end. */
function cutAfter(text: string, at: number): number {
  for (let i = text.indexOf('","', at); i >= 0; i = text.indexOf('","', i + 1)) {
    // `"name": ","` is a member whose value is a comma: a cut there would split it from its name.
    let j = i - 1;
    while (j >= 0 && /\s/.test(text[j])) j--;
    if (text[j] !== ':') return i + 2;
  }
  return text.length;
}
