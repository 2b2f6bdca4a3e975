// The maps service in the editor: the Maps & Location tree (capabilities → recent results), the
// commands (search, route, matrix, place details, validate, geocode, field masks with their SKU),
// this session's estimated cost, and the map webview, which notebook results can be shown on too
// (apiWorkbench.maps.showGeometry, the response viewer's "Show on Map Panel").
import vscode from 'vscode';
import * as z from 'zod/mini';
import { validate } from '../../core/validate';
import { mapLineSchema, mapMarkerSchema } from '../../services/maps/mapMessages';
import { RequestHistory } from '../curl';
import type { Services } from '../services';
import type { ServiceActivation, ServiceView } from '../serviceModule';
import { MapsCommands } from './commands';
import { MatrixPanel } from './matrixPanel';
import { drawMatrixRoutes } from './matrixRoutes';
import { MapPanel } from './mapPanel';
import { RESPONSE_SCHEME, ResponseDocuments } from './responses';
import { ResponseViewer } from './responseViewer';
import { ResultStore } from './results';
import { mapTiles } from '../../features/settings';
import { MapsTreeSource } from './tree';

const geometryArgs = z.object({
  title: z.string().check(z.maxLength(500)),
  markers: z.array(mapMarkerSchema()).check(z.maxLength(1_000)),
  lines: z.array(mapLineSchema()).check(z.maxLength(20)),
});

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const results = new ResultStore(s.context.globalState);
  const map = new MapPanel(s.context.extensionUri, s.log);
  const costs = s.mapsCosts;
  view.provider.source = new MapsTreeSource(s, results, costs);
  view.provider.refresh();
  const responses = new ResponseDocuments(s.redactor);
  const matrix = new MatrixPanel();
  const viewer = new ResponseViewer(s.context.extensionUri, s.log, (uri) => responses.showDocument(vscode.Uri.parse(uri)));
  const commands = new MapsCommands(s, results, map, responses, new RequestHistory('maps', s.history), costs, matrix, viewer);
  /** The response document's title-bar button (or the active maps response, else the newest): its answer in the response viewer. */
  const openInViewer = (target?: unknown) => {
    const active = vscode.window.activeTextEditor?.document.uri;
    const uri = target instanceof vscode.Uri ? target : active?.scheme === RESPONSE_SCHEME ? active : responses.latest;
    const payload = uri && responses.payload(uri);
    if (!payload) throw new Error('Open a maps response first (run a Maps & Location command).');
    viewer.show(payload);
    return viewer;
  };
  const showGeometry = (arg?: unknown) => {
    const v = validate(geometryArgs, arg);
    if (!v.ok) throw new Error(`Nothing to show on the map: ${v.problem}`);
    const tiles = mapTiles(s.config);
    return map.show({ type: 'show', ...v.value, tileUrl: tiles.url, attribution: tiles.attribution });
  };
  return {
    disposables: [
      results,
      map,
      matrix,
      responses,
      viewer,
      results.onDidChange(() => view.provider.refresh()),
      costs.onDidChange(() => view.provider.refresh()),
    ],
    commands: {
      ...commands.table(),
      'apiWorkbench.maps.showGeometry': showGeometry,
      'apiWorkbench.maps.openInViewer': openInViewer,
      'apiWorkbench.maps.drawMatrixRoutes': () => drawMatrixRoutes(commands),
    },
  };
}

// For other bundles that run maps requests (the LLM playground's tools), from this chunk rather
// than a second copy of the client in theirs.
export { MapsClient } from '../../services/maps/client';
export { googleErrorParser } from '../../services/maps';
export { mapsClientFor } from '../../features/mapsClient';
