// The actual routes behind a route matrix's pairs. Compute Route Matrix answers distances and
// durations but no geometry, so drawing the roads means one Compute Routes request per pair (each
// billed): asked for explicitly, sent a few at a time, and stopped when the user cancels.
import { CancelledError, type Cancel } from '../../core/cancellation';
import { isApiError, errorText } from '../../core/errors';
import type { LatLngInput, MapsCallOptions, MapsClient, MapsResult, TravelMode } from './client';
import { decodePolyline, type LatLngLiteral } from './polyline';
import type { ComputeRoutesResponse } from './schemas';

/** Distance, duration and the polyline: Compute Routes Essentials. */
export const PAIR_ROUTE_MASK = 'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline';
/** Requests in flight at once: quick for a 3 × 3 matrix, gentle on a per-minute quota. */
const DEFAULT_CONCURRENCY = 3;

export interface RoutePair {
  originIndex: number;
  destinationIndex: number;
  origin: LatLngInput;
  destination: LatLngInput;
}

export interface PairRoute {
  pair: RoutePair;
  /** The road as points (empty when no route was found or the request failed). */
  points: LatLngLiteral[];
  distanceMeters?: number;
  duration?: string;
  /** Why there is no route: the service's error, or "no route". */
  problem?: string;
}

export interface PairRoutesOptions {
  concurrency?: number;
  cancel?: Cancel;
  /** After each request (successful or not), with how many are done. */
  onRoute?: (route: PairRoute, done: number, total: number) => void;
  /** Each answer as the client gave it (for cost accounting). */
  onResult?: (result: MapsResult<ComputeRoutesResponse>) => void;
  callOptions?: Omit<MapsCallOptions, 'fieldMask' | 'preset' | 'cancel'>;
}

/**
 * One Compute Routes request per pair, at most `concurrency` at a time, in pair order. A pair
 * whose request fails keeps its error and the others go on; cancelling stops new requests and
 * rejects as cancelled (the routes already computed are then not drawn).
 */
export async function routesForPairs(
  client: Pick<MapsClient, 'computeRoutes'>,
  pairs: readonly RoutePair[],
  travelMode: TravelMode,
  opts: PairRoutesOptions = {},
): Promise<PairRoute[]> {
  const out = new Array<PairRoute>(pairs.length);
  let next = 0;
  let done = 0;
  let cancelled: Error | undefined;
  const stopped = () => cancelled !== undefined || (opts.cancel instanceof AbortSignal ? opts.cancel.aborted : opts.cancel?.isCancellationRequested === true);
  const worker = async () => {
    while (next < pairs.length && !stopped()) {
      const i = next++;
      const pair = pairs[i];
      try {
        const res = await client.computeRoutes(
          { origin: { location: { latLng: pair.origin } }, destination: { location: { latLng: pair.destination } }, travelMode },
          { ...opts.callOptions, fieldMask: PAIR_ROUTE_MASK, cancel: opts.cancel },
        );
        opts.onResult?.(res);
        out[i] = pairRoute(pair, res.data);
      } catch (e) {
        if (isApiError(e) && e.kind === 'cancelled') {
          cancelled ??= e;
          return;
        }
        out[i] = { pair, points: [], problem: errorText(e) };
      }
      opts.onRoute?.(out[i], ++done, pairs.length);
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, pairs.length));
  await Promise.all(Array.from({ length: n }, worker));
  // The client's own ApiError (kind 'cancelled') when a request saw the cancel, as callers expect.
  if (stopped()) throw cancelled ?? new CancelledError();
  return out;
}

function pairRoute(pair: RoutePair, data: ComputeRoutesResponse): PairRoute {
  const route = data.routes?.[0];
  const encoded = route?.polyline?.encodedPolyline;
  if (!route || encoded === undefined) return { pair, points: [], problem: 'no route' };
  return { pair, points: decodePolyline(encoded), distanceMeters: route.distanceMeters, duration: route.duration };
}
