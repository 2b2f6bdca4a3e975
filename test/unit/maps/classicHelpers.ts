// Requests to the maps sandbox's classic web services, as the classic client libraries send them,
// and the answer's fields the tests read.
import { KEY, raw, type MapsSandbox } from './helpers';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface ClassicPlace {
  place_id: string;
  name: string;
  formatted_address?: string;
  vicinity?: string;
  geometry: { location: LatLng; viewport: { northeast: LatLng; southwest: LatLng }; location_type?: string };
  types: string[];
  rating: number;
  address_components: Array<{ long_name: string; short_name: string; types: string[] }>;
  url: string;
}

export interface ClassicPrediction {
  description: string;
  place_id: string;
  matched_substrings: unknown[];
  structured_formatting: unknown;
  terms: unknown[];
}

export interface TextValue {
  text: string;
  value: number;
}

export interface ClassicLeg {
  distance: TextValue;
  duration: TextValue;
  start_address: string;
  end_address: string;
  start_location: LatLng;
  end_location: LatLng;
  steps: Array<{ html_instructions: string; travel_mode: string; polyline: { points: string }; distance: TextValue; duration: TextValue; maneuver?: string }>;
}

export interface ClassicBody {
  status: string;
  error_message?: string;
  html_attributions: unknown[];
  results: ClassicPlace[];
  result: ClassicPlace;
  next_page_token?: string;
  predictions: ClassicPrediction[];
  geocoded_waypoints: Array<{ geocoder_status: string; place_id?: string; types?: string[] }>;
  routes: Array<{ legs: ClassicLeg[]; overview_polyline: { points: string }; summary: string; bounds: unknown; waypoint_order: number[] }>;
  origin_addresses: string[];
  destination_addresses: string[];
  rows: Array<{ elements: Array<{ status: string; distance?: TextValue; duration?: TextValue }> }>;
}

/** A classic GET with the key in `?key=` (unless `key` is null) and the other parameters URL-encoded. */
export async function classic(
  sb: MapsSandbox,
  service: string,
  params: Record<string, string>,
  key: string | null = KEY,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: ClassicBody }> {
  const query = new URLSearchParams({ ...params, ...(key === null ? {} : { key }) });
  const r = await raw(sb, `/maps/api/${service}/json?${query}`, { headers });
  return { status: r.status, json: r.json as unknown as ClassicBody };
}
