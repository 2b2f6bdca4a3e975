// The sandbox plays Microsoft Entra ID for its Azure paths, so keyless sign-in is tested against a
// real token endpoint instead of a mock of the extension's own code:
//   GET  /<tenant>/v2.0/.well-known/openid-configuration   OpenID metadata (what MSAL reads first)
//   POST /<tenant>/oauth2/v2.0/token                       client credentials: any client id, the
//                                                          sandbox's LLM key as client secret
// Tokens are JWT-shaped (header.payload.signature, HMAC-signed with the LLM key), carry `aud`,
// `exp` and the scope's resource, and the Azure paths accept them as `Authorization: Bearer`.
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, safeEqual, sendJson } from '../http';

/** How long a sandbox token lives (as Entra's: about an hour). */
export const ENTRA_TOKEN_LIFETIME_S = 3600;
const AUDIENCE = 'https://cognitiveservices.azure.com';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

function sign(body: string, key: string): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

/** A token the sandbox issued and still accepts: signed with its key, for Cognitive Services, not expired. */
export function isSandboxEntraToken(token: string | undefined, key: string, nowMs: number): boolean {
  const parts = token?.split('.');
  if (parts?.length !== 3) return false;
  if (!safeEqual(parts[2], sign(`${parts[0]}.${parts[1]}`, key))) return false;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { aud?: unknown; exp?: unknown };
    return claims.aud === AUDIENCE && typeof claims.exp === 'number' && claims.exp * 1000 > nowMs;
  } catch {
    return false;
  }
}

function entraError(res: ServerResponse, status: number, error: string, description: string): void {
  sendJson(res, status, { error, error_description: description, error_codes: [status === 401 ? 7000215 : 900144], timestamp: new Date().toISOString() });
}

/**
 * Answers the OpenID metadata and token requests; false for any other path (the LLM routes then
 * answer). `origin` is how clients reach this listener (http(s)://host:port).
 */
export async function serveEntra(req: IncomingMessage, res: ServerResponse, url: URL, origin: string, key: string, nowMs: number): Promise<boolean> {
  const m = /^\/([A-Za-z0-9.-]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token)$/.exec(url.pathname);
  if (!m) return false;
  const tenant = m[1];
  const authority = `${origin}/${tenant}`;
  if (m[2].startsWith('v2.0')) {
    if (req.method !== 'GET') return (entraError(res, 405, 'invalid_request', 'GET the OpenID configuration.'), true);
    sendJson(res, 200, {
      issuer: `${authority}/v2.0`,
      authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
      token_endpoint: `${authority}/oauth2/v2.0/token`,
      device_authorization_endpoint: `${authority}/oauth2/v2.0/devicecode`,
      end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
      jwks_uri: `${origin}/${tenant}/discovery/v2.0/keys`,
      response_types_supported: ['code', 'id_token', 'code id_token', 'token id_token', 'token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      tenant_region_scope: 'EU',
      cloud_instance_name: 'sandbox.local',
    });
    return true;
  }
  if (req.method !== 'POST') return (entraError(res, 405, 'invalid_request', 'POST the token request.'), true);
  const form = new URLSearchParams(await readBody(req));
  if (form.get('grant_type') !== 'client_credentials')
    return (entraError(res, 400, 'unsupported_grant_type', 'AADSTS70003: The sandbox issues tokens for the client_credentials grant only.'), true);
  if (!form.get('client_id')) return (entraError(res, 400, 'invalid_request', "AADSTS900144: The request body must contain the parameter 'client_id'."), true);
  if (!safeEqual(form.get('client_secret') ?? undefined, key))
    return (entraError(res, 401, 'invalid_client', 'AADSTS7000215: Invalid client secret provided (sandbox: the client secret is its LLM key).'), true);
  const scope = form.get('scope') ?? '';
  if (!scope.split(' ').some((s) => s.startsWith(AUDIENCE)))
    return (entraError(res, 400, 'invalid_scope', `AADSTS70011: The sandbox issues tokens for ${AUDIENCE}/.default only.`), true);
  const now = Math.floor(nowMs / 1000);
  const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256' }));
  const claims = b64url(
    JSON.stringify({
      aud: AUDIENCE,
      iss: `${authority}/v2.0`,
      tid: tenant,
      appid: form.get('client_id'),
      iat: now,
      nbf: now,
      exp: now + ENTRA_TOKEN_LIFETIME_S,
    }),
  );
  const token = `${head}.${claims}.${sign(`${head}.${claims}`, key)}`;
  sendJson(res, 200, { token_type: 'Bearer', expires_in: ENTRA_TOKEN_LIFETIME_S, ext_expires_in: ENTRA_TOKEN_LIFETIME_S, access_token: token });
  return true;
}
