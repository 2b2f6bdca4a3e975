// `{{city}}` (vars cells, extra variables) and `{{lisbon.json.places[0].id}}` (an earlier cell's
// last result), and in http cells `{{$env NAME}}` and `{{$secret name}}` (credentials, resolved by
// the host before the cell is filled in). An unknown name is an error naming the file and line,
// never an empty string.
import { quoteCut } from '../core/quote';
import { sharedAcrossBundles } from '../core/sharedClass';
import type { ServiceId } from '../core/connections';
import type { CellResult } from './types';
import { parsePath } from './cells';
import { llmAnswerOf } from './llmAnswer';

/** A problem the user must fix, already located: "tour.awb.md:12: unknown variable "cty"". */
export class NotebookError extends Error {
  static {
    // dist/maps.js carries the engine too (the response viewer describes a cell's waits).
    sharedAcrossBundles(this, 'api-workbench.NotebookError');
  }

  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
    /** The request names a host no connection of this service has (CellResult.needsConnection). */
    readonly needsConnection?: { service: ServiceId; host: string },
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'NotebookError';
  }
}

export interface VariableScope {
  file: string;
  /** Plain variables, already merged (extra > environment > plain vars cells). */
  variables: ReadonlyMap<string, string>;
  /** Names of every code cell in the notebook. */
  cellNames: ReadonlySet<string>;
  result(name: string): CellResult | undefined;
  /** `$env NAME` / `$secret name` → value: what an http cell's credentials resolved to (see systemReferences). */
  system?: ReadonlyMap<string, string>;
}

export interface SystemReference {
  kind: 'env' | 'secret';
  name: string;
  /** The key of VariableScope.system. */
  key: string;
  /** As written, e.g. `{{$secret github}}`. */
  source: string;
  line: number;
}

/** `$processEnv` is REST Client's spelling of `$env`: an imported .http file keeps working. */
const SYSTEM_REFERENCE = /^\$(env|processEnv|secret)\s+([A-Za-z_][\w.-]*)$/;

/** The `{{$env …}}` and `{{$secret …}}` references in `text` (whose first line is file line `line`); others are left to substitute(). */
export function systemReferences(text: string, line: number): SystemReference[] {
  const out: SystemReference[] = [];
  for (const m of text.matchAll(REFERENCE)) {
    const s = SYSTEM_REFERENCE.exec(m[1]);
    if (!s) continue;
    const kind = s[1] === 'secret' ? 'secret' : 'env';
    out.push({ kind, name: s[2], key: `$${kind} ${s[2]}`, source: m[0], line: line + countLineBreaks(text, 0, m.index) });
  }
  return out;
}

const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Replaces every `{{…}}` in `text`, whose first line is file line `line`. */
export function substitute(text: string, line: number, scope: VariableScope): string {
  if (!text.includes('{{')) return text;
  // Line numbers are counted on from the previous reference, not from the start of the text each
  // time: counting from the start made 100k references quadratic (75 s).
  let countedTo = 0;
  let breaks = 0;
  return text.replace(REFERENCE, (_whole, ref: string, offset: number) => {
    breaks += countLineBreaks(text, countedTo, offset);
    countedTo = offset;
    return resolve(ref, line + breaks, scope);
  });
}

/** True when `text` refers to a variable (used to keep variables away from the host part of a URL). */
export function hasReference(text: string): boolean {
  return /\{\{/.test(text);
}

/** Line breaks in text[start, end) (CRLF counts once). */
function countLineBreaks(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

function resolve(ref: string, line: number, scope: VariableScope): string {
  const fail = (detail: string): never => {
    throw new NotebookError(scope.file, line, detail);
  };
  if (!ref) fail('empty {{ }}: write {{name}} or {{cell.json.path}}');
  if (ref.startsWith('$')) {
    const s = SYSTEM_REFERENCE.exec(ref);
    if (!s)
      return fail(`{{${quoteCut(ref)}}} is not something to fill in: write {{$env NAME}} (an environment variable) or {{$secret name}} (a stored secret)`);
    const value = scope.system?.get(`$${s[1] === 'secret' ? 'secret' : 'env'} ${s[2]}`);
    if (value !== undefined) return value;
    return fail(`{{${ref}}} works in http cells only: an llm, maps or realtime cell's key comes from its connection`);
  }
  const dot = ref.search(/[.[]/);
  if (dot === -1) {
    const v = scope.variables.get(ref);
    if (v !== undefined) return v;
    if (scope.cellNames.has(ref)) fail(`{{${ref}}} names a cell: say which part, e.g. {{${ref}.json.id}}, {{${ref}.status}} or {{${ref}.text}}`);
    return fail(`unknown variable "${quoteCut(ref)}": define it in a vars cell (${quoteCut(ref)} = …) or pass it in`);
  }
  const name = ref.slice(0, dot);
  const rest = ref.slice(dot);
  if (!scope.cellNames.has(name)) {
    if (scope.variables.has(ref)) return scope.variables.get(ref)!;
    return fail(`unknown cell "${quoteCut(name)}" in {{${quoteCut(ref)}}}: no cell has name=${quoteCut(name)}`);
  }
  const result = scope.result(name);
  if (!result) return fail(`cell "${name}" has no result yet: run it before this one`);
  const value = partOf(result, rest);
  if (value === undefined) return fail(`{{${quoteCut(ref)}}}: cell "${name}"'s last result has no ${quoteCut(rest.slice(1))}`);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `.json.a[0]`, `.status`, `.headers.x-request-id`, `.text`, `.body`, `.count`, `.duration` of a result.
 * `.text` follows the `?? text` rule: a model's answer is its text, streamed or not; `.body` is the body as received.
 */
export function partOf(result: CellResult, rest: string): unknown {
  const m = /^\.(json|status|headers|text|body|count|duration)(.*)$/.exec(rest);
  if (!m) return undefined;
  const res = result.response;
  switch (m[1]) {
    case 'status':
      return m[2] ? undefined : res?.status;
    case 'text':
      return m[2] ? undefined : (llmAnswerOf(res)?.content ?? res?.text);
    case 'body':
      return m[2] ? undefined : res?.text;
    case 'count':
      return m[2] ? undefined : result.count;
    case 'duration':
      return m[2] ? undefined : res?.durationMs;
    case 'headers': {
      const h = /^\.(.+)$/.exec(m[2]);
      return h ? res?.headers[h[1].toLowerCase()] : undefined;
    }
    case 'json': {
      const path = parsePath(m[2]);
      return path && res?.json !== undefined ? walk(res.json, path) : undefined;
    }
  }
  return undefined;
}

/** The value at `path` inside `value`, or undefined. */
export function walk(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let cur = value;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (typeof p !== 'number') return p === 'length' ? cur.length : undefined;
      cur = cur[p];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, p)) return undefined;
      cur = (cur as Record<string, unknown>)[String(p)];
    }
  }
  return cur;
}
