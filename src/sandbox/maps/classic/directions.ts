// Classic Directions and Distance Matrix, GET /maps/api/{directions,distancematrix}/json. Each stop
// is geocoded by the sandbox's geocoder (an address, "lat,lng" or "place_id:…"), then the Routes v2
// builder draws the route; the answer is rewritten in the classic shape.
import * as z from 'zod/mini';
import { geocodeAddress, geocodeLocation } from '../geocoding';
import { inRange, parseLatLngText, type LatLng, type Viewport } from '../geo';
import { getPlace } from '../places';
import { computeRouteMatrix, computeRoutes, type TravelMode, type Waypoint } from '../routes';
import { bounds, latLng, seconds, textValue, type Json } from './shapes';
import { ClassicError, invalidParameter, missingParameter, param, queryParams } from './status';

/** One stop as the classic services name it, and the Routes v2 waypoint it stands for (none when it could not be geocoded). */
interface Stop {
  waypoint?: Waypoint;
  address: string;
  placeId?: string;
  types: string[];
}

function stop(text: string): Stop {
  const notFound: Stop = { address: '', types: [] };
  if (text.startsWith('place_id:')) {
    const id = text.slice('place_id:'.length);
    try {
      const p = getPlace(id);
      return { waypoint: { placeId: id }, address: String(p.formattedAddress), placeId: id, types: p.types as string[] };
    } catch {
      return notFound;
    }
  }
  const p = parseLatLngText(text);
  if (p && inRange(p)) {
    // A point is reverse geocoded for its address, as Google does.
    const near = (geocodeLocation(`${p.latitude},${p.longitude}`, new URLSearchParams()).results as Json[] | undefined)?.[0];
    return {
      waypoint: { location: { latLng: p } },
      address: near ? String(near.formattedAddress) : text,
      placeId: near?.placeId as string,
      types: (near?.types as string[]) ?? [],
    };
  }
  const found = (geocodeAddress(text, new URLSearchParams()).results as Json[] | undefined)?.[0];
  if (!found) return notFound;
  return {
    waypoint: { placeId: String(found.placeId) },
    address: String(found.formattedAddress),
    placeId: String(found.placeId),
    types: found.types as string[],
  };
}

function geocodedWaypoint(s: Stop): Json {
  return s.waypoint ? { geocoder_status: 'OK', place_id: s.placeId, types: s.types } : { geocoder_status: 'ZERO_RESULTS' };
}

const MODES: Record<string, TravelMode> = { driving: 'DRIVE', walking: 'WALK', bicycling: 'BICYCLE', transit: 'TRANSIT' };

function modeOf(text: string | undefined): { mode: TravelMode; name: string } {
  const name = (text ?? 'driving').toLowerCase();
  const mode = MODES[name];
  if (!mode) throw invalidParameter('mode');
  return { mode, name: name.toUpperCase() };
}

function unitsOf(text: string | undefined): 'IMPERIAL' | 'METRIC' {
  if (text === undefined || text === 'metric') return 'METRIC';
  if (text === 'imperial') return 'IMPERIAL';
  throw invalidParameter('units');
}

const MAX_WAYPOINTS = 25;

/** `waypoints=optimize:true|via:Porto|Coimbra` as intermediate stops (order kept: the sandbox does not reorder). */
function intermediates(text: string | undefined): Array<{ text: string; via: boolean }> {
  const parts = (text ?? '').split('|').filter((p) => p.trim() && p !== 'optimize:true');
  if (parts.length > MAX_WAYPOINTS)
    throw new ClassicError('MAX_WAYPOINTS_EXCEEDED', `Too many waypoints in the request: at most ${MAX_WAYPOINTS} are allowed.`);
  return parts.map((p) => (p.startsWith('via:') ? { text: p.slice(4), via: true } : { text: p, via: false }));
}

/** Routes v2 says "Head north\nDestination will be near Lisbon"; the classic services send HTML. */
function htmlInstructions(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const [first, ...notes] = text.split('\n');
  return esc(first) + notes.map((n) => `<div style="font-size:0.9em">${esc(n)}</div>`).join('');
}

interface NewStep {
  distanceMeters?: number;
  staticDuration: string;
  polyline: { encodedPolyline: string };
  startLocation: { latLng: LatLng };
  endLocation: { latLng: LatLng };
  navigationInstruction: { maneuver: string; instructions: string };
  localizedValues: { distance: { text: string }; staticDuration: { text: string } };
}

interface NewLeg {
  distanceMeters?: number;
  duration: string;
  startLocation: { latLng: LatLng };
  endLocation: { latLng: LatLng };
  steps: NewStep[];
  localizedValues: { distance: { text: string }; duration: { text: string } };
}

function classicRoute(r: Json, stops: Stop[], travelMode: string, waypointCount: number): Json {
  const legs = r.legs as NewLeg[];
  return {
    bounds: bounds(r.viewport as Viewport),
    copyrights: 'Sandbox data: GeoNames (CC BY 4.0); roads are drawn, not surveyed',
    legs: legs.map((l, i) => ({
      distance: textValue(l.localizedValues.distance.text, l.distanceMeters ?? 0),
      duration: textValue(l.localizedValues.duration.text, seconds(l.duration)),
      end_address: stops[i + 1].address,
      end_location: latLng(l.endLocation.latLng),
      start_address: stops[i].address,
      start_location: latLng(l.startLocation.latLng),
      steps: l.steps.map((s) => ({
        distance: textValue(s.localizedValues.distance.text, s.distanceMeters ?? 0),
        duration: textValue(s.localizedValues.staticDuration.text, seconds(s.staticDuration)),
        end_location: latLng(s.endLocation.latLng),
        html_instructions: htmlInstructions(s.navigationInstruction.instructions),
        // The first step has no maneuver in the classic answer; the rest read "turn-slight-left".
        ...(s.navigationInstruction.maneuver !== 'DEPART' ? { maneuver: s.navigationInstruction.maneuver.toLowerCase().replace(/_/g, '-') } : {}),
        polyline: { points: s.polyline.encodedPolyline },
        start_location: latLng(s.startLocation.latLng),
        travel_mode: travelMode,
      })),
      traffic_speed_entry: [],
      via_waypoint: [],
    })),
    overview_polyline: { points: (r.polyline as { encodedPolyline: string }).encodedPolyline },
    summary: typeof r.description === 'string' ? r.description.replace(/^via /, '') : '',
    warnings: r.warnings ?? [],
    waypoint_order: Array.from({ length: waypointCount }, (_, i) => i),
  };
}

/** The travel parameters Directions and Distance Matrix share. */
const travelParams = { mode: param, units: param, avoid: param, language: param, region: param, departure_time: param, arrival_time: param };

const DirectionsQuery = z.object({ ...travelParams, origin: param, destination: param, waypoints: param, alternatives: param });

export function classicDirections(url: URL): Json {
  const q = queryParams(DirectionsQuery, url);
  if (q.origin === undefined) throw missingParameter('origin');
  if (q.destination === undefined) throw missingParameter('destination');
  const { mode, name } = modeOf(q.mode);
  const units = unitsOf(q.units);
  if (q.departure_time !== undefined && q.arrival_time !== undefined)
    throw new ClassicError('INVALID_REQUEST', 'Invalid request. Only one of departure_time and arrival_time may be set.');
  const middle = intermediates(q.waypoints);
  const stops = [stop(q.origin), ...middle.map((w) => stop(w.text)), stop(q.destination)];
  const geocoded_waypoints = stops.map(geocodedWaypoint);
  if (stops.some((s) => !s.waypoint)) return { geocoded_waypoints, routes: [], status: 'NOT_FOUND' };
  const answer = computeRoutes({
    origin: stops[0].waypoint,
    destination: stops[stops.length - 1].waypoint,
    intermediates: middle.map((w, i) => ({ ...stops[i + 1].waypoint, ...(w.via ? { via: true } : {}) })),
    travelMode: mode,
    units,
    computeAlternativeRoutes: q.alternatives === 'true',
  });
  const routes = ((answer.routes as Json[] | undefined) ?? []).map((r) => classicRoute(r, stops, name, middle.length));
  return routes.length ? { geocoded_waypoints, routes } : { geocoded_waypoints, routes: [], status: 'ZERO_RESULTS' };
}

const MAX_DIMENSION = 25;
const MAX_ELEMENTS = 100;

const MatrixQuery = z.object({ ...travelParams, origins: param, destinations: param });

interface NewElement {
  destinationIndex?: number;
  status: { code?: number };
  condition?: string;
  distanceMeters?: number;
  duration?: string;
  localizedValues?: { distance: { text: string }; duration: { text: string } };
}

function classicElement(e: NewElement | undefined): Json {
  if (!e || e.status.code) return { status: 'NOT_FOUND' };
  if (e.condition !== 'ROUTE_EXISTS' || !e.localizedValues) return { status: 'ZERO_RESULTS' };
  return {
    distance: textValue(e.localizedValues.distance.text, e.distanceMeters ?? 0),
    duration: textValue(e.localizedValues.duration.text, seconds(e.duration)),
    status: 'OK',
  };
}

export async function classicDistanceMatrix(url: URL): Promise<Json> {
  const q = queryParams(MatrixQuery, url);
  if (q.origins === undefined) throw missingParameter('origins');
  if (q.destinations === undefined) throw missingParameter('destinations');
  const { mode } = modeOf(q.mode);
  const units = unitsOf(q.units);
  const originTexts = q.origins.split('|').filter((t) => t.trim());
  const destinationTexts = q.destinations.split('|').filter((t) => t.trim());
  if (originTexts.length > MAX_DIMENSION || destinationTexts.length > MAX_DIMENSION)
    throw new ClassicError('MAX_DIMENSIONS_EXCEEDED', `Too many origins or destinations: at most ${MAX_DIMENSION} of each are allowed.`);
  if (originTexts.length * destinationTexts.length > MAX_ELEMENTS)
    throw new ClassicError('MAX_ELEMENTS_EXCEEDED', `Too many elements (origins × destinations): at most ${MAX_ELEMENTS} are allowed.`);
  // Each distinct stop is geocoded once (a matrix often names the same places on both sides).
  const geocoded = new Map<string, Stop>();
  const stopOnce = (text: string) => geocoded.get(text) ?? geocoded.set(text, stop(text)).get(text)!;
  const origins = originTexts.map(stopOnce);
  const destinations = destinationTexts.map(stopOnce);
  const found = destinations.flatMap((d, index) => (d.waypoint ? [{ index, waypoint: d.waypoint }] : []));
  const rows = [];
  for (const o of origins) {
    if (!o.waypoint || !found.length) {
      rows.push({ elements: destinations.map(() => ({ status: 'NOT_FOUND' })) });
      continue;
    }
    // One origin at a time: a row (≤ 25 elements) stays within the Routes v2 limit for named places.
    const row = (await computeRouteMatrix({
      origins: [{ waypoint: o.waypoint }],
      destinations: found.map((d) => ({ waypoint: d.waypoint })),
      travelMode: mode,
      units,
    })) as NewElement[];
    const byDestination = new Map(row.map((e) => [found[e.destinationIndex ?? 0].index, e]));
    rows.push({ elements: destinations.map((_, i) => classicElement(byDestination.get(i))) });
  }
  return { destination_addresses: destinations.map((d) => d.address), origin_addresses: origins.map((o) => o.address), rows };
}
