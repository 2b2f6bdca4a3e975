// The map with no tiles (offline, blocked, switched off), in the real editor against the sandbox:
// a route is drawn over the offline basemap (Natural Earth borders and coastlines) in the map panel
// and in a notebook result's Map tab, and that tab's "Show on Map Panel" draws it on the panel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { MapRendered } from '../../../src/editor/maps/mapPanel';
import type { ResponseViewer } from '../../../src/editor/maps/responseViewer';
import type { ExtensionApi } from '../../../src/extension';
import { RESULT_MIME, type ResultPayload } from '../../../src/webview/result/protocol';
import { takeScreenshot } from '../harness/suiteApi';
import { SLOW_UI_WAIT_MS, trustedSandbox, waitFor } from './kit';

/** Nothing listens on port 9 (discard): every tile request fails, as it does offline. */
const UNREACHABLE_TILES = 'https://127.0.0.1:9/{z}/{x}/{y}.png';

const ROUTE_CELL = [
  '```maps name=route',
  'POST /directions/v2:computeRoutes',
  'X-Goog-FieldMask: routes.distanceMeters,routes.duration,routes.polyline.encodedPolyline',
  '',
  '{"origin": {"address": "Lyon"}, "destination": {"address": "Marseille"}, "travelMode": "DRIVE"}',
  '',
  '?? status == 200',
  '```',
  '',
].join('\n');

describe('maps offline basemap', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let tilesBefore: string | undefined;
  /** The route of the first test, whose response the second one looks at. */
  let route: CommandOutcome | undefined;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    const config = vscode.workspace.getConfiguration('apiWorkbench');
    tilesBefore = config.inspect<string>('maps.tileUrl')?.globalValue;
    await config.update('maps.tileUrl', UNREACHABLE_TILES, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('apiWorkbench').update('maps.tileUrl', tilesBefore, vscode.ConfigurationTarget.Global);
  });

  it('a route with tiles unavailable is drawn over country borders and coastlines, under a header that fits', async () => {
    const out = await vscode.commands.executeCommand<CommandOutcome | undefined>('apiWorkbench.maps.computeRoute', {
      origin: 'Lyon, France',
      destination: 'Paris, France',
      travelMode: 'DRIVE',
    });
    route = out;
    assert.ok(out?.map, 'the route was not drawn');
    assert.equal(out.map.lines, 1);
    const id = out.results[0]?.id;
    assert.ok(id);
    // The tiles fail, then the basemap is fetched and drawn: the panel reports both.
    const shown = await waitFor('the offline basemap', async () => {
      const r = await vscode.commands.executeCommand<MapRendered | undefined>('apiWorkbench.maps.showResult', id);
      return r?.basemap ? r : undefined;
    });
    assert.equal(shown.tiles, 'failed');
    assert.equal(shown.basemap, 'drawn', 'the basemap file did not load in the webview');
    assert.ok(shown.bounds, 'fitted to the route');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('maps-offline-basemap', 2_000);
  });

  it('the route response opens in the response viewer: status, time, headers, body, and its map over the basemap', async () => {
    assert.ok(route, 'the route of the first test');
    // Opening it loads the viewer's page afresh: only what that page reports counts (the first test's
    // route was shown there already, and a tab asked for before the new page listens is lost).
    const viewer = await vscode.commands.executeCommand<ResponseViewer>('apiWorkbench.maps.openInViewer', route.document);
    const seen = viewer.rendered.length;
    assert.equal(viewer.shown?.status, 200);
    assert.ok((viewer.shown?.durationMs ?? -1) >= 0);
    assert.match(viewer.shown?.headers?.['content-type'] ?? '', /^application\/json/, JSON.stringify(viewer.shown?.headers));
    await waitFor('the viewer to render', () => viewer.rendered.slice(seen).some((m) => m.tab === 'body'), SLOW_UI_WAIT_MS);
    // Each tab is asked for again while waited for (selecting the shown tab does nothing): the 'body'
    // above can come from the page being replaced, and an ask that reaches the new page before it
    // listens is lost (under load the basemap was then waited for in vain, 90 s).
    await waitFor(
      'the viewer map basemap',
      () => viewer.rendered.some((m) => m.tab.startsWith('map-basemap-')) || void viewer.selectTab('map'),
      SLOW_UI_WAIT_MS,
    );
    assert.ok(
      viewer.rendered.some((m) => m.tab === 'map-basemap-drawn'),
      JSON.stringify(viewer.rendered),
    );
    await waitFor('the headers tab', () => viewer.rendered.some((m) => m.tab === 'headers') || void viewer.selectTab('headers'), SLOW_UI_WAIT_MS);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('maps-response-viewer', 1_500);
  });

  it("a notebook route's Map tab draws the same basemap, and Show on Map Panel puts the route on the shared map", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder');
    const uri = vscode.Uri.joinPath(folder.uri, 'offline-route.awb.md');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`# Offline route\n\n${ROUTE_CELL}`));
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const feature = api.notebook();
    const [result] = await feature.controller.runAll(doc);
    assert.equal(result?.ok, true, `the route cell failed: ${result?.error}`);
    const cell = doc.getCells().find((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.ok(cell);
    const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === RESULT_MIME);
    assert.ok(item, 'no result output');
    const payload = JSON.parse(new TextDecoder().decode(item.data)) as ResultPayload;
    assert.equal(payload.geometry?.lines.length, 1, 'the route is on the Map tab');

    await waitFor('the viewer to render the route', () => feature.rendered.some((m) => m.resultId === payload.resultId), SLOW_UI_WAIT_MS);
    await feature.showTab('map', payload.resultId);
    await waitFor(
      'the Map tab basemap',
      () => feature.rendered.some((m) => m.resultId === payload.resultId && m.tab.startsWith('map-basemap-')),
      SLOW_UI_WAIT_MS,
    );
    assert.ok(
      feature.rendered.some((m) => m.resultId === payload.resultId && m.tab === 'map-basemap-drawn'),
      `the Map tab did not draw the basemap: ${JSON.stringify(feature.rendered.filter((m) => m.resultId === payload.resultId))}`,
    );

    // What the tab's button sends, as the extension receives it (the webview's click is not
    // reachable from the extension host): the route on the panel, over the basemap.
    const onPanel = await vscode.commands.executeCommand<MapRendered>('apiWorkbench.maps.showGeometry', {
      title: `Notebook cell ${payload.name ?? ''}`,
      markers: payload.geometry?.markers ?? [],
      lines: payload.geometry?.lines ?? [],
    });
    assert.equal(onPanel.lines, 1);
    assert.equal(onPanel.markers, payload.geometry?.markers.length);
    assert.ok(onPanel.bounds);
    // Both maps in view: the cell's output scrolled up beside the panel.
    vscode.window.activeNotebookEditor?.revealRange(new vscode.NotebookRange(cell.index, cell.index + 1), vscode.NotebookEditorRevealType.AtTop);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('notebook-offline-basemap', 2_000);
  });

  it('two draws asked for at once are each answered with their own drawing, not the first one to finish', async () => {
    // The response viewer asks for its draw as it opens while a command asks for another: once,
    // the command was answered with the viewer's two markers instead of its one.
    const marker = (latitude: number, label: string) => ({ latitude, longitude: 2.29, label });
    const draw = (title: string, markers: ReturnType<typeof marker>[]) =>
      vscode.commands.executeCommand<MapRendered>('apiWorkbench.maps.showGeometry', { title, markers, lines: [] });
    const [first, second] = await Promise.all([draw('Two places', [marker(48.8, 'A'), marker(48.9, 'B')]), draw('One place', [marker(48.85, 'C')])]);
    assert.equal(first.markers, 2, 'the first draw is answered with its own two markers (or the later one that replaced it)');
    assert.equal(second.markers, 1, 'the second draw is answered with its own marker');
  });
});
