// How many instructions RE2 will compile a pattern into, read from its text before compiling it.
// RE2's matching time is linear in the text but also in the program: each character of the text
// may step every instruction once. Counted repetitions are written out in full (`[ab]{1,1000}` is
// ~2,000 instructions), so sixty of them in a row make a 120,000-instruction program: RE2JS takes a
// second to compile it and 73 s to search 4 KB, and its own limit (~1.4 M, as Go's) lets it through.
// The measure is the one RE2's parser uses for that limit (Parser.calcSize, not exported by RE2JS):
// a literal or class costs 1, a group 2 more, `x{n,m}` m copies of x and m−n branches. Anything this
// reader does not understand is counted as one literal; RE2JS still parses the pattern afterwards
// and refuses what is not valid, so the estimate only needs to be right for valid patterns.

/** The estimated number of instructions of the compiled program (at least 1). */
export function estimateProgramSize(source: string): number {
  const reader = new SizeReader(source);
  let size = reader.alternation();
  // A `)` with no `(` is a syntax error RE2JS reports; count what follows it anyway.
  while (reader.pos < source.length) {
    reader.pos++;
    size += reader.alternation();
  }
  return Math.max(1, size);
}

const COUNTED = /\{(\d+)(?:(,)(\d*))?\}/y;

class SizeReader {
  pos = 0;
  constructor(private readonly s: string) {}

  /** `a|b|c` up to the closing `)` of the enclosing group (not consumed) or the end. */
  alternation(): number {
    let size = this.concatenation();
    let branches = 1;
    while (this.s[this.pos] === '|') {
      this.pos++;
      size += this.concatenation();
      branches++;
    }
    return size + branches - 1;
  }

  private concatenation(): number {
    let size = 0;
    while (this.pos < this.s.length && this.s[this.pos] !== '|' && this.s[this.pos] !== ')') {
      let atom = this.atom();
      for (let q = this.quantifier(atom); q !== undefined; q = this.quantifier(atom)) atom = q;
      size += atom;
    }
    return size;
  }

  private atom(): number {
    const c = this.s[this.pos++];
    if (c === '(') {
      let capture = 2;
      if (this.s[this.pos] === '?') {
        capture = 0;
        const flagsEnd = /[):>]/g;
        flagsEnd.lastIndex = this.pos;
        const m = flagsEnd.exec(this.s);
        this.pos = m ? m.index + 1 : this.s.length;
        if (m?.[0] === ')') return 0; // `(?i)`: flags only, no group
        if (m?.[0] === '>') capture = 2; // `(?P<name>…)`, `(?<name>…)`
      }
      const inner = this.alternation();
      if (this.s[this.pos] === ')') this.pos++;
      return capture + inner;
    }
    if (c === '[') {
      this.skipClass();
      return 1;
    }
    if (c === '\\') return this.escape();
    return 1;
  }

  /** After `[`: to just past the class's closing `]`. */
  private skipClass(): void {
    if (this.s[this.pos] === '^') this.pos++;
    if (this.s[this.pos] === ']') this.pos++; // a leading ] is a literal
    while (this.pos < this.s.length && this.s[this.pos] !== ']') {
      if (this.s[this.pos] === '\\') {
        this.pos++;
        this.escape();
      } else if (this.s.startsWith('[:', this.pos)) {
        const end = this.s.indexOf(':]', this.pos + 2);
        this.pos = end < 0 ? this.pos + 1 : end + 2;
      } else this.pos++;
    }
    this.pos++;
  }

  /** After `\`: skips the escape, returns its size. */
  private escape(): number {
    const c = this.s[this.pos++];
    if (c === 'Q') {
      const end = this.s.indexOf('\\E', this.pos);
      const literal = end < 0 ? this.s.length - this.pos : end - this.pos;
      this.pos = end < 0 ? this.s.length : end + 2;
      return Math.max(1, literal);
    }
    if ((c === 'p' || c === 'P' || c === 'x') && this.s[this.pos] === '{') {
      const end = this.s.indexOf('}', this.pos);
      this.pos = end < 0 ? this.s.length : end + 1;
    } else if (c === 'p' || c === 'P') this.pos++;
    else if (c === 'x') this.pos += 2;
    return 1;
  }

  /** A quantifier after an atom of `sub` instructions: the quantified size, or undefined when none follows. */
  private quantifier(sub: number): number | undefined {
    const c = this.s[this.pos];
    let size: number;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      size = (c === '*' ? 2 : 1) + sub;
    } else if (c === '{') {
      COUNTED.lastIndex = this.pos;
      const m = COUNTED.exec(this.s);
      if (!m) return undefined; // a `{` that is not a repetition is a literal
      this.pos = COUNTED.lastIndex;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
      if (max === -1) size = min === 0 ? 2 + sub : 1 + min * sub;
      else size = max * sub + (max - min);
    } else return undefined;
    if (this.s[this.pos] === '?') this.pos++; // non-greedy: same size
    return Math.max(1, size);
  }
}
