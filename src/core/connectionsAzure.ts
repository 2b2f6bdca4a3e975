// Azure OpenAI's classic ("deployments") API: the resource's base URL is
// `https://<resource>.openai.azure.com/openai`, a deployment is named in the path where OpenAI names
// a model in the body, and every request carries `api-version` (without it Azure answers 404).
// A connection of this kind keeps notebooks and features written for OpenAI working: the model a
// request names is the deployment it goes to.
import type { HttpClientOptions } from './httpTypes';

/** The newest generally available api-version of the classic API when this was written. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** api-version values look like 2024-10-21 or 2025-01-01-preview. */
export const AZURE_API_VERSION_PATTERN = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

/** Operations that name a model in their JSON body and live under `deployments/<d>/` on Azure. */
const DEPLOYMENT_OPERATIONS = new Set(['chat/completions', 'completions', 'embeddings', 'images/generations', 'audio/speech']);

/**
 * The classic API's path for an OpenAI-style request: `chat/completions` with `"model": "gpt-4o"`
 * becomes `deployments/gpt-4o/chat/completions`; `models` lists the deployments. A path that
 * already names a deployment, or any other path, is left as written.
 */
export function azureDeploymentPath(path: string, body: string | Uint8Array | undefined): string {
  const at = path.indexOf('?');
  const bare = (at < 0 ? path : path.slice(0, at)).replace(/^\/+/, '').replace(/\/+$/, '');
  const query = at < 0 ? '' : path.slice(at);
  if (bare === 'models') return `deployments${query}`;
  if (!DEPLOYMENT_OPERATIONS.has(bare)) return path;
  const model = modelOf(body);
  return model === undefined ? path : `deployments/${encodeURIComponent(model)}/${bare}${query}`;
}

function modelOf(body: string | Uint8Array | undefined): string | undefined {
  if (typeof body !== 'string' || !body.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const model = parsed && typeof parsed === 'object' ? (parsed as { model?: unknown }).model : undefined;
    return typeof model === 'string' && model !== '' ? model : undefined;
  } catch {
    // Not JSON: the server answers it as it is, and says what is wrong.
    return undefined;
  }
}

/** What an HttpClient of this connection adds to every request (nothing unless it is an Azure deployments connection). */
export function connectionRequestOptions(conn: { azure?: { apiVersion: string } }): Pick<HttpClientOptions, 'defaultQuery' | 'routePath'> {
  if (!conn.azure) return {};
  return { defaultQuery: { 'api-version': conn.azure.apiVersion }, routePath: azureDeploymentPath };
}
