// The operations each service accepts, as a cell writes them: method, path (relative to the
// connection's base URL: an llm connection's already ends in /v1), the body's fields (read from the
// sandbox's request schemas, which mirror the real services') and the answer's fields (the
// sandbox's field-mask trees, which list every field of the real messages).
import { chatRequestSchema, embeddingsRequestSchema, responsesRequestSchema } from '../sandbox/llm/requests';
import { SearchNearbyRequest, SearchTextRequest } from '../sandbox/maps/places';
import { ComputeRouteMatrixRequest, ComputeRoutesRequest } from '../sandbox/maps/routes';
import { AutocompleteRequest } from '../sandbox/maps/autocomplete';
import { ValidateAddressRequest } from '../sandbox/maps/addressValidation';
import {
  AUTOCOMPLETE_RESPONSE,
  COMPUTE_ROUTES_RESPONSE,
  GEOCODE_PLACE_RESPONSE,
  GEOCODE_RESPONSE,
  PLACE,
  ROUTE_MATRIX_ELEMENT,
  SEARCH_PLACES_RESPONSE,
  VALIDATE_ADDRESS_RESPONSE,
  type FieldTree,
} from '../sandbox/maps/fieldMask';
import type { SkuOperation } from '../services/maps/sku';
import type { MapsOperation } from '../services/maps/fieldMasks';
import { schemaFields, type FieldSpec } from './schemaFields';

export type { FieldTree };
/** `http`: an operation read from the OpenAPI document a notebook names (specOperations.ts). */
export type OperationService = 'llm' | 'maps' | 'http';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface Operation {
  /** Stable id, e.g. `maps.searchText` (also the MCP tools' name for it). */
  id: string;
  service: OperationService;
  method: HttpMethod;
  /** As written in a cell; `{name}` is a path parameter. */
  path: string;
  summary: string;
  /** The document's description (an OpenAPI operation's). */
  description?: string;
  /** The body's fields (read once, on first use). */
  body?: () => readonly FieldSpec[];
  /** The document requires a body (an OpenAPI operation's `requestBody.required`). */
  bodyRequired?: boolean;
  /** Its query, header and path parameters (an OpenAPI operation's). */
  parameters?: readonly OperationParameter[];
  /** The answer's fields; `responseIsArray`: the answer is a JSON array of these (the route matrix). */
  response?: FieldTree;
  responseIsArray?: boolean;
  /** Its Google SKU (billed by the field mask or the request's features). */
  sku?: SkuOperation;
  /** Its field-mask presets (src/services/maps/fieldMasks.ts). */
  mask?: MapsOperation;
  /** Google refuses it without X-Goog-FieldMask. */
  maskRequired?: boolean;
}

export interface OperationParameter extends FieldSpec {
  in: 'query' | 'header' | 'path';
}

/** Read on first use: a completion in an llm cell need not walk the maps schemas. */
function fields(schema: Parameters<typeof schemaFields>[0]): () => readonly FieldSpec[] {
  let read: readonly FieldSpec[] | undefined;
  return () => (read ??= schemaFields(schema));
}

export const OPERATIONS: readonly Operation[] = [
  { id: 'llm.models', service: 'llm', method: 'GET', path: '/models', summary: 'the models the connection offers' },
  { id: 'llm.model', service: 'llm', method: 'GET', path: '/models/{model}', summary: 'one model' },
  { id: 'llm.chat', service: 'llm', method: 'POST', path: '/chat/completions', summary: 'chat completion', body: fields(chatRequestSchema) },
  { id: 'llm.responses', service: 'llm', method: 'POST', path: '/responses', summary: 'Responses API', body: fields(responsesRequestSchema) },
  { id: 'llm.embeddings', service: 'llm', method: 'POST', path: '/embeddings', summary: 'embeddings', body: fields(embeddingsRequestSchema) },
  {
    id: 'maps.autocomplete',
    service: 'maps',
    method: 'POST',
    path: '/v1/places:autocomplete',
    summary: 'Places Autocomplete',
    body: fields(AutocompleteRequest),
    response: AUTOCOMPLETE_RESPONSE,
    sku: 'autocomplete',
    mask: 'autocomplete',
  },
  {
    id: 'maps.searchText',
    service: 'maps',
    method: 'POST',
    path: '/v1/places:searchText',
    summary: 'Places Text Search',
    body: fields(SearchTextRequest),
    response: SEARCH_PLACES_RESPONSE,
    sku: 'searchText',
    mask: 'searchText',
    maskRequired: true,
  },
  {
    id: 'maps.searchNearby',
    service: 'maps',
    method: 'POST',
    path: '/v1/places:searchNearby',
    summary: 'Places Nearby Search',
    body: fields(SearchNearbyRequest),
    response: SEARCH_PLACES_RESPONSE,
    sku: 'searchNearby',
    mask: 'searchNearby',
    maskRequired: true,
  },
  {
    id: 'maps.getPlace',
    service: 'maps',
    method: 'GET',
    path: '/v1/places/{place}',
    summary: 'Place Details',
    response: PLACE,
    sku: 'getPlace',
    mask: 'getPlace',
    maskRequired: true,
  },
  {
    id: 'maps.computeRoutes',
    service: 'maps',
    method: 'POST',
    path: '/directions/v2:computeRoutes',
    summary: 'Routes: compute routes',
    body: fields(ComputeRoutesRequest),
    response: COMPUTE_ROUTES_RESPONSE,
    sku: 'computeRoutes',
    mask: 'computeRoutes',
    maskRequired: true,
  },
  {
    id: 'maps.computeRouteMatrix',
    service: 'maps',
    method: 'POST',
    path: '/distanceMatrix/v2:computeRouteMatrix',
    summary: 'Routes: route matrix',
    body: fields(ComputeRouteMatrixRequest),
    response: ROUTE_MATRIX_ELEMENT,
    responseIsArray: true,
    sku: 'computeRouteMatrix',
    mask: 'computeRouteMatrix',
    maskRequired: true,
  },
  {
    id: 'maps.validateAddress',
    service: 'maps',
    method: 'POST',
    path: '/v1:validateAddress',
    summary: 'Address Validation',
    body: fields(ValidateAddressRequest),
    response: VALIDATE_ADDRESS_RESPONSE,
    mask: 'validateAddress',
  },
  {
    id: 'maps.geocodeAddress',
    service: 'maps',
    method: 'GET',
    path: '/v4/geocode/address/{address}',
    summary: 'Geocoding: an address',
    response: GEOCODE_RESPONSE,
  },
  {
    id: 'maps.geocodeLocation',
    service: 'maps',
    method: 'GET',
    path: '/v4/geocode/location/{location}',
    summary: 'Geocoding: a location',
    response: GEOCODE_RESPONSE,
  },
  {
    id: 'maps.geocodePlace',
    service: 'maps',
    method: 'GET',
    path: '/v4/geocode/places/{place}',
    summary: 'Geocoding: a place',
    response: GEOCODE_PLACE_RESPONSE,
  },
];

export function operationsOf(service: string): readonly Operation[] {
  return OPERATIONS.filter((o) => o.service === service);
}

/** The operation a request line names (`{{var}}` and any text fill a `{param}`), or undefined. */
export function findOperation(service: string, method: string, target: string): Operation | undefined {
  const path = target.replace(/[?#].*$/, '').replace(/^https?:\/\/[^/]+/i, '');
  const upper = method.toUpperCase();
  return operationsOf(service).find((o) => o.method === upper && pathPattern(o.path).test(path));
}

const patterns = new Map<string, RegExp>();
/** A path template as a pattern: a `{param}` is filled by `{{var}}`s and text, never a `/`. */
export function pathPattern(path: string): RegExp {
  let p = patterns.get(path);
  if (!p) {
    const source = path
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '(?:\\{\\{[^{}]*\\}\\}|[^/{}])+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    p = new RegExp(`^${source}/?$`);
    patterns.set(path, p);
  }
  return p;
}
