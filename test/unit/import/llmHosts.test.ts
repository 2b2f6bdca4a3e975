// Requests to Azure OpenAI deployments and to OpenAI-compatible local servers import as llm cells
// (keeping their URL, so a run asks for a connection to that host) instead of plain http cells.
import * as assert from 'node:assert/strict';
import { importCurl, importHttpFile } from '../../../src/notebook/api';

describe('import: Azure deployments and OpenAI-compatible servers become llm cells', () => {
  it('Azure /openai/deployments/{name}/chat/completions: an llm cell with the absolute URL, the api-key not written', () => {
    const r = importCurl(
      `curl "https://contoso.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21" -H "api-key: 0123456789abcdef0123456789abcdef" -H "Content-Type: application/json" -d '{"messages": [{"role": "user", "content": "Hi"}]}'`,
    );
    assert.match(r.text, /```llm\nPOST https:\/\/contoso\.openai\.azure\.com\/openai\/deployments\/gpt4o\/chat\/completions\?api-version=2024-10-21/, r.text);
    assert.ok(!r.text.includes('0123456789abcdef0123456789abcdef'));
    assert.ok(
      r.report.some((l) => /no llm connection is for contoso\.openai\.azure\.com/.test(l)),
      r.report.join('\n'),
    );
  });

  it('Ollama, vLLM, LM Studio and any host’s /v1/chat/completions, /v1/embeddings, /v1/models: llm cells', () => {
    const file = [
      '### Ollama',
      'POST http://localhost:11434/v1/chat/completions',
      'Content-Type: application/json',
      '',
      '{"model": "llama3.2", "messages": [{"role": "user", "content": "Hi"}]}',
      '',
      '### vLLM',
      'POST http://127.0.0.1:8000/v1/embeddings',
      'Content-Type: application/json',
      '',
      '{"model": "bge", "input": "x"}',
      '',
      '### LM Studio',
      'GET http://localhost:1234/v1/models',
      '',
      '### Gateway',
      'POST https://llm.example.com/api/v1/chat/completions',
      'Content-Type: application/json',
      '',
      '{"model": "m", "messages": []}',
      '',
      '### Other',
      'GET https://example.com/v1/users',
    ].join('\n');
    const r = importHttpFile(file);
    const llm = r.text.match(/```llm\n[^\n]+/g) ?? [];
    assert.deepEqual(llm, [
      '```llm\nPOST http://localhost:11434/v1/chat/completions',
      '```llm\nPOST http://127.0.0.1:8000/v1/embeddings',
      '```llm\nGET http://localhost:1234/v1/models',
      '```llm\nPOST https://llm.example.com/api/v1/chat/completions',
    ]);
    assert.match(r.text, /```http\nGET https:\/\/example\.com\/v1\/users/);
  });
});
