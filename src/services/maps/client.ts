// Client for the Google Maps Platform REST APIs (Places v1, Routes v2, Address Validation v1,
// Geocoding v4) on top of the shared HttpClient: key placement, quotas, retries honouring
// RetryInfo, field masks and zod-validated responses. No vscode import: tested in plain mocha.
import { randomUUID } from 'node:crypto';
import type { Cancel } from '../../core/cancellation';
import type { HttpClient, HttpResponse, RetryNotice } from '../../core/http';
import type { Schema } from '../../core/validate';
import { fieldMaskFor, type MapsOperation, type MaskChoice } from './fieldMasks';
import { decodePolyline, PolylineError, type LatLngLiteral } from './polyline';
import {
  autocompleteResponseSchema,
  computeRoutesResponseSchema,
  geocodeResponseSchema,
  placeSchema,
  routeMatrixResponseSchema,
  searchPlacesResponseSchema,
  validateAddressResponseSchema,
  type AutocompleteResponse,
  type ComputeRoutesResponse,
  type GeocodeResponse,
  type Place,
  type Route,
  type RouteMatrixElement,
  type SearchPlacesResponse,
  type ValidateAddressResponse,
} from './schemas';

/** The four APIs; on Google each has its own host, in the sandbox they share one. */
export type MapsApi = 'places' | 'routes' | 'addressValidation' | 'geocoding';

export const GOOGLE_MAPS_BASE_URLS: Record<MapsApi, string> = {
  places: 'https://places.googleapis.com',
  routes: 'https://routes.googleapis.com',
  addressValidation: 'https://addressvalidation.googleapis.com',
  geocoding: 'https://geocode.googleapis.com',
};

export interface LatLngInput {
  latitude: number;
  longitude: number;
}

export type TravelMode = 'DRIVE' | 'BICYCLE' | 'WALK' | 'TWO_WHEELER' | 'TRANSIT';
export const TRAVEL_MODES: readonly TravelMode[] = ['DRIVE', 'BICYCLE', 'WALK', 'TWO_WHEELER', 'TRANSIT'];

/** Where a route starts, stops or ends: coordinates, a place id, or an address to geocode. */
export type Waypoint = { location: { latLng: LatLngInput } } | { placeId: string } | { address: string };

export interface Circle {
  center: LatLngInput;
  radius: number;
}
export interface Rectangle {
  low: LatLngInput;
  high: LatLngInput;
}

export interface AutocompleteRequest {
  input: string;
  /** One token for all the calls of one search, ended by a Place Details call with it (see newSessionToken). */
  sessionToken?: string;
  locationBias?: { circle: Circle } | { rectangle: Rectangle };
  locationRestriction?: { circle: Circle } | { rectangle: Rectangle };
  /** At most 5 types, or "(cities)" / "(regions)". */
  includedPrimaryTypes?: string[];
  /** At most 15 CLDR region codes. */
  includedRegionCodes?: string[];
  languageCode?: string;
  regionCode?: string;
  /** Predictions then carry distanceMeters from here. */
  origin?: LatLngInput;
  inputOffset?: number;
  includeQueryPredictions?: boolean;
}

/**
 * A new autocomplete session token: a UUIDv4, as Google recommends (URL-safe, 36 characters).
 * Use one per search; end the session with getPlace(id, { sessionToken }) and start a new one.
 */
export function newSessionToken(): string {
  return randomUUID();
}

export interface SearchTextRequest {
  textQuery: string;
  languageCode?: string;
  regionCode?: string;
  includedType?: string;
  openNow?: boolean;
  minRating?: number;
  pageSize?: number;
  pageToken?: string;
  maxResultCount?: number;
  rankPreference?: 'RELEVANCE' | 'DISTANCE';
  locationBias?: { circle: Circle } | { rectangle: Rectangle };
  locationRestriction?: { rectangle: Rectangle };
}

export interface SearchNearbyRequest {
  locationRestriction: { circle: Circle };
  includedTypes?: string[];
  excludedTypes?: string[];
  maxResultCount?: number;
  rankPreference?: 'DISTANCE' | 'POPULARITY';
  languageCode?: string;
  regionCode?: string;
}

export interface ComputeRoutesRequest {
  origin: Waypoint;
  destination: Waypoint;
  intermediates?: Waypoint[];
  travelMode?: TravelMode;
  routingPreference?: 'TRAFFIC_UNAWARE' | 'TRAFFIC_AWARE' | 'TRAFFIC_AWARE_OPTIMAL';
  computeAlternativeRoutes?: boolean;
  units?: 'METRIC' | 'IMPERIAL';
  languageCode?: string;
  regionCode?: string;
  polylineQuality?: 'HIGH_QUALITY' | 'OVERVIEW';
  departureTime?: string;
}

export interface ComputeRouteMatrixRequest {
  origins: Array<{ waypoint: Waypoint }>;
  destinations: Array<{ waypoint: Waypoint }>;
  travelMode?: TravelMode;
  routingPreference?: ComputeRoutesRequest['routingPreference'];
  units?: 'METRIC' | 'IMPERIAL';
}

export interface ValidateAddressRequest {
  address: {
    regionCode?: string;
    addressLines: string[];
    locality?: string;
    administrativeArea?: string;
    postalCode?: string;
    languageCode?: string;
  };
  previousResponseId?: string;
  enableUspsCass?: boolean;
}

export interface GeocodeAddressRequest {
  address: string;
  regionCode?: string;
  languageCode?: string;
}

export interface ReverseGeocodeRequest {
  location: LatLngInput;
  languageCode?: string;
  regionCode?: string;
  types?: string[];
}

export interface MapsCallOptions extends MaskChoice {
  cancel?: Cancel;
  onRetry?: (notice: RetryNotice) => void;
  onQueued?: (waitMs: number) => void;
}

/** A response plus what the UI shows about the call. */
export interface MapsResult<T> {
  data: T;
  /** The field mask sent (what the response was filtered to). */
  fieldMask: string;
  requestId?: string;
  durationMs: number;
  status: number;
  /** The response headers, as the shared HTTP client gives them (secrets already masked). */
  headers: Record<string, string>;
}

/** A call the service answered, as sent. */
export interface AnsweredCall {
  operation: MapsOperation;
  fieldMask: string;
  body: unknown;
}

/** Input the client refuses before sending anything (empty address, coordinates off the globe). */
export class MapsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MapsInputError';
  }
}

export class MapsClient {
  private readonly clients: Record<MapsApi, HttpClient>;

  /**
   * `http` serves every API unless `perApi` names a client for one (Google's hosts differ per
   * API: places., routes., addressvalidation., geocode.googleapis.com; see GOOGLE_MAPS_BASE_URLS).
   */
  constructor(
    http: HttpClient,
    perApi: Partial<Record<MapsApi, HttpClient>> = {},
    /** Hears of every call that was answered (2xx): what a cost tally needs to price it. */
    private readonly onAnswered?: (answered: AnsweredCall) => void,
  ) {
    this.clients = {
      places: perApi.places ?? http,
      routes: perApi.routes ?? http,
      addressValidation: perApi.addressValidation ?? http,
      geocoding: perApi.geocoding ?? http,
    };
  }

  /** Autocomplete (New): predictions for a partial input; billed per request or per session. */
  async autocomplete(req: AutocompleteRequest, opts: MapsCallOptions = {}): Promise<MapsResult<AutocompleteResponse>> {
    if (!req.input.trim()) throw new MapsInputError('the text to complete is empty');
    return this.call('places', 'autocomplete', { method: 'POST', path: 'v1/places:autocomplete', body: req }, autocompleteResponseSchema(), opts);
  }

  searchText(req: SearchTextRequest, opts: MapsCallOptions = {}): Promise<MapsResult<SearchPlacesResponse>> {
    return this.call('places', 'searchText', { method: 'POST', path: 'v1/places:searchText', body: req }, searchPlacesResponseSchema(), opts);
  }

  searchNearby(req: SearchNearbyRequest, opts: MapsCallOptions = {}): Promise<MapsResult<SearchPlacesResponse>> {
    return this.call('places', 'searchNearby', { method: 'POST', path: 'v1/places:searchNearby', body: req }, searchPlacesResponseSchema(), opts);
  }

  /**
   * Place Details; `id` is a place id ("ChIJ…") or resource name ("places/ChIJ…"). A
   * `sessionToken` from autocomplete ends that session (the details call is then what is billed).
   */
  async getPlace(id: string, opts: MapsCallOptions & { languageCode?: string; regionCode?: string; sessionToken?: string } = {}): Promise<MapsResult<Place>> {
    const placeId = id.trim().replace(/^places\//, '');
    if (!placeId || /[/?#\s]/.test(placeId)) throw new MapsInputError(`"${id}" is not a place id`);
    const query = { languageCode: opts.languageCode, regionCode: opts.regionCode, sessionToken: opts.sessionToken };
    return this.call('places', 'getPlace', { method: 'GET', path: `v1/places/${encodeURIComponent(placeId)}`, query }, placeSchema(), opts);
  }

  computeRoutes(req: ComputeRoutesRequest, opts: MapsCallOptions = {}): Promise<MapsResult<ComputeRoutesResponse>> {
    return this.call('routes', 'computeRoutes', { method: 'POST', path: 'directions/v2:computeRoutes', body: req }, computeRoutesResponseSchema(), opts);
  }

  computeRouteMatrix(req: ComputeRouteMatrixRequest, opts: MapsCallOptions = {}): Promise<MapsResult<RouteMatrixElement[]>> {
    return this.call(
      'routes',
      'computeRouteMatrix',
      { method: 'POST', path: 'distanceMatrix/v2:computeRouteMatrix', body: req },
      routeMatrixResponseSchema(),
      opts,
    );
  }

  /** Address Validation takes no mask unless one is given: its full answer is small. */
  validateAddress(req: ValidateAddressRequest, opts: MapsCallOptions = {}): Promise<MapsResult<ValidateAddressResponse>> {
    return this.call('addressValidation', 'validateAddress', { method: 'POST', path: 'v1:validateAddress', body: req }, validateAddressResponseSchema(), {
      preset: 'everything',
      ...opts,
    });
  }

  async geocodeAddress(req: GeocodeAddressRequest, opts: MapsCallOptions = {}): Promise<MapsResult<GeocodeResponse>> {
    if (!req.address.trim()) throw new MapsInputError('the address to geocode is empty');
    return this.call(
      'geocoding',
      'geocode',
      {
        method: 'GET',
        path: `v4/geocode/address/${encodeURIComponent(req.address.trim())}`,
        query: { regionCode: req.regionCode, languageCode: req.languageCode },
      },
      geocodeResponseSchema(),
      opts,
    );
  }

  async reverseGeocode(req: ReverseGeocodeRequest, opts: MapsCallOptions = {}): Promise<MapsResult<GeocodeResponse>> {
    const { latitude, longitude } = req.location;
    if (!isLatLng(latitude, longitude)) throw new MapsInputError(`${latitude},${longitude} is not a latitude,longitude pair`);
    const query: Record<string, string | undefined> = { languageCode: req.languageCode, regionCode: req.regionCode };
    if (req.types?.length) query.types = req.types.join(',');
    return this.call('geocoding', 'geocode', { method: 'GET', path: `v4/geocode/location/${latitude},${longitude}`, query }, geocodeResponseSchema(), opts);
  }

  private async call<T>(
    api: MapsApi,
    op: MapsOperation,
    req: { method: 'GET' | 'POST'; path: string; body?: unknown; query?: Record<string, string | undefined> },
    schema: Schema<T>,
    opts: MapsCallOptions,
  ): Promise<MapsResult<T>> {
    const fieldMask = fieldMaskFor(op, opts);
    // Built field by field rather than spread from `req`: the spread cost a few µs per request.
    const res: HttpResponse<T> = await this.clients[api].json<T>({
      method: req.method,
      path: req.path,
      body: req.body,
      query: req.query,
      headers: { 'X-Goog-FieldMask': fieldMask },
      schema,
      cancel: opts.cancel,
      onRetry: opts.onRetry,
      onQueued: opts.onQueued,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    this.onAnswered?.({ operation: op, fieldMask, body: req.body });
    // Google answers "nothing found" with an empty body `{}`, which the schemas accept as is.
    return { data: res.data, fieldMask, requestId: res.requestId, durationMs: res.durationMs, status: res.status, headers };
  }
}

export function isLatLng(latitude: number, longitude: number): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** Parses "lat,lng" text (e.g. an editor selection), or undefined if it is not one. */
export function parseLatLng(text: string): LatLngInput | undefined {
  const m = /^\s*\(?\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*\)?\s*$/.exec(text);
  if (!m) return undefined;
  const latitude = Number(m[1]);
  const longitude = Number(m[2]);
  return isLatLng(latitude, longitude) ? { latitude, longitude } : undefined;
}

/** The points of a route's polyline (encoded or GeoJSON), for drawing. */
export function routePath(route: Route): LatLngLiteral[] {
  const p = route.polyline;
  if (p?.encodedPolyline !== undefined) return decodePolyline(p.encodedPolyline);
  const geo = p?.geoJsonLinestring as { coordinates?: unknown } | undefined;
  if (geo && Array.isArray(geo.coordinates)) {
    return geo.coordinates.map((c) => {
      if (!Array.isArray(c) || typeof c[0] !== 'number' || typeof c[1] !== 'number' || !isLatLng(c[1], c[0]))
        throw new PolylineError('GeoJSON line has an invalid coordinate');
      return { latitude: c[1], longitude: c[0] };
    });
  }
  return [];
}

/** "123s" / "1.5s" → seconds. */
export function durationSeconds(d: string | undefined): number | undefined {
  if (d === undefined) return undefined;
  const m = /^(-?\d+(?:\.\d+)?)s$/.exec(d);
  return m ? Number(m[1]) : undefined;
}
