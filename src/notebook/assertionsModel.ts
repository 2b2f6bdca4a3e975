// The checks that need more than the answer itself: `json matches schema <file>` (reads a JSON
// Schema file next to the notebook), `judge: <rubric>` (a model judges the answer with structured
// output) and `similar "<text>" > 0.8` (cosine similarity of embeddings). The models are asked
// through the cell's connection, with its key and the host's budget question, like the cell itself.
import * as z from 'zod/mini';
import { once } from '../core/once';
import type { HttpConnection } from '../core/connections';
import { errorText, isApiError } from '../core/errors';
import { FileRefusal, readFileInside } from '../core/fileGate';
import { parseJson, validate } from '../core/validate';
import { LlmClient } from '../services/llm/client';
import { openAiErrorParser } from '../services/llm/errors';
import { costOf } from '../services/llm/pricing';
import type { TokenUsage } from '../services/llm/schemas';
import { checkSchema } from '../services/llm/jsonSchema';
import type { AssertionSpec } from './cells';
import { show, toNumber, unquote } from './assertions';
import { llmAnswerOf, requestedModel, type LlmAnswer } from './llmAnswer';
import { defaultHttpClient } from './hosts';
import type { AssertionResult, CellResult, NotebookHost } from './types';
import { hasReference, walk } from './variables';
import { SPEC_VARIABLE } from './openapi/specVariable';

export { SPEC_VARIABLE };

export interface ModelCheckContext {
  host: NotebookHost;
  /** The cell's connection (an llm cell's); judges and embeddings are asked through it. */
  connection: HttpConnection | undefined;
  /** The notebook's folder: schema files are read from it. */
  baseDir: string | undefined;
  /** --judge-model, else the notebook's `judge` variable; else the cell's own model judges. */
  judgeModel: string | undefined;
  /** The notebook's `embedding` variable; else the connection's first embedding model. */
  embeddingModel: string | undefined;
  signal: AbortSignal;
  /** The notebook's OpenAPI document as its vars cell names it (`spec = ./openapi.yaml`), for `matches spec`. */
  specRef?: string;
}

const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'fail'], description: 'pass when the answer meets the rubric, else fail' },
    reason: { type: 'string', description: 'one or two sentences: what in the answer meets or misses the rubric' },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

const verdictSchema = once(() => z.object({ verdict: z.enum(['pass', 'fail']), reason: z.string() }));

const JUDGE_INSTRUCTIONS =
  'You judge answers of a language model. Read the rubric, then the answer. Give the verdict "pass" only when the answer meets every part of the rubric, else "fail", and a short reason that names what the answer does or lacks.';

/** Preferred when the notebook names no embedding model: OpenAI's cheapest current one. */
const PREFERRED_EMBEDDING = 'text-embedding-3-small';

/** True for the checks this file makes (the rest are assertions.ts's). */
export function isModelCheck(spec: AssertionSpec): boolean {
  return spec.operator === 'matches schema' || spec.operator === 'matches spec' || spec.operator === 'judge' || spec.subject.kind === 'similar';
}

/** Makes one of the checks isModelCheck accepts; never throws (a failure to check fails the check, saying why). */
export async function checkModelAssertion(spec: AssertionSpec, value: string, result: CellResult, ctx: ModelCheckContext): Promise<AssertionResult> {
  const base = { source: spec.source, line: spec.line };
  try {
    if (spec.operator === 'matches schema') return { ...base, ...(await matchesSchema(spec, value, result, ctx)) };
    if (spec.operator === 'matches spec') {
      // The OpenAPI parser and ajv (~400 KB) are loaded by the first cell that checks a spec, not by every run.
      const { matchesSpec } = await import('./openapi/matchesSpec');
      return { ...base, ...(await matchesSpec(result, ctx.specRef, ctx.baseDir)) };
    }
    const answer = llmAnswerOf(result.response);
    if (!answer) {
      const what = spec.operator === 'judge' ? `judge: ${value}` : `${spec.operator} ${value}`;
      return { ...base, passed: false, expected: what, actual: "(missing: there is no model's answer to check)" };
    }
    if (spec.operator === 'judge') return { ...base, ...(await judge(value, answer, result, ctx)) };
    if (spec.subject.kind === 'similar') return { ...base, ...(await similar(spec.subject.expected, spec.operator, value, answer, ctx)) };
    return { ...base, passed: false, expected: value, actual: 'not a check this engine knows' };
  } catch (e) {
    const expected = spec.operator === 'judge' ? `judge: ${value}` : `${spec.operator} ${value}`;
    return { ...base, passed: false, expected, actual: `(not checked: ${isApiError(e) ? e.describe() : errorText(e)})` };
  }
}

// --- json matches schema -----------------------------------------------------------------------

/** A JSON Schema is a few KB; a cap keeps a file named by mistake (a dump, a model) out of memory. */
const MAX_SCHEMA_FILE_BYTES = 4 * 1024 * 1024;

/**
 * `file` is the path as written in the notebook (variables not filled in): an answer must not
 * choose which file is read. Read through core/fileGate.ts: the notebook's folder by real path,
 * regular files, capped; no message quotes the file, so neither a report nor an agent sees it.
 */
async function matchesSchema(spec: AssertionSpec, file: string, result: CellResult, ctx: ModelCheckContext) {
  const expected = `matches schema ${file}`;
  const refused = (why: string) => ({ passed: false, expected, actual: `(not checked: ${why})` });
  if (ctx.baseDir === undefined) return refused('the schema file is read next to the notebook: save the notebook first');
  if (hasReference(file)) return refused(`a variable cannot choose the schema file: write its path out`);
  let text: string;
  try {
    const bytes = await readFileInside(file, {
      folder: ctx.baseDir,
      folderName: "the notebook's folder",
      use: 'read as a schema',
      example: './schemas/answer.json',
      maxBytes: MAX_SCHEMA_FILE_BYTES,
    });
    text = bytes.toString('utf8');
  } catch (e) {
    if (!(e instanceof FileRefusal)) throw e;
    return refused(e.reason === 'missing' ? `no schema file ${file} next to the notebook` : `the schema file ${file}: ${e.message}`);
  }
  const check = await checkSchema(text, `The schema file ${file}`);
  if (!check.ok) return { passed: false, expected, actual: `(not checked: ${check.message})` };
  const path_ = spec.subject.kind === 'json' ? spec.subject.path : [];
  const value = subjectJson(path_, result);
  if ('problem' in value) return { passed: false, expected, actual: value.problem };
  const problems = check.validate(value.json);
  if (problems.length === 0) return { passed: true, expected, actual: show(value.json) };
  const first = problems[0];
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return { passed: false, expected, actual: `${first.path}: ${first.message}${more}; the value was ${show(value.json)}` };
}

/** `json` of an llm cell is its answer's content parsed as JSON; of other cells (and with a path) the JSON body. */
function subjectJson(jsonPath: ReadonlyArray<string | number>, result: CellResult): { json: unknown } | { problem: string } {
  const answer = result.service === 'llm' && jsonPath.length === 0 ? llmAnswerOf(result.response) : undefined;
  if (answer) {
    const parsed = parseJson(answer.content);
    if (!parsed.ok) return { problem: `the answer is not JSON: ${show(answer.content)}` };
    return { json: parsed.value };
  }
  const body = result.response?.json;
  if (body === undefined) return { problem: result.response ? 'the answer is not JSON' : '(missing: there was no answer)' };
  const v = walk(body, jsonPath);
  return v === undefined ? { problem: '(missing)' } : { json: v };
}

// --- judge --------------------------------------------------------------------------------------

function llmClient(ctx: ModelCheckContext, conn: HttpConnection): LlmClient {
  const options = {
    baseUrl: conn.baseUrl,
    label: `Language Models (${conn.name})`,
    parseError: openAiErrorParser,
    requestIdHeaders: ['x-request-id', 'apim-request-id'],
    credentials: async (url: URL, signal?: AbortSignal) => {
      const key = await ctx.host.credentials({ connection: conn, url, signal });
      ctx.host.redactor.addSecret(key);
      return key;
    },
  };
  return new LlmClient((ctx.host.httpClient ?? defaultHttpClient)(conn, options));
}

/** The host's budget question, asked of a judge's or an embedding's request as of the cell's own. */
async function mayAsk(ctx: ModelCheckContext, conn: HttpConnection, body: unknown): Promise<void> {
  const refusal = await ctx.host.beforeModelRequest?.(conn, JSON.stringify(body));
  if (refusal !== undefined) throw new Error(refusal);
}

function answerForJudge(answer: LlmAnswer): string {
  const calls = answer.toolCalls.map((c) => `(calls the tool ${c.name} with ${JSON.stringify(c.arguments)})`);
  return [answer.content, ...calls].filter((t) => t !== '').join('\n') || '(an empty answer)';
}

async function judge(rubric: string, answer: LlmAnswer, result: CellResult, ctx: ModelCheckContext) {
  const expected = `judge: ${rubric}`;
  const conn = ctx.connection;
  if (!conn) return { passed: false, expected, actual: '(not checked: a judge is asked through an llm connection, and this cell has none)' };
  const model = ctx.judgeModel ?? requestedModel(result.request?.body) ?? answer.model;
  if (!model) return { passed: false, expected, actual: '(not checked: no judge model: set one with --judge-model or a vars cell "judge = <model>")' };
  const messages = [
    { role: 'system' as const, content: JUDGE_INSTRUCTIONS },
    { role: 'user' as const, content: `Rubric:\n${rubric}\n\nAnswer:\n${answerForJudge(answer)}` },
  ];
  const responseFormat = { type: 'json_schema' as const, name: 'verdict', schema: VERDICT_SCHEMA, strict: true };
  await mayAsk(ctx, conn, { model, messages, response_format: responseFormat });
  const reply = await llmClient(ctx, conn).chat({ model, messages, responseFormat }, { cancel: ctx.signal });
  const spent = checkCost(reply.model ?? model, reply.usage);
  const parsed = parseJson(reply.text);
  const verdict = parsed.ok ? validate(verdictSchema(), parsed.value) : undefined;
  if (!verdict?.ok)
    return { passed: false, expected, actual: `(not checked: the judge ${model} gave no verdict: ${show(reply.text)})`, judgeModel: model, ...spent };
  const { reason } = verdict.value;
  return { passed: verdict.value.verdict === 'pass', expected, actual: `${verdict.value.verdict}: ${reason}`, reason, judgeModel: model, ...spent };
}

// --- similar ------------------------------------------------------------------------------------

async function embeddingModelOf(client: LlmClient, ctx: ModelCheckContext): Promise<string | undefined> {
  if (ctx.embeddingModel) return ctx.embeddingModel;
  const ids = (await client.listModels(ctx.signal)).map((m) => m.id);
  return ids.find((id) => id === PREFERRED_EMBEDDING) ?? ids.find((id) => id.includes('embed'));
}

async function similar(expectedText: string, op: AssertionSpec['operator'], threshold: string, answer: LlmAnswer, ctx: ModelCheckContext) {
  const expected = `similar "${expectedText}" ${op} ${threshold}`;
  const conn = ctx.connection;
  if (!conn) return { passed: false, expected, actual: '(not checked: embeddings are asked through an llm connection, and this cell has none)' };
  const limit = toNumber(unquote(threshold));
  if (limit === undefined) return { passed: false, expected, actual: `(not checked: "${threshold}" is not a number: write e.g. > 0.8)` };
  const client = llmClient(ctx, conn);
  const model = await embeddingModelOf(client, ctx);
  if (!model)
    return {
      passed: false,
      expected,
      actual: `(not checked: the connection "${conn.name}" lists no embedding model: name one with a vars cell "embedding = <model>")`,
    };
  const input = [answer.content, expectedText];
  await mayAsk(ctx, conn, { model, input });
  const { vectors, usage } = await client.embeddings({ model, input }, { cancel: ctx.signal });
  const spent = checkCost(model, usage);
  if (vectors.length !== 2) return { passed: false, expected, actual: `(not checked: ${model} returned ${vectors.length} embeddings for 2 texts)` };
  const score = cosine(vectors[0], vectors[1]);
  const passed = op === '>' ? score > limit : op === '>=' ? score >= limit : op === '<' ? score < limit : op === '<=' ? score <= limit : false;
  return { passed, expected, actual: `${score.toFixed(3)} (${model})`, ...spent };
}

/** `{ costUsd }` of a check's own request, or nothing when its price (or usage) is not known. */
function checkCost(model: string, usage: TokenUsage | undefined): { costUsd?: number } {
  const cost = usage && costOf(model, usage);
  return cost ? { costUsd: Number(cost.totalUsd.toFixed(10)) } : {};
}

/** Cosine similarity; 0 when either vector is all zeros or their sizes differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
