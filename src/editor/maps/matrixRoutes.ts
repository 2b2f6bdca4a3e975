// "Draw actual routes" of the route matrix on show: one Compute Routes request per routable pair
// (billed each, hence asked for with a link that says how many), with a cancellable progress, then
// the roads replace the straight lines on the map.
import vscode from 'vscode';
import { errorText, isApiError } from '../../core/errors';
import type { MapLine } from '../../services/maps/mapMessages';
import { routesForPairs, type PairRoute, type RoutePair } from '../../services/maps/matrixRoutes';
import type { MapsCommands } from './commands';
import type { MapRendered } from './mapPanel';
import { MAX_DRAWN_ROUTES } from '../../features/maps/matrixTable';
import { formatDistance, formatDuration } from '../../features/maps/resultBuilders';

export interface MatrixRoutesOutcome {
  routes: PairRoute[];
  map?: MapRendered;
}

export async function drawMatrixRoutes(cmd: MapsCommands): Promise<MatrixRoutesOutcome | undefined> {
  const m = cmd.matrixPanel.shown;
  if (!m) {
    void vscode.window.showInformationMessage('Run Route Matrix… first: its table offers to draw the actual routes.');
    return undefined;
  }
  const conn = cmd.connection();
  if (!conn) return undefined;
  const pairs: RoutePair[] = m.rows
    .filter((r) => r.ok)
    .slice(0, MAX_DRAWN_ROUTES)
    .map((r) => ({
      originIndex: r.originIndex,
      destinationIndex: r.destinationIndex,
      origin: m.origins[r.originIndex],
      destination: m.destinations[r.destinationIndex],
    }));
  if (!pairs.length) return undefined;
  const client = cmd.client(conn);
  let routes: PairRoute[];
  try {
    routes = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Computing ${pairs.length} routes…`, cancellable: true },
      (progress, token) =>
        routesForPairs(client, pairs, m.travelMode, {
          cancel: token,
          onResult: (res) => cmd.costs.record('computeRoutes', res.fieldMask, { travelMode: m.travelMode }),
          onRoute: (_r, done, total) => progress.report({ message: `${done} of ${total}`, increment: 100 / total }),
        }),
    );
  } catch (e) {
    if (isApiError(e) ? e.kind === 'cancelled' : e instanceof Error && e.name === 'CancelledError') {
      void vscode.window.showInformationMessage('Stopped: the map keeps the straight lines.');
      return undefined;
    }
    void vscode.window.showErrorMessage(`Drawing the routes failed: ${errorText(e)}`);
    return undefined;
  }
  const label = (r: PairRoute) => {
    const row = m.rows.find((x) => x.originIndex === r.pair.originIndex && x.destinationIndex === r.pair.destinationIndex);
    return `${row?.origin ?? `origin ${r.pair.originIndex}`} → ${row?.destination ?? `destination ${r.pair.destinationIndex}`}`;
  };
  const lines: MapLine[] = routes
    .filter((r) => r.points.length >= 2)
    .map((r) => ({
      label: `${label(r)}: ${formatDistance(r.distanceMeters)}, ${formatDuration(r.duration)}`.slice(0, 500),
      points: r.points.map((p) => [p.latitude, p.longitude] as [number, number]),
    }));
  const missing = routes.filter((r) => r.problem).map((r) => `${label(r)} (${r.problem})`);
  cmd.matrixPanel.show(
    m,
    `${lines.length} of ${m.rows.length} pairs drawn on the map as their actual routes (${routes.length} Compute Routes requests).${missing.length ? ` Not drawn: ${missing.join('; ')}.` : ''}`,
  );
  const map = await vscode.commands.executeCommand<MapRendered | undefined>('apiWorkbench.maps.showGeometry', {
    title: `${m.title}: actual routes`,
    markers: m.markers,
    lines,
  });
  return { routes, map };
}
