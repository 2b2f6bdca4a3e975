// Maps, deeper, in the real editor against the sandbox: the autocomplete place picker (typed text
// too), Place Details ending the session, the route matrix table, field masks with their SKU, the
// session's cost, and the sharp edges: a sandbox key gone wrong, a server echoing the key back,
// an empty result that says what the sandbox knows.
import * as assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { sandboxConnections } from '../../../src/core/connections';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { MaskOutcome } from '../../../src/editor/maps/masks';
import type { MatrixOutcome } from '../../../src/editor/maps/matrixCommand';
import type { MatrixRoutesOutcome } from '../../../src/editor/maps/matrixRoutes';
import type { ResponseViewer } from '../../../src/editor/maps/responseViewer';
import type { ExtensionApi } from '../../../src/extension';
import { recordSecret, takeScreenshot } from '../harness/suiteApi';
import {
  acceptItem,
  acceptLabel,
  captureQuickPicks,
  findConnectionNode,
  SANDBOX,
  stubWindow,
  treeLabel,
  trustedSandbox,
  typeInto,
  userConfig,
  waitFor,
} from './kit';

const decoder = new TextDecoder();

describe('maps, deeper', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    assert.equal(api.services.connections.active('maps')?.name, SANDBOX);
  });

  it('Place Details…: the picker suggests places as you type; the details call ends the session', async () => {
    const capture = captureQuickPicks();
    let out: CommandOutcome | undefined;
    try {
      const running = vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.placeDetails');
      const qp = await waitFor('the place picker', () => capture.picks[0]);
      // Suggestions, not recent places: an earlier test may have left a pizzeria among the recent results,
      // listed before anything is typed (and before the typed text is offered).
      const shown = await typeInto(qp, 'pizza in Mountain V', (l) => l.some((x) => x.startsWith('$(location) ') && /Pizza|Pie|Crust|Forno/.test(x)));
      assert.ok(shown.includes('$(edit) Use as typed'), `the typed text is offered too: ${shown.join(' | ')}`);
      await takeScreenshot('maps-autocomplete', 800);
      const first = qp.items.find((i) => i.label.startsWith('$(location)'));
      assert.ok(first);
      await acceptItem(qp, first);
      out = await running;
    } finally {
      capture.restore();
    }
    assert.ok(out, 'no outcome');
    const place = out.response as { id?: string; formattedAddress?: string };
    assert.match(place.formattedAddress ?? '', /Mountain View, CA, USA$/);
    assert.equal(out.results.length, 1);
    assert.equal(out.map?.markers, 1);
  });

  it('typed text works with Enter: lat,lng as the route origin, “Lyon, France” as typed for the destination', async () => {
    const capture = captureQuickPicks();
    const mode = stubWindow('showQuickPick', (items: unknown) => (items as Array<{ label: string }>).find((i) => i.label === 'DRIVE'));
    let out: CommandOutcome | undefined;
    try {
      const running = vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.computeRoute');
      const origin = await waitFor('the origin picker', () => capture.picks[0]);
      // Nothing to suggest for coordinates: the first item is the text, and Enter takes it.
      await typeInto(origin, '45.76,4.83', (l) => l[0] === '$(pin) Use as coordinates');
      await acceptLabel(origin, '$(pin) Use as coordinates');
      const destination = await waitFor('the destination picker', () => capture.picks[1]);
      await typeInto(destination, 'Lyon, France', (l) => l.includes('$(edit) Use as typed'));
      const typed = destination.items.find((i) => i.label === '$(edit) Use as typed');
      assert.ok(typed);
      await acceptItem(destination, typed);
      out = await running;
    } finally {
      capture.restore();
      mode.restore();
    }
    assert.ok(out, 'no outcome');
    assert.equal(out.results[0]?.label, '45.76, 4.83 → Lyon, France');
    assert.equal(out.map?.lines, 1);
  });

  it('Route Matrix… shows origins × destinations as a table and draws the pairs on the map @smoke', async () => {
    const out = await vscode.commands.executeCommand<MatrixOutcome>('apiWorkbench.maps.routeMatrix', {
      origins: ['Lyon, France', '48.8566, 2.3522'],
      destinations: ['Marseille, France', 'Grenoble, France', '43.7, 7.27'],
      travelMode: 'DRIVE',
    });
    assert.ok(out, 'no outcome');
    assert.equal(out.rows.length, 6);
    assert.deepEqual(
      out.rows.map((r) => r.condition),
      Array(6).fill('ROUTE_EXISTS'),
    );
    assert.deepEqual(
      out.rows.slice(0, 3).map((r) => [r.origin, r.destination]),
      [
        ['Lyon, France', 'Marseille, France'],
        ['Lyon, France', 'Grenoble, France'],
        ['Lyon, France', '43.7, 7.27'],
      ],
    );
    assert.ok(
      out.rows.every((r) => / km$/.test(r.distance) && /min$/.test(r.duration)),
      out.markdown,
    );
    assert.equal(out.map?.lines, 6);
    assert.equal(out.map?.markers, 5);
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === 'Route Matrix: 6 pairs');
    assert.ok(tab, 'the table is open');
    // The table and the map side by side, without the side bar.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    try {
      await takeScreenshot('maps-matrix', 1500);
    } finally {
      await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    }
  });

  it('Draw actual routes (from the matrix table) replaces the straight lines with each pair’s road, one Compute Routes request per pair', async () => {
    const routeCalls = async () => (await api.services.history.entries()).filter((e) => e.url.endsWith('/directions/v2:computeRoutes')).length;
    const before = await routeCalls();
    const out = await vscode.commands.executeCommand<MatrixRoutesOutcome | undefined>('apiWorkbench.maps.drawMatrixRoutes');
    assert.ok(out, 'no outcome');
    assert.equal(out.routes.length, 6, 'one route per pair of the matrix above');
    for (const r of out.routes) {
      assert.equal(r.problem, undefined);
      assert.ok(r.points.length > 2, 'a road, not a straight line');
      assert.ok(Math.abs(r.points[0].latitude - r.pair.origin.latitude) < 0.1, 'it starts at the origin');
    }
    assert.equal(out.map?.lines, 6);
    assert.equal(out.map?.markers, 5);
    await waitFor('six route requests in the history', async () => (await routeCalls()) === before + 6);
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('maps-matrix-routes', 1500);
  });

  it('Route Matrix… asked step by step: pick an origin, Add another, pick a second, Done; one destination, Done', async () => {
    const capture = captureQuickPicks();
    // The add/done step and the travel mode are showQuickPick lists; origins and destinations the place picker.
    const steps: string[] = [];
    const lists = stubWindow('showQuickPick', (items: unknown, options: unknown) => {
      const list = items as Array<string | { label: string }>;
      const placeholder = (options as { placeHolder?: string } | undefined)?.placeHolder ?? '';
      steps.push(`${list.map((i) => (typeof i === 'string' ? i : i.label)).join(' / ')} [${placeholder}]`);
      const add = list.find((i): i is string => typeof i === 'string' && i.startsWith('$(add) Add another origin'));
      const done = list.find((i): i is string => typeof i === 'string' && i.startsWith('$(check) Done'));
      if (add && steps.length === 1) return add;
      if (done) return done;
      return list.find((i) => typeof i !== 'string' && i.label === 'DRIVE');
    });
    let out: MatrixOutcome | undefined;
    try {
      const running = vscode.commands.executeCommand<MatrixOutcome | undefined>('apiWorkbench.maps.routeMatrix');
      const first = await waitFor('the first origin picker', () => capture.picks[0]);
      assert.equal(first.title, 'Route matrix: origin 1');
      await typeInto(first, 'Lyon, France', (l) => l.includes('$(edit) Use as typed'));
      const typed = first.items.find((i) => i.label === '$(edit) Use as typed');
      assert.ok(typed);
      await acceptItem(first, typed);
      const second = await waitFor('the second origin picker', () => capture.picks[1]);
      assert.equal(second.title, 'Route matrix: origin 2 (after Lyon, France)');
      await typeInto(second, '48.8566, 2.3522', (l) => l[0] === '$(pin) Use as coordinates');
      await acceptLabel(second, '$(pin) Use as coordinates');
      const destination = await waitFor('the destination picker', () => capture.picks[2]);
      assert.equal(destination.title, 'Route matrix: destination 1');
      await typeInto(destination, '43.7, 7.27', (l) => l[0] === '$(pin) Use as coordinates');
      await acceptLabel(destination, '$(pin) Use as coordinates');
      out = await running;
    } finally {
      capture.restore();
      lists.restore();
    }
    assert.deepEqual(steps, [
      '$(add) Add another origin / $(check) Done: 1 origin [Lyon, France]',
      '$(add) Add another origin / $(check) Done: 2 origins [Lyon, France · 48.8566, 2.3522]',
      '$(add) Add another destination / $(check) Done: 1 destination [43.7, 7.27]',
      'DRIVE / BICYCLE / WALK / TWO_WHEELER / TRANSIT [How to travel]',
    ]);
    assert.equal(capture.picks.length, 3, 'two origins and one destination were asked for');
    assert.ok(out, 'no outcome');
    assert.deepEqual(
      out.rows.map((r) => [r.origin, r.destination, r.condition]),
      [
        ['Lyon, France', '43.7, 7.27', 'ROUTE_EXISTS'],
        ['48.8566, 2.3522', '43.7, 7.27', 'ROUTE_EXISTS'],
      ],
    );
    assert.equal(out.map?.markers, 3);
  });

  it('Choose Field Mask… names each preset by the SKU it bills, with its price, and warns before a dearer one', async () => {
    const seen: string[] = [];
    const picks = stubWindow('showQuickPick', (items: unknown) => {
      const list = items as Array<{ label: string; description?: string }>;
      for (const i of list) seen.push(`${i.label} — ${i.description ?? ''}`);
      return list.find((i) => i.label === 'Place Details') ?? list.find((i) => i.label.startsWith('Place Details Enterprise + Atmosphere'));
    });
    const warn = stubWindow('showWarningMessage', () => 'Use It');
    let out: MaskOutcome | undefined;
    try {
      await userConfig().update('maps.fieldMasks', { getPlace: 'id,formattedAddress,location' }, vscode.ConfigurationTarget.Global);
      out = await vscode.commands.executeCommand<MaskOutcome>('apiWorkbench.maps.chooseFieldMask');
      assert.ok(seen.includes('Place Details — Place Details Essentials · $5.00 / 1,000'), seen.join('\n'));
      const presets = seen.filter((s) => / — (\d+ fields?|every field \(\*\))$/.test(s));
      assert.deepEqual(presets, [
        'Place Details Essentials (IDs Only) · $0.00 / 1,000 — 1 field',
        'Place Details Essentials · $5.00 / 1,000 — 5 fields',
        'Place Details Pro · $17.00 / 1,000 — 8 fields',
        'Place Details Enterprise · $20.00 / 1,000 — 13 fields',
        'Place Details Enterprise + Atmosphere · $25.00 / 1,000 — every field (*)',
      ]);
      assert.ok(
        seen.some((s) => s.startsWith('Route Matrix — Compute Route Matrix Essentials · $5.00 / 1,000 elements')),
        seen.join('\n'),
      );
      assert.equal(warn.calls.length, 1);
      assert.match(
        String(warn.calls[0][0]),
        /^This mask moves the request from Place Details Essentials \(\$5\.00 \/ 1,000\) to Place Details Enterprise \+ Atmosphere \(\$25\.00 \/ 1,000\) because of \*\.$/,
      );
      assert.deepEqual(out, { operation: 'getPlace', mask: '*', sku: 'Place Details Enterprise + Atmosphere', dearerThan: 'Place Details Essentials' });
      assert.equal(userConfig().get<Record<string, string>>('maps.fieldMasks')?.getPlace, '*');
    } finally {
      picks.restore();
      warn.restore();
      await userConfig().update('maps.fieldMasks', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the maps view shows this session’s requests and estimated cost', async () => {
    const conn = await findConnectionNode(api, 'maps', SANDBOX);
    assert.ok(conn);
    const cost = await waitFor('the cost node', async () => {
      const kids = await conn.children();
      const node = kids[kids.length - 1];
      return node && (await treeLabel(node)) === 'This session' ? node : undefined;
    });
    const item = await cost.toTreeItem();
    assert.match(String(item.description), /^\d+ requests · ≈ \$\d+\.\d+/);
    const lines = await Promise.all(((await cost.children?.()) ?? []).map(treeLabel));
    // The picker's suggestions, Place Details (the basic preset asks for rating: Enterprise), the route, the matrix.
    for (const sku of ['Autocomplete Requests', 'Place Details Enterprise', 'Compute Routes Essentials', 'Compute Route Matrix Essentials'])
      assert.ok(lines.includes(sku), `${sku} in ${lines.join(', ')}`);
  });

  it('an empty search says what was searched and what the sandbox knows', async () => {
    const info = stubWindow('showInformationMessage', () => undefined);
    try {
      const out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Qwzxv Blorptown' });
      assert.equal(out?.results.length, 0);
    } finally {
      info.restore();
    }
    const text = String(info.calls[0]?.[0]);
    assert.match(
      text,
      /^No places found for “Qwzxv Blorptown” \(Text Search\)\. The local sandbox knows .*at least 5,000 inhabitants.*pizza, restaurant, cafe/,
    );
  });

  it('Try the Local Sandbox repairs a sandbox connection whose stored key is wrong', async () => {
    const info = api.services.sandbox.info;
    assert.ok(info);
    const conn = sandboxConnections(info).connections.find((c) => c.service === 'maps');
    assert.ok(conn);
    const wrong = `AIzaWrongSandboxKey${Date.now()}`;
    recordSecret(wrong);
    await api.services.secrets.set(conn, wrong, [new URL(info.maps.baseUrl).origin]);
    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('apiWorkbench.maps.searchPlaces', { query: 'Lyon' }), undefined);
    } finally {
      errors.restore();
    }
    assert.ok(errors.calls[0]?.includes('Try the Local Sandbox'), `offered: ${JSON.stringify(errors.calls[0]?.slice(1))}`);
    await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
    const out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Lyon' });
    assert.ok(out && out.results.length > 0, 'the sandbox answers again');
    assert.equal((await api.services.secrets.get(conn))?.value, info.maps.apiKey);
  });

  describe('a server that echoes the key back', () => {
    const key = `AIzaEchoedKey${Date.now()}x`;
    let server: http.Server;
    let origin = '';
    before(async () => {
      recordSecret(key);
      server = http.createServer((req, res) => {
        const got = String(req.headers['x-goog-api-key'] ?? '');
        req.resume();
        req.on('end', () => {
          // The key in a request-id header, in the data, and in an error's status field.
          if (req.url?.includes('searchNearby')) {
            res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `req-${got}` });
            res.end(JSON.stringify({ error: { code: 400, message: `echoed: bad request with key ${got}`, status: got } }));
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req-${got}` });
          res.end(
            JSON.stringify({
              places: [
                {
                  id: 'echo-1',
                  displayName: { text: `echoed: ${got}` },
                  formattedAddress: `https://example.test/?key=${got}`,
                  location: { latitude: 45.76, longitude: 4.83 },
                  [got]: 'as a property name',
                },
              ],
            }),
          );
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await userConfig().update('maps.connections', [{ name: 'EchoMaps', baseUrl: origin }], vscode.ConfigurationTarget.Global);
      const conn = await waitFor('the echo connection', () => api.services.connections.get('maps', 'EchoMaps'));
      await api.services.secrets.set(conn, key, [origin]);
      await api.services.connections.setActive('maps', 'EchoMaps');
    });
    after(async () => {
      await api.services.connections.setActive('maps', SANDBOX);
      await userConfig().update('maps.connections', undefined, vscode.ConfigurationTarget.Global);
      await new Promise<void>((r) => server.close(() => r()));
    });

    it('the response viewer, the response document, the results and the error message never show it', async () => {
      const out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'anything' });
      assert.ok(out);
      const doc = await vscode.workspace.openTextDocument(out.document);
      assert.equal(doc.uri.scheme, 'api-workbench-maps');
      const text = doc.getText();
      assert.match(text, /echoed: /, 'the server did echo');
      assert.ok(!text.includes(key), 'the key is in the response document');
      const viewer = await vscode.commands.executeCommand<ResponseViewer>('apiWorkbench.maps.openInViewer', out.document);
      const shown = JSON.stringify(viewer.shown);
      assert.match(shown, /echoed: /, 'the viewer shows the echo');
      assert.match(viewer.shown?.headers?.['x-request-id'] ?? '', /^req-/, 'the viewer shows the response headers');
      assert.ok(!shown.includes(key), 'the key is in the response viewer');
      assert.ok(!JSON.stringify(out.results).includes(key), 'the key is in the results');
      const errors = stubWindow('showErrorMessage', () => undefined);
      try {
        await vscode.commands.executeCommand('apiWorkbench.maps.searchNearby', { center: '45.76,4.83', radius: 1000 });
      } finally {
        errors.restore();
      }
      const message = String(errors.calls[0]?.[0]);
      assert.match(message, /echoed: bad request/);
      assert.ok(!message.includes(key), `the key is in the error: ${message.replace(key, '<KEY>')}`);
    });

    it('notebook outputs never show it', async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder);
      const uri = vscode.Uri.joinPath(folder.uri, 'echo.awb.md');
      const cell = (path: string) =>
        `\`\`\`maps connection=EchoMaps\nPOST ${path}\nX-Goog-FieldMask: *\nContent-Type: application/json\n\n{"textQuery": "x"}\n\`\`\`\n`;
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${cell('/v1/places:searchText')}\n${cell('/v1/places:searchNearby')}`));
      const nb = await vscode.workspace.openNotebookDocument(uri);
      await vscode.window.showNotebookDocument(nb);
      await api.notebook().controller.runAll(nb);
      const outputs = nb
        .getCells()
        .flatMap((c) => c.outputs.flatMap((o) => o.items.map((i) => decoder.decode(i.data))))
        .join('\n');
      assert.match(outputs, /echoed: /, 'the server did echo');
      assert.ok(!outputs.includes(key), 'the key is in a notebook output');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });
  });
});
