// Azure OpenAI's paths on the sandbox. The "v1" API (`/openai/v1/…`) is OpenAI's own; the classic
// API (`/openai/deployments/<deployment>/…?api-version=…`) names a deployment in the path instead
// of a model in the body, needs `api-version`, and answers its own errors in Azure's shape
// (`{"error":{"code","message"}}`). In the sandbox every model id is also a deployment of that name.
import { sendJson } from '../http';
import { baseHeaders, type Ctx } from './context';
import type { ModelCatalogue } from './models';

export interface NormalisedPath {
  /** The OpenAI path (`v1/…`) the route table knows. */
  segments: string[];
  azure: boolean;
  /** The classic API: `/openai/…` without `v1`, where api-version is required. */
  classic: boolean;
  deployment?: string;
}

/**
 * Splits a decoded Azure path (`openai/v1/…`, `openai/deployments/<d>/…`, `openai/…`) into the
 * OpenAI one (`v1/…`) plus the deployment, if any.
 */
export function normalisePath(segments: readonly string[]): NormalisedPath {
  if (segments[0] !== 'openai') return { segments: [...segments], azure: false, classic: false };
  let rest = segments.slice(1);
  const classic = rest[0] !== 'v1';
  if (!classic) rest = rest.slice(1);
  if (rest[0] === 'deployments' && rest.length > 2 && rest[1] !== '') return { segments: ['v1', ...rest.slice(2)], azure: true, classic, deployment: rest[1] };
  return { segments: ['v1', ...rest], azure: true, classic };
}

function azureError(ctx: Ctx, status: number, code: string, message: string): void {
  sendJson(ctx.res, status, { error: { code, message } }, baseHeaders(ctx));
}

/**
 * Sends Azure's answer when a classic request cannot be served: no api-version (Azure answers
 * 404 "Resource not found"; the sandbox adds what to do) or a deployment that does not exist.
 * True when it answered.
 */
export function refuseAzureRequest(ctx: Ctx, path: NormalisedPath, models: ModelCatalogue): boolean {
  if (path.classic && !ctx.query.get('api-version')) {
    azureError(
      ctx,
      404,
      '404',
      'Resource not found (sandbox: the classic Azure OpenAI API needs an api-version query parameter, e.g. ?api-version=2024-10-21).',
    );
    return true;
  }
  if (path.deployment !== undefined && !models.find(path.deployment)) {
    azureError(
      ctx,
      404,
      'DeploymentNotFound',
      'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
    );
    return true;
  }
  return false;
}

/**
 * `GET /openai/deployments?api-version=…`: the resource's deployments in the data-plane listing's
 * shape (2022-12-01). Every sandbox model is a deployment of the same name.
 */
export function listDeployments(ctx: Ctx, models: ModelCatalogue): void {
  const data = models.list().map((m) => ({
    id: m.id,
    object: 'deployment',
    model: m.id,
    owner: 'organization',
    status: 'succeeded',
    scale_settings: { scale_type: 'standard' },
    created_at: m.created,
    updated_at: m.created,
  }));
  sendJson(ctx.res, 200, { object: 'list', data }, baseHeaders(ctx));
}
