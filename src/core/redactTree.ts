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
  return runAtOnce(
    walk(
      value,
      new Walk(
        redactor,
        () => false,
        () => false,
      ),
    ),
  ) as T;
}

/** The same, pausing for the event loop whenever a slice is used up. */
export function redactTreeSliced<T>(value: T, redactor: Redactor, slicer = new TimeSlicer()): Promise<T> {
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
  if (Array.isArray(v)) {
    const list: unknown[] = v;
    let copy: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      const x = isShortText(item) ? w.redactor.text(item) : holdsText(item) ? yield* walk(item, w, depth + 1) : item;
      if (x !== item) (copy ??= list.slice())[i] = x;
      if (w.due()) yield;
    }
    return copy ?? list;
  }
  const record = v as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Array<[string, unknown]> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const item = record[k];
    const key = w.name(k);
    const x = isShortText(item) ? w.redactor.text(item) : holdsText(item) ? yield* walk(item, w, depth + 1) : item;
    if (!copy && (key !== k || x !== item)) copy = keys.slice(0, i).map((p): [string, unknown] => [p, record[p]]);
    copy?.push([key, x]);
    if (w.due()) yield;
  }
  return copy ? Object.fromEntries(copy) : v;
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
