// Every preset of Connect… builds a settings entry the connection parser accepts, and the ones
// that sign in differently (Entra ID, a token command, no key) say so in the entry they build.
import * as assert from 'node:assert/strict';
import { COGNITIVE_SERVICES_SCOPE } from '../../../src/core/auth/resolver';
import { parseConnectionsSetting, usesStoredKey, type HttpConnection, type ServiceId } from '../../../src/core/connections';
import { CONNECTION_PRESETS, GCLOUD_TOKEN_COMMAND, llmPresetForHost } from '../../../src/features/connectionPresets';

function build(service: ServiceId, label: string, answers: Record<string, string> = {}): HttpConnection {
  const preset = CONNECTION_PRESETS[service].find((p) => p.label === label);
  assert.ok(preset, `a preset named ${label}`);
  const draft: Record<string, string> = {};
  for (const f of preset.fields) {
    const v = answers[f.key] ?? f.value ?? f.choices?.[0].label ?? 'x';
    assert.equal(f.validate?.(v), undefined, `${label}: ${f.key} = ${v}`);
    draft[f.key] = v;
  }
  const parsed = parseConnectionsSetting(service, [{ name: label, ...preset.build(draft) }]);
  assert.deepEqual(parsed.problems, [], label);
  const conn = parsed.connections[0] as HttpConnection;
  assert.equal(usesStoredKey(conn), !preset.keyless, `${label}: asks for a key exactly when it stores one`);
  return conn;
}

describe('Connect… presets', () => {
  it('every preset of every service builds a valid connection', () => {
    for (const service of ['llm', 'maps'] as const)
      for (const p of CONNECTION_PRESETS[service]) build(service, p.label, { baseUrl: 'https://api.example.com/v1', resource: 'res', project: 'my-project' });
  });

  it('Azure with Entra ID: v1 or deployments, a bearer token for Cognitive Services, no key', () => {
    const v1 = build('llm', 'Azure OpenAI with Entra ID (no key)', { resource: 'contoso', api: 'v1' });
    assert.equal(v1.baseUrl, 'https://contoso.openai.azure.com/openai/v1');
    assert.deepEqual(v1.credential, { kind: 'entra', scope: COGNITIVE_SERVICES_SCOPE });
    assert.deepEqual(v1.auth, { placement: 'bearer' });
    const classic = build('llm', 'Azure OpenAI with Entra ID (no key)', { resource: 'contoso', api: 'deployments' });
    assert.equal(classic.baseUrl, 'https://contoso.openai.azure.com/openai');
    assert.ok(classic.azure);
  });

  it('Vertex AI: the project and region in the URL, gcloud’s token; Bedrock: the regional OpenAI endpoint with its API key', () => {
    const vertex = build('llm', 'Google Vertex AI (OpenAI-compatible)', { project: 'my-project', region: 'europe-west4' });
    assert.equal(vertex.baseUrl, 'https://europe-west4-aiplatform.googleapis.com/v1/projects/my-project/locations/europe-west4/endpoints/openapi');
    assert.deepEqual(vertex.credential, { kind: 'tokenCommand', command: GCLOUD_TOKEN_COMMAND });
    const global = build('llm', 'Google Vertex AI (OpenAI-compatible)', { project: 'my-project', region: 'global' });
    assert.match(global.baseUrl, /^https:\/\/aiplatform\.googleapis\.com\/v1\/projects\/my-project\/locations\/global\//);
    const bedrock = build('llm', 'Amazon Bedrock (OpenAI-compatible)', { region: 'eu-central-1' });
    assert.equal(bedrock.baseUrl, 'https://bedrock-runtime.eu-central-1.amazonaws.com/openai/v1');
    assert.deepEqual(bedrock.auth, { placement: 'bearer' });
    assert.equal(build('llm', 'OpenRouter').baseUrl, 'https://openrouter.ai/api/v1');
    assert.deepEqual(build('llm', 'Ollama (local)').auth, { placement: 'none' });
  });
});

describe('Connect… for the host an llm cell was written against', () => {
  it('a local server’s port picks its preset; any other host is an OpenAI-compatible server; the base URL ends in /v1', () => {
    assert.deepEqual(llmPresetForHost('localhost:11434'), { label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1' });
    assert.deepEqual(llmPresetForHost('127.0.0.1:1234'), { label: 'LM Studio (local)', baseUrl: 'http://127.0.0.1:1234/v1' });
    assert.deepEqual(llmPresetForHost('localhost:8000'), { label: 'vLLM (local)', baseUrl: 'http://localhost:8000/v1' });
    assert.deepEqual(llmPresetForHost('llm.example.com'), { label: 'Other OpenAI-compatible server', baseUrl: 'https://llm.example.com/v1' });
  });
});
