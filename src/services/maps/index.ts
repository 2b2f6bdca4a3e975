export * from './client';
export { googleErrorParser, parseDuration } from './errors';
export { fieldMaskFor, MASK_PRESETS, type MapsOperation, type MaskChoice, type MaskPreset } from './fieldMasks';
export { decodePolyline, encodePolyline, PolylineError, type LatLngLiteral } from './polyline';
export type {
  AutocompleteResponse,
  PlacePrediction,
  ComputeRoutesResponse,
  GeocodeResponse,
  GeocodeResult,
  Place,
  Route,
  RouteMatrixElement,
  SearchPlacesResponse,
  ValidateAddressResponse,
  Verdict,
} from './schemas';
export { compareSku, DEFAULT_SKU_PRICES, maskFields, skuOf, type SkuChange, type SkuOperation, type SkuOptions, type SkuResult, type SkuTier } from './sku';
