// The connection model: what a named account/endpoint of each service holds. Parsed from settings
// (validated with zod, bad entries reported, good ones kept) or created by the sandbox controller.
// Keys are never part of a connection: they live in SecretStorage, keyed by service + name.
import * as z from 'zod/mini';
import type { AuthPlacement } from './auth';
import { COGNITIVE_SERVICES_SCOPE, type TokenSource } from './auth/resolver';
import { AZURE_API_VERSION_PATTERN, AZURE_DEFAULT_API_VERSION } from './connectionsAzure';
import { once } from './once';
import { describeIssues } from './validate';

export type ServiceId = 'llm' | 'maps' | 'realtime';
export const SERVICE_IDS: readonly ServiceId[] = ['llm', 'maps', 'realtime'];
export const SERVICE_LABELS: Record<ServiceId, string> = { llm: 'Language Models', maps: 'Maps', realtime: 'Realtime' };
export const DEFAULT_RATE_LIMITS: Record<ServiceId, number> = { llm: 60, maps: 100, realtime: 100 };
const DEFAULT_TIMEOUT_MS = 60_000;
/** Beyond these a value is a typo (1e308), not a setting: a timer that large fires at once in Node. */
export const MAX_TIMEOUT_SECONDS = 3600;
export const MAX_RATE_PER_MINUTE = 100_000;

/** Where a connection came from: the user's settings, or the local sandbox (managed by the extension). */
export type ConnectionSource = 'settings' | 'sandbox';

/**
 * How a service view lists what a connection offers: through the service's own API (models,
 * the built-in capabilities, the signed channel listing), or through the uniform
 * `GET {origin}/v1/resources` listing (src/services/resources.ts) where the provider offers it.
 */
export type ListingMode = 'service' | 'resources';
export const LISTING_MODES: readonly ListingMode[] = ['service', 'resources'];

export interface HttpConnection {
  service: 'llm' | 'maps';
  name: string;
  /** Default base URL. */
  baseUrl: string;
  /** Per-capability base URLs where one account spans several hosts (Google: places/routes/…). */
  baseUrls: Record<string, string>;
  auth: AuthPlacement;
  rateLimitPerMinute: number;
  timeoutMs: number;
  /** LLM: requests/minute for individual models. */
  modelRateLimits: Record<string, number>;
  listing: ListingMode;
  source: ConnectionSource;
  /** LLM: which API answers Ask and the playground by default (absent: chat completions). */
  llmApi?: LlmApi;
  /**
   * LLM: Azure OpenAI's classic API (baseUrl `https://<resource>.openai.azure.com/openai`):
   * deployments in place of model ids, api-version on every request (connectionsAzure.ts).
   */
  azure?: { apiVersion: string };
  /**
   * A bearer token from a command (`tokenCommand`) or Entra ID sign-in (`entra`) in place of a
   * stored key: sent as `Authorization: Bearer`, fetched again before it expires.
   */
  credential?: TokenSource;
}

/** Chat completions (`POST /chat/completions`) or the Responses API (`POST /responses`). */
export type LlmApi = 'chat' | 'responses';
export const LLM_APIS: readonly LlmApi[] = ['chat', 'responses'];

export interface RealtimeConnection {
  service: 'realtime';
  name: string;
  appId: string;
  /** Public app key (not a secret). */
  key: string;
  host: string;
  port: number;
  useTLS: boolean;
  /** REST API base, e.g. https://api-eu.pusher.com (signed requests go to <restBaseUrl>/apps/<appId>/…). */
  restBaseUrl: string;
  /** WebSocket URL without query, e.g. wss://ws-eu.pusher.com:443/app/<key>. */
  wsUrl: string;
  authEndpoint?: string;
  /** The app's user authentication endpoint for pusher:signin (pusher-js userAuthentication.endpoint); unset = signed locally with the secret. */
  userAuthEndpoint?: string;
  rateLimitPerMinute: number;
  listing: ListingMode;
  source: ConnectionSource;
}

export type Connection = HttpConnection | RealtimeConnection;

/** The stable identity of a connection (secrets and tree ids hang off it). */
export function connectionId(c: { service: ServiceId; name: string }): string {
  return `${c.service}:${c.name}`;
}

/** Google's classic Maps web services (/maps/api/geocode/json, …) answer on a host of their own. */
export const GOOGLE_CLASSIC_MAPS_URL = 'https://maps.googleapis.com';

/**
 * Where a maps connection's classic web services (/maps/api/…) answer: `baseUrls.classic` when
 * set; Google's classic host for a connection on Google's hosts (places., routes., ….googleapis.com,
 * whose keys work there too); otherwise the base URL (the sandbox answers every API on one origin).
 */
export function classicMapsBaseUrl(c: Pick<HttpConnection, 'baseUrl' | 'baseUrls'>): string {
  if (c.baseUrls.classic) return c.baseUrls.classic;
  return [c.baseUrl, ...Object.values(c.baseUrls)].some(isGoogleApisUrl) ? GOOGLE_CLASSIC_MAPS_URL : c.baseUrl;
}

function isGoogleApisUrl(u: string): boolean {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' && url.hostname.endsWith('.googleapis.com');
  } catch {
    return false;
  }
}

/** Every origin a connection's key may be sent to (or signed requests go to). */
export function connectionOrigins(c: Connection): string[] {
  const urls =
    c.service === 'realtime'
      ? [c.restBaseUrl, c.wsUrl.replace(/^ws/, 'http'), c.authEndpoint, c.userAuthEndpoint]
      : [c.baseUrl, ...Object.values(c.baseUrls), ...(c.service === 'maps' ? [classicMapsBaseUrl(c)] : [])];
  const out = new Set<string>();
  for (const u of urls) {
    if (!u) continue;
    try {
      out.add(new URL(u).origin);
    } catch {
      /* invalid URLs are rejected when parsing settings */
    }
  }
  return [...out];
}

// --- settings schemas (the shape documented in package.json contributes.configuration) ---------

/**
 * The settings schemas, built on first use: building zod schemas costs CPU at module load, and this
 * module is part of activation, which must stay fast (`npm run bench`, activation).
 */
const settingSchemas = once(() => {
  const httpUrl = z.string().check(
    z.refine((s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'https:' || u.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'must be an http(s) URL'),
  );

  const authSetting = z.object({
    placement: z.optional(z.enum(['bearer', 'header', 'query', 'none'])),
    name: z.optional(z.string().check(z.minLength(1))),
  });

  const httpConnectionSetting = z.object({
    name: z.string().check(z.minLength(1)),
    baseUrl: httpUrl,
    baseUrls: z.optional(z.record(z.string(), httpUrl)),
    auth: z.optional(authSetting),
    rateLimitPerMinute: z.optional(z.number().check(z.positive(), z.lte(MAX_RATE_PER_MINUTE))),
    timeoutSeconds: z.optional(z.number().check(z.positive(), z.lte(MAX_TIMEOUT_SECONDS))),
    modelRateLimits: z.optional(z.record(z.string(), z.number().check(z.positive(), z.lte(MAX_RATE_PER_MINUTE)))),
    listing: z.optional(z.enum(LISTING_MODES)),
    api: z.optional(z.enum(LLM_APIS)),
    tokenCommand: z.optional(z.string().check(z.refine((v) => v.trim() !== '', 'must be a command line that prints a token'))),
    entra: z.optional(z.union([z.boolean(), z.strictObject({ scope: z.optional(z.string().check(z.minLength(1))) })])),
    azure: z.optional(
      z.strictObject({
        apiVersion: z.optional(z.string().check(z.regex(AZURE_API_VERSION_PATTERN, 'must be an Azure api-version such as 2024-10-21'))),
      }),
    ),
  });

  const realtimeConnectionSetting = z.object({
    name: z.string().check(z.minLength(1)),
    appId: z.string().check(z.minLength(1)),
    key: z.string().check(z.minLength(1)),
    cluster: z.optional(z.string().check(z.regex(/^[a-z0-9-]+$/))),
    host: z.optional(z.string().check(z.minLength(1))),
    port: z.optional(z.number().check(z.int(), z.gte(1), z.lte(65535))),
    useTLS: z.optional(z.boolean()),
    authEndpoint: z.optional(httpUrl),
    userAuthEndpoint: z.optional(httpUrl),
    rateLimitPerMinute: z.optional(z.number().check(z.positive(), z.lte(MAX_RATE_PER_MINUTE))),
    listing: z.optional(z.enum(LISTING_MODES)),
  });
  return { httpConnectionSetting, realtimeConnectionSetting };
});

type HttpConnectionSetting = z.infer<ReturnType<typeof settingSchemas>['httpConnectionSetting']>;
type RealtimeConnectionSetting = z.infer<ReturnType<typeof settingSchemas>['realtimeConnectionSetting']>;

function toAuth(a: HttpConnectionSetting['auth'], service: 'llm' | 'maps', azure: boolean): AuthPlacement | string {
  // Azure's classic API takes its key in an api-key header.
  const placement = a?.placement ?? (service === 'maps' || azure ? 'header' : 'bearer');
  if (placement === 'bearer' || placement === 'none') return { placement };
  const name = a?.name ?? (service === 'maps' ? (placement === 'header' ? 'X-Goog-Api-Key' : 'key') : placement === 'header' ? 'api-key' : undefined);
  if (!name) return `auth.name is required for placement "${placement}"`;
  return { placement, name };
}

/** False for a key-less server (auth placement "none", e.g. Ollama on this machine): no key is asked for or sent. */
export function needsKey(conn: Connection): boolean {
  return conn.service === 'realtime' || conn.auth.placement !== 'none';
}

export function httpConnectionFromSetting(service: 'llm' | 'maps', s: HttpConnectionSetting, source: ConnectionSource = 'settings'): HttpConnection | string {
  if (s.azure && service !== 'llm') return '"azure" is for language-model connections only';
  const credential = tokenSourceOf(s, service);
  if (typeof credential === 'string') return credential;
  // A token is always a bearer token, whatever header the provider's keys go in.
  const auth = credential ? toTokenAuth(s.auth) : toAuth(s.auth, service, s.azure !== undefined);
  if (typeof auth === 'string') return auth;
  return {
    service,
    name: s.name,
    baseUrl: s.baseUrl.replace(/\/+$/, ''),
    baseUrls: Object.fromEntries(Object.entries(s.baseUrls ?? {}).map(([k, v]) => [k, v.replace(/\/+$/, '')])),
    auth,
    rateLimitPerMinute: s.rateLimitPerMinute ?? DEFAULT_RATE_LIMITS[service],
    timeoutMs: s.timeoutSeconds ? s.timeoutSeconds * 1000 : DEFAULT_TIMEOUT_MS,
    modelRateLimits: s.modelRateLimits ?? {},
    listing: s.listing ?? 'service',
    source,
    ...(service === 'llm' && s.api ? { llmApi: s.api } : {}),
    ...(s.azure ? { azure: { apiVersion: s.azure.apiVersion ?? AZURE_DEFAULT_API_VERSION } } : {}),
    ...(credential ? { credential } : {}),
  };
}

function tokenSourceOf(s: HttpConnectionSetting, service: 'llm' | 'maps'): TokenSource | undefined | string {
  const entra = s.entra === true ? {} : s.entra === false ? undefined : s.entra;
  if (entra && s.tokenCommand !== undefined) return 'give either "tokenCommand" or "entra", not both';
  if (entra && service !== 'llm') return '"entra" is for language-model connections (Azure OpenAI, AI Foundry) only';
  if (entra) return { kind: 'entra', scope: entra.scope ?? COGNITIVE_SERVICES_SCOPE };
  if (s.tokenCommand !== undefined) return { kind: 'tokenCommand', command: s.tokenCommand.trim() };
  return undefined;
}

function toTokenAuth(a: HttpConnectionSetting['auth']): AuthPlacement | string {
  if (a?.placement === undefined || a.placement === 'bearer') return { placement: 'bearer' };
  return `a token ("tokenCommand", "entra") is sent as Authorization: Bearer: remove "auth" (placement "${a.placement}")`;
}

/** False when the connection takes no stored key: key-less servers, and tokens from a command or Entra ID. */
export function usesStoredKey(conn: Connection): boolean {
  return needsKey(conn) && !(conn.service !== 'realtime' && conn.credential);
}

export function realtimeConnectionFromSetting(s: RealtimeConnectionSetting, source: ConnectionSource = 'settings'): RealtimeConnection | string {
  if (!s.host && !s.cluster) return 'either "host" or "cluster" is required';
  const useTLS = s.useTLS ?? true;
  const wsHost = s.host ?? `ws-${s.cluster}.pusher.com`;
  const restHost = s.host ?? `api-${s.cluster}.pusher.com`;
  const port = s.port ?? (useTLS ? 443 : 80);
  const hostPart = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h);
  return {
    service: 'realtime',
    name: s.name,
    appId: s.appId,
    key: s.key,
    host: wsHost,
    port,
    useTLS,
    restBaseUrl: `${useTLS ? 'https' : 'http'}://${hostPart(restHost)}:${port}`,
    wsUrl: `${useTLS ? 'wss' : 'ws'}://${hostPart(wsHost)}:${port}/app/${encodeURIComponent(s.key)}`,
    authEndpoint: s.authEndpoint,
    ...(s.userAuthEndpoint ? { userAuthEndpoint: s.userAuthEndpoint } : {}),
    rateLimitPerMinute: s.rateLimitPerMinute ?? DEFAULT_RATE_LIMITS.realtime,
    listing: s.listing ?? 'service',
    source,
  };
}

export interface ParsedConnections<C> {
  connections: C[];
  /** One line per rejected entry, for the user: "entry 2 ("Work"): baseUrl: must be an http(s) URL". */
  problems: string[];
}

/** Parses one service's `connections` setting. Invalid entries are reported and skipped, valid ones kept. */
export function parseConnectionsSetting(service: ServiceId, raw: unknown): ParsedConnections<Connection> {
  const problems: string[] = [];
  const connections: Connection[] = [];
  if (raw === undefined || raw === null) return { connections, problems };
  if (!Array.isArray(raw)) return { connections, problems: ['the setting must be an array of connections'] };
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const label = `entry ${i + 1}${entry && typeof entry === 'object' && typeof (entry as { name?: unknown }).name === 'string' ? ` ("${(entry as { name: string }).name}")` : ''}`;
    const { httpConnectionSetting, realtimeConnectionSetting } = settingSchemas();
    const schema = service === 'realtime' ? realtimeConnectionSetting : httpConnectionSetting;
    const r = schema.safeParse(entry);
    if (!r.success) {
      problems.push(`${label}: ${describeIssues(r.error.issues)}`);
      return;
    }
    const conn =
      service === 'realtime'
        ? realtimeConnectionFromSetting(r.data as RealtimeConnectionSetting)
        : httpConnectionFromSetting(service, r.data as HttpConnectionSetting);
    if (typeof conn === 'string') {
      problems.push(`${label}: ${conn}`);
      return;
    }
    if (seen.has(conn.name)) {
      problems.push(`${label}: another connection is already named "${conn.name}"`);
      return;
    }
    seen.add(conn.name);
    connections.push(conn);
  });
  return { connections, problems };
}

// --- the local sandbox's connections ------------------------------------------------------------

/** What `startSandbox` / `node dist/sandbox.js` reports (the shape of the sandbox's SandboxInfo). */
export interface SandboxEndpoints {
  llm: { baseUrl: string; apiKey: string };
  maps: { baseUrl: string; apiKey: string };
  realtime: { host: string; port: number; appId: string; key: string; secret: string; tls?: boolean };
}

/** The name of the sandbox's connection in every service, in the editor and the CLI alike. */
export const SANDBOX_CONNECTION_NAME = 'Local Sandbox';

/**
 * The sandbox's three connections and their keys (the editor, the CLI and tests use the same).
 * Maps lists through the uniform listing: a view then shows what the sandbox offers and a broken key
 * shows on expanding. The LLM's GET /models and the signed channel API say more than the listing
 * (owners, dates, counts), so those keep their own.
 */
export function sandboxConnections(info: SandboxEndpoints): { connections: Connection[]; key: (connection: Connection) => string | undefined } {
  const name = SANDBOX_CONNECTION_NAME;
  const made = [
    httpConnectionFromSetting('llm', { name, baseUrl: info.llm.baseUrl, auth: { placement: 'bearer' } }, 'sandbox'),
    httpConnectionFromSetting(
      'maps',
      { name, baseUrl: info.maps.baseUrl, auth: { placement: 'header', name: 'X-Goog-Api-Key' }, listing: 'resources' },
      'sandbox',
    ),
    realtimeConnectionFromSetting(
      { name, appId: info.realtime.appId, key: info.realtime.key, host: info.realtime.host, port: info.realtime.port, useTLS: info.realtime.tls ?? false },
      'sandbox',
    ),
  ];
  const connections = made.filter((c): c is Connection => typeof c !== 'string');
  const keys: Record<ServiceId, string> = { llm: info.llm.apiKey, maps: info.maps.apiKey, realtime: info.realtime.secret };
  return { connections, key: (c) => (c.name === name && c.source === 'sandbox' ? keys[c.service] : undefined) };
}
