// /v1/fine_tuning/jobs: create from an uploaded JSONL file (purpose `fine-tune`), list, retrieve,
// events, checkpoints, cancel, in openai-node's shapes (resources/fine-tuning/jobs). Nothing is
// trained: a job walks validating_files -> queued -> running -> succeeded on the sandbox's clock
// (JOB_TIMELINE), and on success its `ft:` model joins the catalogue, answering as its base model
// does, until DELETE /v1/models/{id}. A training file OpenAI would refuse fails the job the same
// way (too few examples, a line that is no JSON or has no messages), with the line named.
import * as z from 'zod/mini';
import { newId, sendJson } from '../http';
import { estimateTokens } from './answer';
import { baseHeaders, invalid, openAiError, readRequest, type Ctx, type LlmService } from './context';
import type { FileStore } from './files';
import { sendCursorPage, unixSeconds } from './listPage';
import { FINE_TUNE_OWNER, type SandboxModel } from './models';

/** When each state begins, in ms after creation; each epoch of training takes EPOCH_MS. */
export const JOB_TIMELINE = { queued: 1_000, running: 2_000 } as const;
export const EPOCH_MS = 2_000;
/** OpenAI's floor for a training file. */
export const MIN_EXAMPLES = 10;
const DEFAULT_EPOCHS = 3;

const hyper = z.optional(
  z.object({
    n_epochs: z.optional(z.union([z.literal('auto'), z.int().check(z.gte(1), z.lte(50))])),
    batch_size: z.optional(z.union([z.literal('auto'), z.int().check(z.gte(1))])),
    learning_rate_multiplier: z.optional(z.union([z.literal('auto'), z.number().check(z.gt(0))])),
  }),
);

const createSchema = z.object({
  model: z.string(),
  training_file: z.string(),
  validation_file: z.optional(z.nullable(z.string())),
  suffix: z.optional(z.nullable(z.string().check(z.maxLength(64)))),
  seed: z.optional(z.nullable(z.int())),
  metadata: z.optional(z.nullable(z.record(z.string(), z.string()))),
  hyperparameters: hyper,
  method: z.optional(z.object({ type: z.enum(['supervised', 'dpo', 'reinforcement']), supervised: z.optional(z.object({ hyperparameters: hyper })) })),
});

type JobStatus = 'validating_files' | 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

interface Job {
  id: string;
  createdMs: number;
  model: string;
  base: SandboxModel;
  trainingFile: string;
  validationFile: string | null;
  suffix: string | null;
  seed: number;
  metadata: Record<string, string> | null;
  epochs: number;
  /** Examples in the training file, or why the file fails validation (the job then fails). */
  examples: number;
  trainingTokens: number;
  invalidFile?: string;
  cancelledMs?: number;
  fineTunedModel: string;
  registered: boolean;
}

interface Event {
  atMs: number;
  level: 'info' | 'warn' | 'error';
  message: string;
  type: 'message' | 'metrics';
  data?: Record<string, number>;
}

/** Reads a chat (`messages`) or legacy (`prompt`/`completion`) JSONL training file as OpenAI validates it. */
function readTrainingFile(data: Buffer, kind: SandboxModel['kind']): { examples: number; tokens: number } | { error: string } {
  const lines = data.toString('utf8').split('\n');
  let examples = 0;
  let tokens = 0;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return { error: `Invalid file format. Line ${i + 1} is not valid JSON.` };
    }
    const rec = typeof row === 'object' && row !== null ? (row as Record<string, unknown>) : {};
    if (kind === 'chat' ? !Array.isArray(rec.messages) : typeof rec.prompt !== 'string' || typeof rec.completion !== 'string') {
      const want = kind === 'chat' ? "a 'messages' array" : "'prompt' and 'completion' strings";
      return { error: `Invalid file format. Example ${i + 1} has no ${want}.` };
    }
    examples++;
    tokens += estimateTokens(line);
  }
  if (examples < MIN_EXAMPLES) return { error: `Training file has ${examples} example(s), but must have at least ${MIN_EXAMPLES} examples` };
  return { examples, tokens };
}

export class FineTuningJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly svc: LlmService,
    private readonly files: FileStore,
  ) {}

  private now(): number {
    return this.svc.clock.now();
  }

  private succeededAt(job: Job): number {
    return job.createdMs + JOB_TIMELINE.running + job.epochs * EPOCH_MS;
  }

  status(job: Job, at = this.now()): JobStatus {
    const elapsed = at - job.createdMs;
    if (job.cancelledMs !== undefined && at >= job.cancelledMs) return 'cancelled';
    if (elapsed < JOB_TIMELINE.queued) return 'validating_files';
    if (job.invalidFile) return 'failed';
    if (elapsed < JOB_TIMELINE.running) return 'queued';
    return at < this.succeededAt(job) ? 'running' : 'succeeded';
  }

  /** The model joins the catalogue once the clock has passed the job's end (read lazily and on a timer). */
  private settle(job: Job): void {
    if (job.registered || this.status(job) !== 'succeeded') return;
    job.registered = true;
    this.svc.models.addFineTuned(job.fineTunedModel, job.base, unixSeconds(this.succeededAt(job)));
  }

  json(job: Job) {
    this.settle(job);
    const status = this.status(job);
    const finished = status === 'succeeded' ? this.succeededAt(job) : status === 'failed' ? job.createdMs + JOB_TIMELINE.queued : job.cancelledMs;
    return {
      id: job.id,
      object: 'fine_tuning.job',
      created_at: unixSeconds(job.createdMs),
      error: status === 'failed' ? { code: 'invalid_training_file', message: job.invalidFile ?? '', param: 'training_file' } : null,
      fine_tuned_model: status === 'succeeded' ? job.fineTunedModel : null,
      finished_at: finished === undefined || !['succeeded', 'failed', 'cancelled'].includes(status) ? null : unixSeconds(finished),
      hyperparameters: { n_epochs: job.epochs, batch_size: 1, learning_rate_multiplier: 1.8 },
      model: job.model,
      organization_id: FINE_TUNE_OWNER,
      result_files: [],
      seed: job.seed,
      status,
      trained_tokens: status === 'succeeded' ? job.trainingTokens * job.epochs : null,
      training_file: job.trainingFile,
      validation_file: job.validationFile,
      estimated_finish: status === 'queued' || status === 'running' ? unixSeconds(this.succeededAt(job)) : null,
      integrations: [],
      metadata: job.metadata,
      method: { type: 'supervised', supervised: { hyperparameters: { n_epochs: job.epochs, batch_size: 1, learning_rate_multiplier: 1.8 } } },
      user_provided_suffix: job.suffix,
    };
  }

  /** Everything the job has logged by now, oldest first. */
  private events(job: Job): Event[] {
    const at = (ms: number) => job.createdMs + ms;
    const all: Event[] = [
      { atMs: at(0), level: 'info', message: `Created fine-tuning job: ${job.id}`, type: 'message' },
      { atMs: at(0), level: 'info', message: `Validating training file: ${job.trainingFile}`, type: 'message' },
    ];
    if (job.invalidFile) {
      all.push({ atMs: at(JOB_TIMELINE.queued), level: 'error', message: `Training file validation failed: ${job.invalidFile}`, type: 'message' });
    } else {
      all.push({ atMs: at(JOB_TIMELINE.queued), level: 'info', message: 'Files validated, moving job to queued state', type: 'message' });
      all.push({ atMs: at(JOB_TIMELINE.running), level: 'info', message: 'Fine-tuning job started', type: 'message' });
      for (const c of this.checkpointSteps(job)) {
        all.push({
          atMs: c.atMs,
          level: 'info',
          message: `Step ${c.step}/${job.examples * job.epochs}: training loss=${c.loss}`,
          type: 'metrics',
          data: { step: c.step, train_loss: c.loss, total_steps: job.examples * job.epochs },
        });
        all.push({ atMs: c.atMs, level: 'info', message: `Checkpoint created at step ${c.step}`, type: 'message' });
      }
      all.push({ atMs: this.succeededAt(job), level: 'info', message: `New fine-tuned model created: ${job.fineTunedModel}`, type: 'message' });
      all.push({ atMs: this.succeededAt(job), level: 'info', message: 'The job has successfully completed', type: 'message' });
    }
    if (job.cancelledMs !== undefined) all.push({ atMs: job.cancelledMs, level: 'info', message: 'Fine-tuning job cancelled', type: 'message' });
    const now = this.now();
    const until = Math.min(now, job.cancelledMs ?? now);
    return all.filter((e) => e.atMs <= until || (e.atMs === job.cancelledMs && e.message.includes('cancelled')));
  }

  /** One checkpoint at the end of each epoch; the loss falls deterministically with the epoch. */
  private checkpointSteps(job: Job): { step: number; atMs: number; loss: number }[] {
    return Array.from({ length: job.epochs }, (_, i) => ({
      step: job.examples * (i + 1),
      atMs: job.createdMs + JOB_TIMELINE.running + (i + 1) * EPOCH_MS - 1,
      loss: Math.round((1.6 / (i + 2)) * 10_000) / 10_000,
    }));
  }

  private find(ctx: Ctx, id: string): Job | undefined {
    const job = this.jobs.get(id);
    if (!job) openAiError(ctx, 404, invalid(`Could not find fine-tune: ${id}`, 'fine_tune_id', 'fine_tune_not_found'));
    return job;
  }

  async create(ctx: Ctx): Promise<void> {
    const body = await readRequest(ctx, createSchema);
    if (!body) return;
    const base = this.svc.models.find(body.model);
    if (!base || (base.kind !== 'chat' && base.kind !== 'completion')) {
      return openAiError(ctx, 400, invalid(`Model ${body.model} is not available for fine-tuning or does not exist.`, 'model', 'model_not_available'));
    }
    const file = this.files.get(body.training_file);
    if (!file) return openAiError(ctx, 400, invalid(`invalid training_file: ${body.training_file}`, 'training_file'));
    if (file.meta.purpose !== 'fine-tune') {
      return openAiError(
        ctx,
        400,
        invalid(
          `File ${body.training_file} has purpose '${file.meta.purpose}'; a training file must be uploaded with purpose 'fine-tune'.`,
          'training_file',
          'invalid_file_purpose',
        ),
      );
    }
    if (body.validation_file && !this.files.get(body.validation_file)) {
      return openAiError(ctx, 400, invalid(`invalid validation_file: ${body.validation_file}`, 'validation_file'));
    }
    const read = readTrainingFile(file.data, base.kind);
    const requestedEpochs = body.method?.supervised?.hyperparameters?.n_epochs ?? body.hyperparameters?.n_epochs;
    const id = newId('ftjob-', 12);
    const job: Job = {
      id,
      createdMs: this.now(),
      model: body.model,
      base,
      trainingFile: body.training_file,
      validationFile: body.validation_file ?? null,
      suffix: body.suffix ?? null,
      seed: body.seed ?? 42,
      metadata: body.metadata ?? null,
      epochs: typeof requestedEpochs === 'number' ? requestedEpochs : DEFAULT_EPOCHS,
      examples: 'error' in read ? 0 : read.examples,
      trainingTokens: 'error' in read ? 0 : read.tokens,
      invalidFile: 'error' in read ? read.error : undefined,
      // OpenAI's form: ft:<base>:<organisation>:<suffix>:<8 characters of its own>.
      fineTunedModel: `ft:${body.model}:${FINE_TUNE_OWNER}:${body.suffix ?? ''}:${id.slice(-8)}`,
      registered: false,
    };
    this.jobs.set(id, job);
    if (!job.invalidFile) this.svc.clock.setTimer(() => this.settle(job), this.succeededAt(job) - job.createdMs);
    sendJson(ctx.res, 200, this.json(job), baseHeaders(ctx));
  }

  list(ctx: Ctx): void {
    const wanted = [...ctx.query.entries()].flatMap(([k, v]) => (/^metadata\[(.+)\]$/.exec(k) ? [[/^metadata\[(.+)\]$/.exec(k)![1], v]] : []));
    const jobs = [...this.jobs.values()].reverse().filter((j) => wanted.every(([k, v]) => j.metadata?.[k] === v));
    sendCursorPage(
      ctx,
      jobs.map((j) => this.json(j)),
    );
  }

  retrieve(ctx: Ctx, id: string): void {
    const job = this.find(ctx, id);
    if (job) sendJson(ctx.res, 200, this.json(job), baseHeaders(ctx));
  }

  cancel(ctx: Ctx, id: string): void {
    const job = this.find(ctx, id);
    if (!job) return;
    const status = this.status(job);
    if (status === 'succeeded' || status === 'failed' || status === 'cancelled') {
      return openAiError(
        ctx,
        400,
        invalid(`Job ${id} has already ${status === 'cancelled' ? 'been cancelled' : status}; only a job still running can be cancelled.`, null),
      );
    }
    job.cancelledMs = this.now();
    sendJson(ctx.res, 200, this.json(job), baseHeaders(ctx));
  }

  listEvents(ctx: Ctx, id: string): void {
    const job = this.find(ctx, id);
    if (!job) return;
    const events = this.events(job).map((e, i) => ({
      id: `ftevent-${job.id.slice(6)}${String(i).padStart(3, '0')}`,
      object: 'fine_tuning.job.event',
      created_at: unixSeconds(e.atMs),
      level: e.level,
      message: e.message,
      type: e.type,
      data: e.data ?? {},
    }));
    sendCursorPage(ctx, events.reverse(), 10);
  }

  listCheckpoints(ctx: Ctx, id: string): void {
    const job = this.find(ctx, id);
    if (!job) return;
    const now = Math.min(this.now(), job.cancelledMs ?? Infinity);
    const reached = job.invalidFile ? [] : this.checkpointSteps(job).filter((c) => c.atMs <= now);
    const checkpoints = reached.map((c) => ({
      id: `ftckpt_${job.id.slice(6)}${c.step}`,
      object: 'fine_tuning.job.checkpoint',
      created_at: unixSeconds(c.atMs),
      fine_tuned_model_checkpoint: `${job.fineTunedModel}:ckpt-step-${c.step}`,
      fine_tuning_job_id: job.id,
      metrics: { step: c.step, train_loss: c.loss, train_mean_token_accuracy: Math.round((1 - c.loss / 2) * 10_000) / 10_000 },
      step_number: c.step,
    }));
    sendCursorPage(ctx, checkpoints.reverse(), 10);
  }
}

/** DELETE /v1/models/{id}: only a fine-tune this sandbox made can be deleted, as on OpenAI only your own. */
export function deleteModel(svc: LlmService, ctx: Ctx, id: string): void {
  if (svc.models.deleteFineTuned(id)) return sendJson(ctx.res, 200, { id, object: 'model', deleted: true }, baseHeaders(ctx));
  if (svc.models.find(id)) {
    return openAiError(ctx, 403, {
      message: `You do not have permission to delete the model ${id}: only fine-tuned models of your organisation can be deleted.`,
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_deletable',
    });
  }
  openAiError(ctx, 404, invalid(`The model '${id}' does not exist`, 'model', 'model_not_found'));
}
