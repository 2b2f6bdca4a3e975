// The security pass in restricted mode (an untrusted workspace): the main commands of each service
// send nothing to a counting server (no HTTP request, no WebSocket upgrade) and are refused against
// the sandbox too. The trusted pass (security.test.ts) proves the same scenario would reach the
// server with every key. The harness's file scan runs after this.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HttpClient } from '../../../src/core/http';
import type { ExtensionApi } from '../../../src/extension';
import type { AskResult } from '../../../src/editor/llm/ask';
import { RealtimeRest } from '../../../src/services/realtime/rest';
import { isTrustedRun } from '../harness/suiteApi';
import { activateExtension, quietPeriod, SANDBOX, waitFor } from './kit';
import { assertClean, sandboxSecrets, Dialogs, Commands, countingServer, COUNTED, configureCounted, removeCounted, runCountedScenario } from './securityKit';

// --- the untrusted pass ----------------------------------------------------------------------------

describe('security: restricted mode (untrusted workspace) — no request with a stored key, no WebSocket', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  const cmd = new Commands();
  const dialogs = new Dialogs();

  before(async function () {
    if (isTrustedRun()) this.skip();
    api = await activateExtension();
    assert.equal(vscode.workspace.isTrusted, false);
    dialogs.install();
  });

  after(async () => {
    dialogs.restore();
    if (api) await removeCounted(api);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  function assertRestricted(what: string, errors: string[]): void {
    assert.ok(errors.length > 0, `${what}: the user is told why`);
    for (const e of errors) {
      assert.match(e, /Restricted mode/, `${what}: ${e}`);
      assertClean(`${what}: the error message`, e);
    }
  }

  it('Ask…, Search Places…, Geocode…, Publish Event… and Connect WebSocket reach the counting server not once', async () => {
    const server = await countingServer();
    try {
      await configureCounted(api, server);
      const mark = dialogs.shown.length;
      await runCountedScenario(cmd);
      // Subscribing opens the socket and would sign a private channel with the secret.
      await cmd.run('apiWorkbench.realtime.subscribe', { channel: 'private-counted', connection: COUNTED.realtime });
      await cmd.run('apiWorkbench.realtime.startWebhookReceiver');
      await cmd.run('apiWorkbench.realtime.stopWebhookReceiver');
      // Anything queued (reconnect timers, retries) has had its chance to go out. The one fixed wait
      // left in the suite: "nothing happens later" has no event to wait for (see quietPeriod).
      await quietPeriod(1_000);
      assert.deepEqual(
        server.requests.map((r) => `${r.method} ${r.url}`),
        [],
        'no HTTP request',
      );
      assert.equal(server.upgrades, 0, 'no WebSocket upgrade');
      const errors = dialogs.errorsSince(mark);
      assertRestricted('the counted scenario', errors);
      assert.ok(errors.length >= 5, `one error per blocked command: ${JSON.stringify(errors)}`);
    } finally {
      await server.close();
    }
  });

  it('against the sandbox too: every main command is refused, and no channel was joined there', async () => {
    await cmd.run('apiWorkbench.sandbox.start');
    const info = api.services.sandbox.info;
    assert.ok(info, 'the sandbox starts (it needs no trust: it runs on this machine)');
    sandboxSecrets(info, 'untrusted');
    await removeCounted(api);
    for (const s of ['llm', 'maps', 'realtime'] as const) assert.equal(api.services.connections.active(s)?.name, SANDBOX);
    const mark = dialogs.shown.length;
    const asked = await cmd.run<AskResult>('apiWorkbench.llm.ask', { prompt: 'Anyone there?', model: 'sandbox-chat' });
    assert.equal(asked?.outcome, 'failed');
    assert.match(asked.error ?? '', /Restricted mode/);
    assert.equal(await cmd.run('apiWorkbench.maps.searchPlaces', { query: 'Lyon' }), undefined);
    assert.equal(await cmd.run('apiWorkbench.realtime.connect'), undefined);
    assert.equal(await cmd.run('apiWorkbench.realtime.subscribe', 'presence-restricted-probe'), undefined);
    assert.equal(await cmd.run('apiWorkbench.realtime.publish', { channel: 'restricted-probe', event: 'e', data: '{}' }), undefined);
    await waitFor('an error for each refused command', () => dialogs.errorsSince(mark).length >= 5);
    assertRestricted('the sandbox commands', dialogs.errorsSince(mark));
    // Ask the sandbox itself (from the test, with the secret it printed): nobody joined the channel.
    const rest = new RealtimeRest({
      http: new HttpClient({ service: 'probe', baseUrl: `http://${info.realtime.host}:${info.realtime.port}`, auth: { placement: 'none' } }),
      appId: info.realtime.appId,
      key: info.realtime.key,
      secret: () => Promise.resolve(info.realtime.secret),
    });
    const channels = await rest.channels({ prefix: 'presence-' });
    assert.ok(!('presence-restricted-probe' in channels), 'the sandbox saw no subscription');
  });
});
