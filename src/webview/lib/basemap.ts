// The offline basemap's data, free of Leaflet and the DOM (so plain mocha tests it): Natural Earth's
// 1:110m countries as TopoJSON (the `world-atlas` package, copied beside the webview bundles at
// build time as BASEMAP_FILE) decoded with topojson-client into what the map draws — land to fill,
// coastlines, borders between countries — and a graticule whose spacing suits the view.
//
// Projection: the map stays in Leaflet's Web Mercator (EPSG:3857), the projection of every tile
// service, so the same view can gain tiles when the network returns and a city-scale route is not
// distorted. Mercator cannot show the poles, so lines are clipped at its latitude limit.
import type { GeometryCollection, Topology } from 'topojson-specification';
import { feature, mesh } from 'topojson-client';
import * as z from 'zod/mini';

/** Where the build puts the TopoJSON: beside dist/webview/map.js and resultRenderer.js. */
export const BASEMAP_FILE = 'countries-110m.json';
export const BASEMAP_ATTRIBUTION = 'Natural Earth (1:110m, offline basemap)';
/** Web Mercator's latitude limit (the square world of tile services). */
export const MERCATOR_MAX_LAT = 85.051129;

export type LatLng = [number, number];
/** A polyline in Leaflet's [lat, lng] order. */
export type Line = LatLng[];
/** Polygon rings (first the outline, then holes) in [lat, lng]. */
export type Polygon = Line[];

export interface Basemap {
  /** Land, one entry per country: polygons with their holes, and the country's name. */
  countries: Array<{ name: string; polygons: Polygon[] }>;
  /** Arcs that border only one country: coastlines (and the edge of Antarctica). */
  coastlines: Line[];
  /** Arcs shared by two countries: land borders. */
  borders: Line[];
}

// Only what decoding relies on is checked; topojson-client reads the rest.
const topologySchema = z.object({
  type: z.literal('Topology'),
  arcs: z.array(z.array(z.array(z.number()))),
  objects: z.object({
    countries: z.object({
      type: z.literal('GeometryCollection'),
      geometries: z.array(z.object({ type: z.nullable(z.string()), properties: z.optional(z.object({ name: z.optional(z.string()) })) })),
    }),
  }),
});

const toLatLng = (p: GeoJSON.Position): LatLng => [p[1], p[0]];
const line = (points: GeoJSON.Position[]): Line => points.map(toLatLng);

/** Decodes the world-atlas TopoJSON; throws with what is wrong when it is not that shape. */
export function decodeBasemap(json: unknown): Basemap {
  const checked = topologySchema.safeParse(json);
  if (!checked.success) throw new Error(`not a world-atlas countries topology: ${checked.error.issues[0]?.message ?? 'unexpected shape'}`);
  const topology = json as Topology<{ countries: GeometryCollection<{ name?: string }> }>;
  const countries = topology.objects.countries;
  const collection = feature(topology, countries);
  const out: Basemap['countries'] = [];
  for (const f of collection.features) {
    const g = f.geometry as GeoJSON.Geometry | null;
    if (!g) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    if (polygons.length) out.push({ name: f.properties?.name ?? '', polygons: polygons.map((rings) => rings.map(line)) });
  }
  // An arc used by one geometry only (a === b) lies on the sea; one shared by two is a border.
  const coastlines = mesh(topology, countries, (a, b) => a === b).coordinates.map(line);
  const borders = mesh(topology, countries, (a, b) => a !== b).coordinates.map(line);
  return { countries: out, coastlines, borders };
}

/** Graticule spacings, in degrees, from which one is picked to suit the view. */
const STEPS = [30, 15, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.02, 0.01];
/** About this many lines across the view's wider side. */
const LINES_ACROSS = 6;

/** The graticule spacing for a view spanning `spanDegrees` (its wider side, in degrees). */
export function graticuleStep(spanDegrees: number): number {
  const wanted = Math.abs(spanDegrees) / LINES_ACROSS;
  return [...STEPS].reverse().find((s) => s >= wanted) ?? STEPS[0];
}

export interface Bounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/**
 * Meridians and parallels every `step` degrees covering `view` (one step beyond each side, so
 * panning a little shows no gap), clipped to the world and to Mercator's latitude limit.
 */
export function graticule(view: Bounds, step: number): { meridians: Line[]; parallels: Line[] } {
  // Rounded so one step beyond 4.78 is 4.68, not 4.680000000000001.
  const round = (v: number) => +v.toFixed(6);
  const clampLat = (v: number) => round(Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, v)));
  const clampLng = (v: number) => round(Math.max(-180, Math.min(180, v)));
  const south = clampLat(view.south - step);
  const north = clampLat(view.north + step);
  const west = clampLng(view.west - step);
  const east = clampLng(view.east + step);
  // Multiples of the step, computed from integers so 0.1-degree lines do not drift.
  const multiples = (from: number, to: number) => {
    const out: number[] = [];
    for (let i = Math.ceil(from / step - 1e-9); i * step <= to + 1e-9; i++) out.push(round(i * step));
    return out;
  };
  return {
    meridians: multiples(west, east).map((lng): Line => [
      [south, lng],
      [north, lng],
    ]),
    parallels: multiples(south, north).map((lat): Line => [
      [lat, west],
      [lat, east],
    ]),
  };
}

/** Even-odd test of a point against polygon rings ([lat, lng]): inside the outline and no hole. */
export function inPolygon(point: LatLng, polygon: Polygon): boolean {
  let inside = false;
  const [y, x] = point;
  for (const ring of polygon) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [yi, xi] = ring[i];
      const [yj, xj] = ring[j];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** The name of the country under a point, or undefined at sea. */
export function countryAt(basemap: Basemap, point: LatLng): string | undefined {
  return basemap.countries.find((c) => c.polygons.some((p) => inPolygon(point, p)))?.name;
}
