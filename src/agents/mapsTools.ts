// maps_search_places and maps_compute_route: Places Text Search and Routes on a maps connection,
// asking only for the fields an agent is given (the field mask decides what Google bills).
import type { HttpConnection } from '../core/connections';
import { mapsClientFor } from '../features/mapsClient';
import { durationSeconds, parseLatLng, type Waypoint } from '../services/maps/client';
import { pickConnection, ToolRefusal, type AgentContext } from './context';
import type { ToolOutput } from './result';
import type { ComputeRouteInput, SearchPlacesInput } from './schemas';

const PLACE_FIELDS = 'places.id,places.displayName,places.formattedAddress,places.location';
const ROUTE_FIELDS = 'routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline';
const DEFAULT_PLACES = 5;

function mapsConnection(ctx: AgentContext, name: string | undefined): HttpConnection {
  const conn = pickConnection(ctx, 'maps', name);
  if (conn.service !== 'maps') throw new ToolRefusal(`"${conn.name}" is not a maps connection`);
  return conn;
}

/** A maps client on the shared factory, each API on its own base URL where the connection names one (Google's hosts differ per API). */
export async function searchPlaces(ctx: AgentContext, input: SearchPlacesInput, signal?: AbortSignal): Promise<ToolOutput> {
  const conn = mapsConnection(ctx, input.connection);
  const max = input.maxResults ?? DEFAULT_PLACES;
  const res = await mapsClientFor(ctx.clients.http, conn).searchText(
    { textQuery: input.query, maxResultCount: max },
    { fieldMask: PLACE_FIELDS, cancel: signal },
  );
  const places = (res.data.places ?? []).slice(0, max).map((p) => ({
    id: p.id ?? null,
    name: p.displayName?.text ?? null,
    address: p.formattedAddress ?? null,
    lat: p.location?.latitude ?? null,
    lng: p.location?.longitude ?? null,
  }));
  const lines = places.map((p, i) => `${i + 1}. ${p.name ?? '(no name)'}: ${p.address ?? '(no address)'} (${p.lat},${p.lng}; id ${p.id})`);
  const text = places.length
    ? `${places.length} place(s) for "${input.query}" on "${conn.name}":\n${lines.join('\n')}`
    : `No places found for "${input.query}" on "${conn.name}".`;
  return { text, structured: { connection: conn.name, query: input.query, places } };
}

/** "52.5,13.4", "places/ChIJ…" (or "place_id:ChIJ…"), or an address. */
export function waypointOf(text: string): Waypoint {
  const latLng = parseLatLng(text);
  if (latLng) return { location: { latLng } };
  const place = /^\s*(?:places\/|place_id:)([^\s/?#]+)\s*$/.exec(text);
  if (place) return { placeId: place[1] };
  return { address: text.trim() };
}

export async function computeRoute(ctx: AgentContext, input: ComputeRouteInput, signal?: AbortSignal): Promise<ToolOutput> {
  const conn = mapsConnection(ctx, input.connection);
  const travelMode = input.travelMode ?? 'DRIVE';
  const res = await mapsClientFor(ctx.clients.http, conn).computeRoutes(
    { origin: waypointOf(input.origin), destination: waypointOf(input.destination), travelMode },
    { fieldMask: ROUTE_FIELDS, cancel: signal },
  );
  const route = res.data.routes?.[0];
  if (!route) {
    return {
      text: `No ${travelMode} route from "${input.origin}" to "${input.destination}" on "${conn.name}": try another travel mode, or more precise places.`,
      structured: { connection: conn.name, travelMode, found: false },
    };
  }
  const distanceMeters = route.distanceMeters ?? null;
  const seconds = durationSeconds(route.duration) ?? null;
  const polyline = route.polyline?.encodedPolyline ?? null;
  const km = distanceMeters === null ? '?' : (distanceMeters / 1000).toFixed(1);
  const minutes = seconds === null ? '?' : Math.round(seconds / 60);
  return {
    text: `${travelMode} from "${input.origin}" to "${input.destination}": ${km} km (${distanceMeters} m), about ${minutes} min (${seconds} s).\nEncoded polyline: ${polyline ?? '(none)'}`,
    structured: { connection: conn.name, travelMode, found: true, distanceMeters, durationSeconds: seconds, polyline },
  };
}
