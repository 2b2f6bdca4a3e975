// A request body's JSON read with where each key and value is, so a check against a schema can
// point at the field it is about. `{{variables}}` standing for a value are kept as references
// (their type is not known until the cell runs: never a reason to complain). Malformed JSON gives
// undefined: the malformed-json diagnostic already says where.
export type JsonNode =
  | { kind: 'object'; start: number; end: number; entries: JsonEntry[] }
  | { kind: 'array'; start: number; end: number; items: JsonNode[] }
  | { kind: 'value'; start: number; end: number; value: string | number | boolean | null }
  | { kind: 'reference'; start: number; end: number };

export interface JsonEntry {
  key: string;
  /** Offsets of the key with its quotes. */
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

class Fault extends Error {}

export function jsonTree(text: string): JsonNode | undefined {
  let i = 0;
  const space = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const fail = (): never => {
    throw new Fault();
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail();
    }
  };
  const value = (depth: number): JsonNode => {
    if (depth > 64) fail();
    space();
    const start = i;
    const c = text[i];
    if (c === '{' && text[i + 1] === '{') {
      const close = text.indexOf('}}', i);
      if (close === -1) fail();
      i = close + 2;
      return { kind: 'reference', start, end: i };
    }
    if (c === '{') {
      i++;
      const entries: JsonEntry[] = [];
      space();
      if (text[i] === '}') return { kind: 'object', start, end: ++i, entries };
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        const keyStart = i;
        const key = string();
        const keyEnd = i;
        space();
        if (text[i] !== ':') fail();
        i++;
        entries.push({ key, keyStart, keyEnd, value: value(depth + 1) });
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return { kind: 'object', start, end: ++i, entries };
        return fail();
      }
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      space();
      if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
      for (;;) {
        items.push(value(depth + 1));
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return { kind: 'array', start, end: ++i, items };
        return fail();
      }
    }
    if (c === '"') {
      const s = string();
      // "{{name}}" alone is a reference that the run fills in; any other string is taken as written.
      return /^\{\{[^{}]*\}\}$/.test(s) ? { kind: 'reference', start, end: i } : { kind: 'value', start, end: i, value: s };
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!m) return fail();
    i += m[0].length;
    return { kind: 'value', start, end: i, value: JSON.parse(m[0]) as boolean | number | null };
  };
  try {
    const root = value(0);
    space();
    return i === text.length ? root : undefined;
  } catch (e) {
    if (e instanceof Fault) return undefined;
    throw e;
  }
}
