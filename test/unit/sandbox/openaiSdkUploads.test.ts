// Multipart uploads on the sandbox (audio transcriptions and translations, files) through the
// official `openai` client configured only by OPENAI_BASE_URL and OPENAI_API_KEY, plus the
// REST-Client-style multipart body a notebook cell sends; uploads are bounded (413, store limits).
import * as assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI, toFile } from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { MAX_FILES } from '../../../src/sandbox/llm/files';
import { speechPcm, wavOf } from '../../../src/sandbox/llm/media';
import { UPLOAD_LIMIT_BYTES } from '../../../src/sandbox/llm/multipart';
import { audioSeconds, sandboxTranscript } from '../../../src/sandbox/llm/transcriptions';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-uploads-test';

describe('sandbox: multipart uploads through the official openai client', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  const wav = wavOf(speechPcm('four words of speech'));
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  const expected = () => sandboxTranscript(wav, Math.round(audioSeconds(wav) * 100) / 100);

  it('transcribes an uploaded WAV: deterministic text, as json, text, srt, vtt and verbose_json', async () => {
    const client = new OpenAI();
    const file = () => toFile(wav, 'sample.wav', { type: 'audio/wav' });
    const json = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1' });
    assert.equal(json.text, expected());
    assert.ok(json.text.split(' ').length >= 6);
    const again = await client.audio.transcriptions.create({ file: await file(), model: 'gpt-4o-transcribe' });
    assert.equal(again.text, json.text, 'the same file gives the same words');
    const text = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'text' });
    assert.equal(String(text).trim(), json.text);
    const srt = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'srt' });
    assert.match(String(srt), /^1\n00:00:00,000 --> 00:00:01,200\n/);
    const vtt = await client.audio.transcriptions.create({ file: await file(), model: 'whisper-1', response_format: 'vtt' });
    assert.match(String(vtt), /^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.200\n/);
    const verbose = await client.audio.transcriptions.create({
      file: await file(),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    assert.equal(verbose.duration, 1.2, 'the WAV header gives the length: four words of 0.3 s');
    assert.equal(verbose.segments?.[0].end, 1.2);
    assert.equal(verbose.words?.length, json.text.split(' ').length);
    const refused = await client.audio.transcriptions
      .create({ file: await file(), model: 'gpt-4o-mini-transcribe', response_format: 'srt' })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof OpenAI.BadRequestError);
    assert.equal(refused.param, 'response_format');
    const translated = await client.audio.translations.create({ file: await file(), model: 'whisper-1' });
    assert.equal(translated.text, json.text);
  });

  it('a notebook cell’s multipart body (REST Client style, CRLF, ----AwbBoundary) is read the same', async () => {
    const head = (name: string, extra = '') => `------AwbBoundary\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
    const body = Buffer.concat([
      Buffer.from(`${head('model')}\r\nwhisper-1\r\n${head('file', '; filename="sample.wav"')}Content-Type: audio/wav\r\n\r\n`),
      wav,
      Buffer.from('\r\n------AwbBoundary--\r\n'),
    ]);
    const res = await fetch(`${sandbox.info.llm.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=----AwbBoundary' },
      body,
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { text: string }).text, expected());
    const json = await fetch(`${sandbox.info.llm.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"model":"whisper-1"}',
    });
    assert.equal(json.status, 400, 'JSON is not an upload');
    assert.match(((await json.json()) as { error: { message: string } }).error.message, /multipart\/form-data/);
  });

  it('an upload over 25 MB is a 413 in OpenAI’s error shape, and the sandbox goes on serving', async () => {
    const client = new OpenAI({ maxRetries: 0 });
    const big = await toFile(Buffer.alloc(UPLOAD_LIMIT_BYTES + 1024), 'big.wav', { type: 'audio/wav' });
    const e = await client.audio.transcriptions.create({ file: big, model: 'whisper-1' }).catch((x: unknown) => x);
    assert.ok(e instanceof OpenAI.APIError, String(e));
    assert.equal(e.status, 413);
    assert.equal(e.code, 'request_too_large');
    assert.match(e.message, /Maximum content size limit \(26214400\) exceeded/);
    const ok = await client.audio.transcriptions.create({ file: await toFile(wav, 'a.wav'), model: 'whisper-1' });
    assert.equal(ok.text, expected());
  });

  it('files: upload, list, retrieve, content and delete in OpenAI’s shapes; an unknown id is a 404', async () => {
    const client = new OpenAI();
    const jsonl = '{"custom_id":"1","method":"POST","url":"/v1/chat/completions","body":{}}\n';
    const uploaded = await client.files.create({ file: await toFile(Buffer.from(jsonl), 'batch.jsonl'), purpose: 'batch' });
    assert.match(uploaded.id, /^file-/);
    assert.deepEqual(
      [uploaded.object, uploaded.bytes, uploaded.filename, uploaded.purpose, uploaded.status],
      ['file', jsonl.length, 'batch.jsonl', 'batch', 'processed'],
    );
    const listed = [];
    for await (const f of client.files.list({ purpose: 'batch' })) listed.push(f.id);
    assert.ok(listed.includes(uploaded.id));
    assert.deepEqual(await client.files.retrieve(uploaded.id), uploaded);
    assert.equal(await (await client.files.content(uploaded.id)).text(), jsonl);
    assert.deepEqual(await client.files.delete(uploaded.id), { id: uploaded.id, object: 'file', deleted: true });
    const gone = await client.files.retrieve(uploaded.id).catch((x: unknown) => x);
    assert.ok(gone instanceof OpenAI.NotFoundError);
    assert.match(gone.message, new RegExp(`No such File object: ${uploaded.id}`));
    const badPurpose = await client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'nonsense' as 'batch' }).catch((x: unknown) => x);
    assert.ok(badPurpose instanceof OpenAI.BadRequestError);
    assert.equal(badPurpose.param, 'purpose');
  });

  it(`files are bounded: one more than ${MAX_FILES} is refused with what to do, and deleting one makes room`, async () => {
    const client = new OpenAI();
    const ids: string[] = [];
    for (let i = 0; i < MAX_FILES; i++)
      ids.push((await client.files.create({ file: await toFile(Buffer.from(`f${i}`), `f${i}.txt`), purpose: 'user_data' })).id);
    const full = await client.files.create({ file: await toFile(Buffer.from('more'), 'more.txt'), purpose: 'user_data' }).catch((x: unknown) => x);
    assert.ok(full instanceof OpenAI.BadRequestError);
    assert.equal(full.code, 'sandbox_storage_full');
    assert.match(full.message, /delete some/);
    await client.files.delete(ids[0]);
    await client.files.create({ file: await toFile(Buffer.from('more'), 'more.txt'), purpose: 'user_data' });
    for (const id of ids.slice(1)) await client.files.delete(id);
  });

  it('Azure: AzureOpenAI transcribes through a whisper-1 deployment', async () => {
    const azure = new AzureOpenAI({
      baseURL: `${sandbox.info.llm.baseUrl.replace(/\/v1$/, '')}/openai`,
      apiKey: KEY,
      apiVersion: '2024-10-21',
      deployment: 'whisper-1',
    });
    const t = await azure.audio.transcriptions.create({ file: await toFile(wav, 'sample.wav'), model: '' });
    assert.equal(t.text, expected());
  });
});
