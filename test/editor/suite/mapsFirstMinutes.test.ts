// Maps in a newcomer's first minutes, in the real editor against the sandbox, driven with the
// keyboard as a person does: the command palette, the place picker, and what Enter runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { MatrixOutcome } from '../../../src/editor/maps/matrixCommand';
import type { ExtensionApi } from '../../../src/extension';
import { canDriveWebviews, inWebview, takeScreenshot } from '../harness/suiteApi';
import { captureQuickPicks, SANDBOX, stubWindow, trustedSandbox, waitFor } from './kit';

/** A row of the workbench's quick-open list whose text contains `text`. */
const quickOpenRow = (text: string) => `.quick-input-list .monaco-list-row[aria-label*="${text}"]`;

describe('maps, first minutes', function () {
  this.timeout(180_000);
  let api: ExtensionApi;

  before(async function () {
    ({ api } = await trustedSandbox(this));
    assert.equal(api.services.connections.active('maps')?.name, SANDBOX);
  });

  it('Route Matrix… typed in the palette beside a matrix table: Enter asks for the first origin and accepts it, it draws no routes', async function () {
    if (!canDriveWebviews()) this.skip();
    const routeCalls = async () => (await api.services.history.entries()).filter((e) => e.url.endsWith('/directions/v2:computeRoutes')).length;
    const table = await vscode.commands.executeCommand<MatrixOutcome>('apiWorkbench.maps.routeMatrix', {
      origins: ['45.76, 4.83'],
      destinations: ['45.19, 5.72'],
      travelMode: 'DRIVE',
    });
    assert.ok(table, 'no outcome');
    const before = await routeCalls();

    const capture = captureQuickPicks();
    const steps: string[] = [];
    const lists = stubWindow('showQuickPick', (items: unknown) => {
      steps.push((items as unknown[]).map(String).join(' / '));
      return undefined; // Escape at "Add another origin / Done": the command ends there.
    });
    try {
      // A second matrix, asked for as a person does: the palette, the command's name, Enter.
      // The palette opened with the name typed in it (F1 pressed while a webview held the focus was
      // sometimes not the workbench's: the palette never opened).
      void vscode.commands.executeCommand('workbench.action.quickOpen', '>Route Matrix');
      await inWebview({ selector: quickOpenRow('Route Matrix'), action: 'press', text: 'Enter' });
      const first = await waitFor('the first origin picker', () => capture.picks[0]);
      assert.equal(first.title, 'Route matrix: origin 1');
      // Typed into the picker once it is on screen with its row (keys sent as it is created can land elsewhere).
      first.value = '48.8566, 2.3522';
      const offered = async () => {
        try {
          await inWebview({ selector: quickOpenRow('Use as coordinates'), action: 'find' });
          return true;
        } catch {
          return false;
        }
      };
      await waitFor('the typed coordinates offered in the picker', offered);
      await takeScreenshot('maps-matrix-enter', 500);
      await inWebview({ selector: quickOpenRow('Use as coordinates'), action: 'press', text: 'Enter' });
      await waitFor('the typed origin accepted (the next step asked)', () => steps.length === 1);
      assert.match(steps[0], /Done: 1 origin/);
    } finally {
      capture.restore();
      lists.restore();
    }
    assert.equal(await routeCalls(), before, 'Enter drew no routes');
  });
});
