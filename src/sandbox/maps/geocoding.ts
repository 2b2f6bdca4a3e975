// Geocoding API v4: GET /v4/geocode/address[/{addressQuery}], /v4/geocode/location[/{lat,lng}]
// and /v4/geocode/places/{id}. Results are populated places (granularity APPROXIMATE).
import { findCity, parse } from './addressValidation';
import { formattedAddress, gazetteer, placeIdOf, stateName, type City } from './gazetteer';
import { inRange, inViewport, parseLatLngText, plusCode, viewportAround, type LatLng, type Viewport } from './geo';
import { addressComponentsOf } from './places';
import { invalidArgument, RpcError } from './rpc';

const MAX_RESULTS = 5;
/** Reverse geocoding answers with the nearest populated place within this distance. */
const REVERSE_RADIUS_M = 100_000;

export function geocodeResult(c: City): Record<string, unknown> {
  const id = placeIdOf(c);
  const code = plusCode(c.location);
  const viewport = viewportAround(c.location, Math.min(40_000, Math.max(1_500, Math.sqrt(c.population) * 15)));
  return {
    place: `//places.googleapis.com/places/${id}`,
    placeId: id,
    location: c.location,
    granularity: 'APPROXIMATE',
    viewport,
    bounds: viewport,
    formattedAddress: formattedAddress(c),
    postalAddress: { regionCode: c.country, languageCode: 'en', ...(stateName(c) ? { administrativeArea: c.adminCode } : {}), locality: c.name },
    addressComponents: addressComponentsOf(c),
    types: c.featureCode === 'PPLX' ? ['sublocality', 'sublocality_level_1', 'political'] : ['locality', 'political'],
    plusCode: { globalCode: code, compoundCode: `${code.slice(4)} ${formattedAddress(c)}` },
  };
}

function num(params: URLSearchParams, name: string): number | undefined {
  const v = params.get(name);
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw invalidArgument(`Invalid value at '${name}' (TYPE_DOUBLE), "${v}"`);
  return n;
}

/** Forward geocoding. `pathQuery` is the {addressQuery} path segment, already decoded. */
export function geocodeAddress(pathQuery: string | undefined, params: URLSearchParams): Record<string, unknown> {
  const query = pathQuery ?? params.get('addressQuery') ?? undefined;
  const structuredLines = params.getAll('address.addressLines');
  const structured = structuredLines.length || params.has('address.locality') || params.has('address.regionCode');
  if (query !== undefined && structured) throw invalidArgument('Only one of address_query and address may be set.');
  if ((query === undefined || !query.trim()) && !structured) throw invalidArgument('address_query or address must be set.');
  const region = (params.get('address.regionCode') ?? params.get('regionCode') ?? undefined)?.toUpperCase();

  let bias: Viewport | undefined;
  const lowLat = num(params, 'locationBias.rectangle.low.latitude');
  if (lowLat !== undefined) {
    bias = {
      low: { latitude: lowLat, longitude: num(params, 'locationBias.rectangle.low.longitude') ?? -180 },
      high: { latitude: num(params, 'locationBias.rectangle.high.latitude') ?? 90, longitude: num(params, 'locationBias.rectangle.high.longitude') ?? 180 },
    };
  }
  const near = bias && { latitude: (bias.low.latitude + bias.high.latitude) / 2, longitude: (bias.low.longitude + bias.high.longitude) / 2 };

  const g = gazetteer();
  let found: City[] = [];
  if (query !== undefined) found = g.search(query, { near }, MAX_RESULTS);
  if (!found.length) {
    // A full address ("1600 Amphitheatre Pkwy, Mountain View, CA"): geocode its locality.
    const lines = query !== undefined ? [query] : structuredLines;
    const parsed = parse({
      addressLines: lines,
      locality: params.get('address.locality') ?? undefined,
      administrativeArea: params.get('address.administrativeArea') ?? undefined,
      postalCode: params.get('address.postalCode') ?? undefined,
    });
    const country = region ?? (parsed.country ? g.countryCode(parsed.country) : undefined);
    const { city } = findCity(parsed, country);
    if (city) found = [city];
  }
  if (region) found = [...found.filter((c) => c.country === region), ...found.filter((c) => c.country !== region)];
  if (bias) {
    const b = bias;
    found = [...found.filter((c) => inViewport(c.location, b)), ...found.filter((c) => !inViewport(c.location, b))];
  }
  return found.length ? { results: found.map(geocodeResult) } : {};
}

/** Reverse geocoding. `pathQuery` is the {locationQuery} path segment ("lat,lng"), decoded. */
export function geocodeLocation(pathQuery: string | undefined, params: URLSearchParams): Record<string, unknown> {
  let p: LatLng | undefined;
  const text = pathQuery ?? params.get('locationQuery') ?? undefined;
  if (text !== undefined) {
    p = parseLatLngText(text);
    if (!p) throw invalidArgument(`Invalid location_query "${text}": expected "latitude,longitude", e.g. "64.7611872,-18.4705364".`);
  } else {
    const lat = num(params, 'location.latitude');
    const lng = num(params, 'location.longitude');
    if (lat !== undefined || lng !== undefined) p = { latitude: lat ?? 0, longitude: lng ?? 0 };
  }
  if (!p) throw invalidArgument('location_query or location must be set.');
  if (!inRange(p)) throw invalidArgument('Invalid location: latitude must be in [-90, 90] and longitude in [-180, 180].');

  const types = params.getAll('types');
  const granularity = params.getAll('granularity');
  const near = gazetteer().nearest(p, REVERSE_RADIUS_M);
  let results = near ? [geocodeResult(near.city)] : [];
  if (types.length) results = results.filter((r) => (r.types as string[]).some((t) => types.includes(t)));
  if (granularity.length) results = results.filter((r) => granularity.includes(r.granularity as string));
  return { ...(results.length ? { results } : {}), plusCode: { globalCode: plusCode(p) } };
}

export function geocodePlace(id: string): Record<string, unknown> {
  const city = gazetteer().byPlaceId(id);
  if (!city) throw new RpcError('NOT_FOUND', `Place "places/${id}" was not found.`);
  return geocodeResult(city);
}
