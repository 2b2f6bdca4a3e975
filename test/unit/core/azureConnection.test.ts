// Azure OpenAI's classic API as a connection kind: the settings entry, and requests from the same
// client code OpenAI uses reaching the sandbox's deployments (which, as real Azure, answer 404
// without an api-version and know deployments, not models, in the path).
import * as assert from 'node:assert/strict';
import { parseConnectionsSetting, type HttpConnection } from '../../../src/core/connections';
import { AZURE_DEFAULT_API_VERSION, azureDeploymentPath } from '../../../src/core/connectionsAzure';
import { connectionsFileFor } from '../../../src/core/connectionsFile';
import { defaultHttpClient } from '../../../src/notebook/hosts';
import { LlmClient } from '../../../src/services/llm/client';
import { openAiErrorParser } from '../../../src/services/llm/errors';
import { startSandbox, type Sandbox } from '../../../src/sandbox/host';

const KEY = 'azure-key-0123456789';

describe('Azure OpenAI deployments as a connection kind', function () {
  this.timeout(20_000);

  it('an "azure" entry takes its key in api-key and the default api-version; a bad api-version is refused', () => {
    const { connections, problems } = parseConnectionsSetting('llm', [
      { name: 'Azure', baseUrl: 'https://res.openai.azure.com/openai', azure: {} },
      { name: 'Pinned', baseUrl: 'https://res.openai.azure.com/openai', azure: { apiVersion: '2025-01-01-preview' } },
      { name: 'Bad', baseUrl: 'https://res.openai.azure.com/openai', azure: { apiVersion: 'latest' } },
    ]);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /"Bad".*apiVersion.*2024-10-21/);
    const [azure, pinned] = connections as HttpConnection[];
    assert.deepEqual(azure.auth, { placement: 'header', name: 'api-key' });
    assert.deepEqual(azure.azure, { apiVersion: AZURE_DEFAULT_API_VERSION });
    assert.deepEqual(pinned.azure, { apiVersion: '2025-01-01-preview' });
    assert.deepEqual(parseConnectionsSetting('maps', [{ name: 'M', baseUrl: 'https://m.example.com', azure: {} }]).problems, [
      'entry 1 ("M"): "azure" is for language-model connections only',
    ]);
  });

  it('"Export Connections for CI" keeps the azure field, so the CLI sends to the same deployments', () => {
    const conn = parseConnectionsSetting('llm', [{ name: 'Azure', baseUrl: 'https://res.openai.azure.com/openai', azure: {} }]).connections;
    const { json } = connectionsFileFor(conn);
    assert.deepEqual(json.llm?.[0].azure, { apiVersion: AZURE_DEFAULT_API_VERSION });
    assert.equal(json.llm?.[0].keyEnv, 'AZURE_OPENAI_API_KEY');
  });

  it('the model a request names is the deployment in its path; other paths are left as written', () => {
    const body = JSON.stringify({ model: 'gpt 4o', messages: [] });
    assert.equal(azureDeploymentPath('/chat/completions', body), 'deployments/gpt%204o/chat/completions');
    assert.equal(azureDeploymentPath('embeddings?x=1', body), 'deployments/gpt%204o/embeddings?x=1');
    assert.equal(azureDeploymentPath('/models', undefined), 'deployments');
    assert.equal(azureDeploymentPath('/deployments/mine/chat/completions', body), '/deployments/mine/chat/completions');
    assert.equal(azureDeploymentPath('/chat/completions', 'not json'), '/chat/completions');
    assert.equal(azureDeploymentPath('/files', body), '/files');
  });

  describe('against the sandbox', () => {
    let sandbox: Sandbox;
    let conn: HttpConnection;
    before(async () => {
      sandbox = await startSandbox({ port: 0, llmKey: KEY, llm: { tokenRate: 0 }, realtime: { demo: false } });
      const origin = new URL(sandbox.info.llm.baseUrl).origin;
      conn = parseConnectionsSetting('llm', [{ name: 'Azure', baseUrl: `${origin}/openai`, azure: {} }]).connections[0] as HttpConnection;
    });
    after(() => sandbox.close());

    function client(seen: string[]): LlmClient {
      return new LlmClient(
        defaultHttpClient(conn, {
          baseUrl: conn.baseUrl,
          label: 'Azure',
          parseError: openAiErrorParser,
          credentials: () => Promise.resolve(KEY),
          onRequest: (r) => seen.push(r.url),
        }),
      );
    }

    it('chat and the model list go to the deployments with api-version, the key in api-key', async () => {
      const seen: string[] = [];
      const llm = client(seen);
      const deployments = await llm.listModels();
      assert.ok(deployments.some((d) => d.id === 'sandbox-chat'));
      const answer = await llm.chat({ model: 'sandbox-chat', messages: [{ role: 'user', content: 'hello' }] });
      assert.ok(answer.text.length > 0);
      assert.equal(seen.length, 2);
      assert.match(seen[0], new RegExp(`/openai/deployments\\?api-version=${AZURE_DEFAULT_API_VERSION}$`));
      assert.match(seen[1], new RegExp(`/openai/deployments/sandbox-chat/chat/completions\\?api-version=${AZURE_DEFAULT_API_VERSION}$`));
    });

    it('a deployment that does not exist comes back as Azure says it', async () => {
      await assert.rejects(
        client([]).chat({ model: 'no-such-deployment', messages: [{ role: 'user', content: 'hi' }] }),
        /API deployment for this resource does not exist/,
      );
    });
  });
});
