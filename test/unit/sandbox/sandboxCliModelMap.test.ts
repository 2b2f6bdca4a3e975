// The model map and Azure classic paths as users reach them from the command line: `npm run
// sandbox -- --model-map a=b` (dist/sandbox.js), and a notebook cell calling an Azure deployment
// through a connections-file connection that sends the key in the api-key header.
import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startSandbox } from '../../../src/sandbox/host';
import { assertBuilt, runCli, tempDir, write } from '../cli/cliKit';
import { killLeftovers, runSandboxToExit, startSandboxProcess } from '../helpers/sandboxProcess';

describe('sandbox command line: --model-map, and Azure deployments from a notebook', function () {
  this.timeout(60_000);
  after(killLeftovers);

  it('npm run sandbox -- --model-map lists and serves the alias; SANDBOX_LLM_MODEL_MAP does the same; a bad entry exits 2', async () => {
    const sb = await startSandboxProcess(
      ['--port', '0', '--no-realtime-demo', '--model-map', 'my-ft=gpt-4o-mini', '--model-map', 'local-llama=sandbox-chat'],
      {},
      10_000,
    );
    try {
      const info = sb.ready as { llm: { baseUrl: string; apiKey: string } };
      const client = new OpenAI({ baseURL: info.llm.baseUrl, apiKey: info.llm.apiKey });
      const ids = [];
      for await (const m of client.models.list()) ids.push(m.id);
      assert.ok(ids.includes('my-ft') && ids.includes('local-llama'), ids.join(', '));
      const c = await client.chat.completions.create({ model: 'local-llama', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(c.model, 'local-llama');
    } finally {
      await sb.stop();
    }
    const fromEnv = await startSandboxProcess(['--port', '0', '--no-realtime-demo'], { SANDBOX_LLM_MODEL_MAP: 'env-ft=gpt-4.1-mini' });
    try {
      const info = fromEnv.ready as { llm: { baseUrl: string; apiKey: string } };
      const model = await new OpenAI({ baseURL: info.llm.baseUrl, apiKey: info.llm.apiKey }).models.retrieve('env-ft');
      assert.equal(model.owned_by, 'sandbox model map (served as gpt-4.1-mini)');
    } finally {
      await fromEnv.stop();
    }
    const bad = await runSandboxToExit(['--port', '0', '--model-map', 'no-equals-sign']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--model-map takes alias=model/);
    const unknown = await runSandboxToExit(['--port', '0', '--no-realtime-demo', '--model-map', 'x=gpt-9']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /"gpt-9" is not a sandbox model/);
  });

  it('a notebook cell POST /openai/deployments/gpt-4o/chat/completions?api-version=… runs through an api-key connection', async () => {
    assertBuilt();
    const key = 'sk-sandbox-azure-cell-key';
    const sandbox = await startSandbox({ port: 0, llmKey: key, realtime: { demo: false } });
    try {
      const dir = tempDir();
      const origin = sandbox.info.llm.baseUrl.replace(/\/v1$/, '');
      const connections = write(
        dir,
        'connections.json',
        JSON.stringify({ llm: [{ name: 'Azure', baseUrl: origin, auth: { placement: 'header', name: 'api-key' }, keyEnv: 'AZURE_OPENAI_API_KEY' }] }),
      );
      const cell = (name: string, deployment: string, query: string, check: string) =>
        `\`\`\`llm name=${name}\nPOST /openai/deployments/${deployment}/chat/completions${query}\nContent-Type: application/json\n\n{"messages": [{"role": "user", "content": "hi"}]}\n\n${check}\n\`\`\`\n`;
      const nb = write(
        dir,
        'azure.awb.md',
        `# Azure\n\n${cell('chat', 'gpt-4o', '?api-version=2024-10-21', '?? status == 200\n?? json.model == "gpt-4o"')}\n${cell('unknown', 'nope', '?api-version=2024-10-21', '?? status == 404')}\n${cell('noversion', 'gpt-4o', '', '?? status == 404')}`,
      );
      const r = await runCli(['run', nb, '--connections', connections], { cwd: dir, env: { AZURE_OPENAI_API_KEY: key } });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /3 passed, 0 failed/);
      assert.ok(!(r.stdout + r.stderr).includes(key), 'the key is never printed');
    } finally {
      await sandbox.close();
    }
  });
});
