// A connection whose host does not resolve (a typo in the base URL, no network, a VPN down): the
// user hears about it once, told what to check, however many parts of the editor tried it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { isTrustedRun, recordSecret, takeScreenshot } from '../harness/suiteApi';
import { activateExtension, quietPeriod, SLOW_UI_WAIT_MS, stubWindow, userConfig, waitFor } from './kit';

const NOWHERE = 'Nowhere';
const KEY = 'sk-nowhere-0000000';

describe('an unreachable host', function () {
  this.timeout(120_000);
  let api: ExtensionApi;

  before(async function () {
    if (!isTrustedRun()) this.skip();
    api = await activateExtension();
  });

  after(async () => {
    await userConfig().update('llm.connections', undefined, vscode.ConfigurationTarget.Global);
  });

  it('one notification, saying to check the host and the network, when the LLM host does not resolve', async () => {
    const shown: string[] = [];
    const stubs = (['showErrorMessage', 'showWarningMessage', 'showInformationMessage'] as const).map((name) =>
      stubWindow(name, (text: string) => {
        shown.push(`${name}: ${text}`);
        return undefined;
      }),
    );
    try {
      await userConfig().update('llm.connections', [{ name: NOWHERE, baseUrl: 'https://nonexistent.invalid/v1' }], vscode.ConfigurationTarget.Global);
      const conn = await waitFor('the connection', () => {
        const c = api.services.connections.get('llm', NOWHERE);
        return c?.service === 'llm' ? c : undefined;
      });
      recordSecret(KEY);
      await api.services.secrets.set(conn, KEY, ['https://nonexistent.invalid']);
      await api.services.connections.setActive('llm', NOWHERE);
      await vscode.commands.executeCommand('workbench.view.extension.apiWorkbench');
      await vscode.commands.executeCommand('apiWorkbench.llm.ask', { prompt: 'Hello?', model: 'gpt-4o-mini' }).then(undefined, () => undefined);
      // The failure is told on its own time (after the lookup fails): waited for. Then a while longer,
      // watched, for a second notification from another part of the editor trying the same host.
      await waitFor('the notification about the unreachable host', () => shown.some((m) => m.startsWith('showErrorMessage')), SLOW_UI_WAIT_MS);
      await quietPeriod(2000);
      await takeScreenshot('unreachable-host', 500);
    } finally {
      for (const s of stubs) s.restore();
    }
    const errors = shown.filter((m) => !m.startsWith('showInformationMessage: "gpt-4o-mini" is now the default model'));
    assert.equal(errors.length, 1, errors.join('\n'));
    // One sentence: the service named once, then the code and the host, then what to check.
    assert.match(
      errors[0],
      /^showErrorMessage: Nowhere could not be reached \(ENOTFOUND nonexistent\.invalid\): check the host in the connection's base URL, or this machine's network/,
    );
  });
});
