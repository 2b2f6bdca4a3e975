// The built CLI runs a notebook written for OpenAI on an Azure OpenAI deployments connection from
// the --connections file, against the sandbox's classic Azure paths (which answer 404 without an
// api-version and know deployments, not models).
import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';
import { assertBuilt, runCli, tempDir, write } from './cliKit';

const KEY = 'azure-cli-key-0123456789';
const NOTEBOOK =
  '# Azure\n\n' +
  '```llm name=deployments\nGET /models\n\n?? status == 200\n?? json.data[0].object == deployment\n```\n\n' +
  '```llm name=chat\nPOST /chat/completions\nContent-Type: application/json\n\n{"model": "sandbox-chat", "messages": [{"role": "user", "content": "hi"}]}\n\n?? status == 200\n?? header apim-request-id exists\n```\n';

describe('CLI: an Azure OpenAI deployments connection', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let dir: string;

  before(async () => {
    assertBuilt();
    dir = tempDir();
    sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
  });
  after(() => sandbox.close());

  it('runs OpenAI-style cells on the deployments, api-version on each request, the key never printed', async () => {
    const origin = new URL(sandbox.info.llm.baseUrl).origin;
    const conns = write(dir, 'azure.json', JSON.stringify({ llm: [{ name: 'Azure', baseUrl: `${origin}/openai`, azure: {}, keyEnv: 'AWB_AZURE_KEY' }] }));
    const nb = write(dir, 'azure.awb.md', NOTEBOOK);
    const r = await runCli(['run', nb, '--connections', conns, '--reporter', 'json'], { cwd: dir, env: { AWB_AZURE_KEY: KEY } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout) as { suites: { cells: { request?: { url: string } }[] }[] };
    const urls = report.suites[0].cells.map((c) => c.request?.url);
    assert.deepEqual(urls, [
      `${origin}/openai/deployments?api-version=2024-10-21`,
      `${origin}/openai/deployments/sandbox-chat/chat/completions?api-version=2024-10-21`,
    ]);
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(KEY));
  });
});
