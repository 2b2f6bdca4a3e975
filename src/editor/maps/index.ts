// The maps service in the editor: the Maps & Location tree (capabilities → recent results), the
// commands (search, route, validate, geocode) and the map webview.
import { RequestHistory } from '../curl';
import type { ServiceActivation, Services, ServiceView } from '../services';
import { MapsCommands } from './commands';
import { MapPanel } from './mapPanel';
import { ResponseDocuments } from './responses';
import { ResultStore } from './results';
import { MapsTreeSource } from './tree';

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const results = new ResultStore(s.context.globalState);
  const map = new MapPanel(s.context.extensionUri, s.log);
  view.provider.source = new MapsTreeSource(s, results);
  view.provider.refresh();
  const responses = new ResponseDocuments(s.redactor);
  const commands = new MapsCommands(s, results, map, responses, new RequestHistory('maps', s.history));
  return { disposables: [results, map, responses, results.onDidChange(() => view.provider.refresh())], commands: commands.table() };
}
