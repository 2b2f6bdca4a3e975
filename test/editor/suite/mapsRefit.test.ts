// The map panel fits every new result, in the real editor against the sandbox: a second search in
// another city moves the view there and frames it closely.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { MatrixOutcome } from '../../../src/editor/maps/matrixCommand';
import type { ResponseViewer } from '../../../src/editor/maps/responseViewer';
import type { ExtensionApi } from '../../../src/extension';
import { canDriveWebviews, inWebview, takeScreenshot } from '../harness/suiteApi';
import { SANDBOX, SLOW_UI_WAIT_MS, stubWindow, trustedSandbox, waitFor } from './kit';

type Box = [[number, number], [number, number]];

const isMatrixTab = (tab: vscode.Tab | undefined) => tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('apiWorkbench.routeMatrix');

/**
 * Whether the view holds the result whole, centred on it, and closely: a region, not the world
 * (offline, the basemap stops at a region the size of France, OFFLINE_MAX_ZOOM).
 */
function framed(view: Box | undefined, bounds: Box): boolean {
  if (!view) return false;
  const [[s, w], [n, e]] = view;
  const [[bs, bw], [bn, be]] = bounds;
  const holds = s <= bs && w <= bw && n >= bn && e >= be;
  const centred = Math.abs((s + n) / 2 - (bs + bn) / 2) <= (n - s) / 4 && Math.abs((w + e) / 2 - (bw + be) / 2) <= (e - w) / 4;
  const close = e - w <= Math.max(30, 2 * (be - bw)) && n - s <= Math.max(30, 2 * (bn - bs));
  return holds && centred && close;
}

/**
 * Opens a document in front of the map panel, in its own group: the next result reveals the map
 * again, and arrives while the panel is still hidden (no size to fit to yet).
 */
async function hideMapBehindAnotherTab(): Promise<void> {
  const group = vscode.window.tabGroups.all.find((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('apiWorkbench.map')),
  );
  assert.ok(group, 'the map panel is open');
  const doc = await vscode.workspace.openTextDocument({ content: 'in front of the map' });
  await vscode.window.showTextDocument(doc, { viewColumn: group.viewColumn, preserveFocus: true });
}

describe('maps: the map fits each new result', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    await api.services.connections.setActive('maps', SANDBOX);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('two searches in different cities: each is framed on the map', async () => {
    const info = stubWindow('showInformationMessage', () => undefined);
    const outcomes: Array<CommandOutcome | undefined> = [];
    try {
      for (const query of ['Lyon', 'Lisbon Portugal']) {
        const out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query });
        outcomes.push(out);
        assert.ok(out?.map?.bounds, `${query}: drawn on the map`);
        assert.ok(framed(out.map.view, out.map.bounds), `${query}: the view ${JSON.stringify(out.map.view)} frames ${JSON.stringify(out.map.bounds)}`);
        await takeScreenshot(`maps-refit-${query.split(' ')[0].toLowerCase()}`, 1000);
        await hideMapBehindAnotherTab();
      }
    } finally {
      info.restore();
    }
    const [lyon, lisbon] = outcomes.map((o) => o?.map?.view);
    assert.ok(lyon && lisbon && Math.abs(lyon[0][1] - lisbon[0][1]) > 5, 'the second result moved the view to its city');
  });

  it("the response viewer's Map tab, opened while the viewer is behind another tab, is fitted once on screen, and again after a resize", async () => {
    const info = stubWindow('showInformationMessage', () => undefined);
    let out: CommandOutcome | undefined;
    try {
      out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Lisbon Portugal' });
    } finally {
      info.restore();
    }
    const bounds = out?.map?.bounds;
    assert.ok(out && bounds);
    const viewer = await vscode.commands.executeCommand<ResponseViewer>('apiWorkbench.maps.openInViewer', out.document);
    const resultId = viewer.shown?.resultId;
    await waitFor('the viewer to draw the body', () => viewer.rendered.some((m) => m.resultId === resultId && m.tab === 'body'), SLOW_UI_WAIT_MS);
    // Another document in front of the viewer: its webview has no size while the Map tab is made.
    const viewerGroup = vscode.window.tabGroups.activeTabGroup.viewColumn;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: 'in front of the response' }), { viewColumn: viewerGroup });
    await viewer.selectTab('map');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // Asked again while waiting: a message posted to the webview as it was being hidden was seen lost
    // in CI, which is not what this test is about. A Map tab made already says again that it is drawn
    // (before, it said nothing, and a lost first report failed the test after 90 s).
    await waitFor(
      'the Map tab to be made',
      () => viewer.rendered.some((m) => m.resultId === resultId && m.tab === 'map-drawn') || void viewer.selectTab('map'),
      SLOW_UI_WAIT_MS,
    );
    const fitted = await waitFor(
      'the Map tab to frame the result once on screen',
      () => viewer.rendered.find((m) => m.resultId === resultId && m.tab === 'map-view' && framed(m.view, bounds)),
      SLOW_UI_WAIT_MS,
    );
    assert.ok(fitted.view);
    await takeScreenshot('maps-viewer-map-tab-fitted', 1000);
    // A resize (the side bar closing widens the viewer) fits it again rather than keeping the old centre and zoom.
    const seen = viewer.rendered.length;
    await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    try {
      const refit = await waitFor(
        'the Map tab to fit again after the resize',
        () => viewer.rendered.slice(seen).find((m) => m.resultId === resultId && m.tab === 'map-view' && framed(m.view, bounds)),
        SLOW_UI_WAIT_MS,
      );
      assert.ok(refit.view && refit.view[1][1] - refit.view[0][1] > fitted.view[1][1] - fitted.view[0][1], 'wider after the side bar closed');
    } finally {
      await vscode.commands.executeCommand('workbench.action.toggleSidebarVisibility');
    }
  });

  it('the route matrix table reads rounded distances and durations (screenshot once the table is on screen)', async function () {
    // Room for the named waits on the webview (SLOW_UI_WAIT_MS) on a loaded machine.
    this.timeout(240_000);
    const out = await vscode.commands.executeCommand<MatrixOutcome>('apiWorkbench.maps.routeMatrix', {
      origins: ['Lyon, France'],
      destinations: ['Marseille, France', 'Grenoble, France'],
      travelMode: 'DRIVE',
    });
    assert.ok(out);
    // "277 km", "2 h 51 min": whole kilometres past 10 km, no float tails.
    for (const r of out.rows) assert.match(`${r.distance} ${r.duration}`, /^\d+(\.\d)? km \d+( h \d+)? min$|^\d+(\.\d)? km \d+ h$/, JSON.stringify(r));
    if (!canDriveWebviews()) return;
    await vscode.commands.executeCommand('notifications.clearAll');
    // The table is drawn after the command returns, in a webview with no scripts (so it sends no
    // "rendered" message): first its tab in front (an event the host sees), then its cells in the
    // page, each look asked again until the bound. Not yet cured (issue 39): once in five runs at
    // load 18 the tab was in front and no frame held the cells for the whole 90 s, so something is
    // lost rather than slow; the error says what the last look saw.
    await waitFor('the Route Matrix tab in front', () => vscode.window.tabGroups.all.some((g) => isMatrixTab(g.activeTab)), SLOW_UI_WAIT_MS);
    let lastMiss = '';
    await waitFor(
      'the matrix table’s cells (td.num) in its webview',
      () =>
        inWebview({ selector: 'td.num', action: 'find' }).then(
          () => true,
          (e: unknown) => {
            lastMiss = e instanceof Error ? e.message : String(e);
            return false;
          },
        ),
      SLOW_UI_WAIT_MS,
    ).catch((e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)} (the last look said: ${lastMiss})`, { cause: e });
    });
    await takeScreenshot('maps-matrix-rounded', 800);
  });
});
