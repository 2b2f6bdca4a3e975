// Classic Places, GET /maps/api/place/{textsearch,nearbysearch,details,autocomplete}/json, answered
// by the Places (New) handlers (same places, same ranking) and rewritten in the classic shape.
import * as z from 'zod/mini';
import { autocomplete, type AutocompleteRequest } from '../autocomplete';
import { distanceMeters, inRange, parseLatLngText, type LatLng } from '../geo';
import { getPlace, searchNearby, searchText, SearchTextRequest } from '../places';
import { RpcError } from '../rpc';
import { placeResult, prediction, PRICE_LEVELS, type Json } from './shapes';
import { ClassicError, invalidParameter, missingParameter, numberParam, param, queryParams } from './status';

const MAX_RADIUS_M = 50_000;
const PAGE_SIZE = 20;

function point(text: string | undefined, name: string): LatLng | undefined {
  if (text === undefined) return undefined;
  const p = parseLatLngText(text);
  if (!p || !inRange(p)) throw invalidParameter(name);
  return p;
}

function radiusOf(text: string | undefined): number | undefined {
  const r = numberParam(text, 'radius');
  if (r !== undefined && !(r > 0 && r <= MAX_RADIUS_M)) throw invalidParameter('radius');
  return r;
}

const searchResults = (places: unknown, style: 'textsearch' | 'nearbysearch'): Json[] =>
  ((places as Json[] | undefined) ?? []).map((p) => placeResult(p, style));

function listAnswer(results: Json[], nextPageToken?: string): Json {
  if (!results.length) return { html_attributions: [], results: [], status: 'ZERO_RESULTS' };
  return { html_attributions: [], ...(nextPageToken ? { next_page_token: nextPageToken } : {}), results };
}

// A classic page token carries the whole search (a next-page request sends only `pagetoken`),
// with the Places (New) token for where the page starts.
const encodePageToken = (req: SearchTextRequest) => Buffer.from(JSON.stringify(req)).toString('base64url');
function decodePageToken(token: string): SearchTextRequest {
  try {
    return SearchTextRequest.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    throw invalidParameter('pagetoken');
  }
}

const TextSearchQuery = z.object({
  query: param,
  type: param,
  location: param,
  radius: param,
  region: param,
  opennow: param,
  minprice: param,
  maxprice: param,
  pagetoken: param,
  language: param,
});

function priceLevels(min: string | undefined, max: string | undefined): string[] | undefined {
  if (min === undefined && max === undefined) return undefined;
  const lo = numberParam(min, 'minprice') ?? 0;
  const hi = numberParam(max, 'maxprice') ?? 4;
  if (!(lo >= 0 && hi <= 4 && lo <= hi)) throw invalidParameter(lo < 0 || lo > hi ? 'minprice' : 'maxprice');
  return PRICE_LEVELS.slice(lo, hi + 1);
}

export function classicTextSearch(url: URL): Json {
  const q = queryParams(TextSearchQuery, url);
  let req: SearchTextRequest;
  if (q.pagetoken !== undefined) {
    req = decodePageToken(q.pagetoken);
  } else {
    if (q.query === undefined && q.type === undefined) throw missingParameter('query');
    const center = point(q.location, 'location');
    const radius = radiusOf(q.radius);
    req = {
      // A type alone ("restaurant") searches for that kind of place.
      textQuery: q.query ?? q.type!.replace(/_/g, ' '),
      ...(q.type ? { includedType: q.type } : {}),
      ...(center ? { locationBias: { circle: { center, radius: radius ?? MAX_RADIUS_M } } } : {}),
      ...(q.region ? { regionCode: q.region } : {}),
      ...(q.opennow !== undefined ? { openNow: true } : {}),
      ...(priceLevels(q.minprice, q.maxprice) ? { priceLevels: priceLevels(q.minprice, q.maxprice) } : {}),
      pageSize: PAGE_SIZE,
    };
  }
  const answer = searchText(req);
  const next = answer.nextPageToken as string | undefined;
  return listAnswer(searchResults(answer.places, 'textsearch'), next && encodePageToken({ ...req, pageToken: next }));
}

const NearbySearchQuery = z.object({
  location: param,
  radius: param,
  keyword: param,
  name: param,
  type: param,
  rankby: param,
  opennow: param,
  language: param,
});

export function classicNearbySearch(url: URL): Json {
  const q = queryParams(NearbySearchQuery, url);
  const center = point(q.location, 'location');
  if (!center) throw missingParameter('location');
  const byDistance = q.rankby === 'distance';
  if (q.rankby !== undefined && !byDistance && q.rankby !== 'prominence') throw invalidParameter('rankby');
  if (byDistance && q.radius !== undefined)
    throw new ClassicError('INVALID_REQUEST', 'Invalid request. The radius parameter must not be set when rankby=distance.');
  if (byDistance && q.keyword === undefined && q.name === undefined && q.type === undefined) {
    throw new ClassicError('INVALID_REQUEST', 'Invalid request. When rankby=distance, one of keyword, name or type is required.');
  }
  const radius = radiusOf(q.radius) ?? (byDistance ? MAX_RADIUS_M : undefined);
  if (radius === undefined) throw missingParameter('radius');
  const words = [q.keyword, q.name].filter((w) => w !== undefined).join(' ');
  let places: Json[];
  if (words) {
    // A keyword searches as text does ("pizza", "Lisbon"), kept to the circle.
    const found = searchText({
      textQuery: words,
      ...(q.type ? { includedType: q.type } : {}),
      locationBias: { circle: { center, radius } },
      ...(q.opennow !== undefined ? { openNow: true } : {}),
      ...(byDistance ? { rankPreference: 'DISTANCE' as const } : {}),
      pageSize: PAGE_SIZE,
    });
    places = ((found.places as Json[] | undefined) ?? []).filter((p) => distanceMeters(center, p.location as LatLng) <= radius);
  } else {
    const found = searchNearby({
      ...(q.type ? { includedTypes: [q.type] } : {}),
      locationRestriction: { circle: { center, radius } },
      rankPreference: byDistance ? 'DISTANCE' : 'POPULARITY',
      maxResultCount: PAGE_SIZE,
    });
    places = (found.places as Json[] | undefined) ?? [];
    if (q.opennow !== undefined) places = places.filter((p) => (p.currentOpeningHours as { openNow?: boolean } | undefined)?.openNow !== false);
  }
  return listAnswer(searchResults(places, 'nearbysearch'));
}

// The classic Place Details field names (basic, contact and atmosphere data), including those the
// sandbox has no data for: asking for them is allowed and returns nothing.
const DETAILS_FIELDS = new Set(
  (
    'address_component,address_components,adr_address,business_status,formatted_address,geometry,icon,icon_mask_base_uri,icon_background_color,name,' +
    'photo,photos,place_id,plus_code,type,types,url,utc_offset,vicinity,wheelchair_accessible_entrance,current_opening_hours,formatted_phone_number,' +
    'international_phone_number,opening_hours,secondary_opening_hours,website,curbside_pickup,delivery,dine_in,editorial_summary,price_level,rating,' +
    'reservable,reviews,serves_beer,serves_breakfast,serves_brunch,serves_dinner,serves_lunch,serves_vegetarian_food,serves_wine,takeout,' +
    'user_ratings_total,reference'
  ).split(','),
);
const FIELD_ALIASES: Record<string, string> = { type: 'types', photo: 'photos', address_component: 'address_components' };

/** The parts of a details result named by `fields` ("name,geometry/location"); all of it without. */
function pickFields(result: Json, fields: string | undefined): Json {
  if (fields === undefined) return result;
  const out: Json = {};
  for (const raw of fields.split(',').map((f) => f.trim())) {
    if (!raw) continue;
    const [top, ...rest] = raw.split('/');
    if (!DETAILS_FIELDS.has(top)) throw new ClassicError('INVALID_REQUEST', `Error while parsing 'fields' parameter: Unsupported field name '${raw}'.`);
    const name = FIELD_ALIASES[top] ?? top;
    let value: unknown = result[name];
    for (const part of rest) value = value !== null && typeof value === 'object' ? (value as Json)[part] : undefined;
    if (value === undefined) continue;
    if (!rest.length) out[name] = value;
    else {
      // "geometry/location" keeps the nesting: {geometry: {location: …}}.
      let node = (out[name] ??= {}) as Json;
      for (const part of rest.slice(0, -1)) node = (node[part] ??= {}) as Json;
      node[rest[rest.length - 1]] = value;
    }
  }
  return out;
}

const DetailsQuery = z.object({ place_id: param, placeid: param, fields: param, language: param, sessiontoken: param, reviews_sort: param });

export function classicDetails(url: URL): Json {
  const q = queryParams(DetailsQuery, url);
  const id = q.place_id ?? q.placeid;
  if (id === undefined) throw missingParameter('place_id');
  let place: Json;
  try {
    place = getPlace(id);
  } catch (e) {
    if (e instanceof RpcError && e.status === 'NOT_FOUND') return { html_attributions: [], status: 'NOT_FOUND' };
    throw e instanceof RpcError ? invalidParameter('place_id') : e;
  }
  return { html_attributions: [], result: pickFields(placeResult(place, 'details'), q.fields) };
}

const AutocompleteQuery = z.object({
  input: param,
  offset: param,
  location: param,
  radius: param,
  strictbounds: param,
  origin: param,
  components: param,
  types: param,
  sessiontoken: param,
  language: param,
});

export function classicAutocomplete(url: URL): Json {
  const q = queryParams(AutocompleteQuery, url);
  if (q.input === undefined) throw missingParameter('input');
  const center = point(q.location, 'location');
  const origin = point(q.origin, 'origin');
  const radius = numberParam(q.radius, 'radius');
  const offset = numberParam(q.offset, 'offset');
  const area = center ? { circle: { center, radius: radius ?? MAX_RADIUS_M } } : undefined;
  const regions = (q.components ?? '')
    .split('|')
    .map((c) => /^country:(\w\w)$/i.exec(c.trim())?.[1])
    .filter((c) => c !== undefined);
  // The sandbox's geocodes are populated places: "geocode" asks for the same as "(cities)".
  const types = (q.types ?? '')
    .split('|')
    .filter(Boolean)
    .map((t) => (t === 'geocode' ? '(cities)' : t));
  const req: AutocompleteRequest = {
    input: q.input,
    ...(area ? (q.strictbounds !== undefined ? { locationRestriction: area } : { locationBias: area }) : {}),
    ...(origin ? { origin } : {}),
    ...(regions.length ? { includedRegionCodes: regions } : {}),
    ...(types.length ? { includedPrimaryTypes: types } : {}),
    ...(offset !== undefined ? { inputOffset: offset } : {}),
    ...(q.sessiontoken ? { sessionToken: q.sessiontoken } : {}),
  };
  const suggestions = (autocomplete(req).suggestions as Array<{ placePrediction?: Parameters<typeof prediction>[0] }> | undefined) ?? [];
  const predictions = suggestions.flatMap((s) => (s.placePrediction ? [prediction(s.placePrediction)] : []));
  return predictions.length ? { predictions } : { predictions: [], status: 'ZERO_RESULTS' };
}
