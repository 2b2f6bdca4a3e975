// Maps in the real editor, against the local sandbox: every command adds results to the tree and
// draws on the map webview; results survive in globalState; failures offer Retry.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { connectionId } from '../../../src/core/connections';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { MapRendered } from '../../../src/editor/maps/mapPanel';
import type { ResponseViewer } from '../../../src/editor/maps/responseViewer';
import { ResultStore } from '../../../src/editor/maps/results';
import type { ExtensionApi } from '../../../src/extension';
import type { TreeNode } from '../../../src/editor/tree';
import { takeScreenshot } from '../harness/suiteApi';
import {
  captureQuickPicks,
  findConnectionNode,
  acceptItem,
  acceptLabel,
  SANDBOX,
  shownMapsResponse,
  SLOW_UI_WAIT_MS,
  stubWindow,
  treeLabels,
  trustedSandbox,
  typeInto,
  userConfig,
  waitFor,
} from './kit';

describe('maps', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    assert.equal(api.services.connections.active('maps')?.name, 'Local Sandbox');
    await vscode.commands.executeCommand('apiWorkbench.maps.clearResults');
  });

  /** Capability nodes below the sandbox connection, once loaded. */
  async function capabilities(): Promise<TreeNode[]> {
    const conn = await findConnectionNode(api, 'maps', SANDBOX);
    assert.ok(conn, 'no Local Sandbox node');
    return waitFor('capabilities', async () => {
      // The four capabilities, then this session's cost.
      const kids = await conn.children();
      return kids.length === 5 ? kids.slice(0, 4) : undefined;
    });
  }

  async function resultLabels(capability: string): Promise<string[]> {
    const caps = await capabilities();
    const labels = await treeLabels(caps);
    const node = caps[labels.indexOf(capability)];
    assert.ok(node, `no ${capability} node (have ${labels.join(', ')})`);
    return treeLabels((await node.children?.()) as TreeNode[]);
  }

  it('shows Places, Routes, Address Validation and Geocoding under the sandbox connection @smoke', async () => {
    assert.deepEqual(await treeLabels(await capabilities()), ['Places', 'Routes', 'Address Validation', 'Geocoding']);
  });

  it('Search Places… suggests places as you type, Enter searches the text as typed; the response in the viewer, places with address and rating, plotted @smoke', async () => {
    const capture = captureQuickPicks();
    let out: CommandOutcome | undefined;
    try {
      const running = vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces');
      const qp = await waitFor('the search box', () => capture.picks[0]);
      const shown = await typeInto(qp, 'Lyo', (l) => l[0] === '$(search) Lyo' && l.some((x) => x.startsWith('$(location) Lyon')));
      await takeScreenshot('maps-search-type-ahead', 800);
      assert.ok(
        shown.some((x) => x.startsWith('$(location) ')),
        `suggestions while typing: ${shown.join(' | ')}`,
      );
      await typeInto(qp, 'Lyon', (l) => l[0] === '$(search) Lyon');
      await acceptLabel(qp, '$(search) Lyon');
      out = await running;
    } finally {
      capture.restore();
    }
    assert.ok(out, 'the command returned nothing');
    const sent = (await api.services.history.entries()).find((e) => e.command === 'apiWorkbench.maps.searchPlaces');
    assert.match(sent?.request.body ?? '', /"textQuery":\s*"Lyon"/, 'Enter searched the text as typed, not the first suggestion');
    assert.ok(Array.isArray((await shownMapsResponse(out)).places));
    // The viewer's page drew the response (its own report, not the host's).
    const viewer = await vscode.commands.executeCommand<ResponseViewer>('apiWorkbench.maps.openInViewer', out.document);
    await waitFor(
      'the response viewer to draw the response',
      () => viewer.rendered.some((m) => m.resultId === viewer.shown?.resultId && m.tab === 'body'),
      SLOW_UI_WAIT_MS,
    );
    assert.ok(out.results.length >= 1);
    assert.ok(out.map && out.map.markers >= 1, 'the places are on the map');
    const labels = await resultLabels('Places');
    assert.ok(labels.includes('Lyon'), labels.join(', '));
    const lyon = out.results.find((r) => r.label === 'Lyon');
    assert.match(lyon?.description ?? '', /^Lyon, France · ★ \d\.\d/);
  });

  it('Search Places…: a picked suggestion shows that place (Place Details by its id, with the suggestions’ session token), in the viewer and on the map', async () => {
    const capture = captureQuickPicks();
    const before = new Set((await api.services.history.entries()).map((e) => e.id));
    let out: CommandOutcome | undefined;
    let picked: string | undefined;
    try {
      const running = vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchPlaces');
      const qp = await waitFor('the search box', () => capture.picks[0]);
      await typeInto(qp, 'pizza in Mountain V', (l) => l.some((x) => x.startsWith('$(location) ')));
      const suggestion = qp.items.find((i) => i.label.startsWith('$(location) '));
      assert.ok(suggestion);
      picked = suggestion.label.slice('$(location) '.length);
      await acceptItem(qp, suggestion);
      out = await running;
    } finally {
      capture.restore();
    }
    assert.ok(out, 'picking a suggestion found nothing');
    assert.deepEqual(
      out.results.map((r) => r.label),
      [picked],
      'the picked place, and only it',
    );
    assert.equal(out.map?.markers, 1, 'the place is on the map');
    const sent = (await api.services.history.entries()).filter((e) => !before.has(e.id) && e.service === 'maps');
    assert.ok(!sent.some((e) => /places:searchText/.test(e.url)), `no Text Search for the suggestion's text: ${sent.map((e) => e.url).join(', ')}`);
    const details = sent.find((e) => e.method === 'GET' && /\/places\/[^/?:]+/.test(e.url));
    assert.ok(details, `a Place Details request: ${sent.map((e) => `${e.method} ${e.url}`).join(', ')}`);
    // The suggestions' session ends with this call (typed keystrokes are not history entries; the unit
    // tests of AutocompleteSession hold that the token is theirs): a lookup by id alone has no token.
    // The history masks every `*Token` query parameter (an AWS session token is a key), this one too.
    assert.match(details.url, /[?&]sessionToken=[^&]+/, `the details call ends the autocomplete session: ${details.url}`);
    const viewer = await vscode.commands.executeCommand<ResponseViewer>('apiWorkbench.maps.openInViewer', out.document);
    await waitFor(
      'the viewer to draw the place',
      () => viewer.rendered.some((m) => m.resultId === viewer.shown?.resultId && m.tab === 'body'),
      SLOW_UI_WAIT_MS,
    );
    await takeScreenshot('maps-search-picked-place', 800);
  });

  it('Search Nearby… around lat,lng lists places within the radius', async () => {
    const out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.searchNearby', { center: '48.8566, 2.3522', radius: 5000 });
    assert.ok(out && out.results.length >= 1);
    assert.ok(out.map && out.map.markers >= 2, 'places and the search centre');
    assert.ok((await resultLabels('Places')).includes('Paris'));
  });

  it('Compute Route… from a place in the results to a typed address, picked travel mode, draws the route', async () => {
    // Origin: the Lyon result from the picker's recent places; destination: typed; travel mode: DRIVE.
    const capture = captureQuickPicks();
    const created = capture.picks;
    const picks = stubWindow('showQuickPick', (items: unknown) => (items as Array<{ label: string }>).find((i) => i.label === 'DRIVE'));
    let out: CommandOutcome | undefined;
    try {
      const running = vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.computeRoute');
      const origin = await waitFor('the origin picker', () => created[0]);
      const lyon = await waitFor('Lyon among the recent places', () => origin.items.find((i) => i.label.endsWith(' Lyon')));
      await acceptItem(origin, lyon);
      const destination = await waitFor('the destination picker', () => created[1]);
      destination.value = 'Paris, France';
      const typed = await waitFor('the typed item', () => !destination.busy && destination.items.find((i) => i.label === '$(edit) Use as typed'));
      await acceptItem(destination, typed);
      out = await running;
    } finally {
      capture.restore();
      picks.restore();
    }
    assert.ok(out, 'no outcome');
    assert.equal(picks.calls.length, 1, 'the travel mode');
    assert.ok(Array.isArray((await shownMapsResponse(out)).routes));
    assert.equal(out.results.length, 1);
    assert.match(out.results[0].label, /^Lyon → Paris, France$/);
    assert.match(out.results[0].description, /km · \d+ h \d\d min · drive$/);
    assert.equal(out.map?.lines, 1);
    assert.equal(out.map?.markers, 2);
    assert.ok((await resultLabels('Routes')).some((l) => l.startsWith('Lyon → ')));
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('maps-route', 2_000);
  });

  it('Validate Address… validates the editor selection and shows the verdict', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'Ship to:\n1600 Amphitheatre Pkwy, Mountian View, CA 94043\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, doc.lineAt(1).text.length);
    // Accept what the prompts offer: the selection, then the region code.
    const input = stubWindow('showInputBox', (opts: unknown) => (opts as vscode.InputBoxOptions).value);
    let out: CommandOutcome | undefined;
    try {
      out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.validateAddress');
    } finally {
      input.restore();
    }
    assert.equal((input.calls[0][0] as vscode.InputBoxOptions).value, '1600 Amphitheatre Pkwy, Mountian View, CA 94043');
    assert.ok(out);
    const result = out.results[0];
    assert.equal(result.label, '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA');
    assert.match(result.description, /^OTHER → CONFIRM · complete, unconfirmed parts, inferred parts, spell-corrected$/);
    assert.equal(out.map?.markers, 1);
    assert.ok((await resultLabels('Address Validation')).includes(result.label));
  });

  it('Geocode… and Reverse Geocode… (from a lat,lng selection) add geocoding results', async () => {
    const fwd = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.geocode', { address: 'Springfield, IL' });
    assert.equal(fwd?.results[0]?.label, 'Springfield, IL, USA');
    const doc = await vscode.workspace.openTextDocument({ content: 'Eiffel Tower: 48.8584, 2.2945\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 14, 0, 29);
    const rev = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.reverseGeocode');
    assert.equal(rev?.results[0]?.label, 'Paris, France');
    assert.equal(rev?.map?.markers, 2, 'the address and the queried point');
    const labels = await resultLabels('Geocoding');
    assert.ok(labels.includes('Springfield, IL, USA') && labels.includes('Paris, France'), labels.join(', '));
  });

  it('with maps.openResponsesIn set to "document", a response opens as a read-only JSON document instead', async () => {
    await userConfig().update('maps.openResponsesIn', 'document', vscode.ConfigurationTarget.Global);
    let out: CommandOutcome | undefined;
    try {
      out = await vscode.commands.executeCommand<CommandOutcome>('apiWorkbench.maps.geocode', { address: 'Lyon, France' });
    } finally {
      await userConfig().update('maps.openResponsesIn', undefined, vscode.ConfigurationTarget.Global);
    }
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.toString(), out?.document.toString(), 'the response document is the active editor');
    assert.equal(doc.languageId, 'json');
    assert.ok(Array.isArray((JSON.parse(doc.getText()) as { results?: unknown }).results));
  });

  it('clicking a result in the tree shows it on the map', async () => {
    const caps = await capabilities();
    const routes = caps[1];
    const [first] = (await routes.children?.()) as TreeNode[];
    const item = await first.toTreeItem();
    assert.equal(item.contextValue, 'maps.result');
    assert.ok(item.command);
    const shown = await vscode.commands.executeCommand<MapRendered>(item.command.command, ...((item.command.arguments ?? []) as unknown[]));
    assert.equal(shown?.lines, 1);
    assert.ok(shown?.bounds, 'fitted to the route');
  });

  it('keeps results in globalState, so they come back after a reload', () => {
    const conn = api.services.connections.active('maps');
    assert.ok(conn);
    const stored = new ResultStore(api.services.context.globalState).list(connectionId(conn));
    const kinds = new Set(stored.map((r) => r.capability));
    assert.deepEqual([...kinds].sort(), ['addressValidation', 'geocoding', 'places', 'routes']);
  });

  it('a request the service refuses shows its message with Retry, and nothing is added', async () => {
    const before = (await resultLabels('Places')).length;
    const errors = stubWindow('showErrorMessage', () => undefined);
    try {
      const out = await vscode.commands.executeCommand<CommandOutcome | undefined>('apiWorkbench.maps.searchPlaces', {
        query: 'Lyon',
        fieldMask: 'places.bogus',
      });
      assert.equal(out, undefined);
    } finally {
      errors.restore();
    }
    assert.equal(errors.calls.length, 1);
    assert.match(String(errors.calls[0][0]), /400 INVALID_ARGUMENT: .*Cannot find matching fields for path 'places\.bogus'/);
    assert.deepEqual(errors.calls[0].slice(1), ['Retry', 'Copy as cURL', 'Show Log']);
    assert.equal((await resultLabels('Places')).length, before);
  });

  it('Open Map shows every recent result of the connection', async () => {
    const shown = await vscode.commands.executeCommand<MapRendered>('apiWorkbench.maps.openMap');
    assert.ok(shown && shown.markers >= 5 && shown.lines >= 1);
  });
});
