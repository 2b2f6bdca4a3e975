// What a maps request is billed as, read from the request itself: the palette commands know their
// operation, but a notebook `maps` cell and a playground tool call are plain requests, and their
// spend belongs in the same session tally (costs.ts). vscode-free: unit-tested.
import * as z from 'zod/mini';
import { parseJson, validate } from '../../core/validate';
import type { SkuOperation, SkuOptions } from '../../services/maps/sku';

export interface BilledCall {
  operation: SkuOperation;
  fieldMask: string;
  options: SkuOptions;
  /** Billable events: 1, or origins × destinations for the matrix. */
  units: number;
}

/** A request as sent (a notebook cell's record, a client's OutgoingRequest). */
export interface SentMapsRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** JSON text, or the object itself. */
  body?: unknown;
}

/** The new Places and Routes APIs' paths (whatever host serves them: Google, the sandbox, a proxy). */
const OPERATION_PATHS: ReadonlyArray<{ path: RegExp; method: string; operation: SkuOperation }> = [
  { path: /\/v1\/places:autocomplete$/, method: 'POST', operation: 'autocomplete' },
  { path: /\/v1\/places:searchText$/, method: 'POST', operation: 'searchText' },
  { path: /\/v1\/places:searchNearby$/, method: 'POST', operation: 'searchNearby' },
  { path: /\/v1\/places\/[^/:]+$/, method: 'GET', operation: 'getPlace' },
  { path: /\/directions\/v2:computeRoutes$/, method: 'POST', operation: 'computeRoutes' },
  { path: /\/distanceMatrix\/v2:computeRouteMatrix$/, method: 'POST', operation: 'computeRouteMatrix' },
];

const waypoint = z.looseObject({
  location: z.optional(z.looseObject({ heading: z.optional(z.number()) })),
  sideOfRoad: z.optional(z.boolean()),
  vehicleStopover: z.optional(z.boolean()),
});

/** Only the fields that decide a Routes SKU or the matrix's element count; anything else is left alone. */
const billedBody = z.looseObject({
  travelMode: z.optional(z.string()),
  routingPreference: z.optional(z.string()),
  intermediates: z.optional(z.array(waypoint)),
  optimizeWaypointOrder: z.optional(z.boolean()),
  extraComputations: z.optional(z.array(z.string())),
  origin: z.optional(waypoint),
  destination: z.optional(waypoint),
  origins: z.optional(z.array(z.unknown())),
  destinations: z.optional(z.array(z.unknown())),
});

/** The SKU inputs of one call whose operation and mask are known; `body` is the request body as sent. */
export function billedCall(operation: SkuOperation, fieldMask: string, body: unknown): BilledCall {
  const parsed = typeof body === 'string' ? parseJson(body) : { ok: true as const, value: body };
  const checked = parsed.ok ? validate(billedBody, parsed.value ?? {}) : undefined;
  // A body that is not what Google takes still went out: it counts at the base SKU.
  const b = checked?.ok ? checked.value : {};
  const { origins, destinations, ...options } = b;
  const units = operation === 'computeRouteMatrix' ? (origins?.length ?? 0) * (destinations?.length ?? 0) : 1;
  return { operation, fieldMask, options, units };
}

function header(headers: SentMapsRequest['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/**
 * What a sent request is billed as, or undefined for requests not billed by SKU here (classic web
 * services, Address Validation, Geocoding, the resource listing).
 */
export function billedRequest(req: SentMapsRequest): BilledCall | undefined {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return undefined;
  }
  const method = req.method.toUpperCase();
  const known = OPERATION_PATHS.find((p) => p.method === method && p.path.test(url.pathname));
  if (!known) return undefined;
  // Google takes the mask as a header or as `fields` / `$fields` in the query.
  const fieldMask = header(req.headers, 'X-Goog-FieldMask') ?? url.searchParams.get('fields') ?? url.searchParams.get('$fields') ?? '';
  return billedCall(known.operation, fieldMask, req.body);
}
