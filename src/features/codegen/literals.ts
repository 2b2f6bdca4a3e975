// Values as source code, laid out the way each language's formatter leaves them (black for Python,
// prettier's defaults for JavaScript): a collection stays on one line when the line fits, else one
// element a line with a trailing comma; a call's arguments likewise. The generated code passes
// `black --check` and `prettier --check` unchanged (test/unit/codegen proves it).

/** Source code to write as it is (an expression reading an earlier answer, an env variable). */
export class Code {
  constructor(readonly code: string) {}
}

export interface Style {
  width: number;
  indent: string;
  string(s: string): string;
  key(k: string): string;
  /** Inside braces: `{a: 1}` (black) or `{ a: 1 }` (prettier). */
  braceSpace: string;
  literal(v: null | boolean): string;
}

/** black: double quotes unless single ones need fewer escapes. */
function pyString(s: string): string {
  const double = JSON.stringify(s);
  if (!s.includes('"') || s.includes("'")) return double;
  return `'${double.slice(1, -1).replace(/\\"/g, '"')}'`;
}

/** prettier: double quotes unless single ones need fewer escapes. */
function jsString(s: string): string {
  const double = JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const doubles = (s.match(/"/g) ?? []).length;
  const singles = (s.match(/'/g) ?? []).length;
  if (doubles <= singles) return double;
  return `'${double.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const PYTHON: Style = {
  width: 88,
  indent: '    ',
  string: pyString,
  key: pyString,
  braceSpace: '',
  literal: (v) => (v === null ? 'None' : v ? 'True' : 'False'),
};

export const JAVASCRIPT: Style = {
  width: 80,
  indent: '  ',
  string: jsString,
  key: (k) => (IDENTIFIER.test(k) ? k : jsString(k)),
  braceSpace: ' ',
  literal: (v) => String(v),
};

/** `value` as source at nesting `depth`; `lead` characters precede it on its line and `trail` follow it. */
export function literal(style: Style, value: unknown, depth = 0, lead = 0, trail = 0): string {
  const flat = flatLiteral(style, value);
  if (lead + flat.length + trail <= style.width || !isCollection(value)) return flat;
  const inner = style.indent.repeat(depth + 1);
  const entries = Array.isArray(value)
    ? value.map((v) => inner + literal(style, v, depth + 1, inner.length, 1))
    : Object.entries(value as Record<string, unknown>).map(([k, v]) => {
        const head = `${inner}${style.key(k)}: `;
        const text = literal(style, v, depth + 1, head.length, 1);
        // prettier moves a value too long for the key's line to a line of its own; black leaves it.
        if (style === JAVASCRIPT && !isCollection(v) && !text.includes('\n') && head.length + text.length + 1 > style.width)
          return `${head.trimEnd()}\n${inner}${style.indent}${text}`;
        return head + text;
      });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${entries.join(',\n')},\n${style.indent.repeat(depth)}${close}`;
}

function isCollection(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !(v instanceof Code) && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
}

function flatLiteral(style: Style, value: unknown): string {
  if (value instanceof Code) return value.code;
  if (value === null || typeof value === 'boolean') return style.literal(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return style.string(value);
  if (Array.isArray(value)) return `[${value.map((v) => flatLiteral(style, v)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return '{}';
    return `{${style.braceSpace}${entries.map(([k, v]) => `${style.key(k)}: ${flatLiteral(style, v)}`).join(', ')}${style.braceSpace}}`;
  }
  return style.literal(null);
}

/**
 * A Python call `head(name=value, …)` (a name '' for a positional argument) as black lays it out: one line; else the arguments together on
 * the next line; else one a line with a trailing comma.
 */
export function pyCall(head: string, args: ReadonlyArray<[string, unknown]>, depth = 0, lead = 0, trail = 0): string {
  // An empty name: a positional argument.
  const named = (k: string) => (k ? `${k}=` : '');
  const parts = args.map(([k, v]) => `${named(k)}${flatLiteral(PYTHON, v)}`);
  const flat = `${head}(${parts.join(', ')})`;
  if (lead + flat.length + trail <= PYTHON.width) return flat;
  const inner = PYTHON.indent.repeat(depth + 1);
  const joined = parts.join(', ');
  const close = `${PYTHON.indent.repeat(depth)})`;
  if (inner.length + joined.length <= PYTHON.width && close.length + trail <= PYTHON.width) return `${head}(\n${inner}${joined}\n${close}`;
  const lines = args.map(([k, v]) => `${inner}${named(k)}${literal(PYTHON, v, depth + 1, inner.length + named(k).length, 1)},`);
  return `${head}(\n${lines.join('\n')}\n${close}`;
}

/** A JavaScript call with one object argument, `head({ … })`, as prettier lays it out (the object hugged). */
export function jsCall(head: string, arg: Record<string, unknown>, depth = 0, lead = 0, trail = 0): string {
  return `${head}(${literal(JAVASCRIPT, arg, depth, lead + head.length + 1, trail + 1)})`;
}
