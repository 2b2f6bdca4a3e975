// Places API (New): places:searchText, places:searchNearby and GET places/{id}, answered from the
// GeoNames gazetteer. Every place is a populated place (types locality/political).
import * as z from 'zod/mini';
import { syntheticPlace } from './syntheticPlace';
import { countryInAddress, countryName, formattedAddress, gazetteer, placeIdOf, stateName, type City, type SearchFilter } from './gazetteer';
import { distanceMeters, inViewport, plusCode, viewportAround, type LatLng, type Viewport } from './geo';
import {
  kindOfPrimaryType,
  kindsOfType,
  parseKindQuery,
  poiByPlaceId,
  poiJson,
  poiOpenNow,
  poiPriceLevel,
  poisNear,
  poisOf,
  reachOf,
  type KindQuery,
  type Poi,
} from './kinds';
import { invalidArgument, RpcError } from './rpc';

const latLng = z.strictObject({ latitude: z.optional(z.number()), longitude: z.optional(z.number()) });
const circle = z.strictObject({ center: z.optional(latLng), radius: z.optional(z.number()) });
const rectangle = z.strictObject({ low: z.optional(latLng), high: z.optional(latLng) });
const area = z.strictObject({ circle: z.optional(circle), rectangle: z.optional(rectangle) });
const types = z.optional(z.array(z.string()));

export const SearchTextRequest = z.strictObject({
  textQuery: z.optional(z.string()),
  languageCode: z.optional(z.string()),
  regionCode: z.optional(z.string()),
  rankPreference: z.optional(z.enum(['RANK_PREFERENCE_UNSPECIFIED', 'RELEVANCE', 'DISTANCE'])),
  includedType: z.optional(z.string()),
  openNow: z.optional(z.boolean()),
  minRating: z.optional(z.number()),
  maxResultCount: z.optional(z.number()),
  pageSize: z.optional(z.number()),
  pageToken: z.optional(z.string()),
  priceLevels: z.optional(z.array(z.string())),
  strictTypeFiltering: z.optional(z.boolean()),
  locationBias: z.optional(area),
  locationRestriction: z.optional(z.strictObject({ rectangle: z.optional(rectangle) })),
  evOptions: z.optional(z.unknown()),
  routingParameters: z.optional(z.unknown()),
  searchAlongRouteParameters: z.optional(z.unknown()),
  includePureServiceAreaBusinesses: z.optional(z.boolean()),
});
export type SearchTextRequest = z.infer<typeof SearchTextRequest>;

export const SearchNearbyRequest = z.strictObject({
  languageCode: z.optional(z.string()),
  regionCode: z.optional(z.string()),
  includedTypes: types,
  excludedTypes: types,
  includedPrimaryTypes: types,
  excludedPrimaryTypes: types,
  maxResultCount: z.optional(z.number()),
  locationRestriction: z.optional(z.strictObject({ circle: z.optional(circle) })),
  rankPreference: z.optional(z.enum(['RANK_PREFERENCE_UNSPECIFIED', 'DISTANCE', 'POPULARITY'])),
  routingParameters: z.optional(z.unknown()),
});
export type SearchNearbyRequest = z.infer<typeof SearchNearbyRequest>;

const MAX_PAGE = 20;
/** Text Search returns at most 60 results over all its pages. */
const MAX_TOTAL = 60;
const MAX_RADIUS_M = 50_000;

function typesOf(c: City): string[] {
  return c.featureCode === 'PPLX' ? ['sublocality', 'sublocality_level_1', 'political'] : ['locality', 'political'];
}

/** A small deterministic hash, so a place keeps the same synthesized values across runs. */
function hash(n: number): number {
  let x = (n ^ 0x9e3779b9) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

// GeoNames has no reviews; the sandbox synthesizes a stable rating so clients have one to show.
export function ratingOf(c: City): number {
  return Math.round((3.6 + (hash(c.geonameId) % 13) / 10) * 10) / 10;
}

function viewportOf(c: City): Viewport {
  return viewportAround(c.location, Math.min(40_000, Math.max(1_500, Math.sqrt(c.population) * 15)));
}

export function addressComponentsOf(c: City): Array<{ longText: string; shortText: string; types: string[]; languageCode: string }> {
  const out = [{ longText: c.name, shortText: c.name, types: typesOf(c).filter((t) => t !== 'sublocality_level_1'), languageCode: 'en' }];
  const state = stateName(c);
  if (state) out.push({ longText: state, shortText: c.adminCode, types: ['administrative_area_level_1', 'political'], languageCode: 'en' });
  out.push({ longText: countryName(c.country), shortText: c.country, types: ['country', 'political'], languageCode: 'en' });
  return out;
}

function adrFormat(c: City): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const state = stateName(c) ? `, <span class="region">${esc(c.adminCode)}</span>` : '';
  return `<span class="locality">${esc(c.name)}</span>${state}, <span class="country-name">${esc(countryInAddress(c.country))}</span>`;
}

/** The full Place message for a city; the field mask picks from it. */
export function placeJson(c: City): Record<string, unknown> {
  const id = placeIdOf(c);
  const code = plusCode(c.location);
  return {
    name: `places/${id}`,
    id,
    types: typesOf(c),
    formattedAddress: formattedAddress(c),
    addressComponents: addressComponentsOf(c),
    plusCode: { globalCode: code, compoundCode: `${code.slice(4)} ${formattedAddress(c)}` },
    location: c.location,
    viewport: viewportOf(c),
    rating: ratingOf(c),
    googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(c.name)}&query_place_id=${id}`,
    websiteUri: `https://www.geonames.org/${c.geonameId}`,
    adrFormatAddress: adrFormat(c),
    userRatingCount: 20 + Math.round(Math.sqrt(c.population)) + (hash(c.geonameId) % 50),
    iconMaskBaseUri: 'https://maps.gstatic.com/mapfiles/place_api/icons/v2/geocode_pinlet',
    iconBackgroundColor: '#7B9EB0',
    displayName: { text: c.name, languageCode: 'en' },
    primaryTypeDisplayName: { text: c.featureCode === 'PPLX' ? 'Neighborhood' : 'City', languageCode: 'en' },
    primaryType: typesOf(c)[0],
    shortFormattedAddress: c.name,
    attributions: [{ provider: 'GeoNames', providerUri: 'https://www.geonames.org/' }],
    pureServiceAreaBusiness: false,
  };
}

function point(v: { latitude?: number; longitude?: number } | undefined, field: string): LatLng {
  const lat = v?.latitude ?? 0;
  const lng = v?.longitude ?? 0;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180) throw invalidArgument(`Invalid ${field}: latitude must be in [-90, 90] and longitude in [-180, 180].`);
  return { latitude: lat, longitude: lng };
}

function rect(r: z.infer<typeof rectangle>, field: string): Viewport {
  const v = { low: point(r.low, `${field}.low`), high: point(r.high, `${field}.high`) };
  if (v.low.latitude > v.high.latitude) throw invalidArgument(`Invalid ${field}: low.latitude must not be greater than high.latitude.`);
  return v;
}

function resultCount(n: number | undefined, field: string): number {
  if (n === undefined || n === 0) return MAX_PAGE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) throw invalidArgument(`${field} must be between 1 and ${MAX_PAGE}, inclusive.`);
  return n;
}

interface PageToken {
  q: string;
  o: number;
}
const encodeToken = (t: PageToken) => Buffer.from(JSON.stringify(t)).toString('base64url');
function decodeToken(text: string, query: string): number {
  try {
    const t = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<PageToken>;
    if (t.q === query && typeof t.o === 'number' && Number.isInteger(t.o) && t.o > 0) return t.o;
  } catch {
    // fall through
  }
  throw invalidArgument('Invalid page_token: the token is malformed or does not belong to this query.');
}

export function searchText(req: SearchTextRequest): Record<string, unknown> {
  const query = (req.textQuery ?? '').trim();
  if (!query) throw invalidArgument('Empty text_query.');
  if (req.minRating !== undefined && (req.minRating < 0 || req.minRating > 5)) throw invalidArgument('min_rating must be between 0.0 and 5.0, inclusive.');
  const bias = req.locationBias;
  if (bias?.circle && bias.rectangle) throw invalidArgument('location_bias may set circle or rectangle, not both.');
  let near: LatLng | undefined;
  if (bias?.circle) near = point(bias.circle.center, 'location_bias.circle.center');
  if (bias?.rectangle) {
    const v = rect(bias.rectangle, 'location_bias.rectangle');
    near = { latitude: (v.low.latitude + v.high.latitude) / 2, longitude: (v.low.longitude + v.high.longitude) / 2 };
  }
  const restriction = req.locationRestriction?.rectangle ? rect(req.locationRestriction.rectangle, 'location_restriction.rectangle') : undefined;
  if (req.rankPreference === 'DISTANCE' && !near && !restriction)
    throw invalidArgument('rank_preference DISTANCE requires location_bias or location_restriction.');

  const kindQuery = parseKindQuery(query) ?? kindByIncludedType(req.includedType, query);
  const center =
    near ??
    (restriction && {
      latitude: (restriction.low.latitude + restriction.high.latitude) / 2,
      longitude: (restriction.low.longitude + restriction.high.longitude) / 2,
    });
  let found: Array<() => Record<string, unknown>>;
  if (kindQuery) {
    const now = new Date();
    const pois = searchKind(kindQuery, near ?? center).filter(
      (p) =>
        (!restriction || inViewport(p.location, restriction)) &&
        (!req.includedType || p.kind.types.includes(req.includedType)) &&
        (req.minRating === undefined || p.rating >= req.minRating) &&
        (!req.openNow || poiOpenNow(p, now)) &&
        (!req.priceLevels?.length || req.priceLevels.includes(poiPriceLevel(p) ?? '')),
    );
    if (req.rankPreference === 'DISTANCE' && center) pois.sort((a, b) => distanceMeters(center, a.location) - distanceMeters(center, b.location));
    found = pois.slice(0, MAX_TOTAL).map((p) => () => poiJson(p, now));
  } else {
    const filter: SearchFilter = {
      near,
      within: (c) =>
        (!restriction || inViewport(c.location, restriction)) &&
        (!req.includedType || typesOf(c).includes(req.includedType)) &&
        (req.minRating === undefined || ratingOf(c) >= req.minRating) &&
        // Cities have no opening hours or price level, so these filters leave nothing.
        !req.openNow &&
        !(req.priceLevels && req.priceLevels.length),
    };
    let cities = gazetteer().search(query, filter, MAX_TOTAL);
    const region = req.regionCode?.toUpperCase();
    if (region) cities = [...cities.filter((c) => c.country === region), ...cities.filter((c) => c.country !== region)];
    if (req.rankPreference === 'DISTANCE' && center) cities.sort((a, b) => distanceMeters(center, a.location) - distanceMeters(center, b.location));
    found = cities.map((c) => () => placeJson(c));
  }

  // maxResultCount (older) caps the answer with no further pages; pageSize pages through ≤ 60.
  if (req.maxResultCount !== undefined && req.pageSize === undefined) {
    const places = found.slice(0, resultCount(req.maxResultCount, 'max_result_count')).map((json) => json());
    return places.length ? { places } : {};
  }
  const size = resultCount(req.pageSize, 'page_size');
  const offset = req.pageToken ? decodeToken(req.pageToken, query) : 0;
  const page = found.slice(offset, offset + size);
  if (!page.length) return {};
  const more = offset + size < found.length;
  return { places: page.map((json) => json()), ...(more ? { nextPageToken: encodeToken({ q: query, o: offset + size }) } : {}) };
}

/** "Mountain View" with includedType "cafe" asks for cafes there, as "cafe in Mountain View" does. */
function kindByIncludedType(type: string | undefined, where: string): KindQuery | undefined {
  const kind = type ? (kindOfPrimaryType(type) ?? kindsOfType(type)[0]) : undefined;
  return kind ? { kind, where } : undefined;
}

/** How far around a city (beyond its own reach) a kind search also looks. */
const AROUND_M = 10_000;

/**
 * The places of a kind in the named city first (best rated first), then in the towns around it,
 * nearest first. Without a place name, around the bias centre; without either, nothing.
 */
function searchKind(q: KindQuery, near: LatLng | undefined): Poi[] {
  const city = q.where ? gazetteer().search(q.where, { near }, 1)[0] : undefined;
  if (q.where && !city) return [];
  const center = city?.location ?? near;
  if (!center) return [];
  const own = city ? poisOf(city, q.kind).sort((a, b) => b.rating - a.rating || b.userRatingCount - a.userRatingCount) : [];
  const around = poisNear(center, (city ? reachOf(city) : 0) + AROUND_M, [q.kind])
    .map((h) => h.poi)
    .filter((p) => p.city !== city);
  return [...own, ...around];
}

export function searchNearby(req: SearchNearbyRequest): Record<string, unknown> {
  const c = req.locationRestriction?.circle;
  if (!c) throw invalidArgument('location_restriction must be set (a circle with center and radius).');
  const center = point(c.center, 'location_restriction.circle.center');
  const radius = c.radius ?? 0;
  if (!(radius > 0 && radius <= MAX_RADIUS_M))
    throw invalidArgument(`Invalid radius: must be greater than 0 and at most ${MAX_RADIUS_M} meters, got ${radius}.`);
  const max = resultCount(req.maxResultCount, 'max_result_count');
  const has = (list: readonly string[] | undefined, ts: readonly string[]) => list?.some((t) => ts.includes(t));
  const kinds = [...new Set([...(req.includedTypes ?? []), ...(req.includedPrimaryTypes ?? [])].flatMap(kindsOfType))];
  if (kinds.length) {
    let pois = poisNear(center, radius, kinds).filter(({ poi }) => {
      if (req.includedTypes?.length && !has(req.includedTypes, poi.kind.types)) return false;
      if (req.includedPrimaryTypes?.length && !req.includedPrimaryTypes.includes(poi.kind.primaryType)) return false;
      return !has(req.excludedTypes, poi.kind.types) && !req.excludedPrimaryTypes?.includes(poi.kind.primaryType);
    });
    // POPULARITY (the default): the most reviewed first.
    if (req.rankPreference !== 'DISTANCE') pois = pois.sort((a, b) => b.poi.userRatingCount - a.poi.userRatingCount);
    const now = new Date();
    const places = pois.slice(0, max).map((h) => poiJson(h.poi, now));
    return places.length ? { places } : {};
  }
  let hits = gazetteer()
    .within(center, radius)
    .filter(({ city }) => {
      const ts = typesOf(city);
      if (req.includedTypes?.length && !has(req.includedTypes, ts)) return false;
      if (req.includedPrimaryTypes?.length && !req.includedPrimaryTypes.includes(ts[0])) return false;
      if (has(req.excludedTypes, ts)) return false;
      if (req.excludedPrimaryTypes?.includes(ts[0])) return false;
      return true;
    });
  if (req.rankPreference !== 'DISTANCE') hits = hits.sort((a, b) => b.city.population - a.city.population);
  const places = hits.slice(0, max).map((h) => placeJson(h.city));
  return places.length ? { places } : {};
}

export function getPlace(id: string): Record<string, unknown> {
  const g = gazetteer();
  const city = g.byPlaceId(id);
  if (city) return placeJson(city);
  const poi = poiByPlaceId(id);
  if (poi) return poiJson(poi);
  const synthetic = syntheticPlace(id);
  if (synthetic) return synthetic;
  if (/^ChIJ[A-Za-z0-9_-]+$/.test(id)) throw new RpcError('NOT_FOUND', 'Requested entity was not found.');
  throw invalidArgument(`Not a valid Place ID: ${id}`);
}
