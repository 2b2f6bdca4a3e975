// Where a cursor is inside a JSON body that is still being typed: the path of keys to the object
// or array it is in, and whether a key or a value goes there. Tolerant: unclosed strings and
// brackets, `{{variables}}` standing for values, and anything after the cursor are fine.
export interface JsonCursor {
  /** Keys and indexes from the body to the container the cursor is in. */
  path: Array<string | number>;
  /** A key of an object goes here, or the value of `key` (or an array's item). */
  slot: 'key' | 'value';
  /** The key whose value is being written (slot 'value' in an object). */
  key?: string;
  /** The cursor is inside a string: `typed` is its text so far, `quoteStart` the offset of its opening quote. */
  inString: boolean;
  typed: string;
  quoteStart?: number;
}

interface Frame {
  kind: 'object' | 'array';
  key?: string;
  expectingKey: boolean;
  index: number;
}

export function jsonCursor(text: string, offset: number): JsonCursor | undefined {
  const stack: Frame[] = [];
  let lastString: string | undefined;
  let i = 0;
  while (i < offset) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') {
        if (text[j] === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
          continue;
        }
        value += text[j];
        j++;
      }
      if (offset <= j) {
        // The cursor is inside this string.
        return cursorFrom(stack, true, text.slice(start + 1, offset), start);
      }
      lastString = value;
      const top = stack.at(-1);
      if (top?.kind === 'object' && top.expectingKey) top.key = value;
      i = j + 1;
      continue;
    }
    if (c === '{' && text[i + 1] === '{') {
      const close = text.indexOf('}}', i);
      if (close === -1 || close + 2 > offset) return undefined;
      i = close + 2;
      continue;
    }
    const top = stack.at(-1);
    switch (c) {
      case '{':
        stack.push({ kind: 'object', expectingKey: true, index: 0 });
        break;
      case '[':
        stack.push({ kind: 'array', expectingKey: false, index: 0 });
        break;
      case '}':
      case ']':
        stack.pop();
        break;
      case ':':
        if (top?.kind === 'object') {
          top.expectingKey = false;
          top.key ??= lastString;
        }
        break;
      case ',':
        if (top?.kind === 'object') {
          top.expectingKey = true;
          top.key = undefined;
        } else if (top) top.index++;
        break;
    }
    i++;
  }
  return cursorFrom(stack, false, '', undefined);
}

function cursorFrom(stack: readonly Frame[], inString: boolean, typed: string, quoteStart: number | undefined): JsonCursor | undefined {
  const top = stack.at(-1);
  if (!top) return undefined;
  const path: Array<string | number> = [];
  for (const f of stack.slice(0, -1)) path.push(f.kind === 'object' ? (f.key ?? '') : f.index);
  if (top.kind === 'array') return { path: [...path, top.index], slot: 'value', inString, typed, quoteStart };
  if (top.expectingKey) return { path, slot: 'key', inString, typed, quoteStart };
  return { path, slot: 'value', key: top.key, inString, typed, quoteStart };
}
