// The Get Started walkthrough ticks a step once the user did it: seen in the walkthrough itself,
// as the user sees it (the extension host cannot read a step's progress).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { canDriveWebviews, inWebview, isTrustedRun, takeScreenshot } from '../harness/suiteApi';
import { EXTENSION_ID } from './kit';

const WALKTHROUGH = `${EXTENSION_ID}#getStarted`;

describe('Get Started walkthrough progress', function () {
  this.timeout(120_000);

  before(async function () {
    if (!isTrustedRun() || !canDriveWebviews()) this.skip();
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('"Try the local sandbox" is ticked once the sandbox runs, started from the extension, not the step’s link', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
    await vscode.commands.executeCommand('walkthroughs.selectStep', `${WALKTHROUGH}#sandbox`);
    await inWebview({ selector: '[data-done-step-id$="#sandbox"]', action: 'find' });
    // Started from the extension (as the sandbox view's button or `npm start` do), not from the step's
    // link: no workbench command event, only the context key apiWorkbench.sandboxRunning ticks it.
    await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
    await inWebview({ selector: '[data-done-step-id$="#sandbox"][aria-checked="true"]', action: 'find' });
    await vscode.commands.executeCommand('notifications.clearAll');
    await takeScreenshot('walkthrough-sandbox-done', 800);
  });
});
