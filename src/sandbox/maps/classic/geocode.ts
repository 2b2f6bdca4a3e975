// Classic Geocoding, GET /maps/api/geocode/json: forward (`address`, `components`), reverse
// (`latlng`) and by `place_id`, answered by the Geocoding v4 handlers and rewritten in the classic shape.
import * as z from 'zod/mini';
import { geocodeAddress, geocodeLocation, geocodePlace } from '../geocoding';
import { inRange, parseLatLngText } from '../geo';
import { RpcError } from '../rpc';
import { geocodeResult, type Json } from './shapes';
import { invalidParameter, missingParameter, param, queryParams } from './status';

const GeocodeQuery = z.object({
  address: param,
  components: param,
  latlng: param,
  place_id: param,
  region: param,
  bounds: param,
  result_type: param,
  location_type: param,
  language: param,
});

/** `components=country:PT|locality:Lisbon` as the v4 structured address it stands for. */
function componentParams(components: string | undefined, v4: URLSearchParams): void {
  for (const part of (components ?? '').split('|')) {
    const [name, ...rest] = part.split(':');
    const value = rest.join(':').trim();
    if (!value) continue;
    const field = {
      country: 'address.regionCode',
      locality: 'address.locality',
      administrative_area: 'address.administrativeArea',
      postal_code: 'address.postalCode',
    }[name.trim().toLowerCase()];
    if (field) v4.set(field, value);
  }
}

/** `bounds=south,west|north,east` as the v4 location bias rectangle. */
function boundsParams(text: string | undefined, v4: URLSearchParams): void {
  if (text === undefined) return;
  const [sw, ne] = text.split('|').map(parseLatLngText);
  if (!sw || !ne) throw invalidParameter('bounds');
  v4.set('locationBias.rectangle.low.latitude', String(sw.latitude));
  v4.set('locationBias.rectangle.low.longitude', String(sw.longitude));
  v4.set('locationBias.rectangle.high.latitude', String(ne.latitude));
  v4.set('locationBias.rectangle.high.longitude', String(ne.longitude));
}

function byPlaceId(id: string): Json[] {
  try {
    return [geocodePlace(id)];
  } catch (e) {
    // A well-formed id that names no place geocodes to nothing; anything else is a bad parameter.
    if (e instanceof RpcError && e.status === 'NOT_FOUND' && /^[A-Za-z0-9_-]+$/.test(id)) return [];
    throw e instanceof RpcError ? invalidParameter('place_id') : e;
  }
}

export function classicGeocode(url: URL): Json {
  const q = queryParams(GeocodeQuery, url);
  let results: Json[];
  if (q.place_id !== undefined) {
    results = byPlaceId(q.place_id);
  } else if (q.latlng !== undefined) {
    const p = parseLatLngText(q.latlng);
    if (!p || !inRange(p)) throw invalidParameter('latlng');
    const v4 = new URLSearchParams();
    for (const t of (q.result_type ?? '').split('|').filter(Boolean)) v4.append('types', t);
    for (const g of (q.location_type ?? '').split('|').filter(Boolean)) v4.append('granularity', g);
    results = (geocodeLocation(`${p.latitude},${p.longitude}`, v4).results as Json[] | undefined) ?? [];
  } else if (q.address !== undefined || q.components !== undefined) {
    const v4 = new URLSearchParams();
    if (q.region) v4.set('regionCode', q.region);
    componentParams(q.components, v4);
    boundsParams(q.bounds, v4);
    // Components alone are a structured address; with an address they only filter it.
    const country = v4.get('address.regionCode');
    if (q.address !== undefined) {
      for (const k of ['address.locality', 'address.administrativeArea', 'address.postalCode', 'address.regionCode']) v4.delete(k);
      if (country) v4.set('regionCode', country);
    }
    results = (geocodeAddress(q.address, v4).results as Json[] | undefined) ?? [];
    if (q.address !== undefined && country) results = results.filter((r) => (r.postalAddress as { regionCode?: string }).regionCode === country.toUpperCase());
  } else {
    throw missingParameter('address', 'components', 'latlng', 'place_id');
  }
  if (!results.length) return { results: [], status: 'ZERO_RESULTS' };
  return { results: results.map(geocodeResult) };
}
