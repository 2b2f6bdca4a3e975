// The maps session cost in the real editor counts every request that spends, not only the palette's:
// a notebook `maps` cell and the playground's maps tool add to the Maps view's "This session".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionNode, TreeNode } from '../../../src/editor/tree';
import type { ExtensionApi } from '../../../src/extension';
import type { PlaygroundPanel } from '../../../src/editor/llm/playgroundPanel';
import { dollars, priceTable } from '../../../src/features/maps/costs';
import { fieldMaskFor } from '../../../src/services/maps/fieldMasks';
import { skuOf } from '../../../src/services/maps/sku';
import { defaultSettings, type PlaygroundSettings } from '../../../src/services/llm/playgroundMessages';
import { takeScreenshot } from '../harness/suiteApi';
import { findConnectionNode, SANDBOX, SLOW_UI_WAIT_MS, treeLabel, trustedSandbox, userConfig, waitFor, within } from './kit';

/** The "This session" node of the sandbox's maps connection. */
async function sessionNode(api: ExtensionApi): Promise<{ conn: ConnectionNode; node: TreeNode }> {
  const conn = await findConnectionNode(api, 'maps', SANDBOX);
  assert.ok(conn, 'the sandbox in the Maps view');
  const node = await waitFor('the session cost node', async () => {
    const kids = (await conn.children?.()) ?? [];
    const last = kids[kids.length - 1];
    return last && (await treeLabel(last)) === 'This session' ? last : undefined;
  });
  return { conn, node };
}

async function sessionText(api: ExtensionApi): Promise<string> {
  return String((await (await sessionNode(api)).node.toTreeItem()).description);
}

/** What the Maps view says after one more request at `price` per 1,000. */
function expectedAfter(before: { requests: number; total: number }, pricePer1000: number): string {
  const n = before.requests + 1;
  return `${n} request${n === 1 ? '' : 's'} · ≈ ${dollars(before.total + pricePer1000 / 1000)}`;
}

describe('maps session cost from the notebook and the playground', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    for (const service of ['llm', 'maps'] as const) await api.services.connections.setActive(service, SANDBOX);
    // The tree is drawn before anything is spent, as a person would have it open.
    await vscode.commands.executeCommand('apiWorkbench.maps.focus');
    await sessionNode(api);
  });

  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it("a notebook maps cell adds its request's price to the Maps view's session cost", async () => {
    const costs = api.services.mapsCosts;
    const before = { requests: costs.requests, total: costs.total };
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.joinPath(folder.uri, 'spend.awb.md');
    const mask = 'places.id,places.displayName,places.rating';
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(
        `\`\`\`maps name=search\nPOST /v1/places:searchText\nX-Goog-FieldMask: ${mask}\n\n{"textQuery": "Lyon"}\n\n?? status == 200\n\`\`\`\n`,
      ),
    );
    const doc = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(doc);
    const result = await api.notebook().controller.runCell(doc, 0);
    assert.equal(result?.ok, true, JSON.stringify(result?.error));
    const price = skuOf('searchText', mask, { prices: priceTable(userConfig().get('maps.skuPrices') ?? {}) });
    assert.equal(price.sku, 'Text Search Enterprise', 'rating is an Enterprise field');
    const expected = expectedAfter(before, price.pricePer1000);
    await waitFor(`the Maps view to say "${expected}"`, async () => (await sessionText(api)) === expected);
    // On screen: the Maps view's "This session" with the rounded total.
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('maps-session-cost-notebook', 800);
  });

  it("a playground maps tool call adds its request's price too", async () => {
    const costs = api.services.mapsCosts;
    const before = { requests: costs.requests, total: costs.total };
    const panel = await vscode.commands.executeCommand<PlaygroundPanel>('apiWorkbench.llm.openPlayground', { connection: SANDBOX, model: 'sandbox-chat' });
    try {
      await within(panel.whenRendered(0), 'the playground to draw', SLOW_UI_WAIT_MS);
      const settings: PlaygroundSettings = { ...defaultSettings('sandbox-chat'), system: 'Use the tools.', tools: ['search_places'] };
      panel.load(settings, []);
      await panel.receive({ type: 'send', text: 'Search places to visit in Lisbon.', settings });
      const tool = panel.conversation.find((t) => t.kind === 'tool');
      assert.ok(tool?.kind === 'tool' && tool.name === 'search_places' && tool.status === 'done', JSON.stringify(panel.conversation));
    } finally {
      panel.dispose();
    }
    // The tool asks with the basic preset's mask, as the palette does.
    const price = skuOf('searchText', fieldMaskFor('searchText', { preset: 'basic' }), { prices: priceTable(userConfig().get('maps.skuPrices') ?? {}) });
    const expected = expectedAfter(before, price.pricePer1000);
    await waitFor(`the Maps view to say "${expected}"`, async () => (await sessionText(api)) === expected);
  });
});
