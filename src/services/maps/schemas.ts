// Response shapes of the Google Maps Platform REST APIs the client speaks. Every field is optional
// because a field mask may leave any of them out; objects are loose so fields this file does not
// name still reach the user (the JSON editor shows the whole response). Each schema is built on first
// use (once): the notebook engine loads this file for its error parsing, and building them all cost a
// CLI run several milliseconds of its start (issue 39).
import * as z from 'zod/mini';
import { once } from '../../core/once';

const opt = z.optional;

export const latLngSchema = once(() => z.looseObject({ latitude: opt(z.number()), longitude: opt(z.number()) }));
export type LatLng = z.infer<ReturnType<typeof latLngSchema>>;

export const viewportSchema = once(() => z.looseObject({ low: opt(latLngSchema()), high: opt(latLngSchema()) }));
const localizedText = once(() => z.looseObject({ text: opt(z.string()), languageCode: opt(z.string()) }));
const addressComponent = once(() =>
  z.looseObject({
    longText: opt(z.string()),
    shortText: opt(z.string()),
    types: opt(z.array(z.string())),
    languageCode: opt(z.string()),
  }),
);
const plusCode = once(() => z.looseObject({ globalCode: opt(z.string()), compoundCode: opt(z.string()) }));

export const placeSchema = once(() =>
  z.looseObject({
    name: opt(z.string()),
    id: opt(z.string()),
    displayName: opt(localizedText()),
    types: opt(z.array(z.string())),
    primaryType: opt(z.string()),
    formattedAddress: opt(z.string()),
    shortFormattedAddress: opt(z.string()),
    addressComponents: opt(z.array(addressComponent())),
    plusCode: opt(plusCode()),
    location: opt(latLngSchema()),
    viewport: opt(viewportSchema()),
    rating: opt(z.number()),
    userRatingCount: opt(z.number()),
    googleMapsUri: opt(z.string()),
    websiteUri: opt(z.string()),
    nationalPhoneNumber: opt(z.string()),
    internationalPhoneNumber: opt(z.string()),
    businessStatus: opt(z.string()),
    priceLevel: opt(z.string()),
    regularOpeningHours: opt(z.looseObject({ openNow: opt(z.boolean()), weekdayDescriptions: opt(z.array(z.string())) })),
  }),
);
export type Place = z.infer<ReturnType<typeof placeSchema>>;

const formattableText = once(() =>
  z.looseObject({
    text: opt(z.string()),
    matches: opt(z.array(z.looseObject({ startOffset: opt(z.number()), endOffset: opt(z.number()) }))),
  }),
);
const structuredFormat = once(() => z.looseObject({ mainText: opt(formattableText()), secondaryText: opt(formattableText()) }));
export const placePredictionSchema = once(() =>
  z.looseObject({
    place: opt(z.string()),
    placeId: opt(z.string()),
    text: opt(formattableText()),
    structuredFormat: opt(structuredFormat()),
    types: opt(z.array(z.string())),
    distanceMeters: opt(z.number()),
  }),
);
export type PlacePrediction = z.infer<ReturnType<typeof placePredictionSchema>>;
export const autocompleteResponseSchema = once(() =>
  z.looseObject({
    suggestions: opt(
      z.array(
        z.looseObject({
          placePrediction: opt(placePredictionSchema()),
          queryPrediction: opt(z.looseObject({ text: opt(formattableText()), structuredFormat: opt(structuredFormat()) })),
        }),
      ),
    ),
  }),
);
export type AutocompleteResponse = z.infer<ReturnType<typeof autocompleteResponseSchema>>;

export const searchPlacesResponseSchema = once(() => z.looseObject({ places: opt(z.array(placeSchema())), nextPageToken: opt(z.string()) }));
export type SearchPlacesResponse = z.infer<ReturnType<typeof searchPlacesResponseSchema>>;

const polyline = once(() => z.looseObject({ encodedPolyline: opt(z.string()), geoJsonLinestring: opt(z.unknown()) }));
const location = once(() => z.looseObject({ latLng: opt(latLngSchema()), heading: opt(z.number()) }));
const localizedValues = once(() => z.looseObject({ distance: opt(localizedText()), duration: opt(localizedText()), staticDuration: opt(localizedText()) }));
/** google.protobuf.Duration in JSON: "123s", "1.500s". */
export const durationSchema = once(() => z.string().check(z.regex(/^-?\d+(\.\d+)?s$/)));

const routeLeg = once(() =>
  z.looseObject({
    distanceMeters: opt(z.number()),
    duration: opt(durationSchema()),
    staticDuration: opt(durationSchema()),
    polyline: opt(polyline()),
    startLocation: opt(location()),
    endLocation: opt(location()),
    steps: opt(z.array(z.looseObject({}))),
    localizedValues: opt(localizedValues()),
  }),
);

export const routeSchema = once(() =>
  z.looseObject({
    routeLabels: opt(z.array(z.string())),
    legs: opt(z.array(routeLeg())),
    distanceMeters: opt(z.number()),
    duration: opt(durationSchema()),
    staticDuration: opt(durationSchema()),
    polyline: opt(polyline()),
    description: opt(z.string()),
    warnings: opt(z.array(z.string())),
    viewport: opt(viewportSchema()),
    localizedValues: opt(localizedValues()),
  }),
);
export type Route = z.infer<ReturnType<typeof routeSchema>>;

const status = once(() => z.looseObject({ code: opt(z.number()), message: opt(z.string()) }));
const geocodedWaypoint = once(() =>
  z.looseObject({
    geocoderStatus: opt(status()),
    type: opt(z.array(z.string())),
    placeId: opt(z.string()),
    intermediateWaypointRequestIndex: opt(z.number()),
  }),
);

export const computeRoutesResponseSchema = once(() =>
  z.looseObject({
    routes: opt(z.array(routeSchema())),
    geocodingResults: opt(
      z.looseObject({ origin: opt(geocodedWaypoint()), destination: opt(geocodedWaypoint()), intermediates: opt(z.array(geocodedWaypoint())) }),
    ),
  }),
);
export type ComputeRoutesResponse = z.infer<ReturnType<typeof computeRoutesResponseSchema>>;

export const routeMatrixElementSchema = once(() =>
  z.looseObject({
    originIndex: opt(z.number()),
    destinationIndex: opt(z.number()),
    status: opt(status()),
    condition: opt(z.string()),
    distanceMeters: opt(z.number()),
    duration: opt(durationSchema()),
    staticDuration: opt(durationSchema()),
    localizedValues: opt(localizedValues()),
  }),
);
export type RouteMatrixElement = z.infer<ReturnType<typeof routeMatrixElementSchema>>;
export const routeMatrixResponseSchema = once(() => z.array(routeMatrixElementSchema()));

export const GRANULARITIES = ['GRANULARITY_UNSPECIFIED', 'SUB_PREMISE', 'PREMISE', 'PREMISE_PROXIMITY', 'BLOCK', 'ROUTE', 'OTHER'] as const;

const verdict = once(() =>
  z.looseObject({
    inputGranularity: opt(z.string()),
    validationGranularity: opt(z.string()),
    geocodeGranularity: opt(z.string()),
    addressComplete: opt(z.boolean()),
    hasUnconfirmedComponents: opt(z.boolean()),
    hasInferredComponents: opt(z.boolean()),
    hasReplacedComponents: opt(z.boolean()),
    hasSpellCorrectedComponents: opt(z.boolean()),
    possibleNextAction: opt(z.string()),
  }),
);
export type Verdict = z.infer<ReturnType<typeof verdict>>;

const validationComponent = once(() =>
  z.looseObject({
    componentName: opt(localizedText()),
    componentType: opt(z.string()),
    confirmationLevel: opt(z.string()),
    inferred: opt(z.boolean()),
    spellCorrected: opt(z.boolean()),
    replaced: opt(z.boolean()),
    unexpected: opt(z.boolean()),
  }),
);

export const validateAddressResponseSchema = once(() =>
  z.looseObject({
    result: opt(
      z.looseObject({
        verdict: opt(verdict()),
        address: opt(
          z.looseObject({
            formattedAddress: opt(z.string()),
            postalAddress: opt(z.looseObject({})),
            addressComponents: opt(z.array(validationComponent())),
            missingComponentTypes: opt(z.array(z.string())),
            unconfirmedComponentTypes: opt(z.array(z.string())),
            unresolvedTokens: opt(z.array(z.string())),
          }),
        ),
        geocode: opt(z.looseObject({ location: opt(latLngSchema()), placeId: opt(z.string()), bounds: opt(viewportSchema()) })),
        metadata: opt(z.looseObject({})),
      }),
    ),
    responseId: opt(z.string()),
  }),
);
export type ValidateAddressResponse = z.infer<ReturnType<typeof validateAddressResponseSchema>>;

export const geocodeResultSchema = once(() =>
  z.looseObject({
    place: opt(z.string()),
    placeId: opt(z.string()),
    location: opt(latLngSchema()),
    granularity: opt(z.string()),
    viewport: opt(viewportSchema()),
    bounds: opt(viewportSchema()),
    formattedAddress: opt(z.string()),
    addressComponents: opt(z.array(addressComponent())),
    types: opt(z.array(z.string())),
    plusCode: opt(plusCode()),
  }),
);
export type GeocodeResult = z.infer<ReturnType<typeof geocodeResultSchema>>;
export const geocodeResponseSchema = once(() => z.looseObject({ results: opt(z.array(geocodeResultSchema())), plusCode: opt(plusCode()) }));
export type GeocodeResponse = z.infer<ReturnType<typeof geocodeResponseSchema>>;

/** google.rpc.Status as sent in `{"error": …}`. */
export const googleErrorBodySchema = once(() =>
  z.object({
    error: z.looseObject({
      code: opt(z.number()),
      message: opt(z.string()),
      status: opt(z.string()),
      details: opt(z.array(z.looseObject({ '@type': opt(z.string()) }))),
    }),
  }),
);
