// Starts the real maps sandbox on 127.0.0.1:0 and builds clients for it.
import { HttpClient, type HttpClientOptions } from '../../../src/core/http';
import type { AuthPlacement } from '../../../src/core/auth';
import { MapsClient } from '../../../src/services/maps/client';
import { googleErrorParser } from '../../../src/services/maps/errors';
import type { Clock } from '../../../src/core/clock';
import { startMapsSandbox, type MapsQuota } from '../../../src/sandbox/maps';
import type { RunningService } from '../../../src/sandbox/types';

export const KEY = 'AIzaSandboxUnitTestKey0123456789';

export interface MapsSandbox {
  service: RunningService;
  baseUrl: string;
  url(path: string): string;
  close(): Promise<void>;
}

/** The maps sandbox on a free port; `clock` runs its quota window (tests share a manual one with the client). */
export async function startSandbox(quota?: Partial<MapsQuota>, clock?: Clock): Promise<MapsSandbox> {
  const service = await startMapsSandbox({ host: '127.0.0.1', port: 0, apiKey: KEY, quota, ...(clock ? { clock } : {}) });
  const baseUrl = `http://127.0.0.1:${service.port}`;
  return { service, baseUrl, url: (p) => baseUrl + p, close: () => service.close() };
}

export const HEADER_AUTH: AuthPlacement = { placement: 'header', name: 'X-Goog-Api-Key' };
export const QUERY_AUTH: AuthPlacement = { placement: 'query', name: 'key' };

export function httpClient(sb: MapsSandbox, extra: Partial<HttpClientOptions> = {}, key = KEY): HttpClient {
  return new HttpClient({
    service: 'Maps (sandbox)',
    baseUrl: sb.baseUrl,
    auth: HEADER_AUTH,
    credentials: () => Promise.resolve(key),
    parseError: googleErrorParser,
    retry: { maxRetries: 2, baseDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 10_000 },
    ...extra,
  });
}

export function mapsClient(sb: MapsSandbox, extra: Partial<HttpClientOptions> = {}, key = KEY): MapsClient {
  return new MapsClient(httpClient(sb, extra, key));
}

/** A raw request with fetch (what any HTTP client sends), returning status and parsed JSON. */
export async function raw(
  sb: MapsSandbox,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; json: Record<string, unknown> & { error?: GoogleError } }> {
  const res = await fetch(sb.url(path), {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { error?: GoogleError } };
}

export interface GoogleError {
  code: number;
  message: string;
  status: string;
  details?: Array<Record<string, unknown>>;
}
