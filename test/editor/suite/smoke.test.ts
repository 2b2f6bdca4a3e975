// The editor, the driver and the extension are wired together: if these fail, nothing else in the
// in-editor suite can be trusted.
import * as assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { validate } from '../../../src/core/validate';
import { isTrustedRun, takeScreenshot } from '../harness/suiteApi';
import { ENV } from '../harness/protocol';
import { EXTENSION_ID } from './kit';

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [ma, mi] = version.split('.').map(Number);
  return ma > major || (ma === major && mi >= minor);
}

describe('smoke @smoke', () => {
  it('runs in VS Code 1.100 or newer', () => {
    assert.ok(versionAtLeast(vscode.version, 1, 100), `vscode.version is ${vscode.version}`);
  });

  it('receives the environment the driver gave the editor', () => {
    assert.ok(process.env[ENV.results], `${ENV.results} is not set in the extension host`);
  });

  it('opens the workspace trusted or not, as the driver asked', () => {
    assert.equal(vscode.workspace.isTrusted, isTrustedRun());
    assert.ok(vscode.workspace.workspaceFolders?.length, 'no folder open');
  });

  it('is loaded from where the driver put it (the installed .vsix, or the checkout) @vsix', function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    const installed = process.env[ENV.installedDir];
    if (installed) {
      assert.equal(realpathSync(ext.extensionPath), realpathSync(installed), 'the suite must exercise the installed extension, not the source folder');
      assert.ok(
        existsSync(path.join(ext.extensionPath, 'dist', 'extension.js')) && !existsSync(path.join(ext.extensionPath, 'src')),
        'the installed extension holds bundles only',
      );
    } else {
      assert.ok(existsSync(path.join(ext.extensionPath, 'src', 'extension.ts')), 'a development run loads the checkout');
    }
  });

  it('activates when one of its commands runs @vsix', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    // Running a contributed command activates the extension even before activate() registers it.
    await vscode.commands.executeCommand('apiWorkbench.showLog').then(undefined, () => undefined);
    assert.equal(ext.isActive, true);
  });

  it('registers the commands of its foundation @vsix', async function () {
    const contributed = commandIds(vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON);
    const foundation = ['apiWorkbench.sandbox.start', 'apiWorkbench.sandbox.stop', 'apiWorkbench.showLog'];
    assert.deepEqual(
      foundation.filter((c) => !contributed.includes(c)),
      [],
      'missing from contributes.commands',
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    // A stub extension registers nothing; the check applies once activate() registers any command.
    if (!contributed.some((c) => registered.has(c))) this.skip();
    assert.deepEqual(
      foundation.filter((c) => !registered.has(c)),
      [],
    );
  });

  it('shows the API Workbench views in the sidebar', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
    await takeScreenshot('workbench');
  });
});

const manifestSchema = z.object({ contributes: z.object({ commands: z.array(z.object({ command: z.string() })) }) });

function commandIds(manifest: unknown): string[] {
  const m = validate(manifestSchema, manifest);
  return m.ok ? m.value.contributes.commands.map((c) => c.command) : [];
}
