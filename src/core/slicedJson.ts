// JSON.parse for answers too big to parse in one go on the extension host's thread (a single
// JSON.parse of 20 MB holds it for about 150 ms). The text's structure is walked only where it is
// big: every run of small values (an array's elements, an object's members, up to LEAF_CHARS of
// text) is handed to the native JSON.parse in one piece, so almost all of the work stays native,
// and the event loop gets a turn between pieces. Same result as JSON.parse, same inputs refused.
import { runSliced, TimeSlicer } from './timeSlicer';

/** Below this the native parser takes about a millisecond: no slicing. */
export const SLICED_JSON_MIN_CHARS = 256 * 1024;
/** The most text one native parse is given (when the values allow): ~0.3 ms of work. */
const LEAF_CHARS = 32 * 1024;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON.parse(text), giving the event loop a turn every few milliseconds when the text is big. */
export async function parseJsonSliced(text: string, slicer = new TimeSlicer()): Promise<unknown> {
  if (text.length < SLICED_JSON_MIN_CHARS) return JSON.parse(text);
  try {
    return await runSliced(new Scanner(text, () => slicer.due()).document(), slicer);
  } catch (e) {
    // Nesting deeper than the walk's stack allows: the native parser is iterative and can take it.
    if (e instanceof RangeError) return JSON.parse(text);
    throw e;
  }
}

class Scanner {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly due: () => boolean,
  ) {}

  *document(): Generator<void, unknown> {
    this.skipSpace();
    const value = yield* this.value();
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail('unexpected text after the value');
    return value;
  }

  /** The value at pos, which is not white space; pos ends just after it. */
  private *value(): Generator<void, unknown> {
    const start = this.pos;
    const end = this.endWithin(start, start + LEAF_CHARS);
    if (end >= 0) {
      this.pos = end;
      return JSON.parse(this.text.slice(start, end)) as unknown;
    }
    const c = this.text.charCodeAt(start);
    if (c === OPEN_BRACKET) return yield* this.array();
    if (c === OPEN_BRACE) return yield* this.object();
    // A string longer than a leaf: one native parse of exactly that string.
    this.pos = this.stringEnd(start);
    return JSON.parse(this.text.slice(start, this.pos)) as unknown;
  }

  private *array(): Generator<void, unknown[]> {
    const out: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === CLOSE_BRACKET) {
      this.pos++;
      return out;
    }
    // A run of small elements, from runStart, parsed natively as one array when it is long enough.
    let runStart = -1;
    let runEnd = -1;
    const flush = () => {
      if (runStart < 0) return;
      const run = JSON.parse(`[${this.text.slice(runStart, runEnd)}]`) as unknown[];
      for (const v of run) out.push(v);
      runStart = -1;
    };
    for (;;) {
      this.skipSpace();
      const start = this.pos;
      const end = this.endWithin(start, start + LEAF_CHARS);
      if (end >= 0) {
        if (runStart < 0) runStart = start;
        this.pos = runEnd = end;
        if (end - runStart >= LEAF_CHARS) flush();
      } else {
        flush();
        out.push(yield* this.value());
      }
      this.skipSpace();
      const sep = this.text.charCodeAt(this.pos);
      if (sep === CLOSE_BRACKET) {
        flush();
        this.pos++;
        return out;
      }
      if (sep !== COMMA) this.fail("expected ',' or ']'");
      if (this.due()) yield;
      this.pos++;
    }
  }

  private *object(): Generator<void, Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === CLOSE_BRACE) {
      this.pos++;
      return out;
    }
    let runStart = -1;
    let runEnd = -1;
    const flush = () => {
      if (runStart < 0) return;
      const run = JSON.parse(`{${this.text.slice(runStart, runEnd)}}`) as Record<string, unknown>;
      for (const k of Object.keys(run)) set(out, k, run[k]);
      runStart = -1;
    };
    for (;;) {
      this.skipSpace();
      const memberStart = this.pos;
      if (this.text.charCodeAt(memberStart) !== QUOTE) this.fail('expected a member name');
      const keyEnd = this.stringEnd(memberStart);
      this.pos = keyEnd;
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== COLON) this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      const start = this.pos;
      const end = this.endWithin(start, start + LEAF_CHARS);
      if (end >= 0) {
        if (runStart < 0) runStart = memberStart;
        this.pos = runEnd = end;
        if (end - runStart >= LEAF_CHARS) flush();
      } else {
        flush();
        const key = JSON.parse(this.text.slice(memberStart, keyEnd)) as string;
        set(out, key, yield* this.value());
      }
      this.skipSpace();
      const sep = this.text.charCodeAt(this.pos);
      if (sep === CLOSE_BRACE) {
        flush();
        this.pos++;
        return out;
      }
      if (sep !== COMMA) this.fail("expected ',' or '}'");
      if (this.due()) yield;
      this.pos++;
    }
  }

  /**
   * Where the value starting at `start` ends, if it ends before `limit`; -1 when it is longer.
   * Only finds the extent: the native parse of that extent checks it.
   */
  private endWithin(start: number, limit: number): number {
    const text = this.text;
    const c = text.charCodeAt(start);
    if (c === QUOTE) {
      const end = this.stringEnd(start);
      return end <= limit ? end : -1;
    }
    if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
      // A number or a literal: up to the next separator.
      let i = start;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === COMMA || d === CLOSE_BRACKET || d === CLOSE_BRACE || d === COLON || isSpace(d) || d === QUOTE || d === OPEN_BRACE || d === OPEN_BRACKET)
          break;
        i++;
      }
      if (i === start) this.fail('expected a value');
      return i;
    }
    let depth = 0;
    let i = start;
    const end = Math.min(limit, text.length);
    while (i < end) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) {
        i = this.stringEnd(i);
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
      i++;
    }
    if (i >= text.length) this.fail('unexpected end of JSON input');
    return -1;
  }

  /** Just past the closing quote of the string that opens at `start`. */
  private stringEnd(start: number): number {
    const text = this.text;
    let from = start + 1;
    for (;;) {
      const q = text.indexOf('"', from);
      if (q < 0) this.fail('unterminated string');
      // The quote is escaped when an odd number of backslashes precede it.
      let slashes = 0;
      while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return q + 1;
      from = q + 1;
    }
  }

  private skipSpace(): void {
    while (isSpace(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} in JSON at position ${this.pos}`);
  }
}

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB;
}

/** As JSON.parse sets a member: "__proto__" becomes an own property, not the object's prototype. */
function set(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
