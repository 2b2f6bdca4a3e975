// A notebook as a program: `{{cell.json.path}}` becomes code that reads that cell's answer, an
// unknown `{{name}}` an environment read, as in Copy as Code. A reference travels through the
// exporters (notebook/import/exportHttp.ts fills variables) as an ASCII marker, like envRefs.ts's,
// and every string or JSON body holding markers becomes an expression in the program's language.
import { fillVariables, parsePath, type CurlVariables, type KnownValue } from '../../notebook/api';
import { asciiMarkers, envRead } from './envRefs';
import { Code, JAVASCRIPT, PYTHON, type Style } from './literals';

export type ProgramLanguage = 'python' | 'javascript';

/** The part of an earlier cell's answer a reference reads: `.json` and its path, `.status`, `.headers.x`… */
export interface CellReference {
  /** The program variable holding the cell's answer. */
  variable: string;
  part: string;
  path: Array<string | number>;
}

const PART = /^\.(json|status|headers|text|body|count|duration)(.*)$/;

/** The references a program reads, numbered by the markers standing for them. */
export class References {
  private readonly refs: CellReference[] = [];
  /** Cells that the references read, by name. */
  readonly read = new Set<string>();

  constructor(private readonly variables: ReadonlyMap<string, string>) {}

  /** For fillVariables: `{{place.json.id}}` of a cell above → a marker; anything else is left to it. */
  readonly known: KnownValue = (expr) => {
    const dot = expr.search(/[.[]/);
    const variable = dot > 0 ? this.variables.get(expr.slice(0, dot)) : undefined;
    const m = variable ? PART.exec(expr.slice(dot)) : null;
    if (!variable || !m) return undefined;
    const path = m[1] === 'headers' ? [m[2].replace(/^\./, '').toLowerCase()] : m[2] ? parsePath(m[2]) : [];
    if (!path) return undefined;
    this.read.add(expr.slice(0, dot));
    this.refs.push({ variable, part: m[1], path });
    return `XAWBREFX${this.refs.length - 1}XAWBREFX`;
  };

  get(index: number): CellReference {
    return this.refs[index];
  }
}

const STYLE: Record<ProgramLanguage, Style> = { python: PYTHON, javascript: JAVASCRIPT };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A request's `{{cell.json.path}}` as the code reading it: indexing into the answer, as a program
 * reads JSON (a missing field fails there, as the notebook stops at an unknown one); a model's text
 * through the programs' `part`, which reads it as the notebook does, streamed or not.
 */
export function referenceRead(language: ProgramLanguage, ref: CellReference): string {
  if (ref.part === 'text') return partRead(language, ref);
  const style = STYLE[language];
  const key = (k: string | number) => (typeof k === 'number' ? `[${k}]` : language === 'javascript' && IDENTIFIER.test(k) ? `.${k}` : `[${style.string(k)}]`);
  return `${ref.variable}${[ref.part, ...ref.path].map(key).join('')}`;
}

/** The runtime call that reads a part of an answer (the programs' `part` function). */
export function partRead(language: ProgramLanguage, ref: Pick<CellReference, 'variable' | 'part' | 'path'>): string {
  const style = STYLE[language];
  const path = `[${ref.path.map((p) => (typeof p === 'number' ? String(p) : style.string(p))).join(', ')}]`;
  return `part(${ref.variable}, ${style.string(ref.part)}, ${path})`;
}

// ENV and REF: inside a string, the value as text; RAWENV and RAWREF: outside one (a number in JSON).
const MARKERS = /XAWB(ENV|REF|RAWENV|RAWREF)X(\w+?)XAWB\1X/g;

function read(language: ProgramLanguage, refs: References, kind: string, name: string): string {
  if (kind === 'ENV') return envRead(language, name);
  if (kind === 'RAWENV') return language === 'python' ? `json.loads(${envRead(language, name)})` : `JSON.parse(${envRead(language, name)})`;
  const part = referenceRead(language, refs.get(Number(name)));
  return kind === 'REF' ? `${language === 'python' ? 'as_text' : 'asText'}(${part})` : part;
}

/** A text holding markers as an expression: a literal, a read, or their concatenation. */
function textExpression(language: ProgramLanguage, refs: References, text: string): Code | string {
  const pieces = text.split(MARKERS);
  if (pieces.length === 1) return text;
  const parts: string[] = [];
  for (let i = 0; i < pieces.length; i += 3) {
    if (pieces[i]) parts.push(STYLE[language].string(pieces[i]));
    if (i + 2 < pieces.length) parts.push(read(language, refs, pieces[i + 1], pieces[i + 2]));
  }
  return new Code(parts.join(' + '));
}

/** Fills `{{…}}` in `text`: values of vars, markers for earlier answers and unknown names. */
export function filled(text: string, vars: CurlVariables, refs: References): string {
  return asciiMarkers(fillVariables(text, vars, refs.known));
}

/** A filled text (see filled) as source: a string literal, or an expression reading answers and the environment. */
export function textSource(language: ProgramLanguage, refs: References, text: string): Code | string {
  return textExpression(language, refs, asciiMarkers(text));
}

const JSON_STRING = /"(?:\\.|[^"\\])*"/g;

/**
 * A filled JSON body as a value whose strings and numbers may be reads (Code), or undefined when it
 * is not JSON. A marker outside a string (`"latitude": {{place.json.lat}}`) is the value itself.
 */
export function jsonSource(language: ProgramLanguage, refs: References, text: string): unknown {
  let quoted = '';
  let last = 0;
  const outside = (s: string) => s.replace(/XAWB(ENV|REF)X(\w+?)XAWB\1X/g, (_m, kind: string, name: string) => `"XAWBRAW${kind}X${name}XAWBRAW${kind}X"`);
  for (const m of text.matchAll(JSON_STRING)) {
    quoted += outside(text.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  quoted += outside(text.slice(last));
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoted);
  } catch {
    return undefined;
  }
  const reads = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = /^XAWB(ENV|REF|RAWENV|RAWREF)X(\w+?)XAWB\1X$/.exec(v);
      return whole ? new Code(read(language, refs, whole[1], whole[2])) : textExpression(language, refs, v);
    }
    if (Array.isArray(v)) return v.map(reads);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reads(x)]));
    return v;
  };
  return reads(parsed);
}
