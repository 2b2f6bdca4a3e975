// `?? <subject> <op> <value>` checked against a cell's result. The checks that ask a model or read
// a file (judge:, similar, matches schema) are in assertionsModel.ts.
import type { AssertionResult, CellResult } from './types';
import type { AssertionSpec } from './cells';
import { answerCost, llmAnswerOf, requestedModel } from './llmAnswer';
import { walk } from './variables';
import { formatBytes } from '../core/httpExchange';
import { roundMs, roundSignificant } from '../core/numbers';
import { compileUserPattern, parseSlashPattern, PatternError } from '../core/userPattern';

// The subjects and operators live in ./checkSyntax (the parser in ./cells reads them too; importing
// them from here would make a circle); this module is where the engine's checks are found.
export { CHECK_SUBJECTS, CHECK_OPERATORS } from './checkSyntax';

const MISSING = '(missing)';
const SHOWN_MAX = 300;

type Checked = Pick<CellResult, 'response' | 'count'> & { request?: Pick<NonNullable<CellResult['request']>, 'body'> };

/** The value an assertion looks at, or undefined when the result does not have it. */
export function subjectValue(spec: AssertionSpec, result: Checked): unknown {
  const res = result.response;
  switch (spec.subject.kind) {
    case 'toolCalls':
      return walk(llmAnswerOf(res)?.toolCalls, spec.subject.path);
    case 'usage':
      return walk(llmAnswerOf(res)?.usage, spec.subject.path);
    case 'cost': {
      const answer = llmAnswerOf(res);
      const cost = answer && answerCost({ ...answer, model: answer.model ?? requestedModel(result.request?.body) });
      return cost && 'usd' in cost ? cost.usd : undefined;
    }
    case 'ttft':
      return res?.ttftMs;
    case 'similar':
    case 'judge':
      // Asked of a model: assertionsModel.ts.
      return undefined;
    case 'status':
      return res?.status;
    case 'duration':
      return res?.durationMs;
    case 'text':
      // One rule whether the answer streamed or not: a model's answer is its text; the body stays `body`/`json`.
      return llmAnswerOf(res)?.content ?? res?.text;
    case 'body':
      return res?.text;
    case 'count':
      return result.count ?? (Array.isArray(res?.json) ? res.json.length : undefined);
    case 'header':
      return res?.headers[spec.subject.name];
    case 'json':
      return res?.json === undefined ? undefined : walk(res.json, spec.subject.path);
  }
}

/** Why an LLM subject is missing, in words the user can act on; undefined for other subjects. */
function missingWhy(spec: AssertionSpec, result: Checked): string | undefined {
  const res = result.response;
  if (!res) return undefined;
  const answer = llmAnswerOf(res);
  switch (spec.subject.kind) {
    case 'toolCalls':
      if (!answer) return "(missing: the answer is not a model's answer)";
      return answer.toolCalls.length === 0 ? '(missing: the model called no tool)' : undefined;
    case 'usage':
      return answer && !answer.usage
        ? '(missing: the answer has no usage; a stream reports it only when the request asks for "stream_options": {"include_usage": true})'
        : undefined;
    case 'cost': {
      if (!answer) return "(missing: the answer is not a model's answer)";
      const cost = answerCost({ ...answer, model: answer.model ?? requestedModel(result.request?.body) });
      return 'unknown' in cost ? `(unknown: ${cost.unknown})` : undefined;
    }
    case 'ttft':
      return '(missing: the time to first token is measured on streamed answers; add "stream": true to the request)';
    default:
      return undefined;
  }
}

/** Checks one assertion; `value` is its value with variables already substituted. */
export function checkAssertion(spec: AssertionSpec, value: string, result: Checked): AssertionResult {
  const actual = subjectValue(spec, result);
  const expected = spec.operator === 'exists' ? 'exists' : `${spec.operator} ${value}`;
  const res = result.response;
  if (actual === undefined) {
    const why = missingWhy(spec, result);
    if (why !== undefined) return { source: spec.source, line: spec.line, passed: spec.operator === '!=', expected, actual: why };
  }
  // Only the first maxBodyBytes of an answer are kept: a JSON path into the rest is not "missing".
  if ((spec.subject.kind === 'json' || spec.subject.kind === 'count') && actual === undefined && res?.truncated) {
    const actualText = `(the answer was too large to check: ${formatBytes(res.size)} received, only the first ${formatBytes(Buffer.byteLength(res.text))} are kept)`;
    return { source: spec.source, line: spec.line, passed: false, expected, actual: actualText };
  }
  try {
    return { source: spec.source, line: spec.line, passed: passes(spec.operator, actual, value), expected, actual: show(readable(spec, actual)) };
  } catch (e) {
    // A pattern that {{variables}} made unusable: the check fails saying why, instead of running it unbounded.
    if (!(e instanceof PatternError)) throw e;
    return { source: spec.source, line: spec.line, passed: false, expected: `${expected} (${e.message})`, actual: show(actual) };
  }
}

/** What a check shows of a time or a cost (it compares the exact value): 377, not 376.9670890000052. */
function readable(spec: AssertionSpec, actual: unknown): unknown {
  if (typeof actual !== 'number') return actual;
  const kind = spec.subject.kind;
  if (kind === 'duration' || kind === 'ttft') return roundMs(actual);
  if (kind === 'cost') return roundSignificant(actual);
  return actual;
}

function passes(op: AssertionSpec['operator'], actual: unknown, value: string): boolean {
  if (op === 'exists') return actual !== undefined;
  if (actual === undefined) return op === '!=';
  switch (op) {
    case '==':
      return equals(actual, value);
    case '!=':
      return !equals(actual, value);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const a = toNumber(actual);
      const b = toNumber(unquote(value));
      if (a === undefined || b === undefined) return false;
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
    case 'contains': {
      if (Array.isArray(actual)) return actual.some((item) => equals(item, value));
      if (actual !== null && typeof actual === 'object') return Object.prototype.hasOwnProperty.call(actual, unquote(value));
      return asText(actual).includes(unquote(value));
    }
    case 'matches': {
      const p = parseSlashPattern(value);
      if (!p) return false;
      return compileUserPattern(p.source, p.flags).test(asText(actual));
    }
    case 'matches schema':
    case 'matches spec':
    case 'judge':
      // Checked by assertionsModel.ts, never here.
      return false;
  }
}

/** `200` equals 200, `"Lisbon"` and `Lisbon` equal "Lisbon", `true`/`null` their JSON values, objects by JSON. */
function equals(actual: unknown, value: string): boolean {
  const text = unquote(value);
  if (typeof actual === 'string') return actual === text;
  if (typeof actual === 'number') return toNumber(text) === actual;
  if (typeof actual === 'boolean' || actual === null) return String(actual) === text;
  try {
    return JSON.stringify(actual) === JSON.stringify(JSON.parse(value));
  } catch {
    return false;
  }
}

export function unquote(value: string): string {
  return /^"(.*)"$/.test(value) || /^'(.*)'$/.test(value) ? value.slice(1, -1) : value;
}

export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function show(v: unknown): string {
  if (v === undefined) return MISSING;
  const s = asText(v);
  return s.length > SHOWN_MAX ? `${s.slice(0, SHOWN_MAX)}…` : s;
}
