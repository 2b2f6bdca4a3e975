// What a code cell says: an HTTP request (llm, maps, http), PUBLISH/LISTEN (realtime) or variables
// (vars), followed by `??` assertion lines. Reading never throws; every problem has its line.
import { quoteCut } from '../core/quote';
import { isSecretName, isSecretParam } from '../core/secretNames';
import { errorText } from '../core/errors';
import { compileUserPattern, parseSlashPattern } from '../core/userPattern';
import type { AssertionOperator, NotebookCellData } from './types';
import { CHECK_OPERATORS, CHECK_SUBJECTS } from './checkSyntax';
import { baseVariableOf } from './baseVariable';
import { extractScripts, type CellScript } from './scripts/cellScripts';

export interface LineProblem {
  line: number;
  message: string;
}

export interface HttpSpec {
  kind: 'http';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path or absolute URL as written, variables not yet substituted. */
  target: string;
  headers: Array<{ name: string; value: string; line: number }>;
  body?: string;
  line: number;
}

export interface PublishSpec {
  kind: 'publish';
  channel: string;
  event: string;
  /** The event data as written (JSON, or plain text). */
  data: string;
  line: number;
}

export interface ListenSpec {
  kind: 'listen';
  channel: string;
  durationMs: number;
  line: number;
}

/** The signed REST API beyond PUBLISH: channel information, batches, users. */
export interface RealtimeRestSpec {
  kind: 'realtimeRest';
  op: RealtimeRestOp;
  /** The words after the command, as written (variables not yet substituted). */
  args: string[];
  /** BATCH: the JSON array; SEND_TO_USER: the data. */
  body: string;
  line: number;
}

export type RealtimeRestOp = 'channels' | 'channel' | 'users' | 'batch' | 'sendToUser' | 'terminate';

/** Command word → op, the words it takes after it (min, max), and whether lines after it are its body. */
const REST_VERBS: Record<string, { op: RealtimeRestOp; min: number; max: number; body: boolean; usage: string }> = {
  CHANNELS: { op: 'channels', min: 0, max: 1, body: false, usage: 'CHANNELS [prefix]' },
  CHANNEL: { op: 'channel', min: 1, max: 1, body: false, usage: 'CHANNEL <channel>' },
  USERS: { op: 'users', min: 1, max: 1, body: false, usage: 'USERS <presence channel>' },
  BATCH: { op: 'batch', min: 0, max: 0, body: true, usage: 'BATCH, then a JSON array of {"channel","name","data"}' },
  SEND_TO_USER: { op: 'sendToUser', min: 2, max: 2, body: true, usage: 'SEND_TO_USER <user id> <event>, then the data' },
  TERMINATE: { op: 'terminate', min: 1, max: 1, body: false, usage: 'TERMINATE <user id>' },
};

/** Every realtime command word with how it is written: what the editor offers on a realtime cell's first line. */
export const REALTIME_COMMANDS: ReadonlyArray<{ verb: string; usage: string }> = [
  { verb: 'PUBLISH', usage: 'PUBLISH <channel> <event>, then the data' },
  { verb: 'LISTEN', usage: 'LISTEN <channel> <time> (e.g. LISTEN demo-ticker 4s)' },
  ...Object.entries(REST_VERBS).map(([verb, v]) => ({ verb, usage: v.usage })),
];

export interface VarsSpec {
  kind: 'vars';
  entries: Array<{ name: string; value: string; line: number }>;
}

export type CellSpec = HttpSpec | PublishSpec | ListenSpec | RealtimeRestSpec | VarsSpec;

export type AssertionSubject =
  | { kind: 'status' | 'duration' | 'text' | 'body' | 'count' | 'cost' | 'ttft' | 'judge' }
  | { kind: 'header'; name: string }
  | { kind: 'json' | 'toolCalls' | 'usage'; path: Array<string | number> }
  /** `similar "<expected>"`: cosine similarity of the answer's and the expected text's embeddings. */
  | { kind: 'similar'; expected: string };

export interface AssertionSpec {
  source: string;
  line: number;
  subject: AssertionSubject;
  operator: AssertionOperator;
  /** The value as written (variables not yet substituted); '' for `exists`. */
  value: string;
}

export interface AnalysedCell {
  language: string;
  attributes: Record<string, string>;
  spec?: CellSpec;
  assertions: AssertionSpec[];
  problems: LineProblem[];
  /** A request cell's `< {% %}` / `> {% %}` scripts, in order (see scripts/cellScripts.ts). */
  scripts: CellScript[];
}

/** Cells whose request a script may prepare and whose answer it may check. */
const SCRIPTED_LANGUAGES = new Set(['llm', 'maps', 'http']);

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Headers that carry a key: a service cell's key comes from the connection; an http cell's from {{$secret}} or {{$env}}. */
/** A cell name's longest: it is shown on each line of a report. */
const MAX_CELL_NAME = 100;
const MAX_LISTEN_MS = 10 * 60_000;

/** Reads a code cell whose opening fence is on 1-based line `fenceLine` (content starts on the next). */
export function analyseCell(cell: NotebookCellData, fenceLine: number): AnalysedCell {
  const attributes = cell.metadata.attributes ?? {};
  const problems: LineProblem[] = [];
  let lines = cell.value === '' ? [] : cell.value.split(/\r\n|\r|\n/);
  const lineOf = (i: number) => fenceLine + 1 + i;
  let scripts: CellScript[] = [];
  if (SCRIPTED_LANGUAGES.has(cell.language)) {
    const extracted = extractScripts(lines, lineOf);
    ({ lines, scripts } = extracted);
    problems.push(...extracted.problems);
  }

  // Assertions are the `??` lines at the end (blank lines and comments may sit between them).
  let end = lines.length;
  const assertions: AssertionSpec[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (t === '' || isComment(t)) continue;
    if (!t.startsWith('??')) break;
    end = i;
  }
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    if (!t.startsWith('??')) continue;
    if (i < end) {
      problems.push({ line: lineOf(i), message: 'assertions (??) go at the end of the cell, after the request' });
      continue;
    }
    const a = parseAssertion(t, lineOf(i));
    if (typeof a === 'string') problems.push({ line: lineOf(i), message: a });
    else assertions.push(a);
  }
  const body = lines.slice(0, end);

  let spec: CellSpec | undefined;
  switch (cell.language) {
    case 'vars':
      spec = parseVars(body, lineOf, problems);
      if (assertions.length) problems.push({ line: assertions[0].line, message: 'a vars cell has no result to assert on' });
      break;
    case 'llm':
    case 'maps':
      spec = parseHttp(body, lineOf, problems, false);
      break;
    case 'http':
      spec = parseHttp(body, lineOf, problems, true);
      if (spec) checkAbsolute(spec, problems);
      break;
    case 'realtime':
      spec = parseRealtime(body, lineOf, problems);
      break;
    default:
      problems.push({ line: fenceLine, message: `"${quoteCut(cell.language)}" is not a cell language: use llm, maps, realtime, http or vars` });
  }
  for (const key of Object.keys(attributes)) {
    const known = cell.language === 'vars' ? ['env'] : cell.language === 'http' ? ['name'] : ['name', 'connection'];
    if (!known.includes(key))
      problems.push({ line: fenceLine, message: `unknown attribute "${quoteCut(key)}" (a ${cell.language} cell takes ${known.join(', ')})` });
  }
  // A name is shown on every line of a run's report: a long one is refused, not printed.
  if (attributes.name !== undefined && (!/^[A-Za-z_][\w-]*$/.test(attributes.name) || attributes.name.length > MAX_CELL_NAME)) {
    problems.push({
      line: fenceLine,
      message: `"${quoteCut(attributes.name)}" cannot be a cell name: use letters, digits, _ and - (at most ${MAX_CELL_NAME})`,
    });
  }
  return { language: cell.language, attributes, spec, assertions, problems, scripts };
}

function isComment(t: string): boolean {
  return t.startsWith('#') || t.startsWith('//');
}

/**
 * `ownHeaders`: an http cell, whose headers are the user's own; a key header must still come from a
 * reference ({{$secret name}}, {{$env NAME}}, an earlier cell's token), never be written out.
 */
function parseHttp(lines: string[], lineOf: (i: number) => number, problems: LineProblem[], ownHeaders: boolean): HttpSpec | undefined {
  let i = 0;
  while (i < lines.length && (lines[i].trim() === '' || isComment(lines[i].trim()))) i++;
  if (i === lines.length) {
    problems.push({ line: lineOf(0) - 1, message: 'the cell has no request: write a line like "GET /models"' });
    return undefined;
  }
  // A {{$env NAME}} reference has a space in it: it belongs to the target.
  const m = /^([A-Za-z]+)\s+((?:\{\{[^{}]*\}\}|\S)+)(?:\s+HTTP\/[\d.]+)?\s*$/.exec(lines[i].trim());
  if (!m || !METHODS.has(m[1].toUpperCase())) {
    problems.push({
      line: lineOf(i),
      message: `"${quoteCut(lines[i].trim())}" is not a request line: write METHOD PATH, e.g. "POST /v1/places:searchText" (methods ${[...METHODS].join(', ')})`,
    });
    return undefined;
  }
  const spec: HttpSpec = { kind: 'http', method: m[1].toUpperCase() as HttpSpec['method'], target: m[2], headers: [], line: lineOf(i) };
  for (i++; i < lines.length && lines[i].trim() !== ''; i++) {
    const t = lines[i].trim();
    if (isComment(t)) continue;
    const h = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(t);
    if (!h) {
      problems.push({ line: lineOf(i), message: `"${quoteCut(t)}" is not a header line (Name: value); leave a blank line before the body` });
      continue;
    }
    const lower = h[1].toLowerCase();
    if (lower === 'host') {
      problems.push({
        line: lineOf(i),
        message: `the ${h[1]} header cannot be set here: the host comes from the ${ownHeaders ? 'request line' : 'connection'}`,
      });
      continue;
    }
    if (isSecretName(h[1]) && !(ownHeaders && h[2].includes('{{'))) {
      const why = ownHeaders
        ? 'keys never go in a notebook: write {{$secret name}} (stored by the editor) or {{$env NAME}} (an environment variable)'
        : 'keys never go in a cell: they come from the connection';
      problems.push({ line: lineOf(i), message: `the ${h[1]} header cannot be set here: ${why}` });
      continue;
    }
    spec.headers.push({ name: h[1], value: h[2], line: lineOf(i) });
  }
  const body = lines.slice(i).join('\n').trim();
  if (body) spec.body = body;
  return spec;
}

/** An http cell has no connection to be relative to: its request line names the host, written out. */
function checkAbsolute(spec: HttpSpec, problems: LineProblem[]): void {
  // `{{baseUrl}}/items`: the run fills it in from a vars cell and refuses any other source (baseVariable.ts).
  if (baseVariableOf(spec.target) !== undefined) return;
  const m = /^https?:\/\/([^/?#]*)/i.exec(spec.target);
  if (!m)
    problems.push({
      line: spec.line,
      message: `an http cell needs an absolute URL (e.g. GET https://api.example.com/items, or GET {{baseUrl}}/items with baseUrl in a vars cell), not "${quoteCut(spec.target)}"`,
    });
  else if (m[1].includes('{{')) problems.push({ line: spec.line, message: 'a variable cannot choose the host: write the host out' });
}

export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000));
}

function parseRealtime(lines: string[], lineOf: (i: number) => number, problems: LineProblem[]): PublishSpec | ListenSpec | RealtimeRestSpec | undefined {
  let i = 0;
  while (i < lines.length && (lines[i].trim() === '' || isComment(lines[i].trim()))) i++;
  const head = (lines[i] ?? '').trim();
  const words = head.split(/\s+/);
  const verb = words[0]?.toUpperCase();
  if (verb === 'PUBLISH' && words.length === 3) {
    const data = lines
      .slice(i + 1)
      .join('\n')
      .trim();
    return { kind: 'publish', channel: words[1], event: words[2], data: data || '{}', line: lineOf(i) };
  }
  if (verb === 'LISTEN' && words.length === 3) {
    const durationMs = parseDuration(words[2]);
    if (durationMs === undefined || durationMs <= 0 || durationMs > MAX_LISTEN_MS) {
      problems.push({ line: lineOf(i), message: `"${quoteCut(words[2])}" is not a listening time: write e.g. 4s, 500ms or 2m (at most 10m)` });
      return undefined;
    }
    if (lines.slice(i + 1).some((l) => l.trim() !== '' && !isComment(l.trim()))) problems.push({ line: lineOf(i + 1), message: 'LISTEN takes no body' });
    return { kind: 'listen', channel: words[1], durationMs, line: lineOf(i) };
  }
  const rest = REST_VERBS[verb ?? ''];
  if (rest) {
    const args = words.slice(1);
    if (args.length < rest.min || args.length > rest.max) {
      problems.push({ line: lineOf(i), message: `write ${rest.usage}` });
      return undefined;
    }
    const body = lines
      .slice(i + 1)
      .join('\n')
      .trim();
    if (!rest.body && lines.slice(i + 1).some((l) => l.trim() !== '' && !isComment(l.trim())))
      problems.push({ line: lineOf(i + 1), message: `${verb} takes no body` });
    if (rest.op === 'batch' && body === '') problems.push({ line: lineOf(i), message: 'BATCH needs a JSON array of events on the lines after it' });
    return { kind: 'realtimeRest', op: rest.op, args, body: rest.op === 'sendToUser' ? body || '{}' : body, line: lineOf(i) };
  }
  if (head === '') {
    // Pointing at the fence, like an empty HTTP cell: an unclosed empty cell at the end of the file has no line after it.
    problems.push({
      line: lineOf(0) - 1,
      message: 'the cell has no command: write "PUBLISH <channel> <event>" then the data, or "LISTEN <channel> <time>" (e.g. LISTEN demo-ticker 4s)',
    });
    return undefined;
  }
  problems.push({
    line: lineOf(i),
    message: `"${quoteCut(head)}" is not a realtime command: write "PUBLISH <channel> <event>" then the data, "LISTEN <channel> <time>" (e.g. LISTEN demo-ticker 4s), or one of ${Object.values(
      REST_VERBS,
    )
      .map((v) => `"${v.usage.split(',')[0]}"`)
      .join(', ')}`,
  });
  return undefined;
}

function parseVars(lines: string[], lineOf: (i: number) => number, problems: LineProblem[]): VarsSpec {
  const entries: VarsSpec['entries'] = [];
  lines.forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || isComment(t)) return;
    const m = /^([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(t);
    if (!m) {
      problems.push({ line: lineOf(i), message: `"${quoteCut(t)}" is not a variable: write name = value` });
      return;
    }
    if (isSecretParam(m[1])) {
      problems.push({ line: lineOf(i), message: `"${quoteCut(m[1])}" looks like a secret: secrets never go in vars (keys come from the connection)` });
      return;
    }
    const v = m[2].trim();
    entries.push({ name: m[1], value: /^"[^"]*"$/.test(v) ? v.slice(1, -1) : v, line: lineOf(i) });
  });
  return { kind: 'vars', entries };
}

const OPERATORS: readonly AssertionOperator[] = CHECK_OPERATORS.map((o) => o.word);
const PLAIN_SUBJECTS = new Set(CHECK_SUBJECTS.filter((s) => s.shape === 'plain').map((s) => s.word));
/** `json.places[0]`, `tool_calls[0].name`, `usage.total_tokens`: a subject word, then its path. */
/** "status, duration, header <name>, …, judge: <rubric> or json matches schema <file>": how each subject is written. */
const SUBJECTS_TEXT = ((forms: string[]) => `${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}`)([
  ...CHECK_SUBJECTS.map((s) => s.syntax),
  'json matches schema <file>',
  'json matches spec',
]);
const PATHED_SUBJECT = new RegExp(
  `^(${CHECK_SUBJECTS.filter((s) => s.shape === 'path')
    .map((s) => s.word)
    .join('|')})(?=$|[.[])(.*)$`,
);

/** `?? json.places[0].id exists` → its parts, or the problem with it. */
export function parseAssertion(text: string, line: number): AssertionSpec | string {
  const rest = text.replace(/^\?\?\s*/, '');
  const special = parseModelCheck(rest, text, line);
  if (special !== undefined) return special;
  let subject: AssertionSubject;
  let after: string;
  const header = /^header\s+([!#$%&'*+.^_`|~0-9A-Za-z-]+)(.*)$/i.exec(rest);
  const similar = /^similar\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')(.*)$/.exec(rest);
  if (header) {
    subject = { kind: 'header', name: header[1].toLowerCase() };
    after = header[2];
  } else if (similar) {
    subject = { kind: 'similar', expected: similar[1].slice(1, -1).replace(/\\(.)/g, '$1') };
    after = similar[2];
  } else {
    const m = /^(\S+)(.*)$/.exec(rest);
    const word = m?.[1] ?? '';
    after = m?.[2] ?? '';
    const pathed = PATHED_SUBJECT.exec(word);
    if (PLAIN_SUBJECTS.has(word)) subject = { kind: word as 'status' | 'duration' | 'text' | 'body' | 'count' | 'cost' | 'ttft' };
    else if (pathed) {
      const path = parsePath(pathed[2]);
      if (!path) return `"${quoteCut(word)}" is not a path: write e.g. json.places[0].displayName.text, tool_calls[0].arguments.query or usage.total_tokens`;
      subject = { kind: pathed[1] === 'json' ? 'json' : pathed[1] === 'usage' ? 'usage' : 'toolCalls', path };
    } else if (word === 'similar') return 'similar takes the expected text in quotes, then a comparison: similar "a café in Lisbon" > 0.8';
    else return `"${quoteCut(word)}" is not something to assert on: use ${SUBJECTS_TEXT}`;
  }
  const opMatch = /^\s*(==|!=|<=|>=|<|>|contains\b|matches\b|exists\b)\s*(.*)$/.exec(after);
  if (!opMatch) return `no operator after the subject: use one of ${OPERATORS.join(', ')}`;
  const operator = opMatch[1] as AssertionOperator;
  const value = opMatch[2].trim();
  if (operator === 'exists' && value) return '"exists" takes no value';
  if (operator !== 'exists' && !value) return `"${quoteCut(operator)}" needs a value to compare with`;
  if (subject.kind === 'similar' && !['<', '<=', '>', '>='].includes(operator)) return 'similar compares a score from -1 to 1: use >, >=, < or <= (e.g. > 0.8)';
  if (operator === 'matches') {
    const pattern = parseSlashPattern(value);
    if (!pattern) return 'matches takes a regular expression written /like this/i';
    // With {{variables}} in it the pattern is known only when the cell runs; checked then.
    if (!value.includes('{{')) {
      try {
        compileUserPattern(pattern.source, pattern.flags);
      } catch (e) {
        return errorText(e);
      }
    }
  }
  return { source: text, line, subject, operator, value };
}

/** `judge: <rubric>` and `json matches schema <file>`; undefined when `rest` is neither. */
function parseModelCheck(rest: string, text: string, line: number): AssertionSpec | string | undefined {
  const judge = /^judge\s*:\s*(.*)$/.exec(rest);
  if (judge) {
    const rubric = judge[1].trim();
    if (!rubric) return 'judge: needs a rubric, what a good answer does: judge: recommends one café in Lisbon and says why';
    return { source: text, line, subject: { kind: 'judge' }, operator: 'judge', value: rubric };
  }
  // The body against the notebook's OpenAPI document (vars `spec = ./openapi.yaml`), for the status received.
  if (/^json\s+matches\s+spec\s*$/.test(rest)) return { source: text, line, subject: { kind: 'json', path: [] }, operator: 'matches spec', value: '' };
  const schema = /^(json\S*)\s+matches\s+schema\b\s*(.*)$/.exec(rest);
  if (!schema) return undefined;
  const path = parsePath(schema[1].slice(4));
  if (!path) return `"${quoteCut(schema[1])}" is not a JSON path: write json matches schema ./answer.schema.json`;
  const file = schema[2].trim().replace(/^"(.*)"$/, '$1');
  if (!file) return 'matches schema needs the schema file, relative to the notebook: json matches schema ./answer.schema.json';
  return { source: text, line, subject: { kind: 'json', path }, operator: 'matches schema', value: file };
}

/** `.places[0].displayName` → ['places', 0, 'displayName']; '' → []. Undefined when malformed. */
export function parsePath(text: string): Array<string | number> | undefined {
  const out: Array<string | number> = [];
  const token = /\.([^.[\]\s]+)|\[(\d+)\]|\["([^"]*)"\]/y;
  let pos = 0;
  while (pos < text.length) {
    token.lastIndex = pos;
    const m = token.exec(text);
    if (!m) return undefined;
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3]));
    pos = token.lastIndex;
  }
  return out;
}
