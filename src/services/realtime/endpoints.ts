import { PROTOCOL_VERSION } from './protocol';

/** Where an app lives: a hosted cluster, or an explicit host (the sandbox, self-hosted servers). */
export interface RealtimeEndpoint {
  key: string;
  cluster?: string;
  host?: string;
  port?: number;
  useTLS?: boolean;
}

function hostPort(host: string, port: number | undefined, tls: boolean): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return port === undefined || port === (tls ? 443 : 80) ? h : `${h}:${port}`;
}

function requireHost(ep: RealtimeEndpoint, kind: 'ws' | 'api'): string {
  if (ep.host) return ep.host;
  if (ep.cluster) return `${kind}-${ep.cluster}.pusher.com`;
  throw new Error('a realtime connection needs a host or a cluster');
}

/** `ws[s]://host[:port]/app/<key>?protocol=7&client=…&version=…` */
export function socketUrl(ep: RealtimeEndpoint, client: { name: string; version: string }): string {
  const tls = ep.useTLS ?? true;
  const q = new URLSearchParams({ protocol: String(PROTOCOL_VERSION), client: client.name, version: client.version, flash: 'false' });
  return `${tls ? 'wss' : 'ws'}://${hostPort(requireHost(ep, 'ws'), ep.port, tls)}/app/${encodeURIComponent(ep.key)}?${q}`;
}

/** Base URL of the REST API (paths /apps/<id>/… are appended). */
export function restBaseUrl(ep: RealtimeEndpoint): string {
  const tls = ep.useTLS ?? true;
  return `${tls ? 'https' : 'http'}://${hostPort(requireHost(ep, 'api'), ep.port, tls)}`;
}
