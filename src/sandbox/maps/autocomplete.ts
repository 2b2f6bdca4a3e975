// Places API (New) places:autocomplete: predictions for what the user has typed so far, from
// the gazetteer's cities ("San Fr" → San Francisco) and the generated kinds of places ("pizza in
// Mountain V" → pizza places in Mountain View). Deterministic: the same input gives the same list.
import * as z from 'zod/mini';
import { countryInAddress, formattedAddress, gazetteer, placeIdOf, stateName, type City } from './gazetteer';
import { distanceMeters, inViewport, type LatLng, type Viewport } from './geo';
import { parseKindQuery, poiIdOf, poiName, poisNear, poisOf, poiSecondaryText, reachOf, kindsOfType, type Poi } from './kinds';
import { badRequest, invalidArgument } from './rpc';

const latLng = z.strictObject({ latitude: z.optional(z.number()), longitude: z.optional(z.number()) });
const circle = z.strictObject({ center: z.optional(latLng), radius: z.optional(z.number()) });
const rectangle = z.strictObject({ low: z.optional(latLng), high: z.optional(latLng) });
const area = z.strictObject({ circle: z.optional(circle), rectangle: z.optional(rectangle) });

export const AutocompleteRequest = z.strictObject({
  input: z.optional(z.string()),
  locationBias: z.optional(area),
  locationRestriction: z.optional(area),
  includedPrimaryTypes: z.optional(z.array(z.string())),
  includedRegionCodes: z.optional(z.array(z.string())),
  languageCode: z.optional(z.string()),
  regionCode: z.optional(z.string()),
  origin: z.optional(latLng),
  inputOffset: z.optional(z.number()),
  includeQueryPredictions: z.optional(z.boolean()),
  sessionToken: z.optional(z.string()),
  includePureServiceAreaBusinesses: z.optional(z.boolean()),
});
export type AutocompleteRequest = z.infer<typeof AutocompleteRequest>;

/** Google returns at most five predictions. */
const MAX_SUGGESTIONS = 5;
const MAX_TYPES = 5;
const MAX_REGIONS = 15;

/** Session tokens are URL-safe base64 of at most 36 characters (a UUID fits). */
export function checkSessionToken(token: string | undefined): void {
  if (token !== undefined && !/^[A-Za-z0-9_-]{1,36}$/.test(token)) {
    throw badRequest([
      { field: 'session_token', description: 'Invalid session_token: it must be a URL- and filename-safe base64 string of at most 36 characters.' },
    ]);
  }
}

function point(v: { latitude?: number; longitude?: number } | undefined, field: string): LatLng {
  const p = { latitude: v?.latitude ?? 0, longitude: v?.longitude ?? 0 };
  if (Math.abs(p.latitude) > 90 || Math.abs(p.longitude) > 180)
    throw invalidArgument(`Invalid ${field}: latitude must be in [-90, 90] and longitude in [-180, 180].`);
  return p;
}

type Area = { center: LatLng; radius: number } | { rect: Viewport };

function areaOf(a: z.infer<typeof area> | undefined, field: string): Area | undefined {
  if (!a) return undefined;
  if (a.circle && a.rectangle) throw invalidArgument(`${field} may set circle or rectangle, not both.`);
  if (a.circle) {
    const radius = a.circle.radius ?? 0;
    if (!(radius >= 0 && radius <= 50_000)) throw invalidArgument(`Invalid ${field}.circle.radius: must be between 0 and 50000 meters.`);
    return { center: point(a.circle.center, `${field}.circle.center`), radius };
  }
  if (a.rectangle) return { rect: { low: point(a.rectangle.low, `${field}.rectangle.low`), high: point(a.rectangle.high, `${field}.rectangle.high`) } };
  return undefined;
}

const centerOf = (a: Area): LatLng =>
  'center' in a ? a.center : { latitude: (a.rect.low.latitude + a.rect.high.latitude) / 2, longitude: (a.rect.low.longitude + a.rect.high.longitude) / 2 };
const inside = (a: Area, p: LatLng) => ('center' in a ? distanceMeters(a.center, p) <= a.radius : inViewport(p, a.rect));

/** Where each typed word (at a word start) occurs in `text`, as Google's text.matches. */
function matchesIn(text: string, typed: string): Array<{ startOffset?: number; endOffset: number }> {
  const lower = text.toLowerCase();
  const out: Array<{ startOffset?: number; endOffset: number }> = [];
  for (const word of typed
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)) {
    const re = new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u');
    const m = re.exec(lower);
    if (!m) continue;
    const start = m.index + m[1].length;
    // proto3 JSON leaves out a zero startOffset.
    out.push({ ...(start ? { startOffset: start } : {}), endOffset: start + word.length });
  }
  return out.sort((a, b) => (a.startOffset ?? 0) - (b.startOffset ?? 0));
}

function cityPrediction(c: City, typed: string, origin: LatLng | undefined): Record<string, unknown> {
  const id = placeIdOf(c);
  const text = formattedAddress(c);
  const secondary = [stateName(c) ? c.adminCode : undefined, countryInAddress(c.country)].filter(Boolean).join(', ');
  return {
    placePrediction: {
      place: `places/${id}`,
      placeId: id,
      text: { text, matches: matchesIn(text, typed) },
      structuredFormat: { mainText: { text: c.name, matches: matchesIn(c.name, typed) }, secondaryText: { text: secondary } },
      types: c.featureCode === 'PPLX' ? ['sublocality', 'sublocality_level_1', 'political', 'geocode'] : ['locality', 'political', 'geocode'],
      ...(origin ? { distanceMeters: Math.round(distanceMeters(origin, c.location)) } : {}),
    },
  };
}

function poiPrediction(p: Poi, typed: string, origin: LatLng | undefined): Record<string, unknown> {
  const id = poiIdOf(p);
  const main = poiName(p);
  const secondary = poiSecondaryText(p);
  const text = `${main}, ${secondary}`;
  return {
    placePrediction: {
      place: `places/${id}`,
      placeId: id,
      text: { text, matches: matchesIn(text, typed) },
      structuredFormat: { mainText: { text: main, matches: matchesIn(main, typed) }, secondaryText: { text: secondary } },
      types: [...p.kind.types],
      ...(origin ? { distanceMeters: Math.round(distanceMeters(origin, p.location)) } : {}),
    },
  };
}

export function autocomplete(req: AutocompleteRequest): Record<string, unknown> {
  if (req.input === undefined) throw badRequest([{ field: 'input', description: 'Required field input is missing.' }], 'Request contains an invalid argument.');
  checkSessionToken(req.sessionToken);
  if (req.locationBias && req.locationRestriction) throw invalidArgument('Only one of location_bias and location_restriction may be set.');
  const types = req.includedPrimaryTypes ?? [];
  if (types.length > MAX_TYPES) throw invalidArgument(`included_primary_types may hold at most ${MAX_TYPES} types.`);
  const regions = (req.includedRegionCodes ?? []).map((r) => r.toUpperCase());
  if (regions.length > MAX_REGIONS) throw invalidArgument(`included_region_codes may hold at most ${MAX_REGIONS} codes.`);
  const bias = areaOf(req.locationBias, 'location_bias');
  const restriction = areaOf(req.locationRestriction, 'location_restriction');
  const origin = req.origin ? point(req.origin, 'origin') : undefined;
  // inputOffset: only the text up to the cursor counts.
  const typed = (req.inputOffset !== undefined ? req.input.slice(0, Math.max(0, req.inputOffset)) : req.input).trim();
  if (!typed) return {};

  const near = bias ? centerOf(bias) : restriction ? centerOf(restriction) : undefined;
  const allowed = (p: LatLng, country: string) => (!restriction || inside(restriction, p)) && (!regions.length || regions.includes(country));
  const citiesOnly = types.some((t) => t === '(cities)' || t === '(regions)');
  const typeKinds = types.flatMap(kindsOfType);

  const suggestions: Array<Record<string, unknown>> = [];
  const kindQuery = citiesOnly ? undefined : parseKindQuery(typed);
  if (kindQuery && (!types.length || typeKinds.includes(kindQuery.kind))) {
    const city = kindQuery.where ? gazetteer().search(kindQuery.where, { near, within: (c) => allowed(c.location, c.country) }, 1)[0] : undefined;
    const center = city?.location ?? near;
    if (center && (city || !kindQuery.where)) {
      const pois = city ? poisOf(city, kindQuery.kind) : poisNear(center, 10_000, [kindQuery.kind]).map((h) => h.poi);
      if (city && !pois.length) pois.push(...poisNear(center, reachOf(city) + 10_000, [kindQuery.kind]).map((h) => h.poi));
      for (const p of pois.filter((x) => allowed(x.location, x.city.country)).slice(0, MAX_SUGGESTIONS)) suggestions.push(poiPrediction(p, typed, origin));
      if (req.includeQueryPredictions && suggestions.length) {
        const text = `${kindQuery.kind.words[0]}${city ? ` in ${formattedAddress(city)}` : ' near me'}`;
        suggestions.push({
          queryPrediction: {
            text: { text, matches: matchesIn(text, typed) },
            structuredFormat: { mainText: { text: kindQuery.kind.words[0] }, ...(city ? { secondaryText: { text: formattedAddress(city) } } : {}) },
          },
        });
      }
    }
  } else if (!types.length || citiesOnly || types.includes('locality')) {
    const within = (c: City) => allowed(c.location, c.country);
    let cities = gazetteer().complete(typed.split(',')[0], within, 50);
    if (typed.includes(',')) cities = gazetteer().search(typed, { near, within }, 50);
    if (!cities.length) cities = gazetteer().search(typed, { near, within }, MAX_SUGGESTIONS);
    if (near) {
      // Bias: a place 10× closer outranks one 10× more populous (as text search ranks).
      const score = (c: City) => Math.log10(c.population + 10) - Math.log10(distanceMeters(near, c.location) / 1000 + 1);
      cities = [...cities].sort((a, b) => score(b) - score(a));
    }
    for (const c of cities.slice(0, MAX_SUGGESTIONS)) suggestions.push(cityPrediction(c, typed, origin));
  }
  return suggestions.length ? { suggestions } : {};
}
