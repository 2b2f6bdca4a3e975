// Field-mask presets: what each operation asks for when the user picks "basic", "contact" or
// "everything" (or types their own mask). Places and Routes require a mask; a smaller one is
// cheaper (Google bills by the fields requested) and faster.

export type MapsOperation =
  'autocomplete' | 'searchText' | 'searchNearby' | 'getPlace' | 'computeRoutes' | 'computeRouteMatrix' | 'validateAddress' | 'geocode';
export type MaskPreset = 'basic' | 'contact' | 'everything';
export const MASK_PRESETS: readonly MaskPreset[] = ['basic', 'contact', 'everything'];

// Autocomplete bills per request (or per session), never by field: the basic preset is all of it.
const AUTOCOMPLETE = ['suggestions.placePrediction', 'suggestions.queryPrediction'];

const PLACE_BASIC = ['id', 'displayName', 'formattedAddress', 'location', 'viewport', 'types', 'primaryType', 'rating', 'userRatingCount'];
const PLACE_CONTACT = [...PLACE_BASIC, 'nationalPhoneNumber', 'internationalPhoneNumber', 'websiteUri', 'googleMapsUri', 'regularOpeningHours'];

const ROUTE_BASIC = [
  'routes.distanceMeters',
  'routes.duration',
  'routes.staticDuration',
  'routes.polyline.encodedPolyline',
  'routes.legs.distanceMeters',
  'routes.legs.duration',
  'routes.legs.startLocation',
  'routes.legs.endLocation',
  'routes.viewport',
  'routes.description',
  'routes.localizedValues',
  'routes.routeLabels',
  'geocodingResults',
];

const prefixed = (prefix: string, fields: readonly string[]) => fields.map((f) => `${prefix}${f}`);

/** The mask of each preset per operation; operations without contact fields use basic for it. */
const PRESET_FIELDS: Record<MapsOperation, Record<'basic' | 'contact', readonly string[]>> = {
  autocomplete: { basic: AUTOCOMPLETE, contact: AUTOCOMPLETE },
  searchText: { basic: prefixed('places.', PLACE_BASIC), contact: [...prefixed('places.', PLACE_CONTACT), 'nextPageToken'] },
  searchNearby: { basic: prefixed('places.', PLACE_BASIC), contact: prefixed('places.', PLACE_CONTACT) },
  getPlace: { basic: PLACE_BASIC, contact: PLACE_CONTACT },
  computeRoutes: { basic: ROUTE_BASIC, contact: ROUTE_BASIC },
  computeRouteMatrix: {
    basic: ['originIndex', 'destinationIndex', 'status', 'condition', 'distanceMeters', 'duration'],
    contact: ['originIndex', 'destinationIndex', 'status', 'condition', 'distanceMeters', 'duration'],
  },
  validateAddress: {
    basic: [
      'result.verdict',
      'result.address.formattedAddress',
      'result.address.addressComponents',
      'result.address.missingComponentTypes',
      'result.address.unresolvedTokens',
      'result.geocode.location',
      'result.geocode.placeId',
      'responseId',
    ],
    contact: ['result.verdict', 'result.address', 'result.geocode', 'responseId'],
  },
  geocode: {
    basic: ['results.placeId', 'results.formattedAddress', 'results.location', 'results.granularity', 'results.types', 'results.viewport', 'plusCode'],
    contact: [
      'results.placeId',
      'results.formattedAddress',
      'results.location',
      'results.granularity',
      'results.types',
      'results.viewport',
      'results.addressComponents',
      'plusCode',
    ],
  },
};

/**
 * Places masks named by the SKU they bill (issue 38 item 8): each adds the next tier's commonly
 * used fields, so a picker can show "Text Search Pro · $32.00 / 1,000" next to what it buys. The
 * tiers come from the one SKU table (sku.ts); an operation without a tier (Nearby Search has no
 * IDs-only SKU, Text Search no Essentials) bills the next one up, and the picker keeps the larger
 * mask of the two at the same price.
 */
const PLACE_TIER_STEPS: readonly (readonly string[])[] = [
  ['id'],
  ['formattedAddress', 'location', 'viewport', 'types'],
  ['displayName', 'primaryType', 'googleMapsUri'],
  ['rating', 'userRatingCount', 'nationalPhoneNumber', 'websiteUri', 'regularOpeningHours'],
];

/** Cumulative Places masks, cheapest first, ending with "*" (every field); [] for other operations. */
export function placeTierMasks(op: MapsOperation): string[] {
  if (op !== 'searchText' && op !== 'searchNearby' && op !== 'getPlace') return [];
  const prefix = op === 'getPlace' ? '' : 'places.';
  const masks: string[] = [];
  const fields: string[] = [];
  for (const step of PLACE_TIER_STEPS) {
    fields.push(...step);
    masks.push(prefixed(prefix, fields).join(','));
  }
  return [...masks, '*'];
}

/** The same, as the header values sent (joined once, not on every request). */
const PRESET_MASKS = Object.fromEntries(
  Object.entries(PRESET_FIELDS).map(([op, masks]) => [op, { basic: masks.basic.join(','), contact: masks.contact.join(',') }]),
) as Record<MapsOperation, Record<'basic' | 'contact', string>>;

export interface MaskChoice {
  /** A mask typed by the user ("places.id,places.rating" or a list of paths); wins over preset. */
  fieldMask?: string | readonly string[];
  preset?: MaskPreset;
}

/** The X-Goog-FieldMask value for an operation and the user's choice (default: basic). */
export function fieldMaskFor(op: MapsOperation, choice: MaskChoice = {}): string {
  if (choice.fieldMask !== undefined) {
    const text = typeof choice.fieldMask === 'string' ? choice.fieldMask : choice.fieldMask.join(',');
    const clean = text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .join(',');
    if (clean) return clean;
  }
  const preset = choice.preset ?? 'basic';
  if (preset === 'everything') return '*';
  return PRESET_MASKS[op][preset];
}
