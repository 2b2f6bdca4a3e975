// Spherical geometry for the maps sandbox: distances, bearings, interpolated paths, viewports.
import type { LatLngLiteral } from '../../services/maps/polyline';

export type LatLng = LatLngLiteral;

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Great-circle distance in metres (haversine). */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearing(a: LatLng, b: LatLng): number {
  const y = Math.sin(rad(b.longitude - a.longitude)) * Math.cos(rad(b.latitude));
  const x =
    Math.cos(rad(a.latitude)) * Math.sin(rad(b.latitude)) - Math.sin(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.cos(rad(b.longitude - a.longitude));
  return (deg(Math.atan2(y, x)) + 360) % 360;
}

const COMPASS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];
export function compassWord(degrees: number): string {
  return COMPASS[Math.round(degrees / 45) % 8];
}

/** Point at fraction t along the great circle from a to b. */
export function interpolate(a: LatLng, b: LatLng, t: number): LatLng {
  const d = distanceMeters(a, b) / EARTH_RADIUS_M;
  if (d < 1e-12) return { ...a };
  const A = Math.sin((1 - t) * d) / Math.sin(d);
  const B = Math.sin(t * d) / Math.sin(d);
  const [la1, lo1, la2, lo2] = [rad(a.latitude), rad(a.longitude), rad(b.latitude), rad(b.longitude)];
  const x = A * Math.cos(la1) * Math.cos(lo1) + B * Math.cos(la2) * Math.cos(lo2);
  const y = A * Math.cos(la1) * Math.sin(lo1) + B * Math.cos(la2) * Math.sin(lo2);
  const z = A * Math.sin(la1) + B * Math.sin(la2);
  return { latitude: deg(Math.atan2(z, Math.hypot(x, y))), longitude: deg(Math.atan2(y, x)) };
}

/** Moves p by `meters` towards `bearingDeg` (small offsets only). */
export function offset(p: LatLng, meters: number, bearingDeg: number): LatLng {
  const dLat = (meters * Math.cos(rad(bearingDeg))) / EARTH_RADIUS_M;
  const dLng = (meters * Math.sin(rad(bearingDeg))) / (EARTH_RADIUS_M * Math.max(1e-6, Math.cos(rad(p.latitude))));
  return { latitude: p.latitude + deg(dLat), longitude: p.longitude + deg(dLng) };
}

/** Polyline coordinates have 5 decimals; points are kept at that precision so ends match exactly. */
export function round5(p: LatLng): LatLng {
  return { latitude: Math.round(p.latitude * 1e5) / 1e5, longitude: Math.round(p.longitude * 1e5) / 1e5 };
}

/**
 * A road-like path from a to b: the great circle, bent sideways by a smooth deterministic curve
 * that is zero at both ends (so the path starts and ends exactly at the waypoints). `sway`
 * (0…1) sets how far it bends, as a fraction of the leg length.
 */
export function roadPath(a: LatLng, b: LatLng, sway: number): LatLng[] {
  const length = distanceMeters(a, b);
  const n = Math.max(2, Math.min(200, Math.ceil(length / 2_000) + 1));
  const side = (bearing(a, b) + 90) % 360;
  const out: LatLng[] = [];
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    const base = interpolate(a, b, t);
    const bend = Math.sin(Math.PI * t) * (0.6 * Math.sin(3 * Math.PI * t) + 0.4) * sway * length;
    out.push(round5(i === 0 ? a : i === n - 1 ? b : offset(base, bend, side)));
  }
  return out;
}

const LAT_LNG_TEXT = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** "lat,lng" text ("38.72,-9.14") as a point, range unchecked; undefined when it is not that form. */
export function parseLatLngText(text: string): LatLng | undefined {
  const m = LAT_LNG_TEXT.exec(text);
  return m ? { latitude: Number(m[1]), longitude: Number(m[2]) } : undefined;
}

/** Latitude in [-90, 90] and longitude in [-180, 180]. */
export function inRange(p: LatLng): boolean {
  return Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180;
}

export function pathLength(points: readonly LatLng[]): number {
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += distanceMeters(points[i - 1], points[i]);
  return sum;
}

export interface Viewport {
  low: LatLng;
  high: LatLng;
}

export function boundsOf(points: readonly LatLng[]): Viewport {
  let [s, w, n, e] = [90, 180, -90, -180];
  for (const p of points) {
    s = Math.min(s, p.latitude);
    n = Math.max(n, p.latitude);
    w = Math.min(w, p.longitude);
    e = Math.max(e, p.longitude);
  }
  return { low: { latitude: s, longitude: w }, high: { latitude: n, longitude: e } };
}

/** A square viewport of `radiusMeters` around p. */
export function viewportAround(p: LatLng, radiusMeters: number): Viewport {
  const sw = offset(offset(p, radiusMeters, 180), radiusMeters, 270);
  const ne = offset(offset(p, radiusMeters, 0), radiusMeters, 90);
  return { low: round7(sw), high: round7(ne) };
}

export function inViewport(p: LatLng, v: Viewport): boolean {
  const inLat = p.latitude >= v.low.latitude && p.latitude <= v.high.latitude;
  // A viewport whose low longitude is east of its high one crosses the antimeridian.
  const inLng =
    v.low.longitude <= v.high.longitude
      ? p.longitude >= v.low.longitude && p.longitude <= v.high.longitude
      : p.longitude >= v.low.longitude || p.longitude <= v.high.longitude;
  return inLat && inLng;
}

function round7(p: LatLng): LatLng {
  return { latitude: Math.round(p.latitude * 1e7) / 1e7, longitude: Math.round(p.longitude * 1e7) / 1e7 };
}

/** google.protobuf.Duration in JSON: seconds with 0, 3, 6 or 9 fractional digits and an "s". */
export function durationString(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(3)}s`;
}

const OLC_ALPHABET = '23456789CFGHJMPQRVWX';
const OLC_RESOLUTIONS = [20, 1, 0.05, 0.0025, 0.000125];

/** Open Location Code ("plus code") of p at 10 digits (~14 m), e.g. "8FQ6QVJV+9C". */
export function plusCode(p: LatLng): string {
  // Work in integer units of the finest step so float error cannot push a digit to 20.
  const unit = 8000;
  let lat = Math.floor((Math.min(Math.max(p.latitude, -90), 90) + 90) * unit);
  let lng = Math.floor(((((p.longitude + 180) % 360) + 360) % 360) * unit);
  lat = Math.min(lat, 180 * unit - 1);
  let code = '';
  for (let i = 0; i < OLC_RESOLUTIONS.length; i++) {
    const step = Math.round(OLC_RESOLUTIONS[i] * unit);
    const dLat = Math.floor(lat / step);
    const dLng = Math.floor(lng / step);
    lat -= dLat * step;
    lng -= dLng * step;
    code += OLC_ALPHABET[dLat] + OLC_ALPHABET[dLng];
    if (i === 3) code += '+';
  }
  return code;
}
