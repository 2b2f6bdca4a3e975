// Pieces → `*.awb.md` text, through the notebook's own serializer so fences and attributes are
// written exactly as the parser reads them.
import type { NotebookCellData } from '../types';
import { formatAttributes, serializeNotebook } from '../format';
import { fenced, type Piece } from './convert';
import type { ImportedSecret, ImportResult } from './types';

/** A name a cell can carry (letters, digits, _ and -), unique in the notebook. */
export function cellName(wanted: string, taken: Set<string>): string {
  let base = wanted
    .trim()
    .replace(/[^\w-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[A-Za-z_]/.test(base)) base = `r_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/** A `vars` cell's lines; values with a line end cannot be one and are reported. */
export function varsPiece(vars: ReadonlyArray<[string, string]>, report: string[]): Piece | undefined {
  const lines: string[] = [];
  for (const [name, value] of vars) {
    if (/[\r\n]/.test(value)) report.push(`variable ${name}: not imported (a value over several lines cannot be a vars entry)`);
    else lines.push(`${name} = ${value}`);
  }
  return lines.length ? { kind: 'code', language: 'vars', value: lines.join('\n') } : undefined;
}

/** Joins the pieces into a notebook; neighbouring Markdown merges into one cell. */
export function writeNotebook(pieces: readonly Piece[], secrets: ImportedSecret[], report: string[]): ImportResult {
  const cells: NotebookCellData[] = [];
  // Last guard: a key that reached the text or a note some other way (a body, a script, a request's name) is masked.
  const spellings = [...new Set(secrets.flatMap(spellingsOf))].filter((v) => v.length >= 8).sort((a, b) => b.length - a.length);
  const mask = (t: string) => spellings.reduce((acc, v) => acc.split(v).join('***'), t);
  const cellNameOf = keylessNames(
    spellings,
    pieces.flatMap((p) => (p.kind !== 'markdown' && p.name !== undefined ? [p.name] : [])),
  );
  for (const raw of pieces) {
    const p = raw.kind !== 'markdown' && raw.name !== undefined ? { ...raw, name: cellNameOf(raw.name) } : raw;
    const last = cells.at(-1);
    if (p.kind === 'markdown') {
      if (last?.kind === 'markup') last.value += `\n\n${p.value}`;
      else cells.push({ kind: 'markup', language: 'markdown', value: p.value, metadata: {} });
    } else if (p.kind === 'http') {
      // Written as the agreed fence text; a notebook engine that knows `http` cells reads it as one.
      const attrs = formatAttributes(p.name ? { name: p.name } : {});
      cells.push({ kind: 'markup', language: 'markdown', value: fenced(`http${attrs ? ` ${attrs}` : ''}`, p.value), metadata: {} });
    } else {
      const attributes = { ...(p.name ? { name: p.name } : {}), ...(p.connection ? { connection: p.connection } : {}) };
      cells.push({ kind: 'code', language: p.language, value: p.value, metadata: Object.keys(attributes).length ? { attributes } : {} });
    }
  }
  const text = mask(serializeNotebook({ cells, metadata: { eol: '\n' } }));
  return { text, secrets, report: [...new Set(report.map(mask))] };
}

/**
 * How a found secret can appear in the text: its value, and for a URL's `user:password` (stored as
 * Basic base64 for an http cell) also the plain pair and the password alone, which scripts repeat.
 */
function spellingsOf(secret: ImportedSecret): string[] {
  if (!secret.userinfo) return [secret.value];
  const plain = secret.value.includes(':') ? secret.value : Buffer.from(secret.value, 'base64').toString('utf8');
  return [secret.value, plain, plain.slice(plain.indexOf(':') + 1)];
}

/**
 * A cell named after its request, whose name holds a key (`Search_with_sk_live_…`), is renamed
 * with `key` in its place: `***` cannot be part of a name. The key is looked for as written and as
 * cellName() spells it (characters other than letters, digits, _ and - as _).
 */
function keylessNames(spellings: readonly string[], names: readonly string[]): (name: string) => string {
  const forms = [...new Set(spellings.flatMap((v) => [v, v.replace(/[^\w-]+/g, '_')]))].sort((a, b) => b.length - a.length);
  const renamed = new Map<string, string>();
  const taken = new Set(names);
  return (name) => {
    const known = renamed.get(name);
    if (known !== undefined) return known;
    const masked = forms.reduce((acc, v) => acc.split(v).join('key'), name);
    const unique = masked === name ? name : cellName(masked, taken);
    renamed.set(name, unique);
    return unique;
  };
}
