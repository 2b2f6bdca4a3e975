// Which cell a request URL becomes: a cell of one of our services (relative to the connection
// that serves it, or absolute when none does), or an `http` cell for any other host.
import { classicMapsBaseUrl, type Connection, type ServiceId } from '../../core/connections';
import type { KnownConnection } from './types';

export interface ServiceTarget {
  kind: 'service';
  service: ServiceId;
  /** Length of the expanded URL's prefix that is the connection's base (origin + base path). */
  baseLength: number;
  /** The connection to name in the fence, when the service has several. */
  connection?: string;
  /**
   * The host is the service's but none of the given connections is: the cell keeps the absolute
   * URL (a run refuses it, naming the connection it needs) instead of running against another host.
   */
  absolute?: boolean;
}

export interface HttpTarget {
  kind: 'http';
  /** Why it is not a service cell (for the report). */
  note: string;
}

const MAPS_HOSTS = new Set(['places.googleapis.com', 'routes.googleapis.com', 'addressvalidation.googleapis.com', 'geocode.googleapis.com']);
const AZURE_HOST = /\.(?:openai\.azure\.com|services\.ai\.azure\.com|cognitiveservices\.azure\.com)$/i;
const PUSHER_HOST = /^api(?:-[a-z0-9]+)?\.pusher(?:app)?\.com$/i;
/** The paths every OpenAI-compatible server answers, under any prefix (`/v1/…`, `/api/v1/…`). */
const OPENAI_COMPATIBLE_PATH = /^(?:\/[^/]+)*\/v1\/(?:chat\/completions|completions|embeddings|models)(?:\/[^/]+)?$/;

/** The service a well-known host serves, and the base of its API, or why the URL is outside it. */
function knownHost(url: URL): { service: ServiceId; baseLength: number; alwaysAbsolute?: boolean } | { note: string } | undefined {
  const origin = url.origin.length;
  const host = url.hostname.toLowerCase();
  if (host === 'api.openai.com') {
    return url.pathname.startsWith('/v1/')
      ? { service: 'llm', baseLength: origin + 3 }
      : { note: `${url.origin}${url.pathname} is outside the OpenAI /v1 API` };
  }
  if (AZURE_HOST.test(host)) {
    if (url.pathname.startsWith('/openai/v1/')) return { service: 'llm', baseLength: origin + '/openai/v1'.length };
    // A deployment URL names its resource's host: the cell keeps it whole and runs once an Azure connection is for that host.
    if (/^\/openai\/deployments\/[^/]+\//.test(url.pathname)) return { service: 'llm', baseLength: origin + '/openai'.length, alwaysAbsolute: true };
    return { note: `${url.origin}${url.pathname} is outside the Azure OpenAI API (/openai/v1/… or /openai/deployments/…)` };
  }
  if (MAPS_HOSTS.has(host)) return { service: 'maps', baseLength: origin };
  // The classic web services (/maps/api/geocode/json, …): maps cells send them to this host with the key in ?key=.
  if (host === 'maps.googleapis.com')
    return url.pathname.startsWith('/maps/api/')
      ? { service: 'maps', baseLength: origin }
      : { note: `${url.origin}${url.pathname} is not one of the classic Maps web services (/maps/api/…)` };
  if (PUSHER_HOST.test(host)) return { service: 'realtime', baseLength: origin };
  // OpenAI-compatible servers (Ollama on 11434, vLLM on 8000, LM Studio on 1234, any gateway) answer OpenAI's paths.
  if (OPENAI_COMPATIBLE_PATH.test(url.pathname)) return { service: 'llm', baseLength: origin + url.pathname.indexOf('/v1/') + 3, alwaysAbsolute: true };
  return undefined;
}

/** Which of our services a URL belongs to, or an `http` cell with the reason. */
export function classify(url: URL, connections: readonly KnownConnection[]): ServiceTarget | HttpTarget {
  const href = url.href;
  for (const c of connections) {
    const base = c.baseUrl.replace(/\/+$/, '');
    if (href === base || href.startsWith(`${base}/`) || href.startsWith(`${base}?`)) {
      const names = new Set(connections.filter((o) => o.service === c.service).map((o) => o.name));
      return { kind: 'service', service: c.service, baseLength: base.length, ...(names.size > 1 && c.name ? { connection: c.name } : {}) };
    }
  }
  const known = knownHost(url);
  if (!known) return { kind: 'http', note: `${url.host} is not a host of the LLM, Maps or Realtime services (nor of a known connection)` };
  if ('note' in known) return { kind: 'http', note: known.note };
  // Realtime cells publish through their connection and carry no URL: nothing to keep absolute.
  const { alwaysAbsolute, ...target } = known;
  // A host no default connection serves (a deployment's resource, a local server) keeps its URL: a run asks for a connection to it.
  const absolute = alwaysAbsolute || (known.service !== 'realtime' && connections.some((c) => c.service === known.service));
  return { kind: 'service', ...target, ...(absolute ? { absolute } : {}) };
}

/** The base URLs of a front end's connections (CLI `--connections`, the editor's list), named, as the importer matches them. */
export function knownConnectionsOf(connections: readonly Connection[]): KnownConnection[] {
  return connections.flatMap((c): KnownConnection[] =>
    c.service === 'realtime'
      ? [{ service: c.service, baseUrl: c.restBaseUrl, name: c.name }]
      : [...new Set([c.baseUrl, ...Object.values(c.baseUrls), ...(c.service === 'maps' ? [classicMapsBaseUrl(c)] : [])])].map((baseUrl) => ({
          service: c.service,
          baseUrl,
          name: c.name,
        })),
  );
}
