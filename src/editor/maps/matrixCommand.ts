import vscode from 'vscode';
import type * as z from 'zod/mini';
import type { LatLngInput, TravelMode } from '../../services/maps/client';
import type { MapLine, MapMarker } from '../../services/maps/mapMessages';
import { PAIR_ROUTE_MASK } from '../../services/maps/matrixRoutes';
import type { RouteMatrixElement } from '../../services/maps/schemas';
import { skuOf } from '../../services/maps/sku';
import type { matrixArgs } from '../../features/maps/commandArgs';
import type { CommandOutcome, MapsCommandHost } from './commandHost';
import { drawRoutesAction, matrixMarkdown, matrixRows, MAX_DRAWN_ROUTES, type MatrixRow } from '../../features/maps/matrixTable';

/** Google allows up to 625 elements (25 × 25); a table people read stays far smaller. */
const MAX_POINTS = 10;

export type MatrixOutcome = CommandOutcome<RouteMatrixElement[]> & { rows: MatrixRow[]; markdown: string };

/**
 * Route Matrix…: several origins × destinations (picked with the place picker, one after the
 * other), one Compute Route Matrix request, the answer as a table (origin, destination, distance,
 * duration, condition) and the pairs joined on the map by straight lines, until "Draw actual
 * routes" in the table asks for each pair's road (matrixRoutes.ts).
 */
export async function routeMatrix(cmd: MapsCommandHost, a: Partial<z.infer<typeof matrixArgs>>): Promise<MatrixOutcome | undefined> {
  if (!cmd.connection()) return undefined;
  const origins = a.origins?.length ? a.origins : await pickMany(cmd, 'origin');
  if (!origins?.length) return undefined;
  const destinations = a.destinations?.length ? a.destinations : await pickMany(cmd, 'destination');
  if (!destinations?.length) return undefined;
  const travelMode: TravelMode | undefined = a.travelMode ?? (await cmd.input.pickTravelMode());
  if (!travelMode) return undefined;
  // Coordinates for every point: the request sends them, and the map joins them.
  const resolve = async (texts: readonly string[]) => {
    const out: LatLngInput[] = [];
    for (const t of texts) {
      const p = await cmd.input.resolvePoint(t);
      if (!p) return undefined;
      out.push(p);
    }
    return out;
  };
  const from = await resolve(origins);
  const to = from && (await resolve(destinations));
  if (!from || !to) return undefined;
  const originLabels = origins.map((o) => cmd.input.placeLabel(o));
  const destinationLabels = destinations.map((d) => cmd.input.placeLabel(d));
  const waypoint = (p: LatLngInput) => ({ waypoint: { location: { latLng: p } } });
  let rows: MatrixRow[] = [];
  const title = `Route matrix: ${origins.length} × ${destinations.length} (${travelMode.toLowerCase().replace('_', ' ')})`;
  const out = await cmd.run(
    `Computing a ${origins.length} × ${destinations.length} route matrix…`,
    'computeRouteMatrix',
    a,
    (c, o) => c.computeRouteMatrix({ origins: from.map(waypoint), destinations: to.map(waypoint), travelMode }, o),
    (data) => {
      rows = matrixRows(data, originLabels, destinationLabels);
      const found = rows.filter((r) => r.ok).length;
      const markers: MapMarker[] = [
        ...from.map((p, i) => ({ ...p, label: originLabels[i].slice(0, 500), detail: 'origin' })),
        ...to.map((p, i) => ({ ...p, label: destinationLabels[i].slice(0, 500), detail: 'destination' })),
      ];
      const drawable = Math.min(found, MAX_DRAWN_ROUTES);
      cmd.matrixPanel.show(
        { title, rows, origins: from, destinations: to, travelMode, markers },
        `${found} of ${rows.length} pairs have a route. Lines on the map are straight, from each origin to each destination with a route: the matrix returns no roads.`,
        drawable ? drawRoutesAction(drawable, skuOf('computeRoutes', PAIR_ROUTE_MASK, { travelMode }).sku) : undefined,
      );
      if (!found) cmd.input.nothingFound(`No route between any of the ${rows.length} origin/destination pairs (Route Matrix, ${travelMode}).`);
      const lines: MapLine[] = rows
        .filter((r) => r.ok)
        .slice(0, MAX_DRAWN_ROUTES)
        .map((r) => {
          const o = from[r.originIndex];
          const d = to[r.destinationIndex];
          return {
            label: `${r.origin} → ${r.destination}: ${r.distance}, ${r.duration}`.slice(0, 500),
            points: [
              [o.latitude, o.longitude],
              [d.latitude, d.longitude],
            ],
          };
        });
      return { results: [], title, extraMarkers: markers, extraLines: lines };
    },
    () => routeMatrix(cmd, { ...a, origins, destinations, travelMode }),
    { options: { travelMode }, units: origins.length * destinations.length },
  );
  return out && { ...out, rows, markdown: matrixMarkdown(rows) };
}

/** Points one after the other, until the user says Done (or Escape, which cancels). */
async function pickMany(cmd: MapsCommandHost, noun: 'origin' | 'destination'): Promise<string[] | undefined> {
  const picked: string[] = [];
  for (;;) {
    const p = await cmd.input.pickPoint(
      `Route matrix: ${noun} ${picked.length + 1}${picked.length ? ` (after ${picked.map((x) => cmd.input.placeLabel(x)).join(', ')})` : ''}`,
    );
    if (!p) return undefined;
    picked.push(p);
    if (picked.length >= MAX_POINTS) return picked;
    const more = `$(add) Add another ${noun}`;
    const done = `$(check) Done: ${picked.length} ${noun}${picked.length === 1 ? '' : 's'}`;
    const next = await vscode.window.showQuickPick([more, done], {
      title: `Route matrix: ${noun}s`,
      placeHolder: picked.map((x) => cmd.input.placeLabel(x)).join(' · '),
    });
    if (next === undefined) return undefined;
    if (next === done) return picked;
  }
}
