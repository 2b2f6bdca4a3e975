// Routes API v2: directions/v2:computeRoutes and distanceMatrix/v2:computeRouteMatrix.
// The sandbox has no road graph: a leg follows the great circle, bent into a road-like curve,
// with a per-mode detour factor and speed that give realistic distances and durations.
import { runSliced, TimeSlicer } from '../../core/timeSlicer';
import * as z from 'zod/mini';
import { encodePolyline } from '../../services/maps/polyline';
import { gazetteer, placeIdOf } from './gazetteer';
import {
  bearing,
  boundsOf,
  compassWord,
  distanceMeters,
  durationString,
  inRange,
  interpolate,
  parseLatLngText,
  pathLength,
  roadPath,
  type LatLng,
} from './geo';
import { poiByPlaceId, poiName } from './kinds';
import { badRequest, invalidArgument } from './rpc';

const latLng = z.strictObject({ latitude: z.optional(z.number()), longitude: z.optional(z.number()) });
export const Waypoint = z.strictObject({
  location: z.optional(z.strictObject({ latLng: z.optional(latLng), heading: z.optional(z.number()) })),
  placeId: z.optional(z.string()),
  address: z.optional(z.string()),
  navigationPointToken: z.optional(z.string()),
  via: z.optional(z.boolean()),
  vehicleStopover: z.optional(z.boolean()),
  sideOfRoad: z.optional(z.boolean()),
});
export type Waypoint = z.infer<typeof Waypoint>;

export const TRAVEL_MODES = ['DRIVE', 'BICYCLE', 'WALK', 'TWO_WHEELER', 'TRANSIT'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];
const travelMode = z.optional(z.enum(['TRAVEL_MODE_UNSPECIFIED', ...TRAVEL_MODES]));
const routingPreference = z.optional(z.enum(['ROUTING_PREFERENCE_UNSPECIFIED', 'TRAFFIC_UNAWARE', 'TRAFFIC_AWARE', 'TRAFFIC_AWARE_OPTIMAL']));
const units = z.optional(z.enum(['UNITS_UNSPECIFIED', 'METRIC', 'IMPERIAL']));
const time = z.optional(z.string());

export const ComputeRoutesRequest = z.strictObject({
  origin: z.optional(Waypoint),
  destination: z.optional(Waypoint),
  intermediates: z.optional(z.array(Waypoint)),
  travelMode,
  routingPreference,
  polylineQuality: z.optional(z.enum(['POLYLINE_QUALITY_UNSPECIFIED', 'HIGH_QUALITY', 'OVERVIEW'])),
  polylineEncoding: z.optional(z.enum(['POLYLINE_ENCODING_UNSPECIFIED', 'ENCODED_POLYLINE', 'GEO_JSON_LINESTRING'])),
  departureTime: time,
  arrivalTime: time,
  computeAlternativeRoutes: z.optional(z.boolean()),
  routeModifiers: z.optional(z.unknown()),
  languageCode: z.optional(z.string()),
  regionCode: z.optional(z.string()),
  units,
  optimizeWaypointOrder: z.optional(z.boolean()),
  requestedReferenceRoutes: z.optional(z.array(z.string())),
  extraComputations: z.optional(z.array(z.string())),
  trafficModel: z.optional(z.string()),
  transitPreferences: z.optional(z.unknown()),
});
export type ComputeRoutesRequest = z.infer<typeof ComputeRoutesRequest>;

const matrixOrigin = z.strictObject({ waypoint: z.optional(Waypoint), routeModifiers: z.optional(z.unknown()) });
const matrixDestination = z.strictObject({ waypoint: z.optional(Waypoint) });
export const ComputeRouteMatrixRequest = z.strictObject({
  origins: z.optional(z.array(matrixOrigin)),
  destinations: z.optional(z.array(matrixDestination)),
  travelMode,
  routingPreference,
  departureTime: time,
  arrivalTime: time,
  languageCode: z.optional(z.string()),
  regionCode: z.optional(z.string()),
  units,
  extraComputations: z.optional(z.array(z.string())),
  trafficModel: z.optional(z.string()),
  transitPreferences: z.optional(z.unknown()),
});
export type ComputeRouteMatrixRequest = z.infer<typeof ComputeRouteMatrixRequest>;

interface ModeProfile {
  /** Road distance / great-circle distance. */
  detour: number;
  /** Average speed in m/s for a trip of `meters`. */
  speed(meters: number): number;
  /** Fixed time added per leg (waiting for transit). */
  overheadSeconds: number;
  /** How far the drawn path bends, as a fraction of the leg. */
  sway: number;
}

// Cars average ~50 km/h in town and approach ~97 km/h on long trips (motorways dominate).
const driveSpeed = (m: number) => 13 + 14 * (1 - Math.exp(-m / 60_000));
const PROFILES: Record<TravelMode, ModeProfile> = {
  DRIVE: { detour: 1.25, speed: driveSpeed, overheadSeconds: 0, sway: 0.05 },
  TWO_WHEELER: { detour: 1.22, speed: (m) => 0.85 * driveSpeed(m), overheadSeconds: 0, sway: 0.05 },
  BICYCLE: { detour: 1.2, speed: () => 4.5, overheadSeconds: 0, sway: 0.04 },
  WALK: { detour: 1.15, speed: () => 1.35, overheadSeconds: 0, sway: 0.03 },
  TRANSIT: { detour: 1.3, speed: () => 9, overheadSeconds: 360, sway: 0.06 },
};

/** Legs longer than this (great circle) have no road route: an ocean is in the way. */
const MAX_LEG_METERS = 5_000_000;
const MAX_INTERMEDIATES = 25;
const MAX_MATRIX_ELEMENTS = 625;
const MAX_MATRIX_ELEMENTS_WITH_ADDRESSES = 50;

interface Resolved {
  point: LatLng;
  name?: string;
  geocoded?: { placeId: string; types: string[] };
}
type Resolution = { ok: true; value: Resolved } | { ok: false; message: string };

function resolve(w: Waypoint | undefined, field: string): Resolution {
  if (!w) throw invalidArgument(`${field} must be set.`);
  const kinds = [w.location, w.placeId, w.address, w.navigationPointToken].filter((x) => x !== undefined).length;
  if (kinds !== 1) throw invalidArgument(`${field} must set exactly one of location, place_id, address or navigation_point_token.`);
  if (w.location) {
    const ll = w.location.latLng;
    const p = { latitude: ll?.latitude ?? 0, longitude: ll?.longitude ?? 0 };
    if (Math.abs(p.latitude) > 90 || Math.abs(p.longitude) > 180) throw invalidArgument(`Invalid ${field}.location.lat_lng: out of range.`);
    return { ok: true, value: { point: p } };
  }
  const g = gazetteer();
  if (w.placeId !== undefined) {
    const city = g.byPlaceId(w.placeId);
    if (city) return { ok: true, value: { point: city.location, name: city.name, geocoded: { placeId: w.placeId, types: ['locality', 'political'] } } };
    // A place from autocomplete or a kind search ("pizza in Mountain View").
    const poi = poiByPlaceId(w.placeId);
    if (poi) return { ok: true, value: { point: poi.location, name: poiName(poi), geocoded: { placeId: w.placeId, types: [...poi.kind.types] } } };
    return { ok: false, message: `Place ID "${w.placeId}" was not found.` };
  }
  if (w.address !== undefined) {
    const p = parseLatLngText(w.address);
    if (p && inRange(p)) return { ok: true, value: { point: p } };
    const city = g.search(w.address, {}, 1)[0];
    if (!city) return { ok: false, message: `Address "${w.address}" could not be geocoded.` };
    return { ok: true, value: { point: city.location, name: city.name, geocoded: { placeId: placeIdOf(city), types: ['locality', 'political'] } } };
  }
  return { ok: false, message: 'Navigation point tokens are not supported by the sandbox.' };
}

function modeOf(m: string | undefined): TravelMode {
  return m === undefined || m === 'TRAVEL_MODE_UNSPECIFIED' ? 'DRIVE' : (m as TravelMode);
}

function checkPreference(mode: TravelMode, pref: string | undefined): void {
  if (pref && pref !== 'ROUTING_PREFERENCE_UNSPECIFIED' && mode !== 'DRIVE' && mode !== 'TWO_WHEELER') {
    throw invalidArgument('Routing preference can only be set for the DRIVE and TWO_WHEELER travel modes.');
  }
}

interface Leg {
  points: LatLng[];
  distance: number;
  staticSeconds: number;
  seconds: number;
}

function leg(a: LatLng, b: LatLng, mode: TravelMode, pref: string | undefined, sway = PROFILES[mode].sway): Leg | undefined {
  const direct = distanceMeters(a, b);
  if (direct > MAX_LEG_METERS) return undefined;
  const p = PROFILES[mode];
  const points = roadPath(a, b, sway);
  const distance = Math.round(Math.max(pathLength(points), direct * p.detour));
  const staticSeconds = distance === 0 ? 0 : Math.round(distance / p.speed(distance) + p.overheadSeconds);
  // Traffic-aware routing adds typical congestion to the free-flow time.
  const traffic = pref === 'TRAFFIC_AWARE' || pref === 'TRAFFIC_AWARE_OPTIMAL' ? 1.12 : 1;
  return { points, distance, staticSeconds, seconds: Math.round(staticSeconds * traffic) };
}

function distanceText(meters: number, imperial: boolean): string {
  if (imperial) {
    const miles = meters / 1609.344;
    return miles < 0.1 ? `${Math.round(meters * 3.28084)} ft` : `${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;
  }
  return meters < 1000 ? `${Math.round(meters)} m` : `${meters < 10_000 ? (meters / 1000).toFixed(1) : Math.round(meters / 1000)} km`;
}

function durationText(seconds: number): string {
  const mins = Math.max(1, Math.round(seconds / 60));
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (mins < 60) return plural(mins, 'min');
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  if (h >= 24) return `${plural(Math.floor(h / 24), 'day')} ${plural(h % 24, 'hour')}`;
  return m ? `${plural(h, 'hour')} ${plural(m, 'min')}` : plural(h, 'hour');
}

function localized(distance: number, seconds: number, staticSeconds: number, imperial: boolean) {
  return {
    distance: { text: distanceText(distance, imperial) },
    duration: { text: durationText(seconds) },
    staticDuration: { text: durationText(staticSeconds) },
  };
}

/** proto3 JSON leaves out zero integers (distanceMeters of an empty leg). */
function meters(n: number): { distanceMeters?: number } {
  return n ? { distanceMeters: n } : {};
}

type Encoding = ComputeRoutesRequest['polylineEncoding'];
function polylineJson(points: LatLng[], encoding: Encoding, overview: boolean): Record<string, unknown> {
  const pts = overview && points.length > 10 ? points.filter((_, i) => i % 4 === 0 || i === points.length - 1) : points;
  if (encoding === 'GEO_JSON_LINESTRING') return { geoJsonLinestring: { type: 'LineString', coordinates: pts.map((p) => [p.longitude, p.latitude]) } };
  return { encodedPolyline: encodePolyline(pts) };
}

const MANEUVER_BY_TURN: Array<[number, string]> = [
  [-150, 'UTURN_LEFT'],
  [-60, 'TURN_LEFT'],
  [-20, 'TURN_SLIGHT_LEFT'],
  [20, 'STRAIGHT'],
  [60, 'TURN_SLIGHT_RIGHT'],
  [150, 'TURN_RIGHT'],
  [181, 'UTURN_RIGHT'],
];

function steps(l: Leg, toName: string | undefined, mode: TravelMode, encoding: Encoding, imperial: boolean): unknown[] {
  const n = l.points.length;
  const cuts = [0, ...[1, 2, 3].map((k) => Math.round((k * (n - 1)) / 4)).filter((c) => c > 0 && c < n - 1), n - 1];
  const unique = [...new Set(cuts)];
  const out: unknown[] = [];
  let prevBearing: number | undefined;
  for (let i = 1; i < unique.length; i++) {
    const pts = l.points.slice(unique[i - 1], unique[i] + 1);
    const share = pathLength(pts) / Math.max(1, pathLength(l.points));
    const dist = Math.round(l.distance * share);
    const secs = Math.round(l.staticSeconds * share);
    const b = bearing(pts[0], pts[pts.length - 1]);
    let maneuver = 'DEPART';
    let instructions = `Head ${compassWord(b)}${toName ? ` toward ${toName}` : ''}`;
    if (prevBearing !== undefined) {
      const turn = ((b - prevBearing + 540) % 360) - 180;
      maneuver = MANEUVER_BY_TURN.find(([limit]) => turn < limit)?.[1] ?? 'STRAIGHT';
      instructions =
        maneuver === 'STRAIGHT'
          ? `Continue ${compassWord(b)}`
          : `${maneuver.startsWith('UTURN') ? 'Make a U-turn' : maneuver.includes('SLIGHT') ? 'Slight ' + (turn < 0 ? 'left' : 'right') : 'Turn ' + (turn < 0 ? 'left' : 'right')} to head ${compassWord(b)}`;
    }
    if (i === unique.length - 1 && toName) instructions += `\nDestination will be near ${toName}`;
    prevBearing = b;
    out.push({
      ...meters(dist),
      staticDuration: durationString(secs),
      polyline: polylineJson(pts, encoding, false),
      startLocation: { latLng: pts[0] },
      endLocation: { latLng: pts[pts.length - 1] },
      navigationInstruction: { maneuver, instructions },
      localizedValues: { distance: { text: distanceText(dist, imperial) }, staticDuration: { text: durationText(secs) } },
      travelMode: mode,
    });
  }
  return out;
}

function geocodedWaypoint(r: Resolution, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (!r.ok) return { geocoderStatus: { code: 5, message: r.message }, ...extra };
  return { geocoderStatus: {}, type: r.value.geocoded?.types ?? [], placeId: r.value.geocoded?.placeId, ...extra };
}

export function computeRoutes(req: ComputeRoutesRequest): Record<string, unknown> {
  const mode = modeOf(req.travelMode);
  checkPreference(mode, req.routingPreference);
  const intermediates = req.intermediates ?? [];
  if (intermediates.length > MAX_INTERMEDIATES) throw invalidArgument(`Too many intermediate waypoints: at most ${MAX_INTERMEDIATES} are allowed.`);
  if (mode === 'TRANSIT' && intermediates.length) throw invalidArgument('Intermediate waypoints are not supported for the TRANSIT travel mode.');
  if (req.departureTime && req.arrivalTime) throw invalidArgument('Only one of departure_time and arrival_time may be set.');

  const origin = resolve(req.origin, 'origin');
  const destination = resolve(req.destination, 'destination');
  const stops = intermediates.map((w, i) => resolve(w, `intermediates[${i}]`));

  const geocodingResults: Record<string, unknown> = {};
  if (req.origin?.address !== undefined || req.origin?.placeId !== undefined) geocodingResults.origin = geocodedWaypoint(origin);
  if (req.destination?.address !== undefined || req.destination?.placeId !== undefined) geocodingResults.destination = geocodedWaypoint(destination);
  const geocodedStops = intermediates
    .map((w, i) => (w.address !== undefined || w.placeId !== undefined ? geocodedWaypoint(stops[i], { intermediateWaypointRequestIndex: i }) : undefined))
    .filter((x) => x !== undefined);
  if (geocodedStops.length) geocodingResults.intermediates = geocodedStops;
  const withGeocoding = (body: Record<string, unknown>) => (Object.keys(geocodingResults).length ? { ...body, geocodingResults } : body);

  const all = [origin, ...stops, destination];
  const resolved: Resolved[] = [];
  for (const r of all) {
    if (!r.ok) return withGeocoding({});
    resolved.push(r.value);
  }

  const imperial = req.units === 'IMPERIAL';
  const overview = req.polylineQuality === 'OVERVIEW';
  const build = (sway: number | undefined, labels: string[]): Record<string, unknown> | undefined => {
    const legs: Leg[] = [];
    for (let i = 1; i < resolved.length; i++) {
      const l = leg(resolved[i - 1].point, resolved[i].point, mode, req.routingPreference, sway);
      if (!l) return undefined;
      legs.push(l);
    }
    const points = legs.flatMap((l, i) => (i === 0 ? l.points : l.points.slice(1)));
    const distance = legs.reduce((s, l) => s + l.distance, 0);
    const seconds = legs.reduce((s, l) => s + l.seconds, 0);
    const staticSeconds = legs.reduce((s, l) => s + l.staticSeconds, 0);
    const mid = gazetteer().nearest(interpolate(resolved[0].point, resolved[resolved.length - 1].point, 0.5), 60_000);
    return {
      routeLabels: labels,
      legs: legs.map((l, i) => ({
        ...meters(l.distance),
        duration: durationString(l.seconds),
        staticDuration: durationString(l.staticSeconds),
        polyline: polylineJson(l.points, req.polylineEncoding, overview),
        startLocation: { latLng: l.points[0] },
        endLocation: { latLng: l.points[l.points.length - 1] },
        steps: steps(l, resolved[i + 1].name, mode, req.polylineEncoding, imperial),
        localizedValues: localized(l.distance, l.seconds, l.staticSeconds, imperial),
      })),
      ...meters(distance),
      duration: durationString(seconds),
      staticDuration: durationString(staticSeconds),
      polyline: polylineJson(points, req.polylineEncoding, overview),
      description: mid ? `via ${mid.city.name}` : `${compassWord(bearing(resolved[0].point, resolved[resolved.length - 1].point))}bound`,
      warnings:
        mode === 'WALK' || mode === 'BICYCLE'
          ? [`${mode === 'WALK' ? 'Walking' : 'Bicycling'} routes may be missing sidewalks or paths (sandbox route: no road network).`]
          : [],
      viewport: boundsOf(points),
      travelAdvisory: {},
      localizedValues: localized(distance, seconds, staticSeconds, imperial),
    };
  };

  const main = build(undefined, ['DEFAULT_ROUTE']);
  if (!main) return withGeocoding({});
  const routes = [main];
  // Alternatives are only offered for routes without intermediate waypoints, as in the real API.
  if (req.computeAlternativeRoutes && !intermediates.length) {
    const alt = build(-PROFILES[mode].sway * 2.2, ['DEFAULT_ROUTE_ALTERNATE']);
    if (alt) routes.push(alt);
  }
  return withGeocoding({ routes });
}

/**
 * A matrix of up to 625 routes is tens of milliseconds of work: done in time slices, so that other
 * requests and the realtime server's WebSockets are served while a burst of matrices is computed.
 * `slicer`: how long a piece of the work may hold the thread (a test gives one that is always used up).
 */
export function computeRouteMatrix(req: ComputeRouteMatrixRequest, slicer = new TimeSlicer()): Promise<unknown[]> {
  return runSliced(routeMatrixSteps(req, slicer), slicer);
}

function* routeMatrixSteps(req: ComputeRouteMatrixRequest, slicer: TimeSlicer): Generator<void, unknown[]> {
  const mode = modeOf(req.travelMode);
  checkPreference(mode, req.routingPreference);
  const origins = req.origins ?? [];
  const destinations = req.destinations ?? [];
  if (!origins.length || !destinations.length) throw invalidArgument('origins and destinations must each contain at least one waypoint.');
  const elements = origins.length * destinations.length;
  const named = [...origins, ...destinations].some((o) => o.waypoint?.address !== undefined || o.waypoint?.placeId !== undefined);
  const max = named ? MAX_MATRIX_ELEMENTS_WITH_ADDRESSES : MAX_MATRIX_ELEMENTS;
  if (elements > max) {
    throw badRequest([
      {
        field: 'origins',
        description: `The request has ${elements} elements (origins × destinations); at most ${max} are allowed${named ? ' when any waypoint is a place ID or an address' : ''}.`,
      },
    ]);
  }
  const from = origins.map((o, i) => resolve(o.waypoint, `origins[${i}].waypoint`));
  const to = destinations.map((d, i) => resolve(d.waypoint, `destinations[${i}].waypoint`));
  const imperial = req.units === 'IMPERIAL';
  const out: unknown[] = [];
  for (const [originIndex, a] of from.entries()) {
    for (const [destinationIndex, b] of to.entries()) {
      if (slicer.expired()) yield;
      if (!a.ok || !b.ok) {
        out.push({ originIndex, destinationIndex, status: { code: 5, message: !a.ok ? a.message : (b as { message: string }).message } });
        continue;
      }
      const l = leg(a.value.point, b.value.point, mode, req.routingPreference);
      if (!l) {
        out.push({ originIndex, destinationIndex, status: {}, condition: 'ROUTE_NOT_FOUND' });
        continue;
      }
      out.push({
        originIndex,
        destinationIndex,
        status: {},
        condition: 'ROUTE_EXISTS',
        ...meters(l.distance),
        duration: durationString(l.seconds),
        staticDuration: durationString(l.staticSeconds),
        travelAdvisory: {},
        localizedValues: localized(l.distance, l.seconds, l.staticSeconds, imperial),
      });
    }
  }
  return out;
}
