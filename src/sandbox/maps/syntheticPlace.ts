// A well-formed Google Place ID (`ChIJ…`) the gazetteer does not hold, as real files carry them:
// Place Details answers a deterministic synthetic place (one of the sandbox's own places of a large
// city, chosen by the id's hash) under the id asked for, so the file's request shows the answer's
// shape instead of a 404. It says it is synthetic where a reader looks: the display name, the
// attributions (free with every mask) and the editorial summary.
import { gazetteer, type City } from './gazetteer';
import { hashOf, PLACE_KINDS, poiJson, poisOf, type Poi } from './kinds';

/** Google's ids are 27 characters or more (`ChIJ` and at least 23 URL-safe base64 ones). */
const REAL_PLACE_ID = /^ChIJ[A-Za-z0-9_-]{23,}$/;
const SYNTHETIC_NOTE = 'sandbox data: synthetic place for a Place ID the sandbox does not know';

/** Cities big enough to have places of most kinds, in the gazetteer's fixed order. */
let hosts: readonly City[] | undefined;

function poiFor(id: string): Poi | undefined {
  hosts ??= gazetteer().cities.filter((c) => c.population >= 1_000_000);
  const h = hashOf(id);
  for (let step = 0; step < PLACE_KINDS.length; step++) {
    const city = hosts[(h + step) % hosts.length];
    const kind = PLACE_KINDS[(h >>> 8) % PLACE_KINDS.length];
    const pois = poisOf(city, kind);
    if (pois.length) return pois[(h >>> 16) % pois.length];
  }
  return undefined;
}

/** The synthetic Place for a well-formed id, or undefined when the id is not one. */
export function syntheticPlace(id: string): Record<string, unknown> | undefined {
  if (!REAL_PLACE_ID.test(id)) return undefined;
  const poi = poiFor(id);
  if (!poi) return undefined;
  const place = poiJson(poi, new Date(0));
  const name = (place.displayName as { text: string }).text;
  return {
    ...place,
    name: `places/${id}`,
    id,
    displayName: { text: `${name} (${SYNTHETIC_NOTE})`, languageCode: 'en' },
    googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(name)}&query_place_id=${id}`,
    editorialSummary: { text: `This is ${SYNTHETIC_NOTE}; the real place is not in the sandbox's gazetteer.`, languageCode: 'en' },
    attributions: [{ provider: `API Workbench sandbox (${SYNTHETIC_NOTE})`, providerUri: 'https://www.geonames.org/' }],
  };
}
