// What *Connect…* offers per service: each preset asks a few questions and builds the settings
// entry (never a key). Presets with a token (Entra ID, a token command) or no key at all are
// `keyless`: no key is asked for or stored. The README's table of providers lists the same.
import { COGNITIVE_SERVICES_SCOPE } from '../core/auth/resolver';
import type { ServiceId } from '../core/connections';
import { AZURE_API_VERSION_PATTERN, AZURE_DEFAULT_API_VERSION } from '../core/connectionsAzure';
import { realtimePresets, type ConnectionPreset } from './realtime/presets';
import { GOOGLE_MAPS_BASE_URLS } from '../services/maps/client';

type Preset = ConnectionPreset;
type Field = Preset['fields'][number];

const url = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'Use an http(s) URL';
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com/v1';
  }
};

/** Local OpenAI-compatible servers: their usual base URL (editable: another host or port), no key. */
function localServer(label: string, baseUrl: string, detail: string): Preset {
  return {
    label,
    detail: `${baseUrl} · no key · ${detail}`,
    fields: [{ key: 'baseUrl', prompt: `Base URL of ${label} (its OpenAI-compatible API)`, value: baseUrl, validate: url }],
    build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'none' } }),
    keyPrompt: 'API key',
    envHint: 'OPENAI_API_KEY',
    keyless: true,
  };
}

const AZURE_RESOURCE: Field = {
  key: 'resource',
  prompt: 'Azure OpenAI resource name',
  placeholder: 'my-resource',
  validate: (v) => (/^[a-z0-9-]+$/i.test(v) ? undefined : 'Letters, digits and dashes only'),
};

const AZURE_API_VERSION: Field = {
  key: 'apiVersion',
  prompt: 'api-version added to every request',
  value: AZURE_DEFAULT_API_VERSION,
  validate: (v) => (AZURE_API_VERSION_PATTERN.test(v) ? undefined : 'An api-version such as 2024-10-21 or 2025-01-01-preview'),
};

const AZURE_API: Field = {
  key: 'api',
  prompt: 'Which API: "v1" (model ids, /openai/v1) or "deployments" (the classic API with api-version)',
  choices: [
    { label: 'v1', description: 'https://<resource>.openai.azure.com/openai/v1' },
    { label: 'deployments', description: 'https://<resource>.openai.azure.com/openai/deployments/<deployment>?api-version=…' },
  ],
  validate: (v) => (v === 'v1' || v === 'deployments' ? undefined : 'v1 or deployments'),
};

const azureBase = (resource: string) => `https://${resource}.openai.azure.com/openai`;

/** Vertex AI's OpenAI-compatible endpoint for a project and region ("global" has no regional host). */
export function vertexBaseUrl(project: string, region: string): string {
  const host = region === 'global' ? 'aiplatform.googleapis.com' : `${region}-aiplatform.googleapis.com`;
  return `https://${host}/v1/projects/${encodeURIComponent(project)}/locations/${region}/endpoints/openapi`;
}

export const GCLOUD_TOKEN_COMMAND = 'gcloud auth print-access-token';
export const AZ_TOKEN_COMMAND = 'az account get-access-token --resource https://cognitiveservices.azure.com --query accessToken -o tsv';

const LLM_PRESETS: Preset[] = [
  {
    label: 'OpenAI',
    detail: 'https://api.openai.com/v1 · Authorization: Bearer',
    fields: [],
    build: () => ({ baseUrl: 'https://api.openai.com/v1', auth: { placement: 'bearer' } }),
    keyPrompt: 'OpenAI API key (sk-…)',
    envHint: 'OPENAI_API_KEY',
  },
  {
    label: 'Azure OpenAI / AI Foundry (v1 API)',
    detail: 'https://<resource>.openai.azure.com/openai/v1 · api-key header',
    fields: [AZURE_RESOURCE],
    build: (d) => ({ baseUrl: `${azureBase(d.resource)}/v1`, auth: { placement: 'header', name: 'api-key' } }),
    keyPrompt: 'Azure OpenAI key',
    envHint: 'AZURE_OPENAI_API_KEY',
  },
  {
    label: 'Azure OpenAI deployments (classic API)',
    detail: 'https://<resource>.openai.azure.com/openai/deployments/<deployment> · api-version · api-key header',
    fields: [AZURE_RESOURCE, AZURE_API_VERSION],
    build: (d) => ({ baseUrl: azureBase(d.resource), azure: { apiVersion: d.apiVersion } }),
    keyPrompt: 'Azure OpenAI key',
    envHint: 'AZURE_OPENAI_API_KEY',
  },
  {
    label: 'Azure OpenAI with Entra ID (no key)',
    detail: `your Microsoft account signs in · scope ${COGNITIVE_SERVICES_SCOPE} · v1 API or deployments`,
    fields: [AZURE_RESOURCE, AZURE_API],
    build: (d) =>
      d.api === 'deployments'
        ? { baseUrl: azureBase(d.resource), azure: { apiVersion: AZURE_DEFAULT_API_VERSION }, entra: true }
        : { baseUrl: `${azureBase(d.resource)}/v1`, entra: true },
    keyPrompt: 'Azure OpenAI key',
    envHint: 'AZURE_OPENAI_API_KEY',
    keyless: true,
  },
  {
    label: 'Google Vertex AI (OpenAI-compatible)',
    detail: `<region>-aiplatform.googleapis.com/…/endpoints/openapi · token from \`${GCLOUD_TOKEN_COMMAND}\``,
    fields: [
      {
        key: 'project',
        prompt: 'Google Cloud project id',
        placeholder: 'my-project',
        validate: (v) => (/^[a-z][a-z0-9-]{4,29}$/.test(v) ? undefined : 'A project id such as my-project-123'),
      },
      {
        key: 'region',
        prompt: 'Region (or "global")',
        value: 'us-central1',
        validate: (v) => (/^[a-z0-9-]+$/.test(v) ? undefined : 'A region such as us-central1, or global'),
      },
    ],
    build: (d) => ({ baseUrl: vertexBaseUrl(d.project, d.region), tokenCommand: GCLOUD_TOKEN_COMMAND }),
    keyPrompt: 'Access token',
    envHint: 'OPENAI_API_KEY',
    keyless: true,
  },
  {
    label: 'Amazon Bedrock (OpenAI-compatible)',
    detail: 'https://bedrock-runtime.<region>.amazonaws.com/openai/v1 · Bedrock API key as Bearer',
    fields: [
      {
        key: 'region',
        prompt: 'AWS region',
        value: 'us-west-2',
        validate: (v) => (/^[a-z]{2}(-[a-z]+)+-\d$/.test(v) ? undefined : 'A region such as us-west-2'),
      },
    ],
    build: (d) => ({ baseUrl: `https://bedrock-runtime.${d.region}.amazonaws.com/openai/v1`, auth: { placement: 'bearer' } }),
    keyPrompt: 'Amazon Bedrock API key',
    envHint: 'AWS_BEARER_TOKEN_BEDROCK',
  },
  {
    label: 'OpenRouter',
    detail: 'https://openrouter.ai/api/v1 · Authorization: Bearer',
    fields: [],
    build: () => ({ baseUrl: 'https://openrouter.ai/api/v1', auth: { placement: 'bearer' } }),
    keyPrompt: 'OpenRouter API key (sk-or-…)',
    envHint: 'OPENROUTER_API_KEY',
  },
  localServer('Ollama (local)', 'http://localhost:11434/v1', 'ollama serve'),
  localServer('LM Studio (local)', 'http://localhost:1234/v1', "the Developer tab's local server"),
  localServer('vLLM (local)', 'http://localhost:8000/v1', 'vllm serve <model>; started with --api-key? pick "Other OpenAI-compatible server"'),
  {
    label: 'Other OpenAI-compatible server',
    detail: 'LiteLLM, a vLLM with --api-key, a hosted gateway, … · Bearer',
    fields: [{ key: 'baseUrl', prompt: 'Base URL (the one an OpenAI client takes as baseURL)', placeholder: 'http://localhost:11434/v1', validate: url }],
    build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'bearer' } }),
    keyPrompt: 'API key',
    envHint: 'OPENAI_API_KEY',
  },
  {
    label: 'Other server, token from a command',
    detail: `a bearer token printed by a command (\`${AZ_TOKEN_COMMAND.split(' --')[0]} …\`, a vault CLI, …) instead of a stored key`,
    fields: [
      { key: 'baseUrl', prompt: 'Base URL (the one an OpenAI client takes as baseURL)', placeholder: 'https://api.example.com/v1', validate: url },
      {
        key: 'tokenCommand',
        prompt: 'Command that prints the token (alone, or JSON with accessToken and expiresOn)',
        value: AZ_TOKEN_COMMAND,
        validate: (v) => (v.trim() ? undefined : 'Required'),
      },
    ],
    build: (d) => ({ baseUrl: d.baseUrl, tokenCommand: d.tokenCommand }),
    keyPrompt: 'Access token',
    envHint: 'OPENAI_API_KEY',
    keyless: true,
  },
];

const MAPS_PRESETS: Preset[] = [
  {
    label: 'Google Maps Platform',
    detail: 'places / routes / addressvalidation / geocode .googleapis.com · X-Goog-Api-Key',
    fields: [],
    build: () => ({
      baseUrl: 'https://places.googleapis.com',
      baseUrls: { ...GOOGLE_MAPS_BASE_URLS },
      auth: { placement: 'header', name: 'X-Goog-Api-Key' },
    }),
    keyPrompt: 'Google Maps Platform API key (AIza…)',
    envHint: 'GOOGLE_MAPS_API_KEY',
  },
  {
    label: 'Other Google-compatible server',
    detail: 'one base URL for all capabilities · X-Goog-Api-Key',
    fields: [{ key: 'baseUrl', prompt: 'Base URL', placeholder: 'https://maps.example.com', validate: url }],
    build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'header', name: 'X-Goog-Api-Key' } }),
    keyPrompt: 'API key',
    envHint: 'GOOGLE_MAPS_API_KEY',
  },
];

export const CONNECTION_PRESETS: Record<ServiceId, Preset[]> = { llm: LLM_PRESETS, maps: MAPS_PRESETS, realtime: realtimePresets() };

/**
 * The Connect… preset for a host an llm cell was written against (issue 44: an imported
 * `http://localhost:11434/v1/chat/completions` with no connection): the local server on that port
 * (Ollama 11434, LM Studio 1234, vLLM 8000), else any OpenAI-compatible server, with its base URL.
 */
export function llmPresetForHost(host: string): { label: string; baseUrl: string } {
  const local = /^(localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)(:|$)/.test(host);
  const baseUrl = `${local ? 'http' : 'https'}://${host}/v1`;
  const port = /:(\d+)$/.exec(host)?.[1];
  const preset = port ? LLM_PRESETS.find((p) => p.keyless && p.fields[0]?.value?.endsWith(`:${port}/v1`)) : undefined;
  return { label: preset?.label ?? 'Other OpenAI-compatible server', baseUrl };
}
