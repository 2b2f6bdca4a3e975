// Google's encoded polyline format (precision 5), shared by the sandbox (encode) and the client
// (decode). The codec is Google's own reference implementation (@googlemaps/polyline-codec), so
// both sides follow the documented algorithm exactly; this module adds the checks that library
// leaves out, because a malformed string from a server must become an error, not NaN coordinates.
import { decode, encode } from '@googlemaps/polyline-codec';

export interface LatLngLiteral {
  latitude: number;
  longitude: number;
}

export function encodePolyline(points: readonly LatLngLiteral[]): string {
  return encode(points.map((p) => [p.latitude, p.longitude]));
}

export class PolylineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolylineError';
  }
}

/** Every character of an encoded polyline is in '?' (63) … '~' (126). */
const VALID = /^[\x3f-\x7e]*$/;

/**
 * Decodes a Google encoded polyline to points. Throws PolylineError for strings that are not a
 * well-formed polyline (bad characters, a truncated last value, coordinates out of range).
 */
export function decodePolyline(encoded: string): LatLngLiteral[] {
  if (!VALID.test(encoded)) throw new PolylineError('polyline contains characters outside the encoding alphabet');
  // Each value ends with a chunk below 0x20; a point is two values. Anything else is truncated.
  // A delta of at most 360° (×1e5, zig-zag encoded) fits in 6 five-bit chunks: longer is corrupt
  // (and would overflow the decoder's 32-bit arithmetic).
  let values = 0;
  let chunks = 0;
  for (let i = 0; i < encoded.length; i++) {
    chunks++;
    if (chunks > 6) throw new PolylineError('polyline contains a value too large for a coordinate');
    if (encoded.charCodeAt(i) - 63 < 0x20) {
      values++;
      chunks = 0;
    }
  }
  const lastEndsValue = encoded.length === 0 || encoded.charCodeAt(encoded.length - 1) - 63 < 0x20;
  if (!lastEndsValue || values % 2 !== 0) throw new PolylineError('polyline is truncated');
  const out: LatLngLiteral[] = [];
  for (const [latitude, longitude] of decode(encoded)) {
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      throw new PolylineError('polyline decodes to coordinates outside the globe (truncated or corrupt)');
    }
    out.push({ latitude, longitude });
  }
  return out;
}
