// A maps result as the tree, the map and the picker show it: what a query found (names,
// addresses, coordinates, a route's line), never a key. The editor keeps them in its ResultStore.
import * as z from 'zod/mini';
import { mapMarkerSchema } from '../../services/maps/mapMessages';

/** The four capabilities under each maps connection, in tree order. */
export const CAPABILITIES = [
  { id: 'places', label: 'Places', icon: 'location' },
  { id: 'routes', label: 'Routes', icon: 'milestone' },
  { id: 'addressValidation', label: 'Address Validation', icon: 'verified' },
  { id: 'geocoding', label: 'Geocoding', icon: 'globe' },
] as const;
export type CapabilityId = (typeof CAPABILITIES)[number]['id'];

const resultSchema = z.object({
  id: z.string(),
  capability: z.enum(['places', 'routes', 'addressValidation', 'geocoding']),
  label: z.string(),
  description: z.string(),
  /** Markdown shown on hover. */
  tooltip: z.string(),
  /** Icon id (codicon) for the tree. */
  icon: z.string(),
  at: z.number(),
  markers: z.array(mapMarkerSchema()),
  /** Routes: Google encoded polyline of the whole route. */
  polyline: z.optional(z.string()),
});
export type MapsResult = z.infer<typeof resultSchema>;

export const resultsByConnectionSchema = z.record(z.string(), z.array(resultSchema));
