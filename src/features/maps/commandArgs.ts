// The arguments a script, a test or an agent may pass to the maps commands, each optional: what is
// missing is asked for.
import * as z from 'zod/mini';
import { TRAVEL_MODES, type TravelMode } from '../../services/maps/client';

export const maskOptions = z.object({ preset: z.optional(z.enum(['basic', 'contact', 'everything'])), fieldMask: z.optional(z.string()) });
export const searchArgs = z.extend(maskOptions, { query: z.optional(z.string()) });
export const nearbyArgs = z.extend(maskOptions, { center: z.optional(z.string()), radius: z.optional(z.number()) });
export const routeArgs = z.extend(maskOptions, {
  origin: z.optional(z.string()),
  destination: z.optional(z.string()),
  intermediates: z.optional(z.array(z.string())),
  travelMode: z.optional(z.enum(TRAVEL_MODES as [TravelMode, ...TravelMode[]])),
});
export const validateArgs = z.extend(maskOptions, { address: z.optional(z.string()), regionCode: z.optional(z.string()) });
export const geocodeArgs = z.extend(maskOptions, { address: z.optional(z.string()) });
export const reverseArgs = z.extend(maskOptions, { location: z.optional(z.string()) });
export const detailsArgs = z.extend(maskOptions, { placeId: z.optional(z.string()) });
export const matrixArgs = z.extend(maskOptions, {
  origins: z.optional(z.array(z.string())),
  destinations: z.optional(z.array(z.string())),
  travelMode: z.optional(z.enum(TRAVEL_MODES as [TravelMode, ...TravelMode[]])),
});
export type MaskArgs = z.infer<typeof maskOptions>;
