// Address Validation API v1: POST /v1:validateAddress.
// The sandbox knows populated places, not streets: the locality, state (US) and country are
// confirmed (or corrected, inferred, replaced) against GeoNames; street parts are accepted as
// plausible but unconfirmed, exactly as the real service reports streets it cannot confirm.
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { countryInAddress, countryName, gazetteer, normalize, placeIdOf, US_STATES, type City } from './gazetteer';
import { plusCode, viewportAround } from './geo';
import { invalidArgument } from './rpc';

export const ValidateAddressRequest = z.strictObject({
  address: z.optional(
    z.strictObject({
      revision: z.optional(z.number()),
      regionCode: z.optional(z.string()),
      languageCode: z.optional(z.string()),
      postalCode: z.optional(z.string()),
      sortingCode: z.optional(z.string()),
      administrativeArea: z.optional(z.string()),
      locality: z.optional(z.string()),
      sublocality: z.optional(z.string()),
      addressLines: z.optional(z.array(z.string())),
      recipients: z.optional(z.array(z.string())),
      organization: z.optional(z.string()),
    }),
  ),
  previousResponseId: z.optional(z.string()),
  enableUspsCass: z.optional(z.boolean()),
  languageOptions: z.optional(z.unknown()),
  sessionToken: z.optional(z.string()),
});
export type ValidateAddressRequest = z.infer<typeof ValidateAddressRequest>;

type Confirmation = 'CONFIRMED' | 'UNCONFIRMED_BUT_PLAUSIBLE' | 'UNCONFIRMED_AND_SUSPICIOUS';
interface Component {
  componentName: { text: string; languageCode?: string };
  componentType: string;
  confirmationLevel: Confirmation;
  inferred?: boolean;
  spellCorrected?: boolean;
  replaced?: boolean;
  unexpected?: boolean;
}

const MAX_LINES = 5;
const US_STATE_ZIP = /^([A-Za-z]{2})\s+(\d{5}(?:-\d{4})?)$/;
const POSTAL = /^(?:\d{4,6}(?:-\d{3,4})?|[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}|[A-Za-z]\d[A-Za-z]\s*\d[A-Za-z]\d)$/;
const SUBPREMISE = /^(?:apt|apartment|suite|ste|unit|flat|#|floor|fl)\b\.?\s*#?\s*(\S.*)$/i;
const NUMBER_FIRST = /^(\d+[A-Za-z]?(?:-\d+)?)\s+(\S.*)$/;
const NUMBER_LAST = /^(\D*\S)\s+(\d+[A-Za-z]?)$/;

interface Parsed {
  streetNumber?: string;
  route?: string;
  /** "5 Main St" (true) or "Hauptstraße 5" (false). */
  numberFirst?: boolean;
  subpremise?: string;
  locality?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  unresolved: string[];
}

export function parse(addr: NonNullable<ValidateAddressRequest['address']>): Parsed {
  const g = gazetteer();
  const p: Parsed = {
    unresolved: [],
    locality: addr.locality?.trim() || undefined,
    state: addr.administrativeArea?.trim() || undefined,
    postalCode: addr.postalCode?.trim() || undefined,
  };
  const tokens = (addr.addressLines ?? [])
    .flatMap((l) => l.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  const rest: string[] = [];
  for (const token of tokens) {
    let m: RegExpExecArray | null;
    // Two-letter tokens that are US states ("CA", "IN", "DE") are read as states, not countries.
    if (!p.country && g.countryCode(token) && tokens.length > 1 && !(token.length === 2 && US_STATES[token.toUpperCase()])) p.country = token;
    else if ((m = US_STATE_ZIP.exec(token)) && US_STATES[m[1].toUpperCase()]) [p.state, p.postalCode] = [m[1], m[2]];
    else if (POSTAL.test(token) && !p.postalCode) p.postalCode = token;
    else if (SUBPREMISE.test(token)) p.subpremise = token;
    else if (!p.route && (m = NUMBER_FIRST.exec(token))) [p.streetNumber, p.route, p.numberFirst] = [m[1], m[2], true];
    else if (!p.route && (m = NUMBER_LAST.exec(token)) && /\p{L}/u.test(m[1])) [p.route, p.streetNumber, p.numberFirst] = [m[1], m[2], false];
    else if (!p.state && US_STATES[token.toUpperCase()]) p.state = token;
    else rest.push(token);
  }
  // Of the words left, the last that names a place is the locality; a leading one without a
  // number is a street name ("Main Street, Springfield").
  if (!p.locality) {
    for (let i = rest.length - 1; i >= 0; i--) {
      // A "City ST 12345" token written without commas.
      const m = /^(.*\S)\s+([A-Za-z]{2})(?:\s+(\d{5}(?:-\d{4})?))?$/.exec(rest[i]);
      if (m && US_STATES[m[2].toUpperCase()] && !p.state) {
        [p.locality, p.state, p.postalCode] = [m[1], m[2], m[3] ?? p.postalCode];
        rest.splice(i, 1);
        break;
      }
      if (g.search(rest[i], {}, 1).length) {
        p.locality = rest.splice(i, 1)[0];
        break;
      }
    }
    if (!p.locality && rest.length) p.locality = rest.pop();
  }
  if (!p.route && rest.length && tokens.indexOf(rest[0]) === 0) p.route = rest.shift();
  p.unresolved = rest;
  return p;
}

function stateCode(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const up = text.trim().toUpperCase();
  if (US_STATES[up]) return up;
  const n = normalize(text);
  return Object.keys(US_STATES).find((k) => normalize(US_STATES[k]) === n);
}

export function findCity(p: Parsed, region: string | undefined): { city?: City; spellCorrected: boolean } {
  if (!p.locality) return { spellCorrected: false };
  const g = gazetteer();
  const state = region === 'US' || region === undefined ? stateCode(p.state) : undefined;
  const hits = g.search(p.locality, region ? { within: (c: City) => c.country === region } : {}, 50);
  const city = (state && hits.find((c) => c.adminCode === state)) || hits[0];
  if (!city) return { spellCorrected: false };
  return { city, spellCorrected: normalize(city.name) !== normalize(p.locality) };
}

export function validateAddress(req: ValidateAddressRequest): Record<string, unknown> {
  const addr = req.address;
  if (!addr) throw invalidArgument('address must be set.');
  const lines = addr.addressLines ?? [];
  if (lines.length > MAX_LINES) throw invalidArgument(`address.address_lines may have at most ${MAX_LINES} lines.`);
  if (!lines.some((l) => l.trim()) && !addr.locality && !addr.postalCode) throw invalidArgument('address must contain address_lines or a locality.');

  const g = gazetteer();
  const p = parse(addr);
  const region = addr.regionCode?.toUpperCase() ?? (p.country ? g.countryCode(p.country) : undefined);
  if (!region) throw invalidArgument('address.region_code must be set: it could not be inferred from the address lines.');
  if (!/^[A-Z]{2}$/.test(region) || countryName(region) === region) throw invalidArgument(`Unsupported region code: ${addr.regionCode}.`);

  const { city, spellCorrected } = findCity(p, region);
  const components: Component[] = [];
  const plausible = (text: string, type: string): Component => ({
    componentName: { text, languageCode: 'en' },
    componentType: type,
    confirmationLevel: 'UNCONFIRMED_BUT_PLAUSIBLE',
  });
  if (p.subpremise) components.push(plausible(p.subpremise, 'subpremise'));
  if (p.streetNumber) components.push(plausible(p.streetNumber, 'street_number'));
  if (p.route) components.push(plausible(p.route, 'route'));
  if (p.postalCode) components.push(plausible(p.postalCode, 'postal_code'));
  if (city) {
    components.push({
      componentName: { text: city.name, languageCode: 'en' },
      componentType: 'locality',
      confirmationLevel: 'CONFIRMED',
      ...(spellCorrected ? { spellCorrected: true } : {}),
    });
  } else if (p.locality) {
    components.push({ componentName: { text: p.locality, languageCode: 'en' }, componentType: 'locality', confirmationLevel: 'UNCONFIRMED_AND_SUSPICIOUS' });
  }
  if (region === 'US') {
    const given = stateCode(p.state);
    if (city) {
      const replaced = given !== undefined && given !== city.adminCode;
      components.push({
        componentName: { text: city.adminCode, languageCode: 'en' },
        componentType: 'administrative_area_level_1',
        confirmationLevel: 'CONFIRMED',
        ...(given === undefined ? { inferred: true } : {}),
        ...(replaced ? { replaced: true } : {}),
      });
    } else if (p.state) {
      components.push({
        componentName: { text: p.state, languageCode: 'en' },
        componentType: 'administrative_area_level_1',
        confirmationLevel: given ? 'UNCONFIRMED_BUT_PLAUSIBLE' : 'UNCONFIRMED_AND_SUSPICIOUS',
      });
    }
  }
  const countryGiven = p.country !== undefined;
  components.push({
    componentName: { text: countryName(region), languageCode: 'en' },
    componentType: 'country',
    confirmationLevel: 'CONFIRMED',
    ...(countryGiven ? {} : { inferred: true }),
  });

  const missing: string[] = [];
  if (p.route && !p.streetNumber) missing.push('street_number');
  if (!p.route) missing.push('route');
  if (!city && !p.locality) missing.push('locality');
  if (region === 'US' && !p.postalCode) missing.push('postal_code');

  const unconfirmed = components.filter((c) => c.confirmationLevel !== 'CONFIRMED').map((c) => c.componentType);
  const suspicious = components.some((c) => c.confirmationLevel === 'UNCONFIRMED_AND_SUSPICIOUS');
  const inferred = components.some((c) => c.inferred);
  const replaced = components.some((c) => c.replaced);
  const inputGranularity = p.subpremise ? 'SUB_PREMISE' : p.streetNumber && p.route ? 'PREMISE' : p.route ? 'ROUTE' : 'OTHER';
  const addressComplete = !p.unresolved.length && !missing.length && !suspicious;
  const possibleNextAction =
    suspicious || !city || p.unresolved.length ? 'FIX' : unconfirmed.length || inferred || replaced || spellCorrected ? 'CONFIRM' : 'ACCEPT';

  const premise = p.streetNumber && p.route ? (p.numberFirst ? `${p.streetNumber} ${p.route}` : `${p.route} ${p.streetNumber}`) : p.route;
  const street = [premise, p.subpremise].filter(Boolean).join(' ');
  const localityText = city?.name ?? p.locality;
  const stateText = region === 'US' ? (city?.adminCode ?? stateCode(p.state) ?? p.state) : undefined;
  const cityLine =
    region === 'US'
      ? [localityText, [stateText, p.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')
      : [p.postalCode, localityText].filter(Boolean).join(' ');
  const formatted = [street, cityLine, countryInAddress(region)].filter(Boolean).join(', ');
  const addressLines = street ? [street] : [];

  const result: Record<string, unknown> = {
    verdict: {
      inputGranularity,
      validationGranularity: 'OTHER',
      geocodeGranularity: city ? 'OTHER' : 'GRANULARITY_UNSPECIFIED',
      ...(addressComplete ? { addressComplete: true } : {}),
      ...(unconfirmed.length ? { hasUnconfirmedComponents: true } : {}),
      ...(inferred ? { hasInferredComponents: true } : {}),
      ...(replaced ? { hasReplacedComponents: true } : {}),
      ...(spellCorrected ? { hasSpellCorrectedComponents: true } : {}),
      possibleNextAction,
    },
    address: {
      formattedAddress: formatted,
      postalAddress: {
        regionCode: region,
        languageCode: 'en',
        ...(p.postalCode ? { postalCode: p.postalCode } : {}),
        ...(stateText ? { administrativeArea: stateText } : {}),
        ...(localityText ? { locality: localityText } : {}),
        addressLines,
      },
      addressComponents: components,
      ...(missing.length ? { missingComponentTypes: missing } : {}),
      ...(unconfirmed.length ? { unconfirmedComponentTypes: unconfirmed } : {}),
      ...(p.unresolved.length ? { unresolvedTokens: p.unresolved } : {}),
    },
    metadata: {},
  };
  if (city) {
    result.geocode = {
      location: city.location,
      plusCode: { globalCode: plusCode(city.location) },
      bounds: viewportAround(city.location, Math.min(40_000, Math.max(1_500, Math.sqrt(city.population) * 15))),
      featureSizeMeters: Math.round(Math.min(80_000, Math.max(3_000, Math.sqrt(city.population) * 30))),
      placeId: placeIdOf(city),
      placeTypes: ['locality', 'political'],
    };
  }
  return { result, responseId: randomUUID() };
}
