// The three per-service scenarios of the security test (security.test.ts): each connects with a
// typed key, runs every command of its service (a wrong key included), then removes the connection.
// What they leave behind (settings, state, logs, documents, messages) is checked by the test itself.
import { MAKE_ACTIVE } from '../../../src/editor/connectionCheck';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import type { AskResult } from '../../../src/editor/llm/ask';
import type { CompareOutcome } from '../../../src/editor/llm/comparePanel';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import type { MapRendered } from '../../../src/editor/maps/mapPanel';
import type { Published } from '../../../src/editor/realtime/commands';
import type { ReceiverInfo } from '../../../src/editor/realtime/webhooks';
import { type Sandbox } from '../../../src/sandbox/host';
import type { SubscriptionSnapshot } from '../../../src/services/realtime/client';
import { findConnectionNode, SANDBOX, treeLabels, userConfig, waitFor } from './kit';
import {
  ConnectionSteps,
  assertClean,
  USER_LLM_KEY,
  USER_MAPS_KEY,
  USER_RT_SECRET,
  WRONG_LLM_KEY,
  WRONG_MAPS_KEY,
  USER_MASTER_KEY,
  WRONG_RT_SECRET,
  Dialogs,
  pick,
  Commands,
  assertSettingsClean,
} from './securityKit';

/** What the security test shares with its scenarios. */
export interface SecurityRun {
  api: ExtensionApi;
  user: Sandbox;
  cmd: Commands;
  dialogs: Dialogs;
  steps: ConnectionSteps;
  scratch: vscode.TextDocument[];
}

/** language models: connect with a typed key, ask, a wrong key (401), import, switch, selection, model actions, clear, remove */
export async function llmScenario(r: SecurityRun): Promise<void> {
  const { api, cmd, dialogs, scratch, steps, user } = r;
  const name = 'User LLM';
  dialogs.answer('showQuickPick', pick('Other OpenAI-compatible server'));
  dialogs.answer('showInputBox', user.info.llm.baseUrl, name, USER_LLM_KEY);
  // A new connection is checked, then made active only when the user says so.
  dialogs.answer('showInformationMessage', MAKE_ACTIVE);
  await cmd.run('apiWorkbench.llm.addConnection');
  dialogs.assertDrained('llm.addConnection');
  assertSettingsClean('with the llm user connection');
  assert.equal(api.services.connections.active('llm')?.name, name);
  assert.equal((await api.services.secrets.get({ service: 'llm', name }))?.value, USER_LLM_KEY);
  await cmd.run('apiWorkbench.llm.refresh');
  // The diagnosis names the connection's auth and shows the server's answer: never the key.
  const diagnosis = await cmd.run<vscode.TextDocument>('apiWorkbench.diagnoseConnection', name);
  assertClean('the connection diagnosis', diagnosis.getText());

  const ok = await cmd.run<AskResult>('apiWorkbench.llm.ask', { prompt: 'Is my key safe?', model: 'sandbox-chat', connection: name });
  assert.equal(ok?.outcome, 'done', ok?.error);
  await steps.copyAsCurl('llm', /\$OPENAI_API_KEY/);
  // Copy as Code from the answer's title bar (the document's URI): the request behind it, the typed key an environment read.
  const answerCode = await cmd.run<{ text: string }>('apiWorkbench.history.copyAsCode', ok.document.uri, 'python');
  assert.match(answerCode.text, /os\.environ\["OPENAI_API_KEY"\]/);
  assertClean('an answer › Copy as Code', answerCode.text);
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

  await steps.setKey('llm', name, WRONG_LLM_KEY);
  const mark = dialogs.shown.length;
  const failed = await cmd.run<AskResult>('apiWorkbench.llm.ask', { prompt: 'And with a wrong key?', model: 'sandbox-chat', connection: name });
  assert.equal(failed?.outcome, 'failed');
  steps.assertUnauthorized('LLM ask with a wrong key', dialogs.errorsSince(mark));
  assertClean('the failed answer document', failed.document.getText());
  assert.equal(await cmd.run<boolean>('apiWorkbench.llm.showAnswers'), true, 'the Answers tab opens again');
  await steps.importKey('llm', name, USER_LLM_KEY);

  await steps.select('llm', SANDBOX);
  const doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const secret = process.env.TOKEN;\nexport default secret;\n' });
  scratch.push(doc);
  const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
  editor.selection = new vscode.Selection(0, 0, 1, 22);
  const about = await cmd.run<AskResult>('apiWorkbench.llm.askAboutSelection', { question: 'Where does this come from?', model: 'sandbox-chat' });
  assert.equal(about?.outcome, 'done', about?.error);
  await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
  const explained = await cmd.run<AskResult>('apiWorkbench.llm.explainSelection', { model: 'sandbox-chat' });
  assert.equal(explained?.outcome, 'done', explained?.error);

  // Tree actions on a model node of the sandbox connection.
  const conn = await findConnectionNode(api, 'llm', SANDBOX);
  assert.ok(conn, 'no Local Sandbox node');
  const models = await waitFor('sandbox models', async () => {
    const kids = await conn.children();
    const labels = await treeLabels(kids);
    const i = labels.indexOf('sandbox-chat-mini');
    return i >= 0 ? kids[i] : undefined;
  });
  const asked = await cmd.run<AskResult>('apiWorkbench.llm.askModel', models, { prompt: 'Hello, mini.' });
  assert.equal(asked?.outcome, 'done', asked?.error);
  const compared = await cmd.run<CompareOutcome>('apiWorkbench.llm.compare', { prompt: 'Compare, safely.', models: ['sandbox-chat', 'sandbox-chat-mini'] });
  assert.deepEqual(
    compared?.results.map((r) => r.outcome),
    ['done', 'done'],
  );
  await cmd.run('apiWorkbench.llm.setDefaultModel', models);
  await cmd.run('apiWorkbench.llm.copyModelId', models);
  assert.equal(await vscode.env.clipboard.readText(), 'sandbox-chat-mini');

  // The playground, from the model node and from a chat cell's text.
  type Playground = { settings: { model: string }; conversation: { kind: string }[]; dispose(): void };
  const playground = await cmd.run<Playground>('apiWorkbench.llm.openPlayground', models);
  assert.equal(playground.settings.model, 'sandbox-chat-mini');
  playground.dispose();
  const fromCell = await cmd.run<Playground>(
    'apiWorkbench.llm.openCellInPlayground',
    'POST /chat/completions\n\n{"model": "sandbox-chat", "messages": [{"role": "user", "content": "Hi"}]}',
  );
  assert.deepEqual(
    fromCell.conversation.map((t) => t.kind),
    ['user'],
  );
  fromCell.dispose();

  await steps.clearAndRemove('llm', name);
}

/** maps: connect with a typed key, search, a wrong key (401), import, switch, every query, map, results, clear, remove */
export async function mapsScenario(r: SecurityRun): Promise<void> {
  const { api, cmd, dialogs, scratch, steps, user } = r;
  const name = 'User Maps';
  dialogs.answer('showQuickPick', pick('Other Google-compatible server'));
  dialogs.answer('showInputBox', user.info.maps.baseUrl, name, USER_MAPS_KEY);
  // A new connection is checked, then made active only when the user says so.
  dialogs.answer('showInformationMessage', MAKE_ACTIVE);
  await cmd.run('apiWorkbench.maps.addConnection');
  dialogs.assertDrained('maps.addConnection');
  assertSettingsClean('with the maps user connection');
  assert.equal(api.services.connections.active('maps')?.name, name);
  await cmd.run('apiWorkbench.maps.refresh');

  const found = await cmd.run<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Lyon' });
  assert.ok(found && found.results.length > 0, 'the user connection answered');

  await steps.setKey('maps', name, WRONG_MAPS_KEY);
  const mark = dialogs.shown.length;
  assert.equal(await cmd.run('apiWorkbench.maps.searchPlaces', { query: 'Paris' }), undefined);
  steps.assertUnauthorized('maps search with a wrong key', dialogs.errorsSince(mark));
  await steps.importKey('maps', name, USER_MAPS_KEY);

  // A key placed in the query string (?key=…) is in every URL: the riskiest placement for logs and copies.
  const queryName = 'User Maps (query key)';
  const listed = userConfig().inspect<unknown[]>('maps.connections')?.globalValue ?? [];
  await userConfig().update(
    'maps.connections',
    [...listed, { name: queryName, baseUrl: user.info.maps.baseUrl, auth: { placement: 'query', name: 'key' } }],
    vscode.ConfigurationTarget.Global,
  );
  await waitFor(queryName, () => api.services.connections.get('maps', queryName));
  await steps.setKey('maps', queryName, USER_MAPS_KEY);
  await steps.select('maps', queryName);
  const viaQuery = await cmd.run<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Paris' });
  assert.ok(viaQuery && viaQuery.results.length > 0, 'the query-key connection answered');
  await steps.copyAsCurl('maps', /[?&]key=\$GOOGLE_MAPS_API_KEY/);
  await steps.clearAndRemove('maps', queryName);

  await steps.select('maps', SANDBOX);
  const nearby = await cmd.run<CommandOutcome>('apiWorkbench.maps.searchNearby', { center: '48.8566, 2.3522', radius: 5000 });
  assert.ok(nearby && nearby.results.length > 0);
  const route = await cmd.run<CommandOutcome>('apiWorkbench.maps.computeRoute', {
    origin: 'Lyon, France',
    destination: 'Paris, France',
    travelMode: 'DRIVE',
  });
  assert.equal(route?.results.length, 1);
  const valid = await cmd.run<CommandOutcome>('apiWorkbench.maps.validateAddress', {
    address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
    regionCode: 'US',
  });
  assert.equal(valid?.results.length, 1);
  const geo = await cmd.run<CommandOutcome>('apiWorkbench.maps.geocode', { address: 'Springfield, IL' });
  assert.ok(geo && geo.results.length > 0);
  const doc = await vscode.workspace.openTextDocument({ content: 'Eiffel Tower: 48.8584, 2.2945\n' });
  scratch.push(doc);
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(0, 14, 0, 29);
  const rev = await cmd.run<CommandOutcome>('apiWorkbench.maps.reverseGeocode');
  assert.ok(rev && rev.results.length > 0, 'reverse geocoded the selection');
  // The answer just opened (the reverse geocode's document) in the response viewer, and a
  // notebook-style geometry on the map panel: what both show is among what is checked for keys.
  await cmd.run('apiWorkbench.maps.openInViewer');
  const drawn = await cmd.run<MapRendered>('apiWorkbench.maps.showGeometry', {
    title: 'Eiffel Tower',
    markers: [{ latitude: 48.8584, longitude: 2.2945, label: 'Eiffel Tower' }],
    lines: [],
  });
  assert.equal(drawn?.markers, 1);
  const details = await cmd.run<CommandOutcome>('apiWorkbench.maps.placeDetails', {
    placeId: `place:${String(nearby.results[0].id).replace(/^place\//, '')}`,
  });
  assert.equal(details?.results.length, 1);
  const matrix = await cmd.run<CommandOutcome>('apiWorkbench.maps.routeMatrix', {
    origins: ['Lyon, France'],
    destinations: ['Paris, France', '45.76,4.83'],
    travelMode: 'DRIVE',
  });
  assert.ok(matrix && Array.isArray(matrix.response));
  // Each pair's road, one Compute Routes request per pair with the typed key.
  const roads = await cmd.run<{ routes: unknown[] }>('apiWorkbench.maps.drawMatrixRoutes');
  assert.ok(roads && roads.routes.length > 0, 'the matrix’s roads were drawn');
  // A cheaper mask: no warning; then back to the preset.
  const mask = await cmd.run<{ sku: string }>('apiWorkbench.maps.chooseFieldMask', { operation: 'getPlace', mask: 'id,location' });
  assert.equal(mask?.sku, 'Place Details Essentials');
  await userConfig().update('maps.fieldMasks', undefined, vscode.ConfigurationTarget.Global);
  const opened = await cmd.run<MapRendered>('apiWorkbench.maps.openMap');
  assert.ok(opened && opened.markers > 0);
  const shown = await cmd.run<MapRendered>('apiWorkbench.maps.showResult', route.results[0].id);
  assert.equal(shown?.lines, 1);
  await cmd.run('apiWorkbench.maps.clearResults');
  // The history of those requests (typed key): shown, re-run, made into cells, cleared — the
  // documents they open are among those checked for keys at the end.
  await cmd.run('apiWorkbench.history.show');
  await cmd.run('apiWorkbench.history.rerun');
  await cmd.run('apiWorkbench.history.addToNotebook');
  await cmd.run('apiWorkbench.history.saveLastAsCell');
  await cmd.run('apiWorkbench.history.saveAsCell', undefined, 'new');
  await api.services.history.flush();
  assertClean('the stored request history', Buffer.from(await vscode.workspace.fs.readFile(api.services.history.file)).toString('utf8'));
  await cmd.run('apiWorkbench.history.clear');

  await steps.clearAndRemove('maps', name);
}

/** realtime: connect with a typed secret, private channel, publish, client event, a wrong secret (401), webhooks, save log, clear, remove */
export async function realtimeScenario(r: SecurityRun): Promise<string> {
  const { api, cmd, dialogs, scratch, steps, user } = r;
  const name = 'User Realtime';
  const rt = user.info.realtime;
  dialogs.answer('showQuickPick', pick('Other self-hosted Pusher-compatible server'));
  dialogs.answer('showInputBox', rt.host, String(rt.port), 'no', rt.appId, rt.key, name, USER_RT_SECRET, USER_MASTER_KEY);
  // A new connection is checked, then made active only when the user says so.
  dialogs.answer('showInformationMessage', MAKE_ACTIVE);
  await cmd.run('apiWorkbench.realtime.addConnection');
  dialogs.assertDrained('realtime.addConnection');
  assertSettingsClean('with the realtime user connection');
  assert.equal(api.services.connections.active('realtime')?.name, name);
  await cmd.run('apiWorkbench.realtime.refresh');

  const channel = 'private-security';
  await cmd.run('apiWorkbench.realtime.connect', name);
  const sub = await cmd.run<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', { channel, connection: name });
  assert.equal(sub?.state, 'subscribed', 'the private channel was signed with the typed secret');
  const published = await cmd.run<Published>('apiWorkbench.realtime.publish', { channel, event: 'security-event', data: '{"n":1}', connection: name });
  assert.equal(published?.event, 'security-event');
  // Publish Here asks where the data comes from (typed here), then confirms what it will send.
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: '' }));
  // Tree-node commands get a channel node: its shape is what they read.
  const node = { name: channel, row: { name: channel, occupied: true }, conn: { name } };
  dialogs.answer('showInputBox', 'security-here', '{"here":true}');
  dialogs.answer('showQuickPick', pick('$(edit) Type it'));
  dialogs.answer('showInformationMessage', 'Publish');
  const here = await cmd.run<Published>('apiWorkbench.realtime.publishHere', node);
  dialogs.assertDrained('realtime.publishHere');
  assert.equal(here?.channel, channel);
  assert.deepEqual(await cmd.run('apiWorkbench.realtime.sendClientEvent', { channel, event: 'client-security', data: '{"typing":true}', connection: name }), {
    connection: name,
    channel,
    event: 'client-security',
  });
  assert.equal(await cmd.run('apiWorkbench.realtime.copyChannelName', node), channel);

  await steps.setKey('realtime', name, WRONG_RT_SECRET);
  const mark = dialogs.shown.length;
  assert.equal(await cmd.run('apiWorkbench.realtime.publish', { channel, event: 'wrong-secret', data: '{}', connection: name }), undefined);
  steps.assertUnauthorized('realtime publish with a wrong secret', dialogs.errorsSince(mark));
  await steps.importKey('realtime', name, USER_RT_SECRET);
  assert.equal(await cmd.run('apiWorkbench.realtime.unsubscribe', { channel, connection: name }), channel);
  await cmd.run('apiWorkbench.realtime.disconnect', name);

  // The sandbox: presence (signed with its secret), webhooks signed with it, the log saved.
  await steps.select('realtime', SANDBOX);
  await cmd.run('apiWorkbench.realtime.connect');
  const presence = await cmd.run<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', 'presence-demo');
  assert.equal(presence?.state, 'subscribed');
  const receiver = await cmd.run<ReceiverInfo>('apiWorkbench.realtime.startWebhookReceiver');
  assert.ok(receiver?.registered, 'the sandbox sends its webhooks to the receiver');
  await cmd.run('apiWorkbench.realtime.subscribe', 'security-hooked');
  const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'security-realtime.log');
  const savedLog = await waitFor('the webhook in the realtime log', async () => {
    assert.equal(await cmd.run('apiWorkbench.realtime.saveLog', file), file);
    const text = readFileSync(file, 'utf8');
    return text.includes('webhook channel_occupied  security-hooked') ? text : undefined;
  });
  // Webhook panel: replay and a test webhook to the receiver itself (it checks the signature), then
  // an encrypted channel with a typed master key, batch, channel information and user sign-in.
  assert.equal(await cmd.run('apiWorkbench.realtime.setWebhookTarget', receiver?.url), receiver?.url);
  await cmd.run('apiWorkbench.realtime.showWebhooks');
  assert.equal((await cmd.run<{ status?: number }>('apiWorkbench.realtime.replayWebhook'))?.status, 200);
  assert.equal((await cmd.run<{ status?: number }>('apiWorkbench.realtime.sendTestWebhook', { kind: 'member_added' }))?.status, 200);
  await cmd.run('apiWorkbench.realtime.clearWebhooks');
  assert.equal(await cmd.run('apiWorkbench.realtime.setEncryptionMasterKey', { connection: SANDBOX, value: USER_MASTER_KEY }), 'stored');
  assert.equal((await cmd.run<SubscriptionSnapshot>('apiWorkbench.realtime.subscribe', 'private-encrypted-security'))?.state, 'subscribed');
  await cmd.run('apiWorkbench.realtime.publish', { channel: 'private-encrypted-security', event: 'sealed', data: '{"n":1}' });
  await cmd.run('apiWorkbench.realtime.publishBatch', { events: [{ channel: 'security-hooked', name: 'batched', data: { n: 1 } }] });
  assert.ok(await cmd.run('apiWorkbench.realtime.channelInfo', { channel: 'presence-demo', show: false }));
  assert.equal((await cmd.run<{ id: string }>('apiWorkbench.realtime.signIn', { userId: 'security-user' }))?.id, 'security-user');
  await cmd.run('apiWorkbench.realtime.sendToUser', { userId: 'security-user', event: 'note', data: '{}' });
  assert.equal(await cmd.run('apiWorkbench.realtime.terminateUserConnections', { userId: 'security-user', confirmed: true }), 'security-user');
  await cmd.run('apiWorkbench.realtime.stopWebhookReceiver');
  await cmd.run('apiWorkbench.realtime.disconnect');
  await cmd.run('apiWorkbench.realtime.showLog');
  await cmd.run('apiWorkbench.realtime.showInspector');
  assert.match(savedLog, /private-security {2}security-event {2}\{"n":1\}/, 'the saved log holds the traffic');
  const saved = await vscode.workspace.openTextDocument(file);
  scratch.push(saved);
  await vscode.window.showTextDocument(saved, { preview: false, preserveFocus: true });

  await steps.clearAndRemove('realtime', name);
  return savedLog;
}
