// OpenAI's public model ids on the sandbox, as a script written for OpenAI sees them: the official
// `openai` client configured only by OPENAI_BASE_URL and OPENAI_API_KEY (`new OpenAI()`), Azure's
// classic deployments through `AzureOpenAI`, and `--model-map` for ids of the user's own.
import * as assert from 'node:assert/strict';
import OpenAI, { AzureOpenAI } from 'openai';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { sandboxAnswer, sandboxEmbedding } from '../../../src/sandbox/llm';
import { assertBuilt, runCli, tempDir, write } from '../cli/cliKit';
import { useOpenAiEnv } from './openaiEnv';

const KEY = 'sk-sandbox-openai-ids-test';

async function errorOf(p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof OpenAI.APIError, `expected an API error, got ${String(e)}`);
  return e;
}

describe('sandbox: OpenAI model ids through the official openai client (env-configured)', function () {
  this.timeout(20_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({
      port: 0,
      llmKey: KEY,
      llm: {
        tokenRate: 0,
        modelMap: { 'my-fine-tune': 'gpt-4o-mini', 'ft:gpt-4o-mini-2024-07-18:acme::abc123': 'gpt-4o-mini', 'my-embedder': 'text-embedding-3-small' },
      },
      realtime: { demo: false },
    });
  });
  after(() => sandbox.close());
  useOpenAiEnv(() => sandbox.info.llm.baseUrl, KEY);

  it('lists the public ids beside the sandbox ones, each saying it is a sandbox stand-in', async () => {
    const models = [];
    for await (const m of new OpenAI().models.list()) models.push(m);
    const byId = new Map(models.map((m) => [m.id, m]));
    const ids = [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-5',
      'o3-mini',
      'o4-mini',
      'gpt-3.5-turbo',
      'gpt-3.5-turbo-instruct',
      'text-embedding-3-small',
      'text-embedding-3-large',
      'text-embedding-ada-002',
      'whisper-1',
      'tts-1',
      'dall-e-3',
      'gpt-image-1',
      'omni-moderation-latest',
    ];
    for (const id of ids) assert.equal(byId.get(id)?.owned_by, 'sandbox stand-in for openai', id);
    assert.equal(byId.get('sandbox-chat')?.owned_by, 'sandbox', 'the sandbox models stay');
    const one = await new OpenAI().models.retrieve('gpt-4.1-mini');
    assert.deepEqual([one.id, one.object, one.owned_by], ['gpt-4.1-mini', 'model', 'sandbox stand-in for openai']);
    const dated = await new OpenAI().models.retrieve('gpt-4o-2024-08-06');
    assert.equal(dated.created, Date.UTC(2024, 7, 6) / 1000, 'a dated id was created on its date');
  });

  for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'o4-mini', 'gpt-3.5-turbo']) {
    it(`${model} chats: the deterministic sandbox answer, under the model's own name`, async () => {
      const messages = [{ role: 'user' as const, content: `Hello ${model}` }];
      const c = await new OpenAI().chat.completions.create({ model, messages });
      assert.equal(c.model, model);
      assert.equal(c.choices[0].message.content, sandboxAnswer(messages, model));
    });
  }

  it('an unknown id is a 404 model_not_found, worded as OpenAI words it', async () => {
    const chat = await errorOf(new OpenAI().chat.completions.create({ model: 'gpt-9-ultra', messages: [{ role: 'user', content: 'hi' }] }));
    assert.ok(chat instanceof OpenAI.NotFoundError);
    assert.equal(chat.code, 'model_not_found');
    assert.equal(chat.type, 'invalid_request_error');
    assert.match(chat.message, /^404 The model `gpt-9-ultra` does not exist or you do not have access to it\.$/);
    const retrieve = await errorOf(new OpenAI().models.retrieve('gpt-9-ultra'));
    assert.equal(retrieve.status, 404);
    assert.equal(retrieve.code, 'model_not_found');
  });

  it('a model of another kind: OpenAI’s wording for a legacy model on chat, a 400 for the rest', async () => {
    const legacy = await errorOf(new OpenAI().chat.completions.create({ model: 'gpt-3.5-turbo-instruct', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(legacy.status, 404);
    assert.match(
      legacy.message,
      /This is not a chat model and thus not supported in the v1\/chat\/completions endpoint\. Did you mean to use v1\/completions\?/,
    );
    const embedder = await errorOf(new OpenAI().chat.completions.create({ model: 'text-embedding-3-small', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(embedder.status, 400);
    assert.equal(embedder.param, 'model');
  });

  it('embedding models embed at their real sizes (1536, 3072, 1536) and honour dimensions', async () => {
    const client = new OpenAI();
    for (const [model, size] of [
      ['text-embedding-3-small', 1536],
      ['text-embedding-3-large', 3072],
      ['text-embedding-ada-002', 1536],
    ] as const) {
      const r = await client.embeddings.create({ model, input: 'the sandbox' });
      assert.equal(r.model, model);
      assert.equal(r.data[0].embedding.length, size, model);
      assert.deepEqual(r.data[0].embedding, sandboxEmbedding('the sandbox', size), `${model}: deterministic`);
    }
    const short = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'short', dimensions: 256, encoding_format: 'float' });
    assert.equal(short.data[0].embedding.length, 256);
    const tooLong = await errorOf(client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 3072 }));
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.param, 'dimensions');
    assert.match(tooLong.message, /less than or equal to 1536/);
    const ada = await errorOf(client.embeddings.create({ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 }));
    assert.equal(ada.status, 400);
    assert.match(ada.message, /This model does not support specifying dimensions\./);
  });

  it('--model-map ids are listed and served as their model, answering under their own name', async () => {
    const client = new OpenAI();
    const listed = new Map<string, string>();
    for await (const m of client.models.list()) listed.set(m.id, m.owned_by);
    assert.equal(listed.get('my-fine-tune'), 'sandbox model map (served as gpt-4o-mini)');
    assert.ok(listed.has('ft:gpt-4o-mini-2024-07-18:acme::abc123'));
    for (const model of ['my-fine-tune', 'ft:gpt-4o-mini-2024-07-18:acme::abc123']) {
      const messages = [{ role: 'user' as const, content: 'Who are you?' }];
      const c = await client.chat.completions.create({ model, messages });
      assert.equal(c.model, model);
      assert.equal(c.choices[0].message.content, sandboxAnswer(messages, model));
    }
    const e = await client.embeddings.create({ model: 'my-embedder', input: 'mapped' });
    assert.equal(e.data[0].embedding.length, 1536, 'an embedding alias has its model’s size');
  });

  it('a model map to a model the sandbox does not have refuses to start, naming the entry', async () => {
    await assert.rejects(
      startSandbox({ port: 0, llm: { modelMap: { mine: 'gpt-9-ultra' } }, realtime: { demo: false } }),
      /--model-map mine=gpt-9-ultra: "gpt-9-ultra" is not a sandbox model/,
    );
  });

  describe('Azure OpenAI classic deployments (AzureOpenAI client)', () => {
    const origin = () => sandbox.info.llm.baseUrl.replace(/\/v1$/, '');
    // AzureOpenAI reads OPENAI_BASE_URL too, and refuses it beside `endpoint`: an Azure script's shell has none.
    before(() => delete process.env.OPENAI_BASE_URL);
    after(() => (process.env.OPENAI_BASE_URL = sandbox.info.llm.baseUrl));

    it('a deployment named like a model serves it: chat and embeddings, key in the api-key header', async () => {
      const seen: { url: string; apiKey: string | null; auth: string | null }[] = [];
      const recording: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        seen.push({ url: String(input instanceof Request ? input.url : input), apiKey: headers.get('api-key'), auth: headers.get('authorization') });
        return fetch(input, init);
      };
      const chat = new AzureOpenAI({ endpoint: origin(), apiKey: KEY, apiVersion: '2024-10-21', deployment: 'gpt-4o', fetch: recording });
      const messages = [{ role: 'user' as const, content: 'Azure classic' }];
      const c = await chat.chat.completions.create({ model: '', messages });
      assert.equal(c.choices[0].message.content, sandboxAnswer(messages, 'gpt-4o'));
      assert.match(seen[0].url, /\/openai\/deployments\/gpt-4o\/chat\/completions\?api-version=2024-10-21$/);
      assert.deepEqual([seen[0].apiKey, seen[0].auth], [KEY, null]);
      const embed = new AzureOpenAI({ endpoint: origin(), apiKey: KEY, apiVersion: '2024-10-21', deployment: 'text-embedding-3-large', fetch: recording });
      const e = await embed.embeddings.create({ model: '', input: 'azure' });
      assert.equal(e.data[0].embedding.length, 3072);
    });

    it('Entra ID: a bearer token from azureADTokenProvider is accepted in place of api-key', async () => {
      const entra = new AzureOpenAI({
        endpoint: origin(),
        azureADTokenProvider: () => Promise.resolve(KEY),
        apiVersion: '2024-10-21',
        deployment: 'gpt-4.1-mini',
      });
      const c = await entra.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'entra' }] });
      assert.equal(c.model, 'gpt-4.1-mini');
    });

    it('an unknown deployment is a 404 DeploymentNotFound in Azure’s shape', async () => {
      const azure = new AzureOpenAI({ endpoint: origin(), apiKey: KEY, apiVersion: '2024-10-21', deployment: 'my-gpt4o-prod' });
      const e = await errorOf(azure.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'hi' }] }));
      assert.equal(e.status, 404);
      assert.equal(e.code, 'DeploymentNotFound');
      assert.match(e.message, /The API deployment for this resource does not exist/);
    });

    it('without api-version the classic API answers as Azure does (404 Resource not found) and says what to add', async () => {
      const res = await fetch(`${origin()}/openai/deployments/gpt-4o/chat/completions`, {
        method: 'POST',
        headers: { 'api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
      });
      assert.equal(res.status, 404);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, '404');
      assert.match(body.error.message, /^Resource not found .*api-version=2024-10-21/);
      const v1 = await fetch(`${origin()}/openai/v1/models`, { headers: { 'api-key': KEY } });
      assert.equal(v1.status, 200, 'the v1 API needs no api-version');
      await v1.body?.cancel();
    });
  });
});

describe('api-workbench run --sandbox --model-map', function () {
  this.timeout(60_000);

  it('serves a private fine-tune id as the mapped model to a notebook cell', async () => {
    assertBuilt();
    const dir = tempDir();
    const nb = write(
      dir,
      'ft.awb.md',
      '# fine-tune\n\n```llm name=ask\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "ft:gpt-4o-mini:acme::x1", "messages": [{"role": "user", "content": "hi"}]}\n\n?? status == 200\n?? json.model == "ft:gpt-4o-mini:acme::x1"\n```\n',
    );
    const mapped = await runCli(['run', nb, '--sandbox', '--model-map', 'ft:gpt-4o-mini:acme::x1=gpt-4o-mini'], { cwd: dir });
    assert.equal(mapped.code, 0, mapped.stdout + mapped.stderr);
    const unmapped = await runCli(['run', nb, '--sandbox'], { cwd: dir });
    assert.equal(unmapped.code, 1, 'without the map the id is unknown (404)');
    const bad = await runCli(['run', nb, '--sandbox', '--model-map', 'nothing-to-map'], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--model-map takes alias=model/);
    const alone = await runCli(['run', nb, '--model-map', 'a=gpt-4o'], { cwd: dir });
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--model-map applies to the built-in sandbox: add --sandbox/);
  });
});
