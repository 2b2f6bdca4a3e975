// Turns API responses into tree results (with the geometry the map draws).
import { randomBytes } from 'node:crypto';
import { durationSeconds, isLatLng, routePath, type TravelMode } from '../../services/maps/client';
import type { MapMarker } from '../../services/maps/mapMessages';
import { encodePolyline } from '../../services/maps/polyline';
import type { GeocodeResult, Place, Route, ValidateAddressResponse } from '../../services/maps/schemas';
import type { MapsResult } from './results';

const md = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');

/** A marker at `loc`, or none: a point off the globe would make the map and the ResultStore refuse the whole result. */
function marker(loc: { latitude?: number; longitude?: number } | undefined, label: string, detail?: string): MapMarker[] {
  if (loc?.latitude === undefined || loc.longitude === undefined || !isLatLng(loc.latitude, loc.longitude)) return [];
  return [{ latitude: loc.latitude, longitude: loc.longitude, label: label.slice(0, 500), ...(detail ? { detail: detail.slice(0, 500) } : {}) }];
}

export function formatDistance(meters: number | undefined): string {
  if (meters === undefined) return '0 m';
  // Rounded before the unit is chosen, so 999.6 m reads "1.0 km" (not "1000 m") and 9,960 m "10 km".
  if (Math.round(meters) < 1000) return `${Math.round(meters)} m`;
  return Math.round(meters / 100) < 100 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters / 1000)} km`;
}

export function formatDuration(d: string | undefined): string {
  const s = durationSeconds(d);
  if (s === undefined) return '?';
  const mins = Math.round(s / 60);
  if (mins < 60) return `${mins} min`;
  const h = Math.floor(mins / 60);
  return `${h} h ${String(mins % 60).padStart(2, '0')} min`;
}

export function placeResults(places: readonly Place[]): MapsResult[] {
  const at = Date.now();
  return places.flatMap((p, i) => {
    const name = p.displayName?.text ?? p.formattedAddress ?? p.id ?? 'Place';
    const rating = p.rating !== undefined ? `★ ${p.rating.toFixed(1)}${p.userRatingCount !== undefined ? ` (${p.userRatingCount})` : ''}` : undefined;
    const description = [p.formattedAddress, rating].filter(Boolean).join(' · ');
    const loc = p.location;
    return [
      {
        id: `place/${p.id ?? `${name}-${at}-${i}`}`,
        capability: 'places' as const,
        label: name,
        description,
        tooltip: [
          `**${md(name)}**`,
          p.formattedAddress && md(p.formattedAddress),
          rating && md(rating),
          p.id && `Place id: \`${p.id}\``,
          loc && `${loc.latitude}, ${loc.longitude}`,
        ]
          .filter(Boolean)
          .join('\n\n'),
        icon: 'location',
        at: at - i,
        markers: marker(loc, name, description),
      },
    ];
  });
}

export function routeResult(route: Route, from: string, to: string, mode: TravelMode): MapsResult {
  const path = routePath(route);
  const distance = formatDistance(route.distanceMeters);
  const duration = formatDuration(route.duration);
  const legs = route.legs ?? [];
  const start = legs[0]?.startLocation?.latLng ?? path[0];
  const end = legs[legs.length - 1]?.endLocation?.latLng ?? path[path.length - 1];
  const label = `${from} → ${to}`;
  return {
    id: `route/${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
    capability: 'routes',
    label,
    description: `${distance} · ${duration} · ${mode.toLowerCase().replace('_', ' ')}`,
    tooltip: [
      `**${md(label)}**`,
      `${md(distance)}, ${md(duration)} (${mode})`,
      route.description && md(route.description),
      legs.length > 1 ? `${legs.length} legs` : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    icon: 'milestone',
    at: Date.now(),
    markers: [...marker(start, from, 'origin'), ...marker(end, to, 'destination')],
    ...(path.length ? { polyline: encodePolyline(path) } : {}),
  };
}

export function validationResult(input: string, r: ValidateAddressResponse): MapsResult {
  const result = r.result;
  const v = result?.verdict ?? {};
  const formatted = result?.address?.formattedAddress ?? input;
  const flags = [
    v.addressComplete ? 'complete' : 'incomplete',
    v.hasUnconfirmedComponents && 'unconfirmed parts',
    v.hasInferredComponents && 'inferred parts',
    v.hasReplacedComponents && 'replaced parts',
    v.hasSpellCorrectedComponents && 'spell-corrected',
  ].filter(Boolean);
  const verdict = `${v.validationGranularity ?? 'GRANULARITY_UNSPECIFIED'}${v.possibleNextAction ? ` → ${v.possibleNextAction}` : ''}`;
  const ok = v.addressComplete && (v.possibleNextAction === 'ACCEPT' || v.possibleNextAction === undefined);
  return {
    id: `validation/${r.responseId ?? `${Date.now()}-${randomBytes(3).toString('hex')}`}`,
    capability: 'addressValidation',
    label: formatted,
    description: `${verdict} · ${flags.join(', ')}`,
    tooltip: [
      `**${md(formatted)}**`,
      `Input: ${md(input)}`,
      `Granularity: input ${v.inputGranularity ?? '?'}, validation ${v.validationGranularity ?? '?'}, geocode ${v.geocodeGranularity ?? '?'}`,
      `Verdict: ${md(flags.join(', '))}${v.possibleNextAction ? ` — next: ${v.possibleNextAction}` : ''}`,
      result?.address?.unresolvedTokens?.length ? `Unresolved: ${md(result.address.unresolvedTokens.join(', '))}` : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    icon: ok ? 'pass' : 'warning',
    at: Date.now(),
    markers: marker(result?.geocode?.location, formatted, verdict),
  };
}

export function geocodeResults(results: readonly GeocodeResult[], query: string): MapsResult[] {
  const at = Date.now();
  return results.map((g, i) => {
    const label = g.formattedAddress ?? g.placeId ?? 'Result';
    const where = g.location ? `${g.location.latitude?.toFixed(5)}, ${g.location.longitude?.toFixed(5)}` : '';
    return {
      id: `geocode/${g.placeId ?? label}/${query}`,
      capability: 'geocoding' as const,
      label,
      description: [g.granularity, where, `for “${query}”`].filter(Boolean).join(' · '),
      tooltip: [
        `**${md(label)}**`,
        `Query: ${md(query)}`,
        g.granularity && `Granularity: ${g.granularity}`,
        g.types?.length ? `Types: ${g.types.join(', ')}` : undefined,
        where,
      ]
        .filter(Boolean)
        .join('\n\n'),
      icon: 'globe',
      at: at - i,
      markers: marker(g.location, label, where),
    };
  });
}
