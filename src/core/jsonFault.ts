// Where a JSON text first goes wrong, and how to say it: JSON.parse's messages differ between Node
// versions and do not always give the position, so the body's fault is found by a small reader
// of our own (RFC 8259, no extensions). Undefined when the text is valid.
export interface JsonFault {
  offset: number;
  message: string;
}

class Fault extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Objects and arrays inside each other, at most: the reader recurses once per level, and a body
 * 10,000 levels deep ended `check` with a stack overflow. No request body needs more.
 */
export const MAX_JSON_DEPTH = 500;

export function jsonFault(text: string): JsonFault | undefined {
  let i = 0;
  let depth = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const found = () => (i >= text.length ? 'it ends' : `${JSON.stringify(text[i])} is`);
  const fail = (what: string): never => {
    throw new Fault(i, `${found()} where ${what} should be`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\n') fail('the string’s closing quote');
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('four hex digits after \\u');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      }
      i++;
    }
    if (i >= text.length) fail('the string’s closing quote');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if ((c === '{' || c === '[') && ++depth > MAX_JSON_DEPTH) throw new Fault(i, `objects and arrays are nested deeper than ${MAX_JSON_DEPTH} levels here`);
    try {
      container(c);
    } finally {
      if (c === '{' || c === '[') depth--;
    }
  };
  const container = (c: string | undefined): void => {
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a key in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail('a ":" after the key');
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('another key (JSON has no comma before "}")');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail('a "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('another value (JSON has no comma before "]")');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail('a "," or "]"');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) fail('a value');
    i += literal![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) throw new Fault(i, `${found()} after the end of the JSON value`);
    return undefined;
  } catch (e) {
    if (e instanceof Fault) return { offset: e.offset, message: e.message };
    throw e;
  }
}

/**
 * Where `text` first stops being JSON, as `line L column C` (1-based), without any of its
 * characters: for files that may hold anything (a schema file named wrongly, a key file), whose
 * content must never reach a message. Undefined when the text is JSON, or too deep to locate.
 */
export function jsonFaultPosition(text: string): string | undefined {
  let fault: JsonFault | undefined;
  try {
    fault = jsonFault(text);
  } catch {
    // Nested deeper than the reader's stack: the caller says "not valid JSON" without a position.
    return undefined;
  }
  if (!fault) return undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < fault.offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return `line ${line} column ${fault.offset - lineStart + 1}`;
}
