// Paths and model ids OpenAI has retired, on the sandbox: answered with OpenAI's status and words,
// plus the replacement, so an old file's cell says what to change instead of a bare 404.
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';

const KEY = 'sk-sandbox-openai-legacy-test';

describe('sandbox: retired OpenAI paths', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());

  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.info.llm.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json()) as { error?: { message: string; code: string | null }; choices?: { text: string }[]; model?: string },
    };
  };

  it('/v1/fine-tunes, /v1/edits, engine embeddings and the Assistants API: 404 unknown_url, naming what replaced them', async () => {
    const fineTunes = await send('POST', '/fine-tunes', { training_file: 'file-x', model: 'davinci' });
    assert.equal(fineTunes.status, 404);
    assert.equal(fineTunes.body.error?.code, 'unknown_url');
    assert.match(fineTunes.body.error?.message ?? '', /^Unknown request URL: POST \/v1\/fine-tunes\. Please check the URL for typos/);
    assert.match(fineTunes.body.error?.message ?? '', /shut down on 2024-01-04; use POST \/v1\/fine_tuning\/jobs/);
    assert.match((await send('GET', '/fine-tunes/ft-abc/events')).body.error?.message ?? '', /fine_tuning\/jobs/);
    assert.match((await send('POST', '/edits', { model: 'text-davinci-edit-001' })).body.error?.message ?? '', /use POST \/v1\/chat\/completions/);
    assert.match((await send('POST', '/engines/text-embedding-ada-002/embeddings', { input: 'x' })).body.error?.message ?? '', /use POST \/v1\/embeddings/);
    const assistants = await new OpenAI({ apiKey: KEY, baseURL: sandbox.info.llm.baseUrl, maxRetries: 0 }).beta.assistants
      .create({ model: 'gpt-4o' })
      .catch((e: unknown) => e);
    assert.ok(assistants instanceof OpenAI.NotFoundError, String(assistants));
    assert.match(assistants.message, /use POST \/v1\/responses/);
  });

  it('/v1/engines/{id}/completions answers as /v1/completions with the engine as the model', async () => {
    const ok = await send('POST', '/engines/gpt-3.5-turbo-instruct/completions', { prompt: 'Say hello', max_tokens: 5 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.model, 'gpt-3.5-turbo-instruct');
    const direct = await send('POST', '/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hello', max_tokens: 5 });
    assert.equal(ok.body.choices?.[0].text, direct.body.choices?.[0].text);
  });
});
