// Kinds of places ("pizza", "cafe", "museum", …) in and around the gazetteer's cities. GeoNames
// has no businesses, so the sandbox generates them: a deterministic handful per kind and city
// (more in bigger cities), with names, street addresses, types, ratings, opening hours and price
// levels that look like Google's and never change between runs.
import { countryInAddress, countryName, gazetteer, normalize, stateName, type City } from './gazetteer';
import { distanceMeters, offset, plusCode, round5, viewportAround, type LatLng } from './geo';

interface Hours {
  /** Opening and closing hour (24 = midnight); close < open means past midnight. */
  open: number;
  close: number;
  /** Days closed, 0 = Sunday. */
  closed: readonly number[];
}

export interface PlaceKind {
  /** Google's primary type (Places "Table A"). */
  primaryType: string;
  /** Words a query may use for it; the first is the name shown. */
  words: readonly string[];
  displayName: string;
  types: readonly string[];
  /** Places of this kind per "order of magnitude" of population above 1,000. */
  density: number;
  hours?: Hours;
  /** Price levels this kind spans, cheapest first (none for parks, museums, pharmacies). */
  prices?: readonly string[];
  names: readonly string[];
  /** Dining attributes (Enterprise + Atmosphere fields) for food and drink. */
  dining?: boolean;
}

const FOOD = ['food', 'point_of_interest', 'establishment'];
const STORE = ['store', 'point_of_interest', 'establishment'];
const POI = ['point_of_interest', 'establishment'];
const P = ['PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE', 'PRICE_LEVEL_EXPENSIVE', 'PRICE_LEVEL_VERY_EXPENSIVE'] as const;
const DAY: Hours = { open: 9, close: 18, closed: [0] };

// Name templates: {s} a surname, {st} a street name, {c} the city.
export const PLACE_KINDS: readonly PlaceKind[] = [
  {
    primaryType: 'pizza_restaurant',
    words: ['pizza', 'pizzeria', 'pizzas', 'pizza place'],
    displayName: 'Pizza Restaurant',
    types: ['pizza_restaurant', 'italian_restaurant', 'restaurant', ...FOOD],
    density: 1.6,
    hours: { open: 11, close: 23, closed: [] },
    prices: P.slice(0, 2),
    names: ["{s}'s Pizza", 'Pizzeria {s}', '{st} Pizza Co.', '{c} Slice House', 'Forno Napoletano', 'Crust & Co.', 'Pizza Rustica', 'The Pie Shop'],
    dining: true,
  },
  {
    primaryType: 'restaurant',
    words: ['restaurant', 'restaurants', 'food', 'dinner', 'lunch'],
    displayName: 'Restaurant',
    types: ['restaurant', ...FOOD],
    density: 2.4,
    hours: { open: 11, close: 22, closed: [1] },
    prices: P,
    names: ['The {st} Kitchen', "{s}'s Bistro", 'Table {s}', 'The Copper Pot', '{c} Grill', 'Olive & Thyme', 'The Green Fork', 'Harvest Table'],
    dining: true,
  },
  {
    primaryType: 'cafe',
    words: ['cafe', 'cafes', 'café', 'coffee', 'coffee shop', 'espresso'],
    displayName: 'Cafe',
    types: ['cafe', 'coffee_shop', ...FOOD],
    density: 2,
    hours: { open: 7, close: 18, closed: [] },
    prices: P.slice(0, 2),
    names: ['{st} Coffee', 'Café {s}', 'The Daily Grind', 'Bean There', '{c} Roasters', 'Morning Ritual', 'Little Cup', 'Third Wave Café'],
    dining: true,
  },
  {
    primaryType: 'bakery',
    words: ['bakery', 'bakeries', 'bread', 'patisserie'],
    displayName: 'Bakery',
    types: ['bakery', 'food_store', ...STORE, 'food'],
    density: 1.2,
    hours: { open: 6, close: 17, closed: [1] },
    prices: P.slice(0, 2),
    names: ["{s}'s Bakery", '{st} Bread Co.', 'Golden Crust', 'Le Fournil', 'Rise & Shine Bakery', 'The Flour Mill'],
    dining: true,
  },
  {
    primaryType: 'bar',
    words: ['bar', 'bars', 'pub', 'pubs', 'drinks'],
    displayName: 'Bar',
    types: ['bar', ...FOOD],
    density: 1.5,
    hours: { open: 17, close: 2, closed: [] },
    prices: P.slice(0, 3),
    names: ['The {st} Tap', "{s}'s Pub", 'The Local', 'Night Owl', '{c} Social Club', 'The Anchor'],
    dining: true,
  },
  {
    primaryType: 'museum',
    words: ['museum', 'museums', 'gallery', 'art gallery'],
    displayName: 'Museum',
    types: ['museum', 'tourist_attraction', ...POI],
    density: 0.5,
    hours: { open: 10, close: 17, closed: [1] },
    names: ['{c} Museum of History', '{c} Art Museum', '{s} Gallery', 'Museum of Science', '{c} Heritage Center'],
  },
  {
    primaryType: 'hotel',
    words: ['hotel', 'hotels', 'lodging', 'motel', 'accommodation'],
    displayName: 'Hotel',
    types: ['hotel', 'lodging', ...POI],
    density: 1,
    prices: P.slice(1),
    names: ['Hotel {c}', 'The {st} Inn', 'Grand Hotel {s}', '{c} Suites', 'Parkside Hotel', 'The Station Hotel'],
  },
  {
    primaryType: 'pharmacy',
    words: ['pharmacy', 'pharmacies', 'drugstore', 'chemist'],
    displayName: 'Pharmacy',
    types: ['pharmacy', 'health', ...STORE],
    density: 1,
    hours: { open: 8, close: 21, closed: [] },
    names: ['{st} Pharmacy', '{c} Drug', "{s}'s Pharmacy", 'Care Pharmacy', 'Family Pharmacy'],
  },
  {
    primaryType: 'supermarket',
    words: ['supermarket', 'supermarkets', 'grocery', 'groceries', 'grocery store'],
    displayName: 'Supermarket',
    types: ['supermarket', 'grocery_store', 'food_store', ...STORE, 'food'],
    density: 1,
    hours: { open: 7, close: 22, closed: [] },
    prices: P.slice(0, 2),
    names: ['{c} Market', 'Fresh Foods {st}', "{s}'s Grocery", 'Corner Market', 'Green Basket'],
  },
  {
    primaryType: 'gas_station',
    words: ['gas station', 'gas', 'petrol', 'petrol station', 'fuel'],
    displayName: 'Gas Station',
    types: ['gas_station', ...POI],
    density: 0.8,
    hours: { open: 0, close: 24, closed: [] },
    names: ['{st} Fuel', '{c} Gas & Go', 'QuickFill', 'Highway Fuel Stop'],
  },
  {
    primaryType: 'park',
    words: ['park', 'parks', 'playground'],
    displayName: 'Park',
    types: ['park', 'tourist_attraction', ...POI],
    density: 1.2,
    hours: { open: 6, close: 22, closed: [] },
    names: ['{s} Park', '{st} Park', '{c} Central Park', 'Riverside Park', 'Memorial Park', 'Oak Grove Park'],
  },
  {
    primaryType: 'hospital',
    words: ['hospital', 'hospitals', 'emergency room', 'clinic'],
    displayName: 'Hospital',
    types: ['hospital', 'health', ...POI],
    density: 0.3,
    hours: { open: 0, close: 24, closed: [] },
    names: ['{c} General Hospital', "St. {s}'s Hospital", '{c} Medical Center'],
  },
  {
    primaryType: 'bank',
    words: ['bank', 'banks', 'atm'],
    displayName: 'Bank',
    types: ['bank', 'finance', ...POI],
    density: 0.8,
    hours: { ...DAY, close: 17, closed: [0, 6] },
    names: ['{c} Savings Bank', 'First {c} Bank', 'Credit Union of {c}', 'Main Street Bank'],
  },
  {
    primaryType: 'gym',
    words: ['gym', 'gyms', 'fitness', 'fitness center'],
    displayName: 'Gym',
    types: ['gym', 'sports_activity_location', 'health', ...POI],
    density: 0.8,
    hours: { open: 5, close: 23, closed: [] },
    prices: P.slice(0, 2),
    names: ['{c} Fitness', 'Iron {st} Gym', 'Peak Performance', 'CoreFit Studio'],
  },
  {
    primaryType: 'library',
    words: ['library', 'libraries'],
    displayName: 'Library',
    types: ['library', ...POI],
    density: 0.4,
    hours: { ...DAY, open: 10, close: 19 },
    names: ['{c} Public Library', '{st} Branch Library', '{s} Memorial Library'],
  },
  {
    primaryType: 'book_store',
    words: ['bookstore', 'book store', 'bookshop', 'books'],
    displayName: 'Book Store',
    types: ['book_store', ...STORE],
    density: 0.6,
    hours: { open: 10, close: 20, closed: [] },
    prices: P.slice(0, 2),
    names: ['{st} Books', "{s}'s Bookshop", 'Chapter & Verse', 'The Reading Room'],
  },
];

/** What the editor can tell users: the kinds the sandbox knows and words that name them. */
export const KNOWN_PLACE_KINDS: ReadonlyArray<{ type: string; words: readonly string[] }> = PLACE_KINDS.map((k) => ({ type: k.primaryType, words: k.words }));

const SURNAMES = [
  'Rossi',
  'Miller',
  'Garcia',
  'Nguyen',
  'Okafor',
  'Larsen',
  'Dubois',
  'Kowalski',
  'Tanaka',
  'Silva',
  'Murphy',
  'Schmidt',
  'Patel',
  'Moreau',
  'Bianchi',
  'Cohen',
];
const STREETS = [
  'Main',
  'Oak',
  'Castro',
  'Elm',
  'Market',
  'Park',
  'Church',
  'Maple',
  'Washington',
  'Lake',
  'Hill',
  'Station',
  'Mill',
  'River',
  'Bridge',
  'Cedar',
  'King',
  'Union',
];
const STREET_KINDS = ['St', 'Ave', 'Blvd', 'Rd', 'Way', 'Ln'];

/** The same small integer hash as places.ts, over a string. */
export function hashOf(text: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

const BY_WORD = new Map<string, PlaceKind>();
for (const k of PLACE_KINDS) for (const w of k.words) BY_WORD.set(normalize(w), k);
const BY_TYPE = new Map(PLACE_KINDS.map((k) => [k.primaryType, k]));

/** Every kind whose places carry a Places type ("restaurant" → restaurants and pizza places). */
export function kindsOfType(type: string): PlaceKind[] {
  return PLACE_KINDS.filter((k) => k.types.includes(type));
}

/** The kind whose primary type this is, if any. */
export function kindOfPrimaryType(type: string): PlaceKind | undefined {
  return BY_TYPE.get(type);
}

export interface KindQuery {
  kind: PlaceKind;
  /** The place part ("Mountain View" in "pizza in Mountain View"); empty when there is none. */
  where: string;
}

const LINKS = new Set(['in', 'near', 'around', 'at', 'close to', 'nearby', 'near me']);

/**
 * Splits "pizza in Mountain View", "cafes near Lyon, France", "Boston museums" or "hotel" into a
 * kind and a place; undefined when no known kind word starts or ends the query.
 */
export function parseKindQuery(query: string): KindQuery | undefined {
  const words = normalize(query.replace(/,/g, ' , ')).split(' ').filter(Boolean);
  const plain = words.filter((w) => w !== ',');
  for (let n = Math.min(3, plain.length); n >= 1; n--) {
    const head = BY_WORD.get(plain.slice(0, n).join(' '));
    if (head) return { kind: head, where: trimLink(words.slice(n)) };
    const tail = BY_WORD.get(plain.slice(-n).join(' '));
    if (tail) return { kind: tail, where: trimLink(words.slice(0, words.length - n)) };
  }
  return undefined;
}

function trimLink(words: string[]): string {
  let rest = words.join(' ').replace(/ ,/g, ',').trim();
  for (const link of [...LINKS].sort((a, b) => b.length - a.length)) {
    if (rest === link) return '';
    if (rest.startsWith(link + ' ')) rest = rest.slice(link.length + 1);
    if (rest.endsWith(' ' + link)) rest = rest.slice(0, -link.length - 1);
  }
  return rest.replace(/^,\s*|,\s*$/g, '').trim();
}

/** A generated place: the kind, the city it belongs to and its number there. */
export interface Poi {
  kind: PlaceKind;
  city: City;
  index: number;
  location: LatLng;
  rating: number;
  userRatingCount: number;
}

const POI_ID_PREFIX = 'ChIJ';
export function poiIdOf(p: Pick<Poi, 'kind' | 'city' | 'index'>): string {
  return POI_ID_PREFIX + Buffer.from(`poi:${p.city.geonameId}:${p.kind.primaryType}:${p.index}`).toString('base64url');
}

/** The generated place a place id names, if it is one and still exists. */
export function poiByPlaceId(placeId: string): Poi | undefined {
  if (!placeId.startsWith(POI_ID_PREFIX)) return undefined;
  const m = /^poi:(\d{1,10}):([a-z_]{1,40}):(\d{1,3})$/.exec(Buffer.from(placeId.slice(POI_ID_PREFIX.length), 'base64url').toString('utf8'));
  const kind = m && BY_TYPE.get(m[2]);
  const city = m && gazetteer().byGeonameId(Number(m[1]));
  if (!m || !kind || !city) return undefined;
  return poisOf(city, kind)[Number(m[3])];
}

/** How far from a city's centre its places spread. */
export function reachOf(c: City): number {
  return Math.min(15_000, Math.max(800, Math.sqrt(c.population) * 8));
}

/** The places of one kind in one city, in a fixed order. */
export function poisOf(city: City, kind: PlaceKind): Poi[] {
  const orders = Math.max(0, Math.log10(Math.max(city.population, 1)) - 3);
  const count = Math.min(12, Math.floor(orders * 2 * kind.density));
  const reach = reachOf(city);
  const out: Poi[] = [];
  for (let index = 0; index < count; index++) {
    const h = hashOf(`${city.geonameId}:${kind.primaryType}:${index}`);
    const meters = reach * Math.sqrt(((h >>> 8) % 1000) / 1000);
    const location = round5(offset(city.location, meters, (h % 360) + index * 37));
    out.push({
      kind,
      city,
      index,
      location,
      rating: Math.round(32 + ((h >>> 4) % 18)) / 10,
      userRatingCount: 8 + ((h >>> 12) % Math.round(40 + city.population / 200)),
    });
  }
  return out;
}

/** Places of these kinds within `radius` of `center`, nearest first. */
export function poisNear(center: LatLng, radius: number, kinds: readonly PlaceKind[]): Array<{ poi: Poi; meters: number }> {
  const cities = gazetteer()
    .within(center, radius + 15_000)
    .slice(0, 40);
  const out: Array<{ poi: Poi; meters: number }> = [];
  for (const { city } of cities) {
    for (const kind of kinds) {
      for (const poi of poisOf(city, kind)) {
        const meters = distanceMeters(center, poi.location);
        if (meters <= radius) out.push({ poi, meters });
      }
    }
  }
  return out.sort((a, b) => a.meters - b.meters);
}

function nameOf(p: Poi): { name: string; street: string; number: number } {
  const h = hashOf(`${p.city.geonameId}:${p.kind.primaryType}:${p.index}:name`);
  const street = `${STREETS[h % STREETS.length]} ${STREET_KINDS[(h >>> 5) % STREET_KINDS.length]}`;
  // Each place of a city takes the next template, so names do not repeat within a city.
  const template = p.kind.names[(p.index + (p.city.geonameId % p.kind.names.length)) % p.kind.names.length];
  const lap = Math.floor(p.index / p.kind.names.length);
  const name = template
    .replace('{s}', SURNAMES[(h >>> 9) % SURNAMES.length])
    .replace('{st}', STREETS[h % STREETS.length])
    .replace('{c}', p.city.name);
  return { name: lap ? `${name} ${street.split(' ')[0]}` : name, street, number: 1 + ((h >>> 13) % 1900) };
}

/** Rough local time offset from the longitude: the sandbox has no time-zone data. */
function utcOffsetMinutes(p: LatLng): number {
  return Math.round(p.longitude / 15) * 60;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const clock = (h: number) => `${((h + 11) % 12) + 1}:00\u202f${h % 24 < 12 ? 'AM' : 'PM'}`;

function openingHours(hours: Hours, offsetMinutes: number, now: Date): Record<string, unknown> {
  const allDay = hours.open === 0 && hours.close === 24;
  const periods = allDay
    ? [{ open: { day: 0, hour: 0, minute: 0 } }]
    : DAYS.map((_, day) => day)
        .filter((day) => !hours.closed.includes(day))
        .map((day) => ({
          open: { day, hour: hours.open, minute: 0 },
          close: { day: hours.close <= hours.open ? (day + 1) % 7 : day, hour: hours.close % 24, minute: 0 },
        }));
  // weekdayDescriptions start on Monday, as Google's do.
  const weekdayDescriptions = [1, 2, 3, 4, 5, 6, 0].map(
    (d) => `${DAYS[d]}: ${allDay ? 'Open 24 hours' : hours.closed.includes(d) ? 'Closed' : `${clock(hours.open)} – ${clock(hours.close)}`}`,
  );
  return { openNow: isOpen(hours, offsetMinutes, now), periods, weekdayDescriptions };
}

export function isOpen(hours: Hours | undefined, offsetMinutes: number, now: Date): boolean {
  if (!hours) return true;
  const local = new Date(now.getTime() + offsetMinutes * 60_000);
  const day = local.getUTCDay();
  const h = local.getUTCHours();
  if (hours.open === 0 && hours.close === 24) return true;
  if (hours.close > hours.open) return !hours.closed.includes(day) && h >= hours.open && h < hours.close;
  // Past midnight: open from `open` today, or until `close` after yesterday's opening.
  return (!hours.closed.includes(day) && h >= hours.open) || (!hours.closed.includes((day + 6) % 7) && h < hours.close);
}

export function poiOpenNow(p: Poi, now = new Date()): boolean {
  return isOpen(p.kind.hours, utcOffsetMinutes(p.location), now);
}

export function poiPriceLevel(p: Poi): string | undefined {
  const prices = p.kind.prices;
  return prices?.length ? prices[hashOf(`${p.city.geonameId}:${p.kind.primaryType}:${p.index}:price`) % prices.length] : undefined;
}

/** The full Place message for a generated place; the field mask picks from it. */
export function poiJson(p: Poi, now = new Date()): Record<string, unknown> {
  const id = poiIdOf(p);
  const { name, street, number } = nameOf(p);
  const city = p.city;
  const state = stateName(city);
  const us = city.country === 'US';
  const line = us ? `${number} ${street}` : `${street} ${number}`;
  const tail = [city.name, state ? city.adminCode : undefined, countryInAddress(city.country)].filter(Boolean).join(', ');
  const code = plusCode(p.location);
  const offsetMinutes = utcOffsetMinutes(p.location);
  const h = hashOf(`${id}:attrs`);
  const price = poiPriceLevel(p);
  const dining = p.kind.dining
    ? {
        takeout: (h & 1) === 1,
        delivery: (h & 2) === 2,
        dineIn: true,
        reservable: (h & 4) === 4,
        servesBeer: p.kind.primaryType !== 'cafe' && (h & 8) === 8,
        servesVegetarianFood: (h & 16) === 16,
        outdoorSeating: (h & 32) === 32,
        goodForGroups: (h & 64) === 64,
      }
    : {};
  return {
    name: `places/${id}`,
    id,
    types: [...p.kind.types],
    primaryType: p.kind.primaryType,
    primaryTypeDisplayName: { text: p.kind.displayName, languageCode: 'en' },
    displayName: { text: name, languageCode: 'en' },
    formattedAddress: `${line}, ${tail}`,
    shortFormattedAddress: `${line}, ${city.name}`,
    addressComponents: [
      { longText: String(number), shortText: String(number), types: ['street_number'], languageCode: 'en' },
      { longText: street, shortText: street, types: ['route'], languageCode: 'en' },
      { longText: city.name, shortText: city.name, types: ['locality', 'political'], languageCode: 'en' },
      ...(state ? [{ longText: state, shortText: city.adminCode, types: ['administrative_area_level_1', 'political'], languageCode: 'en' }] : []),
      { longText: countryName(city.country), shortText: city.country, types: ['country', 'political'], languageCode: 'en' },
    ],
    plusCode: { globalCode: code, compoundCode: `${code.slice(4)} ${tail}` },
    location: p.location,
    viewport: viewportAround(p.location, 150),
    rating: p.rating,
    userRatingCount: p.userRatingCount,
    googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(name)}&query_place_id=${id}`,
    // 555-01xx numbers are reserved for fiction in North America; elsewhere the sandbox gives none.
    ...(us
      ? { nationalPhoneNumber: `(555) 555-01${String(h % 100).padStart(2, '0')}`, internationalPhoneNumber: `+1 555-555-01${String(h % 100).padStart(2, '0')}` }
      : {}),
    businessStatus: 'OPERATIONAL',
    ...(price ? { priceLevel: price } : {}),
    ...(p.kind.hours
      ? { regularOpeningHours: openingHours(p.kind.hours, offsetMinutes, now), currentOpeningHours: openingHours(p.kind.hours, offsetMinutes, now) }
      : {}),
    utcOffsetMinutes: offsetMinutes,
    iconMaskBaseUri: `https://maps.gstatic.com/mapfiles/place_api/icons/v2/${p.kind.dining ? 'restaurant' : 'generic'}_pinlet`,
    iconBackgroundColor: p.kind.dining ? '#FF9E67' : '#7B9EB0',
    ...dining,
    pureServiceAreaBusiness: false,
  };
}

/** "Castro St, Mountain View, CA, USA": the secondary text of an autocomplete prediction. */
export function poiSecondaryText(p: Poi): string {
  const { street } = nameOf(p);
  return [street, p.city.name, stateName(p.city) ? p.city.adminCode : undefined, countryInAddress(p.city.country)].filter(Boolean).join(', ');
}

export function poiName(p: Poi): string {
  return nameOf(p).name;
}
