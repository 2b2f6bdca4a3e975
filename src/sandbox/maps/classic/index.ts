// Google's classic Maps web services on the maps sandbox's port: /maps/api/geocode/json,
// /maps/api/place/{textsearch,nearbysearch,details,autocomplete}/json, /maps/api/directions/json and
// /maps/api/distancematrix/json. As on maps.googleapis.com, the key comes only from `?key=` (these
// services document no header), every outcome is HTTP 200 with a `status` in the body, and a
// failure carries `error_message` beside the answer's empty lists.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorText } from '../../../core/errors';
import { safeEqual, sendJson } from '../../http';
import { Router } from '../../router';
import { RpcError } from '../rpc';
import { classicDirections, classicDistanceMatrix } from './directions';
import { classicGeocode } from './geocode';
import { classicAutocomplete, classicDetails, classicNearbySearch, classicTextSearch } from './places';
import type { Json } from './shapes';
import { ClassicError, type ClassicStatus } from './status';

interface ClassicEndpoint {
  /** The answer's lists, empty, sent with a failure (`{"results": [], "status": "INVALID_REQUEST", …}`). */
  empty: Json;
  handle(url: URL): Json | Promise<Json>;
}

const places = { html_attributions: [], results: [] };
/** Each service's path after /maps/api/ (JSON output only: the sandbox has no XML). */
const ENDPOINTS: Record<string, ClassicEndpoint> = {
  'geocode/json': { empty: { results: [] }, handle: classicGeocode },
  'place/textsearch/json': { empty: places, handle: classicTextSearch },
  'place/nearbysearch/json': { empty: places, handle: classicNearbySearch },
  'place/details/json': { empty: { html_attributions: [] }, handle: classicDetails },
  'place/autocomplete/json': { empty: { predictions: [] }, handle: classicAutocomplete },
  'directions/json': { empty: { geocoded_waypoints: [], routes: [] }, handle: classicDirections },
  'distancematrix/json': { empty: { destination_addresses: [], origin_addresses: [], rows: [] }, handle: classicDistanceMatrix },
};
const ROUTES = new Router<ClassicEndpoint>();
for (const [path, endpoint] of Object.entries(ENDPOINTS)) ROUTES.add('GET', `/maps/api/${path}`, endpoint);

interface Refusal {
  status: ClassicStatus;
  message: string;
}
const MISSING_KEY: Refusal = {
  status: 'REQUEST_DENIED',
  message:
    'You must use an API key to authenticate each request to Google Maps Platform APIs. For additional information, please refer to http://g.co/dev/maps-no-account',
};
const INVALID_KEY: Refusal = { status: 'REQUEST_DENIED', message: 'The provided API key is invalid.' };
const OVER_LIMIT: Refusal = { status: 'OVER_QUERY_LIMIT', message: 'You have exceeded your rate-limit for this API.' };

export interface ClassicContext {
  apiKey: string;
  /** The sandbox's per-key quota, shared with the new APIs; false when the key is over it. */
  acquire(key: string): boolean;
}

/** False when the path is no classic service (the caller answers it). */
export function serveClassic(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ClassicContext): boolean {
  const route = ROUTES.match(req.method ?? 'GET', url.pathname);
  if (route.kind !== 'found') return false;
  const endpoint = route.handler;
  const fail = (status: ClassicStatus, message: string) => sendJson(res, 200, { ...endpoint.empty, error_message: message, status });
  const key = url.searchParams.get('key');
  const refusal = !key ? MISSING_KEY : !safeEqual(key, ctx.apiKey) ? INVALID_KEY : !ctx.acquire(key) ? OVER_LIMIT : undefined;
  if (refusal) {
    fail(refusal.status, refusal.message);
    return true;
  }
  void answer(endpoint, url, res, fail);
  return true;
}

/** Sends the endpoint's answer, or its failure in Google's shape; never rejects. */
async function answer(endpoint: ClassicEndpoint, url: URL, res: ServerResponse, fail: (status: ClassicStatus, message: string) => void): Promise<void> {
  try {
    const body = await endpoint.handle(url);
    sendJson(res, 200, { ...body, status: body.status ?? 'OK' });
  } catch (e) {
    if (e instanceof ClassicError) fail(e.status, e.message);
    // The new APIs' checks (a radius too large, a bad session token) are the caller's mistakes here too.
    else if (e instanceof RpcError && e.status === 'INVALID_ARGUMENT') fail('INVALID_REQUEST', `Invalid request. ${e.message}`);
    else fail('UNKNOWN_ERROR', `The sandbox could not answer: ${errorText(e)}`);
  }
}
