// Model ids OpenAI has shut down: one dated table names each replacement, and every front end
// reads it: the sandbox answers as OpenAI does, the importer's report, `check`, the editor's
// diagnostics (with a quick fix) and hover say what replaced the id.
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { cellDiagnostics, cellHover, notebookDiagnostics, RETIRED_MODELS } from '../../../src/catalogue';
import { importCurl } from '../../../src/notebook/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { LLM_MODELS } from '../../../src/sandbox/llm';
import { assertBuilt, lines, runCli, tempDir, write } from '../cli/cliKit';
import { at, context } from './authoringKit';

const KEY = 'sk-sandbox-retired-test';

describe('retired OpenAI model ids', function () {
  this.timeout(30_000);

  it('the table is dated, names a served model as each replacement, and holds no id the sandbox still serves', () => {
    const served = new Set(LLM_MODELS.map((m) => m.id));
    for (const m of RETIRED_MODELS) {
      assert.match(m.shutDown, /^\d{4}-\d{2}-\d{2}$/, m.id);
      assert.ok(served.has(m.replacement), `${m.id}'s replacement ${m.replacement} is served`);
      assert.ok(!served.has(m.id), `${m.id} is still served`);
    }
    assert.ok(RETIRED_MODELS.some((m) => m.id === 'text-davinci-003'));
    assert.ok(RETIRED_MODELS.some((m) => m.id === 'gpt-3.5-turbo-0613'));
  });

  it('rows agree with OpenAI’s deprecations page (shutdown date and recommended replacement)', () => {
    const row = (id: string) => RETIRED_MODELS.find((m) => m.id === id);
    // A sample of each section of the page, as it reads.
    const page: Array<[string, string, string]> = [
      ['code-davinci-002', '2023-03-23', 'gpt-4o'],
      ['code-cushman-001', '2023-03-23', 'gpt-4o'],
      ['text-davinci-003', '2024-01-04', 'gpt-3.5-turbo-instruct'],
      ['ada', '2024-01-04', 'babbage-002'],
      ['curie', '2024-01-04', 'davinci-002'],
      ['text-davinci-edit-001', '2024-01-04', 'gpt-4o'],
      ['text-search-ada-doc-001', '2024-01-04', 'text-embedding-3-small'],
      ['gpt-4-0314', '2024-06-13', 'gpt-4o'],
      ['gpt-3.5-turbo-0301', '2024-09-13', 'gpt-3.5-turbo'],
      ['gpt-3.5-turbo-16k-0613', '2024-09-13', 'gpt-3.5-turbo'],
      ['gpt-4-vision-preview', '2024-12-06', 'gpt-4o'],
      ['gpt-4-32k-0314', '2025-06-06', 'gpt-4o'],
    ];
    for (const [id, shutDown, replacement] of page) assert.deepEqual(row(id), { id, shutDown, replacement }, id);
  });

  describe('the sandbox', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
    });
    after(() => sandbox.close());

    it('answers a retired id 404 model_not_found "has been deprecated", as OpenAI does, on every endpoint and on GET /models/{id}', async () => {
      const client = new OpenAI({ apiKey: KEY, baseURL: sandbox.info.llm.baseUrl, maxRetries: 0 });
      const legacy = await client.completions.create({ model: 'text-davinci-003', prompt: 'x' }).catch((e: unknown) => e);
      assert.ok(legacy instanceof OpenAI.NotFoundError);
      assert.equal(legacy.code, 'model_not_found');
      assert.equal(
        legacy.error && (legacy.error as { message: string }).message,
        'The model `text-davinci-003` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations',
      );
      const chat = await client.chat.completions.create({ model: 'gpt-3.5-turbo-0613', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      assert.ok(chat instanceof OpenAI.NotFoundError);
      assert.match(chat.message, /gpt-3\.5-turbo-0613` has been deprecated/);
      const engine = await fetch(`${sandbox.info.llm.baseUrl}/engines/davinci/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: '{"prompt":"x"}',
      });
      assert.equal(engine.status, 404);
      assert.match(((await engine.json()) as { error: { message: string } }).error.message, /`davinci` has been deprecated/);
      const model = await client.models.retrieve('text-davinci-003').catch((e: unknown) => e);
      assert.ok(model instanceof OpenAI.NotFoundError);
      assert.match(model.message, /has been deprecated/);
      const unknown = await client.chat.completions.create({ model: 'gpt-nothing', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      assert.ok(unknown instanceof OpenAI.NotFoundError);
      assert.match(unknown.message, /does not exist or you do not have access to it/);
    });
  });

  it('the editor: a warning with the shutdown date and a quick fix to the replacement, whatever the connection offers; hover says the same', () => {
    const text = 'POST /completions\n\n{"model": "text-davinci-003", "prompt": "x"}';
    for (const ctx of [context(), context({ models: () => [{ id: 'gpt-4o-mini' }] })]) {
      const found = cellDiagnostics({ index: 1, language: 'llm', value: text, attributes: {} }, ctx);
      assert.equal(found.length, 1, JSON.stringify(found));
      const [d] = found;
      assert.deepEqual([d.code, d.severity], ['retired-model', 'warning']);
      assert.match(d.message, /OpenAI shut down "text-davinci-003" on 2024-01-04; "gpt-3\.5-turbo-instruct" replaced it/);
      assert.equal(d.fixes?.[0].title, 'Use "gpt-3.5-turbo-instruct"');
      const { start, end } = d.fixes[0].edit.range;
      assert.equal(text.split('\n')[start.line].slice(start.col, end.col), 'text-davinci-003');
    }
    const { cell, offset } = at('llm', 'POST /chat/completions\n\n{"model": "gpt-4-32¦k", "messages": []}');
    const hover = cellHover(cell, offset, context());
    assert.ok(
      hover?.lines.some((l) => /OpenAI shut down "gpt-4-32k" on 2025-06-06; "gpt-4o" replaced it/.test(l)),
      JSON.stringify(hover),
    );
  });

  it('check: the finding is on the model’s line', async () => {
    const nb = '# Old\n\n```llm\nPOST /chat/completions\n\n{"model": "gpt-3.5-turbo-0613", "messages": []}\n```\n';
    const [f] = notebookDiagnostics(nb, 'old.awb.md');
    assert.deepEqual([f.line, f.code], [6, 'retired-model']);
    assertBuilt();
    const dir = tempDir();
    const file = write(dir, 'old.awb.md', nb);
    const run = await runCli(['check', dir], { cwd: dir });
    assert.deepEqual(lines(run.stdout), [
      `${file}:6: warning: OpenAI shut down "gpt-3.5-turbo-0613" on 2024-09-13; "gpt-3.5-turbo" replaced it: use "gpt-3.5-turbo" (OpenAI answers "gpt-3.5-turbo-0613" 404)`,
    ]);
  });

  it('import: the report names the replacement of a retired id in the body or in an /engines/ path', () => {
    const body = importCurl(
      `curl https://api.openai.com/v1/completions -H 'Content-Type: application/json' -d '{"model": "text-davinci-003", "prompt": "Hi"}'`,
    );
    assert.ok(
      body.report.some((l) => l.includes('OpenAI shut down "text-davinci-003" on 2024-01-04; "gpt-3.5-turbo-instruct" replaced it')),
      body.report.join('\n'),
    );
    assert.match(body.text, /"model": "text-davinci-003"/, 'the cell keeps what the file says');
    const engine = importCurl(`curl https://api.openai.com/v1/engines/davinci/completions -d '{"prompt": "Hi"}'`);
    assert.ok(
      engine.report.some((l) => l.includes('"davinci-002" replaced it')),
      engine.report.join('\n'),
    );
  });
});
