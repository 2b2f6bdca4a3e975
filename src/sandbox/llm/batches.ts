// /v1/batches: a JSONL file of requests (purpose `batch`) run through the sandbox's own endpoints,
// one after another in file order, so the same file always gives the same output. The batch then
// walks validating -> in_progress -> finalizing -> completed on the sandbox's clock (BATCH_TIMELINE);
// answers 2xx go to its output file, the others to its error file, line for line in openai-node's
// BatchRequestOutput shape. A file OpenAI would refuse (no JSON, no custom_id, a url other than the
// batch's endpoint, a repeated custom_id) fails the batch with `errors` naming each line.
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { baseHeaders, invalid, openAiError, readRequest, type Ctx, type LlmService } from './context';
import { noSuchFile, type FileStore } from './files';
import { sendCursorPage, unixSeconds } from './listPage';

/** When each state begins, in ms after creation. */
export const BATCH_TIMELINE = { in_progress: 1_000, finalizing: 2_000, completed: 3_000 } as const;
/** Requests per batch: each runs on the sandbox as it is created (OpenAI allows 50,000). */
export const MAX_BATCH_REQUESTS = 1_000;

const ENDPOINTS = ['/v1/responses', '/v1/chat/completions', '/v1/embeddings', '/v1/completions', '/v1/moderations', '/v1/images/generations'] as const;

const createSchema = z.object({
  input_file_id: z.string(),
  endpoint: z.enum(ENDPOINTS),
  completion_window: z.literal('24h'),
  metadata: z.optional(z.nullable(z.record(z.string(), z.string()))),
});

const lineSchema = z.object({ custom_id: z.string(), method: z.literal('POST'), url: z.string(), body: z.record(z.string(), z.unknown()) });

/** Sends one request to this sandbox (the batch's lines run through the real endpoints). */
export type Dispatch = (path: string, body: unknown) => Promise<{ status: number; requestId: string; body: unknown }>;

interface LineError {
  code: string;
  line: number;
  message: string;
  param: string | null;
}

interface Batch {
  id: string;
  createdMs: number;
  endpoint: string;
  inputFileId: string;
  metadata: Record<string, string> | null;
  errors: LineError[];
  output: string[];
  failures: string[];
  usage: { input: number; output: number };
  cancelledMs?: number;
  outputFileId?: string;
  errorFileId?: string;
  filesWritten: boolean;
}

type Status = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'cancelled';

function validateLines(text: string, endpoint: string): { lines: z.infer<typeof lineSchema>[]; errors: LineError[] } {
  const lines: z.infer<typeof lineSchema>[] = [];
  const errors: LineError[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push({ code: 'invalid_json_line', line, message: 'This line is not parseable as valid JSON.', param: null });
      continue;
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      const param = parsed.error.issues[0]?.path.join('.') || null;
      errors.push({ code: 'invalid_request', line, message: `Invalid or missing '${param ?? 'body'}' on this line.`, param });
    } else if (parsed.data.url !== endpoint) {
      errors.push({
        code: 'mismatched_endpoint',
        line,
        message: `The URL provided for this request does not match the batch endpoint (${endpoint}).`,
        param: 'url',
      });
    } else if (seen.has(parsed.data.custom_id)) {
      errors.push({ code: 'duplicate_custom_id', line, message: 'The custom_id for this request is a duplicate of another request.', param: 'custom_id' });
    } else {
      seen.add(parsed.data.custom_id);
      lines.push(parsed.data);
    }
  }
  if (lines.length + errors.length > MAX_BATCH_REQUESTS) {
    errors.push({
      code: 'too_many_requests',
      line: MAX_BATCH_REQUESTS + 1,
      message: `The sandbox runs at most ${MAX_BATCH_REQUESTS} requests per batch.`,
      param: null,
    });
  }
  return { lines, errors };
}

function tokensOf(body: unknown): { input: number; output: number } {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage;
  const n = (k: string) => (typeof usage?.[k] === 'number' ? usage[k] : 0);
  return { input: n('prompt_tokens') + n('input_tokens'), output: n('completion_tokens') + n('output_tokens') };
}

export class Batches {
  private readonly batches = new Map<string, Batch>();

  constructor(
    private readonly svc: LlmService,
    private readonly files: FileStore,
    private readonly dispatch: Dispatch,
  ) {}

  private status(b: Batch, at = this.svc.clock.now()): Status {
    const elapsed = at - b.createdMs;
    if (b.cancelledMs !== undefined && at >= b.cancelledMs) return 'cancelled';
    if (elapsed < BATCH_TIMELINE.in_progress) return 'validating';
    if (b.errors.length) return 'failed';
    if (elapsed < BATCH_TIMELINE.finalizing) return 'in_progress';
    return elapsed < BATCH_TIMELINE.completed ? 'finalizing' : 'completed';
  }

  /** The output and error files appear when the batch completes (as a file, so /v1/files/{id}/content reads them). */
  private settle(b: Batch): void {
    if (b.filesWritten || this.status(b) !== 'completed') return;
    b.filesWritten = true;
    const write = (lines: string[], name: string) => {
      const data = Buffer.from(lines.map((l) => `${l}\n`).join(''));
      return this.files.fits(data.length) ? this.files.add(name, 'batch_output', data).id : undefined;
    };
    if (b.output.length) b.outputFileId = write(b.output, `${b.id}_output.jsonl`);
    if (b.failures.length) b.errorFileId = write(b.failures, `${b.id}_error.jsonl`);
  }

  private json(b: Batch) {
    this.settle(b);
    const status = this.status(b);
    const at = (ms: number, from: Status[]) => (from.includes(status) ? unixSeconds(b.createdMs + ms) : undefined);
    const total = b.output.length + b.failures.length;
    const done = status === 'completed';
    return {
      id: b.id,
      object: 'batch',
      endpoint: b.endpoint,
      model: null,
      errors: b.errors.length ? { object: 'list', data: b.errors } : null,
      input_file_id: b.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: b.outputFileId ?? null,
      error_file_id: b.errorFileId ?? null,
      created_at: unixSeconds(b.createdMs),
      in_progress_at: at(BATCH_TIMELINE.in_progress, ['in_progress', 'finalizing', 'completed']) ?? null,
      expires_at: unixSeconds(b.createdMs) + 86_400,
      finalizing_at: at(BATCH_TIMELINE.finalizing, ['finalizing', 'completed']) ?? null,
      completed_at: at(BATCH_TIMELINE.completed, ['completed']) ?? null,
      failed_at: at(BATCH_TIMELINE.in_progress, ['failed']) ?? null,
      expired_at: null,
      cancelling_at: b.cancelledMs === undefined ? null : unixSeconds(b.cancelledMs),
      cancelled_at: b.cancelledMs === undefined ? null : unixSeconds(b.cancelledMs),
      request_counts: { total, completed: done ? b.output.length : 0, failed: done ? b.failures.length : 0 },
      usage: {
        input_tokens: done ? b.usage.input : 0,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: done ? b.usage.output : 0,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: done ? b.usage.input + b.usage.output : 0,
      },
      metadata: b.metadata,
    };
  }

  private find(ctx: Ctx, id: string): Batch | undefined {
    const b = this.batches.get(id);
    if (!b) openAiError(ctx, 404, invalid(`No batch found with id '${id}'.`, 'batch_id', 'batch_not_found'));
    return b;
  }

  async create(ctx: Ctx): Promise<void> {
    const body = await readRequest(ctx, createSchema);
    if (!body) return;
    const file = this.files.get(body.input_file_id);
    if (!file) return noSuchFile(ctx, body.input_file_id);
    if (file.meta.purpose !== 'batch') {
      return openAiError(
        ctx,
        400,
        invalid(
          `File ${body.input_file_id} has purpose '${file.meta.purpose}'; a batch's input must be uploaded with purpose 'batch'.`,
          'input_file_id',
          'invalid_file_purpose',
        ),
      );
    }
    const { lines, errors } = validateLines(file.data.toString('utf8'), body.endpoint);
    const batch: Batch = {
      id: newId('batch_', 12),
      createdMs: this.svc.clock.now(),
      endpoint: body.endpoint,
      inputFileId: body.input_file_id,
      metadata: body.metadata ?? null,
      errors,
      output: [],
      failures: [],
      usage: { input: 0, output: 0 },
      filesWritten: false,
    };
    // A file with a bad line runs nothing, as on OpenAI: the batch fails in validation.
    if (!errors.length) {
      for (const line of lines) {
        const answer = await this.dispatch(line.url.replace(/^\/v1/, ''), line.body);
        const out = JSON.stringify({
          id: newId('batch_req_', 12),
          custom_id: line.custom_id,
          response: { status_code: answer.status, request_id: answer.requestId, body: answer.body },
          error: null,
        });
        if (answer.status >= 200 && answer.status < 300) {
          batch.output.push(out);
          const t = tokensOf(answer.body);
          batch.usage.input += t.input;
          batch.usage.output += t.output;
        } else batch.failures.push(out);
      }
    }
    this.batches.set(batch.id, batch);
    this.svc.clock.setTimer(() => this.settle(batch), BATCH_TIMELINE.completed);
    sendJson(ctx.res, 200, this.json(batch), baseHeaders(ctx));
  }

  list(ctx: Ctx): void {
    sendCursorPage(
      ctx,
      [...this.batches.values()].reverse().map((b) => this.json(b)),
    );
  }

  retrieve(ctx: Ctx, id: string): void {
    const b = this.find(ctx, id);
    if (b) sendJson(ctx.res, 200, this.json(b), baseHeaders(ctx));
  }

  cancel(ctx: Ctx, id: string): void {
    const b = this.find(ctx, id);
    if (!b) return;
    const status = this.status(b);
    if (status !== 'validating' && status !== 'in_progress' && status !== 'finalizing') {
      return openAiError(ctx, 409, invalid(`Cannot cancel a batch with status '${status}'.`, null, 'batch_not_cancellable'));
    }
    b.cancelledMs = this.svc.clock.now();
    sendJson(ctx.res, 200, this.json(b), baseHeaders(ctx));
  }
}
