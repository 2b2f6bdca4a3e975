// Local Google-Maps-Platform-shaped service (Places v1, Routes v2, Address Validation v1,
// Geocoding v4). Endpoints beyond auth and the resource listing are filled in by the maps issue.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearer, header, newId, safeEqual, sendJson, type SandboxResource } from '../http';
import { listen } from '../listen';
import type { ListenOptions, RunningService } from '../types';

export interface MapsSandboxOptions extends ListenOptions {
  apiKey: string;
}

/** google.rpc.Status as Google's JSON APIs send it. */
export function googleError(res: ServerResponse, code: number, status: string, message: string, requestId: string, details: unknown[] = []): void {
  sendJson(res, code, { error: { code, message, status, ...(details.length ? { details } : {}) } }, { 'x-request-id': requestId });
}

export const MAPS_CAPABILITIES: SandboxResource[] = [
  { id: 'places', kind: 'capability', name: 'Places', detail: 'places:searchText, places:searchNearby, places/{id}' },
  { id: 'routes', kind: 'capability', name: 'Routes', detail: 'directions/v2:computeRoutes, distanceMatrix/v2:computeRouteMatrix' },
  { id: 'addressValidation', kind: 'capability', name: 'Address Validation', detail: 'v1:validateAddress' },
  { id: 'geocoding', kind: 'capability', name: 'Geocoding', detail: 'v4/geocode/address, v4/geocode/location' },
];

export async function startMapsSandbox(opts: MapsSandboxOptions): Promise<RunningService> {
  return listen(opts, (req: IncomingMessage, res: ServerResponse) => {
    const requestId = newId('', 8);
    const url = new URL(req.url ?? '/', 'http://sandbox');
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
    if (req.method === 'GET' && url.pathname === '/v1/resources') {
      return sendJson(res, 200, { resources: MAPS_CAPABILITIES }, { 'x-request-id': requestId });
    }
    return googleError(res, 404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`, requestId);
  });
}
