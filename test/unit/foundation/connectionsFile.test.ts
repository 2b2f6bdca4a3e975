import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadConnectionsFile } from '../../../src/cli/connectionsFile';
import { parseConnectionsSetting, sandboxConnections, type Connection } from '../../../src/core/connections';
import { connectionsFileFor, realtimeSecretVar } from '../../../src/core/connectionsFile';

/** What the user's settings hold, as the editor parses them. */
function settings(service: 'llm' | 'maps' | 'realtime', entries: unknown[]): Connection[] {
  const parsed = parseConnectionsSetting(service, entries);
  assert.deepEqual(parsed.problems, []);
  return parsed.connections;
}

describe('Export Connections for CI: the editor writes the file the CLI reads', () => {
  const user = [
    ...settings('llm', [
      { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', modelRateLimits: { 'gpt-4o': 30 } },
      { name: 'Azure', baseUrl: 'https://res.openai.azure.com/openai/v1', auth: { placement: 'header', name: 'api-key' }, timeoutSeconds: 30 },
      { name: 'Work', baseUrl: 'https://gateway.example.com/v1' },
      { name: 'Router', baseUrl: 'https://openrouter.ai/api/v1' },
    ]),
    ...settings('maps', [{ name: 'Google', baseUrl: 'https://places.googleapis.com', baseUrls: { routes: 'https://routes.googleapis.com' } }]),
    ...settings('realtime', [
      { name: 'Pusher', appId: '123', key: '278d425bdf160c739803', cluster: 'eu' },
      { name: 'Self-hosted', appId: '7', key: 'app-key', host: 'soketi.internal', port: 6001, useTLS: false },
    ]),
  ];

  it('round-trips every connection of the user’s settings through the CLI’s loader, with one key variable each', () => {
    const { json, keyVariables } = connectionsFileFor(user);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'awb-export-')), 'connections.json');
    writeFileSync(file, JSON.stringify(json));
    const loaded = loadConnectionsFile(file);
    assert.deepEqual(loaded.connections, user);
    assert.deepEqual(keyVariables, [
      'OPENAI_API_KEY',
      'AZURE_OPENAI_API_KEY',
      'OPENAI_API_KEY_WORK',
      'OPENROUTER_API_KEY',
      'GOOGLE_MAPS_API_KEY',
      'PUSHER_APP_SECRET',
      'PUSHER_APP_SECRET_SELF_HOSTED',
    ]);
    assert.deepEqual([...loaded.keyEnv.values()], keyVariables);
  });

  it('code copied in the editor reads a realtime app secret from the variable this file names for its connection', () => {
    const realtime = user.filter((c) => c.service === 'realtime');
    const [pusher, selfHosted] = realtime;
    assert.equal(realtimeSecretVar(realtime, pusher), 'PUSHER_APP_SECRET');
    assert.equal(realtimeSecretVar(realtime, selfHosted), 'PUSHER_APP_SECRET_SELF_HOSTED');
    const sandbox = sandboxConnections({
      llm: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-sandbox-secret-value' },
      maps: { baseUrl: 'http://127.0.0.1:2', apiKey: 'AIzaSandboxSecretValue' },
      realtime: { host: '127.0.0.1', port: 3, appId: '1', key: 'k', secret: 'realtime-secret-value' },
    }).connections.find((c) => c.service === 'realtime') as Extract<Connection, { service: 'realtime' }>;
    assert.equal(realtimeSecretVar([sandbox, ...realtime], sandbox), 'PUSHER_APP_SECRET');
  });

  it('leaves out the sandbox (the CLI has --sandbox) and writes no key, only variable names', () => {
    const sandbox = sandboxConnections({
      llm: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-sandbox-secret-value' },
      maps: { baseUrl: 'http://127.0.0.1:2', apiKey: 'AIzaSandboxSecretValue' },
      realtime: { host: '127.0.0.1', port: 3, appId: '1', key: 'k', secret: 'realtime-secret-value' },
    }).connections;
    const { json } = connectionsFileFor([...sandbox, ...user]);
    const text = JSON.stringify(json);
    assert.ok(!text.includes('Local Sandbox'));
    for (const secret of ['sk-sandbox-secret-value', 'AIzaSandboxSecretValue', 'realtime-secret-value']) assert.ok(!text.includes(secret));
    assert.equal(connectionsFileFor(sandbox).keyVariables.length, 0);
  });
});
