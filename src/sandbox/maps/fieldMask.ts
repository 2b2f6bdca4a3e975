// Response field masks (the `X-Goog-FieldMask` header or the `fields` / `$fields` system
// parameter): parsing, checking against the response message, and filtering the response.
import type { IncomingMessage } from 'node:http';
import { header } from '../http';
import { badRequest } from './rpc';

/**
 * The fields a response message has. 'leaf' is a scalar or enum (no sub-paths); 'opaque' is a
 * message whose sub-fields the sandbox does not list (any sub-path is accepted); an object
 * lists the sub-fields.
 */
export type FieldTree = 'leaf' | 'opaque' | { readonly [field: string]: FieldTree };

/** Which parts of a response to keep: true = the whole subtree. */
type Selection = true | Map<string, Selection>;

export interface FieldMask {
  /** The mask as sent, for logs. */
  text: string;
  selection: Selection;
}

/** The mask a request carries, or undefined if none. Header first, then `fields`, then `$fields`. */
export function requestMask(req: IncomingMessage, url: URL): string | undefined {
  const m = header(req, 'x-goog-fieldmask') ?? url.searchParams.get('fields') ?? url.searchParams.get('$fields') ?? undefined;
  return m === undefined || m.trim() === '' ? undefined : m;
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Splits a mask into dotted paths. Besides "a.b,c", the partial-response syntax of Google's JSON
 * APIs is understood: "a(b,c)" = "a.b,a.c", and "a/b" = "a.b". snake_case names become camelCase.
 */
export function maskPaths(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const parseList = (prefix: string): void => {
    for (;;) {
      let name = '';
      while (i < text.length && !',()'.includes(text[i])) name += text[i++];
      name = name.trim().replace(/\//g, '.').replace(/^`|`$/g, '');
      const path = [prefix, name.split('.').map(camel).join('.')].filter(Boolean).join('.');
      if (text[i] === '(') {
        i++;
        parseList(path);
        if (text[i] !== ')') throw maskError(text);
        i++;
      } else if (name) out.push(path);
      while (text[i] === ' ') i++;
      if (text[i] === ',') {
        i++;
        continue;
      }
      return;
    }
  };
  parseList('');
  if (i !== text.length) throw maskError(text);
  return out;
}

function maskError(text: string) {
  return badRequest(
    [{ field: 'fields', description: `Error expanding 'fields' parameter. Invalid field selector '${text}'.` }],
    'Request contains an invalid argument.',
  );
}

/** Parses `text` and checks every path against `tree`; unknown paths are Google's 400. */
export function parseMask(text: string, tree: FieldTree): FieldMask {
  const root: Map<string, Selection> = new Map();
  let all = false;
  for (const path of maskPaths(text)) {
    const segments = path.split('.');
    if (!known(tree, segments)) {
      throw badRequest(
        [{ field: 'fields', description: `Error expanding 'fields' parameter. Cannot find matching fields for path '${path}'.` }],
        'Request contains an invalid argument.',
      );
    }
    if (segments[0] === '*') {
      all = true;
      continue;
    }
    let node = root;
    for (let k = 0; k < segments.length; k++) {
      const seg = segments[k];
      const last = k === segments.length - 1 || segments[k + 1] === '*';
      const existing = node.get(seg);
      if (existing === true) break;
      if (last) {
        node.set(seg, true);
        break;
      }
      const next = existing ?? new Map<string, Selection>();
      node.set(seg, next);
      node = next;
    }
  }
  return { text, selection: all ? true : root };
}

function known(tree: FieldTree, segments: readonly string[]): boolean {
  let node = tree;
  for (const seg of segments) {
    if (seg === '*') return true;
    if (node === 'opaque') return true;
    if (node === 'leaf') return false;
    if (!Object.prototype.hasOwnProperty.call(node, seg)) return false;
    node = node[seg];
  }
  return true;
}

/** The part of `value` the mask selects. Arrays are filtered element by element. */
export function applyMask(value: unknown, selection: Selection): unknown {
  if (selection === true) return value;
  if (Array.isArray(value)) return value.map((v) => applyMask(v, selection));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of selection) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = applyMask(v, sub);
  }
  return out;
}

// --- the response messages --------------------------------------------------------------------

const LAT_LNG: FieldTree = { latitude: 'leaf', longitude: 'leaf' };
const VIEWPORT: FieldTree = { low: LAT_LNG, high: LAT_LNG };
const LOCALIZED_TEXT: FieldTree = { text: 'leaf', languageCode: 'leaf' };
const ADDRESS_COMPONENT: FieldTree = { longText: 'leaf', shortText: 'leaf', types: 'leaf', languageCode: 'leaf' };
const PLUS_CODE: FieldTree = { globalCode: 'leaf', compoundCode: 'leaf' };

/** google.maps.places.v1.Place (every field of the real message, so real masks are accepted). */
export const PLACE: FieldTree = {
  name: 'leaf',
  id: 'leaf',
  displayName: LOCALIZED_TEXT,
  types: 'leaf',
  primaryType: 'leaf',
  primaryTypeDisplayName: LOCALIZED_TEXT,
  nationalPhoneNumber: 'leaf',
  internationalPhoneNumber: 'leaf',
  formattedAddress: 'leaf',
  shortFormattedAddress: 'leaf',
  postalAddress: 'opaque',
  addressComponents: ADDRESS_COMPONENT,
  plusCode: PLUS_CODE,
  location: LAT_LNG,
  viewport: VIEWPORT,
  rating: 'leaf',
  googleMapsUri: 'leaf',
  websiteUri: 'leaf',
  reviews: 'opaque',
  regularOpeningHours: 'opaque',
  utcOffsetMinutes: 'leaf',
  timeZone: 'opaque',
  photos: 'opaque',
  adrFormatAddress: 'leaf',
  businessStatus: 'leaf',
  priceLevel: 'leaf',
  attributions: 'opaque',
  userRatingCount: 'leaf',
  iconMaskBaseUri: 'leaf',
  iconBackgroundColor: 'leaf',
  takeout: 'leaf',
  delivery: 'leaf',
  dineIn: 'leaf',
  curbsidePickup: 'leaf',
  reservable: 'leaf',
  servesBreakfast: 'leaf',
  servesLunch: 'leaf',
  servesDinner: 'leaf',
  servesBeer: 'leaf',
  servesWine: 'leaf',
  servesBrunch: 'leaf',
  servesVegetarianFood: 'leaf',
  currentOpeningHours: 'opaque',
  currentSecondaryOpeningHours: 'opaque',
  regularSecondaryOpeningHours: 'opaque',
  editorialSummary: LOCALIZED_TEXT,
  outdoorSeating: 'leaf',
  liveMusic: 'leaf',
  menuForChildren: 'leaf',
  servesCocktails: 'leaf',
  servesDessert: 'leaf',
  servesCoffee: 'leaf',
  goodForChildren: 'leaf',
  allowsDogs: 'leaf',
  restroom: 'leaf',
  goodForGroups: 'leaf',
  goodForWatchingSports: 'leaf',
  paymentOptions: 'opaque',
  parkingOptions: 'opaque',
  subDestinations: 'opaque',
  accessibilityOptions: 'opaque',
  fuelOptions: 'opaque',
  evChargeOptions: 'opaque',
  generativeSummary: 'opaque',
  containingPlaces: 'opaque',
  pureServiceAreaBusiness: 'leaf',
  addressDescriptor: 'opaque',
  googleMapsLinks: 'opaque',
  priceRange: 'opaque',
  reviewSummary: 'opaque',
  evChargeAmenitySummary: 'opaque',
  neighborhoodSummary: 'opaque',
  consumerAlert: 'opaque',
  movedPlace: 'leaf',
  movedPlaceId: 'leaf',
  openingDate: 'opaque',
};

const FORMATTABLE_TEXT: FieldTree = { text: 'leaf', matches: { startOffset: 'leaf', endOffset: 'leaf' } };
const STRUCTURED_FORMAT: FieldTree = { mainText: FORMATTABLE_TEXT, secondaryText: FORMATTABLE_TEXT };
export const AUTOCOMPLETE_RESPONSE: FieldTree = {
  suggestions: {
    placePrediction: { place: 'leaf', placeId: 'leaf', text: FORMATTABLE_TEXT, structuredFormat: STRUCTURED_FORMAT, types: 'leaf', distanceMeters: 'leaf' },
    queryPrediction: { text: FORMATTABLE_TEXT, structuredFormat: STRUCTURED_FORMAT },
  },
};

export const SEARCH_PLACES_RESPONSE: FieldTree = {
  places: PLACE,
  nextPageToken: 'leaf',
  routingSummaries: 'opaque',
  contextualContents: 'opaque',
  searchUri: 'leaf',
};

const LOCATION: FieldTree = { latLng: LAT_LNG, heading: 'leaf' };
const POLYLINE: FieldTree = { encodedPolyline: 'leaf', geoJsonLinestring: 'opaque' };
const LOCALIZED_VALUES: FieldTree = { distance: LOCALIZED_TEXT, duration: LOCALIZED_TEXT, staticDuration: LOCALIZED_TEXT, transitFare: 'opaque' };
const STEP: FieldTree = {
  distanceMeters: 'leaf',
  staticDuration: 'leaf',
  polyline: POLYLINE,
  startLocation: LOCATION,
  endLocation: LOCATION,
  navigationInstruction: { maneuver: 'leaf', instructions: 'leaf' },
  travelAdvisory: 'opaque',
  localizedValues: LOCALIZED_VALUES,
  transitDetails: 'opaque',
  travelMode: 'leaf',
};
const LEG: FieldTree = {
  distanceMeters: 'leaf',
  duration: 'leaf',
  staticDuration: 'leaf',
  polyline: POLYLINE,
  startLocation: LOCATION,
  endLocation: LOCATION,
  steps: STEP,
  travelAdvisory: 'opaque',
  localizedValues: LOCALIZED_VALUES,
  stepsOverview: 'opaque',
};
export const ROUTE: FieldTree = {
  routeLabels: 'leaf',
  legs: LEG,
  distanceMeters: 'leaf',
  duration: 'leaf',
  staticDuration: 'leaf',
  polyline: POLYLINE,
  description: 'leaf',
  warnings: 'leaf',
  viewport: VIEWPORT,
  travelAdvisory: 'opaque',
  optimizedIntermediateWaypointIndex: 'leaf',
  localizedValues: LOCALIZED_VALUES,
  routeToken: 'leaf',
  polylineDetails: 'opaque',
};
export const COMPUTE_ROUTES_RESPONSE: FieldTree = { routes: ROUTE, fallbackInfo: 'opaque', geocodingResults: 'opaque' };

export const ROUTE_MATRIX_ELEMENT: FieldTree = {
  originIndex: 'leaf',
  destinationIndex: 'leaf',
  status: { code: 'leaf', message: 'leaf', details: 'opaque' },
  condition: 'leaf',
  distanceMeters: 'leaf',
  duration: 'leaf',
  staticDuration: 'leaf',
  travelAdvisory: 'opaque',
  fallbackInfo: 'opaque',
  localizedValues: LOCALIZED_VALUES,
};

export const VALIDATE_ADDRESS_RESPONSE: FieldTree = {
  result: {
    verdict: 'opaque',
    address: 'opaque',
    geocode: 'opaque',
    metadata: 'opaque',
    uspsData: 'opaque',
    englishLatinAddress: 'opaque',
  },
  responseId: 'leaf',
};

const GEOCODE_RESULT: FieldTree = {
  place: 'leaf',
  placeId: 'leaf',
  location: LAT_LNG,
  granularity: 'leaf',
  viewport: VIEWPORT,
  bounds: VIEWPORT,
  formattedAddress: 'leaf',
  postalAddress: 'opaque',
  addressComponents: ADDRESS_COMPONENT,
  postalCodeLocalities: LOCALIZED_TEXT,
  types: 'leaf',
  plusCode: PLUS_CODE,
};
export const GEOCODE_RESPONSE: FieldTree = { results: GEOCODE_RESULT, plusCode: PLUS_CODE };
export const GEOCODE_PLACE_RESPONSE: FieldTree = GEOCODE_RESULT;
