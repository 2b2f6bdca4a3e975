// Local Google-Maps-Platform-shaped service: Places (New) v1, Routes v2, Address Validation v1 and
// Geocoding v4 on one port, with Google's paths, JSON shapes, field masks, google.rpc errors and a
// per-key quota; the classic web services (/maps/api/*) beside them, from the same handlers (see
// classic/). Place data: GeoNames populated places (see gazetteer.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock';
import { SlidingWindowLimiter } from '../../core/rateLimiter';
import { bearer, header, newId, readBody, safeEqual, sendJson, type SandboxResource } from '../http';
import { listen } from '../listen';
import { requestUrl, Router, type PathParams } from '../router';
import type { ListenOptions, RunningService } from '../types';
import { validateAddress, ValidateAddressRequest } from './addressValidation';
import { autocomplete, AutocompleteRequest, checkSessionToken } from './autocomplete';
import {
  applyMask,
  AUTOCOMPLETE_RESPONSE,
  COMPUTE_ROUTES_RESPONSE,
  GEOCODE_PLACE_RESPONSE,
  GEOCODE_RESPONSE,
  parseMask,
  PLACE,
  requestMask,
  ROUTE_MATRIX_ELEMENT,
  SEARCH_PLACES_RESPONSE,
  VALIDATE_ADDRESS_RESPONSE,
  type FieldMask,
  type FieldTree,
} from './fieldMask';
import { gazetteer } from './gazetteer';
import { geocodeAddress, geocodeLocation, geocodePlace } from './geocoding';
import { durationString } from './geo';
import { getPlace, searchNearby, SearchNearbyRequest, searchText, SearchTextRequest } from './places';
import { computeRouteMatrix, ComputeRouteMatrixRequest, computeRoutes, ComputeRoutesRequest } from './routes';
import { googleError, invalidArgument, parseBody, RpcError, sendRpcError } from './rpc';
import { errorText } from '../../core/errors';
import { serveClassic } from './classic';

export { googleError } from './rpc';
export { KNOWN_PLACE_KINDS } from './kinds';

export interface MapsQuota {
  /** Requests allowed per key in any window. */
  limit: number;
  windowMs: number;
}

/** Google's default for these APIs is per minute; the sandbox uses 100 requests a minute per key. */
export const DEFAULT_MAPS_QUOTA: MapsQuota = { limit: 100, windowMs: 60_000 };

export interface MapsSandboxOptions extends ListenOptions {
  apiKey: string;
  quota?: Partial<MapsQuota>;
  /** The quota window's time (tests pass a manual clock); default the system clock. */
  clock?: Clock;
}

export const MAPS_CAPABILITIES: SandboxResource[] = [
  { id: 'places', kind: 'capability', name: 'Places', detail: 'places:autocomplete, places:searchText, places:searchNearby, places/{id}' },
  { id: 'routes', kind: 'capability', name: 'Routes', detail: 'directions/v2:computeRoutes, distanceMatrix/v2:computeRouteMatrix' },
  { id: 'addressValidation', kind: 'capability', name: 'Address Validation', detail: 'v1:validateAddress' },
  { id: 'geocoding', kind: 'capability', name: 'Geocoding', detail: 'v4/geocode/address, v4/geocode/location' },
];

type GoogleService = 'places.googleapis.com' | 'routes.googleapis.com' | 'addressvalidation.googleapis.com' | 'geocode.googleapis.com';

interface Call {
  params: PathParams;
  url: URL;
  body: () => Promise<string>;
}

interface Endpoint {
  method: 'GET' | 'POST';
  /** Router patterns (see ../router.ts); several when a trailing part is optional. */
  paths: string[];
  service: GoogleService;
  /** Places and Routes refuse a request without a mask; the others return everything. */
  maskRequired: boolean;
  /** An example mask for the "FieldMask is a required parameter" message. */
  maskExample?: string;
  tree: FieldTree;
  /** A server-streaming method: the answer is a JSON array written element by element, as Google's REST front end does. */
  streamed?: boolean;
  /** The answer body, or a promise of it. */
  handle(call: Call): unknown;
}

const ENDPOINTS: Endpoint[] = [
  {
    // The one Places method that takes no mask (all of the answer unless one is given).
    method: 'POST',
    paths: ['/v1/places:autocomplete'],
    service: 'places.googleapis.com',
    maskRequired: false,
    tree: AUTOCOMPLETE_RESPONSE,
    handle: async (c) => autocomplete(parseBody(AutocompleteRequest, await c.body())),
  },
  {
    method: 'POST',
    paths: ['/v1/places:searchText'],
    service: 'places.googleapis.com',
    maskRequired: true,
    maskExample: "'places.displayName', 'places.id' to ask for the display name and the place id of a place",
    tree: SEARCH_PLACES_RESPONSE,
    handle: async (c) => searchText(parseBody(SearchTextRequest, await c.body())),
  },
  {
    method: 'POST',
    paths: ['/v1/places:searchNearby'],
    service: 'places.googleapis.com',
    maskRequired: true,
    maskExample: "'places.displayName', 'places.id' to ask for the display name and the place id of a place",
    tree: SEARCH_PLACES_RESPONSE,
    handle: async (c) => searchNearby(parseBody(SearchNearbyRequest, await c.body())),
  },
  {
    method: 'GET',
    paths: ['/v1/places/{place}'],
    service: 'places.googleapis.com',
    maskRequired: true,
    maskExample: "'displayName', 'id' to ask for the display name and the place id of a place",
    tree: PLACE,
    // sessionToken ends an autocomplete session (billing only: the answer is the same).
    handle: (c) => {
      checkSessionToken(c.url.searchParams.get('sessionToken') ?? undefined);
      return getPlace(c.params.place);
    },
  },
  {
    method: 'POST',
    paths: ['/directions/v2:computeRoutes'],
    service: 'routes.googleapis.com',
    maskRequired: true,
    maskExample:
      "'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline' to ask for the route distance, duration, and polyline in the response",
    tree: COMPUTE_ROUTES_RESPONSE,
    handle: async (c) => computeRoutes(parseBody(ComputeRoutesRequest, await c.body())),
  },
  {
    method: 'POST',
    paths: ['/distanceMatrix/v2:computeRouteMatrix'],
    service: 'routes.googleapis.com',
    maskRequired: true,
    maskExample:
      "'originIndex,destinationIndex,status,condition,distanceMeters,duration' to ask for the route distance and duration of each element in the response",
    tree: ROUTE_MATRIX_ELEMENT,
    streamed: true,
    handle: async (c) => computeRouteMatrix(parseBody(ComputeRouteMatrixRequest, await c.body())),
  },
  {
    method: 'POST',
    paths: ['/v1:validateAddress'],
    service: 'addressvalidation.googleapis.com',
    maskRequired: false,
    tree: VALIDATE_ADDRESS_RESPONSE,
    handle: async (c) => validateAddress(parseBody(ValidateAddressRequest, await c.body())),
  },
  {
    method: 'GET',
    paths: ['/v4/geocode/address', '/v4/geocode/address/{address...}'],
    service: 'geocode.googleapis.com',
    maskRequired: false,
    tree: GEOCODE_RESPONSE,
    handle: (c) => geocodeAddress(c.params.address, c.url.searchParams),
  },
  {
    method: 'GET',
    paths: ['/v4/geocode/location', '/v4/geocode/location/{location...}'],
    service: 'geocode.googleapis.com',
    maskRequired: false,
    tree: GEOCODE_RESPONSE,
    handle: (c) => geocodeLocation(c.params.location, c.url.searchParams),
  },
  {
    method: 'GET',
    paths: ['/v4/geocode/places/{place}'],
    service: 'geocode.googleapis.com',
    maskRequired: false,
    tree: GEOCODE_PLACE_RESPONSE,
    handle: (c) => geocodePlace(c.params.place),
  },
];

function maskRequiredError(example: string | undefined): RpcError {
  return invalidArgument(
    'FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it. ' +
      `As an example, you can set the header 'X-Goog-FieldMask' to value ${example}. ` +
      "You can also set the value to '*' in manual testing to get all the available response fields.",
  );
}

function quotaError(service: GoogleService, quota: MapsQuota, retryAfterMs: number): RpcError {
  const perMinute = quota.windowMs === 60_000;
  const limitName = perMinute ? 'Requests per minute' : `Requests per ${quota.windowMs / 1000} seconds`;
  return new RpcError(
    'RESOURCE_EXHAUSTED',
    `Quota exceeded for quota metric 'Requests' and limit '${limitName}' of service '${service}' for consumer 'project_number:000000000000'.`,
    [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: {
          service,
          quota_metric: `${service}/requests`,
          quota_limit: perMinute ? 'RequestsPerMinutePerProject' : 'RequestsPerWindowPerProject',
          quota_limit_value: String(quota.limit),
          quota_location: 'global',
          consumer: 'projects/000000000000',
        },
      },
      {
        '@type': 'type.googleapis.com/google.rpc.Help',
        links: [{ description: 'Request a higher quota limit.', url: 'https://cloud.google.com/docs/quotas/help/request_increase' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: durationString(Math.max(0.001, retryAfterMs / 1000)) },
    ],
  );
}

export async function startMapsSandbox(opts: MapsSandboxOptions): Promise<RunningService> {
  const quota: MapsQuota = { ...DEFAULT_MAPS_QUOTA, ...opts.quota };
  const limiter = new SlidingWindowLimiter(opts.clock, quota.windowMs);

  // Build the place index (~0.3 s) just after startup, so neither the ready line nor the first
  // request waits for it; unref'd, so it never keeps a closing process alive.
  setTimeout(() => gazetteer(), 100).unref();

  const LISTING = Symbol('listing');
  const routes = new Router<Endpoint | typeof LISTING>().add('GET', '/v1/resources', LISTING);
  for (const e of ENDPOINTS) for (const p of e.paths) routes.add(e.method, p, e);

  return listen(opts, async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newId('', 8);
    const url = requestUrl(req.url);
    if (!url) return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid request URL.', requestId);
    // The classic services check their own key (?key= only) and answer in their own shape.
    if (serveClassic(req, res, url, { apiKey: opts.apiKey, acquire: (key) => limiter.tryAcquire(key, quota.limit) })) return;
    const key = header(req, 'x-goog-api-key') ?? url.searchParams.get('key') ?? bearer(req);
    if (!safeEqual(key ?? undefined, opts.apiKey)) {
      return googleError(
        res,
        401,
        'UNAUTHENTICATED',
        key ? 'API key not valid. Please pass a valid API key.' : 'The request is missing a valid API key.',
        requestId,
        [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: key ? 'API_KEY_INVALID' : 'API_KEY_MISSING', domain: 'googleapis.com' }],
      );
    }
    const route = routes.match(req.method ?? 'GET', url.pathname);
    if (route.kind === 'bad-path') return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid percent-encoding in the request path.', requestId);
    if (route.kind !== 'found') return googleError(res, 404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`, requestId);
    const endpoint = route.handler;
    if (endpoint === LISTING) return sendJson(res, 200, { resources: MAPS_CAPABILITIES }, { 'x-request-id': requestId });
    try {
      if (!limiter.tryAcquire(key!, quota.limit)) throw quotaError(endpoint.service, quota, limiter.waitTime(key!, quota.limit));
      const maskText = requestMask(req, url);
      if (maskText === undefined && endpoint.maskRequired) throw maskRequiredError(endpoint.maskExample);
      const mask: FieldMask | undefined = maskText === undefined ? undefined : parseMask(maskText, endpoint.tree);
      const body = await endpoint.handle({ params: route.params, url, body: () => readBody(req) });
      // A mask applies to each element when the response is a list (computeRouteMatrix).
      const filtered = mask ? applyMask(body, mask.selection) : body;
      if (endpoint.streamed && Array.isArray(filtered)) return sendJsonArray(res, filtered, requestId);
      return sendJson(res, 200, filtered, { 'x-request-id': requestId });
    } catch (e) {
      if (e instanceof RpcError) return sendRpcError(res, e, requestId);
      if ((e as { status?: number }).status === 413) return googleError(res, 413, 'INVALID_ARGUMENT', 'Request payload size exceeds the limit.', requestId);
      return googleError(res, 500, 'INTERNAL', `Internal error encountered: ${errorText(e)}`, requestId);
    }
  });
}

/** A JSON array sent in chunks ("[{…}\n,{…}\n]"), without a content-length, as Google streams one. */
function sendJsonArray(res: ServerResponse, items: readonly unknown[], requestId: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId });
  res.write('[');
  items.forEach((item, i) => res.write(`${i ? '\n,' : ''}${JSON.stringify(item)}`));
  res.end(items.length ? '\n]' : ']');
}
