// Which Google Maps Platform SKU a request is billed under, and what that costs per 1,000, so the
// editor can say "this mask moves Place Details from Pro to Enterprise". Places bills by the
// dearest field in the mask; Routes by the features the request uses.
//
// Field lists per SKU:
//   Place Details  https://developers.google.com/maps/documentation/places/web-service/place-details
//   Text Search    https://developers.google.com/maps/documentation/places/web-service/text-search
//   Nearby Search  https://developers.google.com/maps/documentation/places/web-service/nearby-search
//   Sessions       https://developers.google.com/maps/documentation/places/web-service/session-pricing
// Routes features: https://developers.google.com/maps/documentation/routes/usage-and-billing and
//   https://developers.google.com/maps/billing-and-pricing/sku-details/routes
// Prices (0–100k monthly tier): https://developers.google.com/maps/billing-and-pricing/pricing
//   (copied from independent copies of that page, not the page itself: keep them editable).

export type SkuTier = 'Essentials (IDs Only)' | 'Essentials' | 'Pro' | 'Enterprise' | 'Enterprise + Atmosphere';
const TIER_ORDER: readonly SkuTier[] = ['Essentials (IDs Only)', 'Essentials', 'Pro', 'Enterprise', 'Enterprise + Atmosphere'];

export type SkuOperation = 'getPlace' | 'searchText' | 'searchNearby' | 'autocomplete' | 'computeRoutes' | 'computeRouteMatrix';

/** US$ per 1,000 billable events (requests, or elements for the matrix), first volume tier. */
export const DEFAULT_SKU_PRICES: Readonly<Record<string, number>> = {
  'Place Details Essentials (IDs Only)': 0,
  'Place Details Essentials': 5,
  'Place Details Pro': 17,
  'Place Details Enterprise': 20,
  'Place Details Enterprise + Atmosphere': 25,
  'Text Search Essentials (IDs Only)': 0,
  'Text Search Pro': 32,
  'Text Search Enterprise': 35,
  'Text Search Enterprise + Atmosphere': 40,
  'Nearby Search Pro': 32,
  'Nearby Search Enterprise': 35,
  'Nearby Search Enterprise + Atmosphere': 40,
  'Autocomplete Requests': 2.83,
  'Autocomplete Session Usage': 0,
  'Compute Routes Essentials': 5,
  'Compute Routes Pro': 10,
  'Compute Routes Enterprise': 15,
  'Compute Route Matrix Essentials': 5,
  'Compute Route Matrix Pro': 10,
  'Compute Route Matrix Enterprise': 15,
};

/** The Place fields of each Place Details SKU (the Place Details page's lists). */
export const PLACE_FIELD_TIERS: Readonly<Record<SkuTier, readonly string[]>> = {
  'Essentials (IDs Only)': ['attributions', 'id', 'movedPlace', 'movedPlaceId', 'name', 'photos'],
  Essentials: [
    'addressComponents',
    'addressDescriptor',
    'adrFormatAddress',
    'formattedAddress',
    'location',
    'plusCode',
    'postalAddress',
    'shortFormattedAddress',
    'types',
    'viewport',
  ],
  Pro: [
    'accessibilityOptions',
    'businessStatus',
    'containingPlaces',
    'displayName',
    'googleMapsLinks',
    'googleMapsUri',
    'iconBackgroundColor',
    'iconMaskBaseUri',
    'openingDate',
    'primaryType',
    'primaryTypeDisplayName',
    'pureServiceAreaBusiness',
    'subDestinations',
    'timeZone',
    'utcOffsetMinutes',
  ],
  Enterprise: [
    'currentOpeningHours',
    'currentSecondaryOpeningHours',
    'internationalPhoneNumber',
    'nationalPhoneNumber',
    'priceLevel',
    'priceRange',
    'rating',
    'regularOpeningHours',
    'regularSecondaryOpeningHours',
    'userRatingCount',
    'websiteUri',
  ],
  'Enterprise + Atmosphere': [
    'allowsDogs',
    'curbsidePickup',
    'delivery',
    'dineIn',
    'editorialSummary',
    'evChargeAmenitySummary',
    'evChargeOptions',
    'fuelOptions',
    'generativeSummary',
    'goodForChildren',
    'goodForGroups',
    'goodForWatchingSports',
    'liveMusic',
    'menuForChildren',
    'neighborhoodSummary',
    'outdoorSeating',
    'parkingOptions',
    'paymentOptions',
    'reservable',
    'restroom',
    'reviews',
    'reviewSummary',
    'routingSummaries',
    'servesBeer',
    'servesBreakfast',
    'servesBrunch',
    'servesCocktails',
    'servesCoffee',
    'servesDessert',
    'servesDinner',
    'servesLunch',
    'servesVegetarianFood',
    'servesWine',
    'takeout',
  ],
};
const DETAILS_TIER = new Map<string, SkuTier>(TIER_ORDER.flatMap((t) => PLACE_FIELD_TIERS[t].map((f) => [f, t] as const)));

/**
 * Text Search has no Essentials SKU: Essentials fields and photos are Pro; its IDs-only SKU
 * also covers nextPageToken. Nearby Search has no IDs-only SKU either: id, name and
 * attributions are Pro.
 */
function placeFieldTier(op: 'getPlace' | 'searchText' | 'searchNearby', field: string): SkuTier | undefined {
  if (op === 'searchText' && field === 'nextPageToken') return 'Essentials (IDs Only)';
  if (op !== 'getPlace' && field === 'searchUri') return 'Pro';
  if (op === 'searchText' && field === 'photos') return 'Pro';
  // routingSummaries is a response field of the searches only.
  if (op === 'getPlace' && field === 'routingSummaries') return undefined;
  const tier = DETAILS_TIER.get(field);
  if (!tier || op === 'getPlace') return tier;
  if (tier === 'Essentials') return 'Pro';
  if (op === 'searchNearby' && tier === 'Essentials (IDs Only)') return 'Pro';
  return tier;
}

const SKU_NAME_PREFIX = {
  getPlace: 'Place Details',
  searchText: 'Text Search',
  searchNearby: 'Nearby Search',
  computeRoutes: 'Compute Routes',
  computeRouteMatrix: 'Compute Route Matrix',
} as const;

/** The parts of a request that decide a Routes SKU (pass the request body itself). */
export interface RouteSkuOptions {
  travelMode?: string;
  routingPreference?: string;
  intermediates?: readonly RouteWaypointLike[];
  optimizeWaypointOrder?: boolean;
  extraComputations?: readonly string[];
  origin?: RouteWaypointLike;
  destination?: RouteWaypointLike;
}
interface RouteWaypointLike {
  location?: { heading?: number };
  sideOfRoad?: boolean;
  vehicleStopover?: boolean;
}

export interface SkuOptions extends RouteSkuOptions {
  /** Prices to use instead of DEFAULT_SKU_PRICES (any subset). */
  prices?: Readonly<Record<string, number>>;
  /** Autocomplete: the call's number within a session that Place Details ends (1 = first). */
  sessionRequestNumber?: number;
}

export interface SkuResult {
  operation: SkuOperation;
  sku: string;
  tier: SkuTier | 'Requests' | 'Session Usage';
  /** US$ per 1,000 billable events. */
  pricePer1000: number;
  /** What is counted: requests, or elements (origins × destinations) for the matrix. */
  per: 'request' | 'element';
  /** The fields or options that put the request in this SKU (empty for the cheapest). */
  because: string[];
  /** Mask fields the tables do not list: billed by Google at some SKU, unknown here. */
  unknownFields: string[];
}

/** Top-level Place fields a mask names ("places.displayName.text" → "displayName"); "*" stays. */
export function maskFields(op: SkuOperation, mask: string | readonly string[]): string[] {
  const paths = (typeof mask === 'string' ? mask.split(',') : mask).map((p) => p.trim()).filter(Boolean);
  const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const out = new Set<string>();
  for (const path of paths) {
    const segments = path.split(/[./]/).map(camel);
    const search = op === 'searchText' || op === 'searchNearby';
    if (search && segments[0] === 'places' && segments.length > 1) out.add(segments[1]);
    else out.add(segments[0]);
  }
  return [...out];
}

const rank = (t: SkuTier) => TIER_ORDER.indexOf(t);

function priced(operation: SkuOperation, sku: string, tier: SkuResult['tier'], because: string[], unknownFields: string[], options: SkuOptions): SkuResult {
  const pricePer1000 = options.prices?.[sku] ?? DEFAULT_SKU_PRICES[sku] ?? 0;
  return { operation, sku, tier, pricePer1000, per: operation === 'computeRouteMatrix' ? 'element' : 'request', because, unknownFields };
}

/**
 * The SKU a request is billed under: for Places, the dearest field of the mask ("*" = every
 * field, so the dearest SKU); for Routes, the features in `options` (the request body).
 */
export function skuOf(operation: SkuOperation, fieldMask: string | readonly string[], options: SkuOptions = {}): SkuResult {
  if (operation === 'autocomplete') return autocompleteSku(options);
  if (operation === 'computeRoutes' || operation === 'computeRouteMatrix') return routeSku(operation, options);
  const fields = maskFields(operation, fieldMask);
  const floor: SkuTier = operation === 'getPlace' || operation === 'searchText' ? 'Essentials (IDs Only)' : 'Pro';
  if (fields.includes('*')) return priced(operation, `${SKU_NAME_PREFIX[operation]} Enterprise + Atmosphere`, 'Enterprise + Atmosphere', ['*'], [], options);
  let tier: SkuTier = floor;
  const unknownFields: string[] = [];
  const tierOf = new Map<string, SkuTier>();
  for (const f of fields) {
    const t = placeFieldTier(operation, f);
    if (!t) {
      unknownFields.push(f);
      continue;
    }
    tierOf.set(f, t);
    if (rank(t) > rank(tier)) tier = t;
  }
  const because = tier === floor ? [] : [...tierOf].filter(([, t]) => t === tier).map(([f]) => f);
  return priced(operation, `${SKU_NAME_PREFIX[operation]} ${tier}`, tier, because, unknownFields, options);
}

/**
 * Autocomplete bills per request, whatever the mask. In a session that Place Details ends, the
 * 13th and later requests are "Session Usage" at no charge (the session-pricing page).
 */
function autocompleteSku(options: SkuOptions): SkuResult {
  const n = options.sessionRequestNumber;
  if (n !== undefined && n > 12) return priced('autocomplete', 'Autocomplete Session Usage', 'Session Usage', ['sessionRequestNumber > 12'], [], options);
  return priced('autocomplete', 'Autocomplete Requests', 'Requests', [], [], options);
}

const ROUTE_TIERS = ['Essentials', 'Pro', 'Enterprise'] as const;

/**
 * Routes bill by features, not by fields: a mask (even "*") changes nothing by itself, since toll
 * and traffic fields stay empty unless extraComputations asks for them.
 */
function routeSku(operation: 'computeRoutes' | 'computeRouteMatrix', o: SkuOptions): SkuResult {
  const pro: string[] = [];
  const enterprise: string[] = [];
  if (o.routingPreference === 'TRAFFIC_AWARE' || o.routingPreference === 'TRAFFIC_AWARE_OPTIMAL') pro.push(`routingPreference ${o.routingPreference}`);
  if (o.travelMode === 'TWO_WHEELER') enterprise.push('travelMode TWO_WHEELER');
  // Toll prices and traffic on polylines are Enterprise for computeRoutes; for the matrix, tolls
  // are assumed to be too (UNVERIFIED: the SKU pages name two-wheeler routing as the example).
  if (o.extraComputations?.includes('TOLLS')) enterprise.push('extraComputations TOLLS');
  if (operation === 'computeRoutes') {
    const stops = o.intermediates?.length ?? 0;
    if (stops > 10) pro.push(`${stops} intermediate waypoints (over 10)`);
    if (o.optimizeWaypointOrder) pro.push('optimizeWaypointOrder');
    if (o.extraComputations?.includes('TRAFFIC_ON_POLYLINE')) enterprise.push('extraComputations TRAFFIC_ON_POLYLINE');
    const waypoints = [o.origin, o.destination, ...(o.intermediates ?? [])];
    if (waypoints.some((w) => w?.sideOfRoad)) pro.push('waypoint sideOfRoad');
    if (waypoints.some((w) => w?.location?.heading !== undefined)) pro.push('waypoint heading');
    if (waypoints.some((w) => w?.vehicleStopover)) pro.push('waypoint vehicleStopover');
  }
  const tier = enterprise.length ? ROUTE_TIERS[2] : pro.length ? ROUTE_TIERS[1] : ROUTE_TIERS[0];
  const because = enterprise.length ? enterprise : pro;
  return priced(operation, `${SKU_NAME_PREFIX[operation]} ${tier}`, tier, because, [], o);
}

export interface SkuChange {
  from: SkuResult;
  to: SkuResult;
  /** True when the second mask is billed at a higher price than the first. */
  dearer: boolean;
  cheaper: boolean;
  /** US$ per 1,000 more (negative: less). */
  deltaPer1000: number;
  /** The fields of the second mask that raise it above the first's SKU. */
  raisedBy: string[];
}

/** How a change of mask (A → B) moves the SKU of one operation with the same options. */
export function compareSku(maskA: string | readonly string[], maskB: string | readonly string[], context: SkuOptions & { operation: SkuOperation }): SkuChange {
  const from = skuOf(context.operation, maskA, context);
  const to = skuOf(context.operation, maskB, context);
  const deltaPer1000 = Math.round((to.pricePer1000 - from.pricePer1000) * 100) / 100;
  const before = new Set(maskFields(context.operation, maskA));
  return {
    from,
    to,
    dearer: deltaPer1000 > 0,
    cheaper: deltaPer1000 < 0,
    deltaPer1000,
    raisedBy: deltaPer1000 > 0 ? to.because.filter((f) => !before.has(f)) : [],
  };
}
