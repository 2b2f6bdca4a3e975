// The maps service in the editor: the Maps & Location tree (capabilities → recent results), the
// commands (search, route, matrix, place details, validate, geocode, field masks with their SKU),
// the map webview and this session's estimated cost.
import { RequestHistory } from '../curl';
import type { ServiceActivation, Services, ServiceView } from '../services';
import { MapsCommands } from './commands';
import { SessionCosts } from './costs';
import { prices } from './masks';
import { MatrixPanel } from './matrixPanel';
import { MapPanel } from './mapPanel';
import { ResponseDocuments } from './responses';
import { ResultStore } from './results';
import { MapsTreeSource } from './tree';

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const results = new ResultStore(s.context.globalState);
  const map = new MapPanel(s.context.extensionUri, s.log);
  const costs = new SessionCosts(() => prices(s));
  costs.onDidChange(() => view.provider.refresh());
  view.provider.source = new MapsTreeSource(s, results, costs);
  view.provider.refresh();
  const responses = new ResponseDocuments(s.redactor);
  const matrix = new MatrixPanel();
  const commands = new MapsCommands(s, results, map, responses, new RequestHistory('maps'), costs, matrix);
  return { disposables: [results, map, matrix, responses, results.onDidChange(() => view.provider.refresh())], commands: commands.table() };
}

// For other bundles that run maps requests (the LLM playground's tools), from this chunk rather
// than a second copy of the client in theirs.
export { MapsClient } from '../../services/maps/client';
export { googleErrorParser } from '../../services/maps';
