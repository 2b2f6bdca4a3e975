// Keys and unresolved `{{variables}}` are read from the environment in generated code, never
// written. An exported request carries them as `shellVariable` markers (core/curl.ts); httpsnippet
// drops those characters, so they travel through it as an ASCII marker and every string literal
// holding one becomes a concatenation with the language's environment read.
import type { CodeLanguage } from './languages';

const SHELL_MARKER = /\uE000([A-Za-z_][A-Za-z0-9_]*)\uE001/g;
const MARKER = /XAWBENVX([A-Za-z_][A-Za-z0-9_]*?)XAWBENVX/;

/** The marker httpsnippet leaves alone (letters only). */
export function envMarker(name: string): string {
  return `XAWBENVX${name}XAWBENVX`;
}

/** `shellVariable` markers → ASCII markers. */
export function asciiMarkers(text: string): string {
  return text.replace(SHELL_MARKER, (_m, name: string) => envMarker(name));
}

export function hasMarker(text: string): boolean {
  return MARKER.test(text);
}

/** The names of the variables `text` reads. */
export function markerNames(text: string): string[] {
  return [...text.matchAll(new RegExp(MARKER.source, 'g'))].map((m) => m[1]);
}

type Plain = Exclude<CodeLanguage, 'curl' | 'python-sdk' | 'javascript-sdk'>;

const READS: Record<Plain, (name: string) => string> = {
  python: (n) => `os.environ[${JSON.stringify(n)}]`,
  javascript: (n) => `process.env.${n}`,
  go: (n) => `os.Getenv(${JSON.stringify(n)})`,
  java: (n) => `System.getenv(${JSON.stringify(n)})`,
  csharp: (n) => `Environment.GetEnvironmentVariable(${JSON.stringify(n)})`,
  php: (n) => `getenv('${n}')`,
};

export function envRead(language: 'python' | 'javascript', name: string): string {
  return READS[language](name);
}

const LITERAL = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g;

/** Every string literal of `code` that holds a marker, as a concatenation of its parts and the environment reads. */
export function readMarkersFromEnv(code: string, language: Plain): string {
  const join = language === 'php' ? ' . ' : ' + ';
  return code.replace(LITERAL, (literal) => {
    if (!MARKER.test(literal)) return literal;
    const quote = literal[0];
    const pieces = literal.slice(1, -1).split(new RegExp(MARKER.source, 'g'));
    const parts = pieces.flatMap((piece, i) => (i % 2 === 1 ? [READS[language](piece)] : piece === '' ? [] : [`${quote}${piece}${quote}`]));
    return parts.join(join);
  });
}
