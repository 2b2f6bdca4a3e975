// The maps service in the editor: the Maps & Location tree (capabilities → recent results), the
// commands (search, route, validate, geocode) and the map webview.
import type * as vscode from 'vscode';
import { registerCommands } from '../commands';
import { RequestHistory } from '../curl';
import type { Services, ServiceView } from '../services';
import { MapsCommands } from './commands';
import { MapPanel } from './mapPanel';
import { ResponseDocuments } from './responses';
import { ResultStore } from './results';
import { MapsTreeSource } from './tree';

export function activateMaps(s: Services, view: ServiceView): vscode.Disposable[] {
  const results = new ResultStore(s.context.globalState);
  const map = new MapPanel(s.context.extensionUri, s.log);
  view.provider.source = new MapsTreeSource(results);
  view.provider.refresh();
  const responses = new ResponseDocuments();
  const commands = new MapsCommands(s, results, map, responses, new RequestHistory('maps'));
  return [results, map, responses, results.onDidChange(() => view.provider.refresh()), ...registerCommands(commands.table(), s.log)];
}
