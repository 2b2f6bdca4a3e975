// The classic web services' JSON (snake_case, {lat, lng}, {northeast, southwest}) made from what the
// new APIs' handlers answer. Only translation lives here: every place, address and route comes from
// the same gazetteer, geocoder and route builder as Places (New), Geocoding v4 and Routes v2.
import type { LatLng, Viewport } from '../geo';

/** What the new APIs' handlers return: plain JSON objects. */
export type Json = Record<string, unknown>;

export interface ClassicLatLng {
  lat: number;
  lng: number;
}

export function latLng(p: LatLng): ClassicLatLng {
  return { lat: p.latitude, lng: p.longitude };
}

export function bounds(v: Viewport): { northeast: ClassicLatLng; southwest: ClassicLatLng } {
  return { northeast: latLng(v.high), southwest: latLng(v.low) };
}

interface NewAddressComponent {
  longText: string;
  shortText: string;
  types: string[];
}

function addressComponents(list: unknown): Array<{ long_name: string; short_name: string; types: string[] }> {
  return ((list as NewAddressComponent[] | undefined) ?? []).map((c) => ({ long_name: c.longText, short_name: c.shortText, types: c.types }));
}

function plusCode(code: unknown): Json | undefined {
  const c = code as { globalCode: string; compoundCode?: string } | undefined;
  return c && { global_code: c.globalCode, ...(c.compoundCode ? { compound_code: c.compoundCode } : {}) };
}

/** A Geocoding v4 result as a classic geocoding result (populated places are APPROXIMATE). */
export function geocodeResult(r: Json): Json {
  const viewport = bounds(r.viewport as Viewport);
  return {
    address_components: addressComponents(r.addressComponents),
    formatted_address: r.formattedAddress,
    geometry: { bounds: viewport, location: latLng(r.location as LatLng), location_type: r.granularity, viewport },
    place_id: r.placeId,
    plus_code: plusCode(r.plusCode),
    types: r.types,
  };
}

// Classic price_level is 0 (free) … 4 (very expensive).
export const PRICE_LEVELS = ['PRICE_LEVEL_FREE', 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE', 'PRICE_LEVEL_EXPENSIVE', 'PRICE_LEVEL_VERY_EXPENSIVE'];

/**
 * A Places (New) Place as a classic place result: search results carry `formatted_address` (text
 * search) or `vicinity` (nearby search); details carry both and the address components.
 */
export function placeResult(p: Json, style: 'textsearch' | 'nearbysearch' | 'details'): Json {
  const location = p.location as LatLng;
  const price = PRICE_LEVELS.indexOf(String(p.priceLevel));
  const hours = p.currentOpeningHours as { openNow?: boolean; weekdayDescriptions?: string[] } | undefined;
  const id = String(p.id);
  const out: Json = {
    ...(p.businessStatus ? { business_status: p.businessStatus } : {}),
    ...(style !== 'nearbysearch' ? { formatted_address: p.formattedAddress } : {}),
    geometry: { location: latLng(location), viewport: bounds(p.viewport as Viewport) },
    icon: `${String(p.iconMaskBaseUri)}.png`,
    icon_background_color: p.iconBackgroundColor,
    icon_mask_base_uri: p.iconMaskBaseUri,
    name: (p.displayName as { text: string }).text,
    ...(hours ? { opening_hours: { open_now: hours.openNow, ...(style === 'details' ? { weekday_text: hours.weekdayDescriptions } : {}) } } : {}),
    place_id: id,
    plus_code: plusCode(p.plusCode),
    ...(price >= 0 ? { price_level: price } : {}),
    rating: p.rating,
    reference: id,
    types: p.types,
    user_ratings_total: p.userRatingCount,
    ...(style !== 'textsearch' ? { vicinity: p.shortFormattedAddress } : {}),
  };
  if (style !== 'details') return out;
  return {
    ...out,
    address_components: addressComponents(p.addressComponents),
    ...(p.adrFormatAddress ? { adr_address: p.adrFormatAddress } : {}),
    ...(p.nationalPhoneNumber ? { formatted_phone_number: p.nationalPhoneNumber, international_phone_number: p.internationalPhoneNumber } : {}),
    url: p.googleMapsUri,
    ...(p.utcOffsetMinutes !== undefined ? { utc_offset: p.utcOffsetMinutes } : {}),
    ...(p.websiteUri ? { website: p.websiteUri } : {}),
  };
}

interface NewMatch {
  startOffset?: number;
  endOffset: number;
}
const substrings = (matches: NewMatch[] | undefined) =>
  (matches ?? []).map((m) => ({ length: m.endOffset - (m.startOffset ?? 0), offset: m.startOffset ?? 0 }));

interface NewPlacePrediction {
  placeId: string;
  text: { text: string; matches?: NewMatch[] };
  structuredFormat: { mainText: { text: string; matches?: NewMatch[] }; secondaryText?: { text: string } };
  types: string[];
  distanceMeters?: number;
}

/** An Autocomplete (New) place prediction as a classic prediction, with its comma-separated terms. */
export function prediction(p: NewPlacePrediction): Json {
  const description = p.text.text;
  const terms: Array<{ offset: number; value: string }> = [];
  let offset = 0;
  for (const value of description.split(', ')) {
    terms.push({ offset, value });
    offset += value.length + 2;
  }
  return {
    description,
    ...(p.distanceMeters !== undefined ? { distance_meters: p.distanceMeters } : {}),
    matched_substrings: substrings(p.text.matches),
    place_id: p.placeId,
    reference: p.placeId,
    structured_formatting: {
      main_text: p.structuredFormat.mainText.text,
      main_text_matched_substrings: substrings(p.structuredFormat.mainText.matches),
      ...(p.structuredFormat.secondaryText ? { secondary_text: p.structuredFormat.secondaryText.text } : {}),
    },
    terms,
    types: p.types,
  };
}

/** `{text, value}` as the classic routes write distances (metres) and durations (seconds). */
export function textValue(text: unknown, value: number): { text: string; value: number } {
  return { text: String(text), value };
}

/** google.protobuf.Duration JSON ("123s", "1.5s") in whole seconds. */
export function seconds(duration: unknown): number {
  return typeof duration === 'string' ? Math.round(Number(duration.replace(/s$/, '')) || 0) : 0;
}
