// What the security pass (security.test.ts) works with: the secrets it uses and looks for, the
// dialog answers it gives, the command runner that records what was exercised, and the counting
// server that proves restricted mode sends nothing. Not a test file: bundled into the one that imports it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/extension';
import { CONNECTION_COMMANDS, COPY_AS_CURL_COMMANDS } from '../../../src/features/ids';
import type { AskResult } from '../../../src/editor/llm/ask';
import type { CommandOutcome } from '../../../src/editor/maps/commandHost';
import { recordSecret } from '../harness/suiteApi';
import { EXTENSION_ID, userConfig, waitFor } from './kit';

// --- secrets ---------------------------------------------------------------------------------------

/** Every key and secret this file used, with a name for messages; each is also declared to the harness's file scan. */
export const secrets: { name: string; value: string }[] = [];
export function secret(value: string, name: string): string {
  if (!secrets.some((s) => s.value === value)) secrets.push({ name, value });
  recordSecret(value);
  return value;
}

/** Which secrets occur in `text` (raw, URL- or JSON-escaped), by name: a failure message must not print the value. */
export function secretsIn(text: string): string[] {
  return secrets
    .filter(({ value: v }) => text.includes(v) || text.includes(encodeURIComponent(v)) || text.includes(JSON.stringify(v).slice(1, -1)))
    .map((s) => s.name);
}

export function assertClean(where: string, text: string): void {
  const found = secretsIn(text);
  assert.deepEqual(found, [], `${where} contains ${found.join(', ')}`);
}

export const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
export const USER_LLM_KEY = secret(`sk-user-llm-${stamp}`, 'the typed LLM key');
export const USER_MAPS_KEY = secret(`AIzaUserMaps${stamp}`, 'the typed maps key');
export const USER_RT_SECRET = secret(`user-rt-secret-${stamp}`, 'the typed realtime app secret');
export const WRONG_LLM_KEY = secret(`sk-wrong-llm-${stamp}`, 'the wrong LLM key');
export const WRONG_MAPS_KEY = secret(`AIzaWrongMaps${stamp}`, 'the wrong maps key');
export const USER_MASTER_KEY = secret(Buffer.from(`master-${stamp}`.padEnd(32, '#').slice(0, 32)).toString('base64'), 'the typed encryption master key');
export const WRONG_RT_SECRET = secret(`wrong-rt-secret-${stamp}`, 'the wrong realtime app secret');
export const COUNTED_LLM_KEY = secret(`sk-counted-llm-${stamp}`, 'the counted LLM key');
export const COUNTED_MAPS_KEY = secret(`AIzaCountedMaps${stamp}`, 'the counted maps key');
export const COUNTED_RT_SECRET = secret(`counted-rt-secret-${stamp}`, 'the counted realtime app secret');

/** The sandbox's three keys (new ones each time it starts). */
export function sandboxSecrets(info: { llm: { apiKey: string }; maps: { apiKey: string }; realtime: { secret: string } }, which: string): void {
  secret(info.llm.apiKey, `the ${which} sandbox LLM key`);
  secret(info.maps.apiKey, `the ${which} sandbox maps key`);
  secret(info.realtime.secret, `the ${which} sandbox realtime app secret`);
}

// --- dialogs ---------------------------------------------------------------------------------------

export type DialogName = 'showInputBox' | 'showQuickPick' | 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage';
export const DIALOGS: DialogName[] = ['showInputBox', 'showQuickPick', 'showInformationMessage', 'showWarningMessage', 'showErrorMessage'];
/** A value to return, or a function of the dialog's arguments that returns it. */
export type Answer = unknown;

/**
 * Replaces the window's prompts and messages for the whole suite: each call is recorded (so its
 * text can be searched for secrets) and answered from a queue of answers, or dismissed.
 */
export class Dialogs {
  readonly shown: { name: DialogName; args: unknown[] }[] = [];
  private readonly queues = new Map<DialogName, Answer[]>();
  private readonly originals = new Map<DialogName, unknown>();

  install(): void {
    const w = vscode.window as unknown as Record<string, unknown>;
    for (const name of DIALOGS) {
      this.originals.set(name, w[name]);
      w[name] = async (...args: unknown[]) => {
        const resolved = await Promise.all(args.map((a) => Promise.resolve(a)));
        this.shown.push({ name, args: resolved });
        const next = this.queues.get(name)?.shift();
        return typeof next === 'function' ? (next as (...a: unknown[]) => unknown)(...resolved) : next;
      };
    }
  }

  restore(): void {
    const w = vscode.window as unknown as Record<string, unknown>;
    for (const [name, fn] of this.originals) w[name] = fn;
  }

  answer(name: DialogName, ...answers: Answer[]): void {
    this.queues.set(name, [...(this.queues.get(name) ?? []), ...answers]);
  }

  /** Every queued answer was asked for: the command prompted exactly as expected. */
  assertDrained(what: string): void {
    for (const [name, q] of this.queues) assert.equal(q.length, 0, `${what}: ${q.length} ${name} answer(s) never asked for`);
    this.queues.clear();
  }

  errorsSince(mark: number): string[] {
    return this.shown
      .slice(mark)
      .filter((d) => d.name === 'showErrorMessage')
      .map((d) => String(d.args[0]));
  }
}

export const pick = (label: string) => (items: unknown) => (items as { label: string }[]).find((i) => i.label === label);

// --- helpers -----------------------------------------------------------------------------------------

/** Runs commands and remembers which ran, for the coverage check. */
export class Commands {
  readonly exercised = new Set<string>();

  run<T = unknown>(id: string, ...args: unknown[]): Thenable<T> {
    this.exercised.add(id);
    return vscode.commands.executeCommand<T>(id, ...args);
  }
}

export function contributedCommands(): string[] {
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes?: { commands?: { command: string }[] } } | undefined;
  return (manifest?.contributes?.commands ?? []).map((c) => c.command);
}

export function settingKeys(): string[] {
  const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes?: { configuration?: unknown } } | undefined;
  const conf = manifest?.contributes?.configuration;
  const sections = (Array.isArray(conf) ? conf : [conf]) as { properties?: Record<string, unknown> }[];
  return sections.flatMap((s) => Object.keys(s?.properties ?? {})).filter((k) => k.startsWith('apiWorkbench.'));
}

/** Every apiWorkbench.* setting, inspected at every level (default, global, workspace, folder, languages). */
export function assertSettingsClean(when: string): void {
  const keys = settingKeys();
  assert.ok(keys.length >= 8, `settings found: ${keys.join(', ')}`);
  for (const key of keys) {
    const inspected = vscode.workspace.getConfiguration().inspect(key);
    assert.ok(inspected, key);
    assertClean(`${when}: setting ${key}`, JSON.stringify(inspected));
  }
}

export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** A local server that answers every request with `{}` and counts requests and WebSocket upgrades. */
export interface CountingServer {
  origin: string;
  port: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  upgrades: number;
  close(): Promise<void>;
}

export async function countingServer(): Promise<CountingServer> {
  const state = { requests: [] as CountingServer['requests'], upgrades: 0 };
  const server = http.createServer((req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.on('upgrade', (_req, socket) => {
    state.upgrades++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    get upgrades() {
      return state.upgrades;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const COUNTED = { llm: 'Counted LLM', maps: 'Counted Maps', realtime: 'Counted Realtime' } as const;
export const COUNTED_APP = { appId: '4242', key: 'counted-app-key' };

/** User connections of all three services pointing at the counting server, each with a stored key, made active. */
export async function configureCounted(api: ExtensionApi, server: CountingServer): Promise<void> {
  const g = vscode.ConfigurationTarget.Global;
  await userConfig().update('llm.connections', [{ name: COUNTED.llm, baseUrl: `${server.origin}/v1` }], g);
  await userConfig().update('maps.connections', [{ name: COUNTED.maps, baseUrl: server.origin }], g);
  await userConfig().update('realtime.connections', [{ name: COUNTED.realtime, host: '127.0.0.1', port: server.port, useTLS: false, ...COUNTED_APP }], g);
  const keys = { llm: COUNTED_LLM_KEY, maps: COUNTED_MAPS_KEY, realtime: COUNTED_RT_SECRET };
  for (const service of ['llm', 'maps', 'realtime'] as const) {
    const conn = await waitFor(`${COUNTED[service]} connection`, () => api.services.connections.get(service, COUNTED[service]));
    await api.services.secrets.set(conn, keys[service], [server.origin]);
    await api.services.connections.setActive(service, conn.name);
  }
}

export async function removeCounted(api: ExtensionApi): Promise<void> {
  for (const service of ['llm', 'maps', 'realtime'] as const) {
    const conn = api.services.connections.get(service, COUNTED[service]);
    if (conn) await api.services.secrets.clear(conn);
    await userConfig().update(`${service}.connections`, undefined, vscode.ConfigurationTarget.Global);
  }
}

/**
 * The main commands of each service against the counted connections: Ask…, Search Places…,
 * Geocode…, Publish Event… (REST signed with the app secret), Connect WebSocket. Run trusted it
 * reaches the server with every key; run untrusted it must not reach it at all.
 */
export async function runCountedScenario(cmd: Commands): Promise<void> {
  await cmd.run<AskResult>('apiWorkbench.llm.ask', { prompt: 'Counted question', model: 'counted-model', connection: COUNTED.llm });
  await cmd.run<CommandOutcome>('apiWorkbench.maps.searchPlaces', { query: 'Lyon' });
  await cmd.run<CommandOutcome>('apiWorkbench.maps.geocode', { address: 'Lyon, France' });
  await cmd.run('apiWorkbench.realtime.publish', {
    channel: 'counted-channel',
    event: 'counted-event',
    data: '{"counted":true}',
    connection: COUNTED.realtime,
  });
  await cmd.run('apiWorkbench.realtime.connect', COUNTED.realtime);
}

/** The connection steps each service's scenario takes, as a user would through the commands. */
export class ConnectionSteps {
  constructor(
    private readonly api: () => ExtensionApi,
    private readonly dialogs: Dialogs,
    private readonly cmd: Commands,
  ) {}

  /** Set API Key… / Set App Secret… with `value` typed into the password box. */
  async setKey(service: 'llm' | 'maps' | 'realtime', name: string, value: string): Promise<void> {
    this.dialogs.answer('showInputBox', (opts: unknown) => {
      assert.equal((opts as vscode.InputBoxOptions).password, true, 'keys are typed into a password box');
      return value;
    });
    await this.cmd.run(CONNECTION_COMMANDS[service].setKey, name);
    this.dialogs.assertDrained(`${service}.setKey`);
    const conn = this.api().services.connections.get(service, name);
    assert.ok(conn);
    assert.equal((await this.api().services.secrets.get(conn))?.value, value);
    assertSettingsClean(`after ${service}.setKey`);
  }

  /** Import Key from Environment Variable… from a variable holding `value`. */
  async importKey(service: 'llm' | 'maps' | 'realtime', name: string, value: string): Promise<void> {
    process.env.API_WORKBENCH_SECURITY_KEY = value;
    this.dialogs.answer('showInputBox', 'API_WORKBENCH_SECURITY_KEY');
    try {
      await this.cmd.run(CONNECTION_COMMANDS[service].importKeyFromEnv, name);
    } finally {
      delete process.env.API_WORKBENCH_SECURITY_KEY;
    }
    this.dialogs.assertDrained(`${service}.importKeyFromEnv`);
    assert.equal((await this.api().services.secrets.get(this.api().services.connections.get(service, name)!))?.value, value);
    assertSettingsClean(`after ${service}.importKeyFromEnv`);
  }

  /** Switch Active Connection… picking `name`. */
  async select(service: 'llm' | 'maps' | 'realtime', name: string): Promise<void> {
    this.dialogs.answer('showQuickPick', pick(name));
    await this.cmd.run(CONNECTION_COMMANDS[service].selectConnection);
    this.dialogs.assertDrained(`${service}.selectConnection`);
    assert.equal(this.api().services.connections.active(service)?.name, name);
  }

  /** Clear Stored Key, then Remove Connection… (both confirmed). */
  async clearAndRemove(service: 'llm' | 'maps' | 'realtime', name: string): Promise<void> {
    this.dialogs.answer('showWarningMessage', 'Remove');
    await this.cmd.run(CONNECTION_COMMANDS[service].clearKey, name);
    assert.equal(await this.api().services.secrets.get({ service, name }), undefined, 'the key is gone');
    this.dialogs.answer('showWarningMessage', 'Remove');
    await this.cmd.run(CONNECTION_COMMANDS[service].removeConnection, name);
    this.dialogs.assertDrained(`${service} clear/remove`);
    await waitFor(`${name} removed`, () => this.api().services.connections.get(service, name) === undefined);
  }

  /** Copy as cURL: the command line on the clipboard reads the key from a variable and holds no secret. */
  async copyAsCurl(service: 'llm' | 'maps', envVar: RegExp): Promise<string> {
    await vscode.env.clipboard.writeText('');
    await this.cmd.run(COPY_AS_CURL_COMMANDS[service]);
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^curl /, `${service}: a curl command was copied`);
    assert.match(text, envVar, `${service}: the key is a variable reference`);
    assertClean(`${service} Copy as cURL`, text);
    return text;
  }

  assertUnauthorized(what: string, errors: string[]): void {
    assert.equal(errors.length, 1, `${what}: one error message (${JSON.stringify(errors)})`);
    assert.match(errors[0], /401/, `${what}: the message says 401`);
    assertClean(`${what}: the error message`, errors[0]);
  }
}
