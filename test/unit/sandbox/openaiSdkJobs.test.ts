// Fine-tuning jobs, batches, vector stores and uploads on the sandbox through the official `openai`
// client configured only by OPENAI_BASE_URL and OPENAI_API_KEY, the way a script written for
// OpenAI runs. Jobs and batches move on the sandbox's clock, which the test drives.
import * as assert from 'node:assert/strict';
import OpenAI, { toFile } from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { BATCH_TIMELINE } from '../../../src/sandbox/llm/batches';
import { EPOCH_MS, JOB_TIMELINE } from '../../../src/sandbox/llm/fineTuning';
import { ManualClock } from '../helpers/clock';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-jobs-test';

function trainingJsonl(examples: number): string {
  return Array.from({ length: examples }, (_, i) =>
    JSON.stringify({
      messages: [
        { role: 'system', content: 'You answer in one word.' },
        { role: 'user', content: `Capital number ${i}?` },
        { role: 'assistant', content: 'Paris' },
      ],
    }),
  ).join('\n');
}

describe('sandbox: fine-tuning, batches, vector stores and uploads through the official openai client', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false }, clock });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  it('a fine-tuning job goes from validating_files to succeeded on the clock; chat accepts its ft: model until it is deleted', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const file = await client.files.create({ file: await toFile(Buffer.from(trainingJsonl(12)), 'train.jsonl'), purpose: 'fine-tune' });
    const job = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini', training_file: file.id, suffix: 'capitals', hyperparameters: { n_epochs: 2 } });
    assert.match(job.id, /^ftjob-/);
    assert.deepEqual([job.object, job.status, job.fine_tuned_model, job.training_file], ['fine_tuning.job', 'validating_files', null, file.id]);

    clock.advance(JOB_TIMELINE.queued);
    assert.equal((await client.fineTuning.jobs.retrieve(job.id)).status, 'queued');
    clock.advance(JOB_TIMELINE.running - JOB_TIMELINE.queued + EPOCH_MS);
    const running = await client.fineTuning.jobs.retrieve(job.id);
    assert.equal(running.status, 'running');
    const firstCheckpoints = [];
    for await (const c of client.fineTuning.jobs.checkpoints.list(job.id)) firstCheckpoints.push(c);
    assert.equal(firstCheckpoints.length, 1, 'one epoch done: one checkpoint');

    clock.advance(EPOCH_MS);
    const done = await client.fineTuning.jobs.retrieve(job.id);
    assert.equal(done.status, 'succeeded');
    assert.match(done.fine_tuned_model ?? '', /^ft:gpt-4o-mini:org-sandbox:capitals:[0-9a-f]{8}$/);
    assert.ok(done.trained_tokens! > 0);
    assert.equal(done.finished_at, done.created_at + (JOB_TIMELINE.running + 2 * EPOCH_MS) / 1000);

    const events = [];
    for await (const e of client.fineTuning.jobs.listEvents(job.id, { limit: 3 })) events.push(e.message);
    assert.equal(events[0], 'The job has successfully completed', 'newest first, paged by the SDK');
    assert.ok(events.includes(`Created fine-tuning job: ${job.id}`));
    const checkpoints = [];
    for await (const c of client.fineTuning.jobs.checkpoints.list(job.id)) checkpoints.push(c);
    assert.deepEqual(
      checkpoints.map((c) => c.step_number),
      [24, 12],
    );
    assert.equal(checkpoints[0].fine_tuned_model_checkpoint, `${done.fine_tuned_model}:ckpt-step-24`);

    const listed = [];
    for await (const j of client.fineTuning.jobs.list()) listed.push(j.id);
    assert.deepEqual(listed, [job.id]);

    const model = done.fine_tuned_model!;
    const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Capital of France?' }] });
    assert.equal(chat.model, model);
    assert.ok(chat.choices[0].message.content);
    assert.equal((await client.models.retrieve(model)).owned_by, 'org-sandbox');
    assert.deepEqual(await client.models.delete(model), { id: model, object: 'model', deleted: true });
    const gone = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    assert.ok(gone instanceof OpenAI.NotFoundError, String(gone));
    const notMine = await client.models.delete('gpt-4o').catch((e: unknown) => e);
    assert.ok(notMine instanceof OpenAI.PermissionDeniedError, String(notMine));
    const late = await client.fineTuning.jobs.cancel(job.id).catch((e: unknown) => e);
    assert.ok(late instanceof OpenAI.BadRequestError);
  });

  it('a job is cancelled while it runs, and one whose file has too few examples fails saying so', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const file = await client.files.create({ file: await toFile(Buffer.from(trainingJsonl(10)), 'train.jsonl'), purpose: 'fine-tune' });
    const job = await client.fineTuning.jobs.create({ model: 'gpt-4.1-mini', training_file: file.id });
    clock.advance(JOB_TIMELINE.running);
    const cancelled = await client.fineTuning.jobs.cancel(job.id);
    assert.equal(cancelled.status, 'cancelled');
    clock.advance(10 * EPOCH_MS);
    assert.equal((await client.fineTuning.jobs.retrieve(job.id)).status, 'cancelled', 'it stays cancelled');

    const small = await client.files.create({ file: await toFile(Buffer.from(trainingJsonl(3)), 'small.jsonl'), purpose: 'fine-tune' });
    const doomed = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini', training_file: small.id });
    clock.advance(JOB_TIMELINE.queued);
    const failed = await client.fineTuning.jobs.retrieve(doomed.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error?.message ?? '', /has 3 example\(s\), but must have at least 10/);

    const wrongPurpose = await client.files.create({ file: await toFile(Buffer.from(trainingJsonl(10)), 'b.jsonl'), purpose: 'batch' });
    const refused = await client.fineTuning.jobs.create({ model: 'gpt-4o-mini', training_file: wrongPurpose.id }).catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    assert.equal(refused.param, 'training_file');
    const missing = await client.fineTuning.jobs.retrieve('ftjob-nothing').catch((e: unknown) => e);
    assert.ok(missing instanceof OpenAI.NotFoundError);
  });

  it('a batch runs its JSONL requests in order: answers in the output file, refusals in the error file, the same each time', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const line = (id: string, model: string) =>
      JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: `Say ${id}` }] } });
    const input = [line('a', 'gpt-4o-mini'), line('b', 'no-such-model'), line('c', 'gpt-4.1')].join('\n');
    const run = async () => {
      const file = await client.files.create({ file: await toFile(Buffer.from(input), 'batch.jsonl'), purpose: 'batch' });
      const batch = await client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      assert.equal(batch.status, 'validating');
      clock.advance(BATCH_TIMELINE.in_progress);
      assert.equal((await client.batches.retrieve(batch.id)).status, 'in_progress');
      clock.advance(BATCH_TIMELINE.completed - BATCH_TIMELINE.in_progress);
      const done = await client.batches.retrieve(batch.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual(done.request_counts, { total: 3, completed: 2, failed: 1 });
      const output = (await (await client.files.content(done.output_file_id!)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BatchLine);
      const errors = (await (await client.files.content(done.error_file_id!)).text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BatchLine);
      return { batch: done, output, errors };
    };
    interface BatchLine {
      custom_id: string;
      response: { status_code: number; body: { choices?: { message: { content: string } }[]; error?: { code: string } } };
    }
    const first = await run();
    assert.deepEqual(
      first.output.map((l) => [l.custom_id, l.response.status_code]),
      [
        ['a', 200],
        ['c', 200],
      ],
    );
    assert.equal(first.errors[0].custom_id, 'b');
    assert.equal(first.errors[0].response.status_code, 404);
    assert.equal(first.errors[0].response.body.error?.code, 'model_not_found');
    assert.ok(first.batch.usage!.total_tokens > 0);
    const second = await run();
    assert.deepEqual(
      second.output.map((l) => l.response.body.choices?.[0].message.content),
      first.output.map((l) => l.response.body.choices?.[0].message.content),
      'deterministic answers',
    );

    const mismatched = await client.files.create({
      file: await toFile(Buffer.from(`${line('x', 'gpt-4o-mini')}\nnot json\n`), 'bad.jsonl'),
      purpose: 'batch',
    });
    const bad = await client.batches.create({ input_file_id: mismatched.id, endpoint: '/v1/embeddings', completion_window: '24h' });
    clock.advance(BATCH_TIMELINE.in_progress);
    const failed = await client.batches.retrieve(bad.id);
    assert.equal(failed.status, 'failed');
    assert.deepEqual(
      failed.errors?.data?.map((e) => [e.line, e.code]),
      [
        [1, 'mismatched_endpoint'],
        [2, 'invalid_json_line'],
      ],
    );
    const listed = [];
    for await (const b of client.batches.list({ limit: 2 })) listed.push(b.id);
    assert.equal(listed.length, 3);
    const notCancellable = await client.batches.cancel(first.batch.id).catch((e: unknown) => e);
    assert.ok(notCancellable instanceof OpenAI.APIError && notCancellable.status === 409);
  });

  it('vector stores: files attached by createAndPoll, searched deterministically, listed, read and deleted', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const text = 'Tides follow the moon.\n\nBread rises with yeast and warmth.\n\nThe moon pulls the oceans into tides twice a day.';
    const file = await client.files.create({ file: await toFile(Buffer.from(text), 'notes.txt'), purpose: 'assistants' });
    const store = await client.vectorStores.create({ name: 'notes' });
    assert.deepEqual([store.object, store.status, store.file_counts.total], ['vector_store', 'completed', 0]);
    const attached = await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id, attributes: { topic: 'nature' } });
    assert.deepEqual([attached.object, attached.status, attached.vector_store_id], ['vector_store.file', 'completed', store.id]);
    assert.equal((await client.vectorStores.retrieve(store.id)).file_counts.completed, 1);

    const results = [];
    for await (const r of client.vectorStores.search(store.id, { query: 'moon tides' })) results.push(r);
    assert.deepEqual(
      results.map((r) => r.content[0].text),
      ['Tides follow the moon.', 'The moon pulls the oceans into tides twice a day.'],
    );
    assert.ok(results[0].score > results[1].score);
    assert.deepEqual([results[0].file_id, results[0].filename, results[0].attributes], [file.id, 'notes.txt', { topic: 'nature' }]);

    const content = [];
    for await (const c of client.vectorStores.files.content(file.id, { vector_store_id: store.id })) content.push(c.text);
    assert.equal(content.length, 3);
    const files = [];
    for await (const f of client.vectorStores.files.list(store.id)) files.push(f.id);
    assert.deepEqual(files, [file.id]);
    assert.equal((await client.vectorStores.update(store.id, { name: 'renamed' })).name, 'renamed');
    assert.deepEqual(await client.vectorStores.files.delete(file.id, { vector_store_id: store.id }), {
      id: file.id,
      object: 'vector_store.file.deleted',
      deleted: true,
    });
    assert.deepEqual(await client.vectorStores.delete(store.id), { id: store.id, object: 'vector_store.deleted', deleted: true });
    const gone = await client.vectorStores.retrieve(store.id).catch((e: unknown) => e);
    assert.ok(gone instanceof OpenAI.NotFoundError);
    await client.files.delete(file.id);
  });

  it('uploads: parts joined in the order completed become a file; a wrong size is refused with what to do', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const upload = await client.uploads.create({ bytes: 11, filename: 'hello.txt', mime_type: 'text/plain', purpose: 'assistants' });
    assert.deepEqual([upload.object, upload.status], ['upload', 'pending']);
    const world = await client.uploads.parts.create(upload.id, { data: await toFile(Buffer.from(' world'), 'p2') });
    const hello = await client.uploads.parts.create(upload.id, { data: await toFile(Buffer.from('hello'), 'p1') });
    assert.equal(hello.object, 'upload.part');
    const short = await client.uploads.complete(upload.id, { part_ids: [hello.id] }).catch((e: unknown) => e);
    assert.ok(short instanceof OpenAI.BadRequestError);
    assert.match(short.message, /5 bytes, but the upload was created for 11/);
    const done = await client.uploads.complete(upload.id, { part_ids: [hello.id, world.id], md5: '5eb63bbbe01eeed093cb22bb8f5acdc3' });
    assert.equal(done.status, 'completed');
    assert.equal(done.file?.filename, 'hello.txt');
    assert.equal(await (await client.files.content(done.file?.id ?? '')).text(), 'hello world');
    const again = await client.uploads.cancel(upload.id).catch((e: unknown) => e);
    assert.ok(again instanceof OpenAI.BadRequestError, 'a completed upload cannot be cancelled');
    await client.files.delete(done.file?.id ?? '');
  });
});
