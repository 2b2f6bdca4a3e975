import * as vscode from 'vscode';
import { connectionOrigins, SANDBOX_CONNECTION_NAME, SERVICE_LABELS, type Connection, type ServiceId } from '../core/connections';
import { AZURE_API_VERSION_PATTERN, AZURE_DEFAULT_API_VERSION } from '../core/connectionsAzure';
import type { CommandTable } from './commands';
import { exportConnections } from './exportConnections';
import { CONNECTION_COMMANDS } from '../features/ids';
import { realtimePresets, type ConnectionPreset } from '../features/realtime/presets';
import type { Services } from './services';
import type { ServiceViews } from './serviceModule';

type Draft = Record<string, string>;

type Preset = ConnectionPreset;

/** Local OpenAI-compatible servers: their usual base URL (editable: another host or port), no key. */
function localServer(label: string, baseUrl: string, detail: string): Preset {
  return {
    label,
    detail: `${baseUrl} · no key · ${detail}`,
    fields: [{ key: 'baseUrl', prompt: `Base URL of ${label} (its OpenAI-compatible API)`, value: baseUrl, validate: url }],
    build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'none' } }),
    keyPrompt: 'API key',
    envHint: 'OPENAI_API_KEY',
    keyless: true,
  };
}

const url = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'Use an http(s) URL';
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com/v1';
  }
};

const AZURE_RESOURCE_FIELD: Preset['fields'][number] = {
  key: 'resource',
  prompt: 'Azure OpenAI resource name',
  placeholder: 'my-resource',
  validate: (v) => (/^[a-z0-9-]+$/i.test(v) ? undefined : 'Letters, digits and dashes only'),
};

const PRESETS: Record<ServiceId, Preset[]> = {
  llm: [
    {
      label: 'OpenAI',
      detail: 'https://api.openai.com/v1 · Authorization: Bearer',
      fields: [],
      build: () => ({ baseUrl: 'https://api.openai.com/v1', auth: { placement: 'bearer' } }),
      keyPrompt: 'OpenAI API key (sk-…)',
      envHint: 'OPENAI_API_KEY',
    },
    {
      label: 'Azure OpenAI / AI Foundry (v1 API)',
      detail: 'https://<resource>.openai.azure.com/openai/v1 · api-key header',
      fields: [AZURE_RESOURCE_FIELD],
      build: (d) => ({ baseUrl: `https://${d.resource}.openai.azure.com/openai/v1`, auth: { placement: 'header', name: 'api-key' } }),
      keyPrompt: 'Azure OpenAI key',
      envHint: 'AZURE_OPENAI_API_KEY',
    },
    {
      label: 'Azure OpenAI deployments (classic API)',
      detail: 'https://<resource>.openai.azure.com/openai/deployments/<deployment> · api-version · api-key header',
      fields: [
        AZURE_RESOURCE_FIELD,
        {
          key: 'apiVersion',
          prompt: 'api-version added to every request',
          value: AZURE_DEFAULT_API_VERSION,
          validate: (v) => (AZURE_API_VERSION_PATTERN.test(v) ? undefined : 'An api-version such as 2024-10-21 or 2025-01-01-preview'),
        },
      ],
      build: (d) => ({ baseUrl: `https://${d.resource}.openai.azure.com/openai`, azure: { apiVersion: d.apiVersion } }),
      keyPrompt: 'Azure OpenAI key',
      envHint: 'AZURE_OPENAI_API_KEY',
    },
    localServer('Ollama (local)', 'http://localhost:11434/v1', 'ollama serve'),
    localServer('LM Studio (local)', 'http://localhost:1234/v1', "the Developer tab's local server"),
    localServer('vLLM (local)', 'http://localhost:8000/v1', 'vllm serve <model>; started with --api-key? pick "Other OpenAI-compatible server"'),
    {
      label: 'Other OpenAI-compatible server',
      detail: 'LiteLLM, a vLLM with --api-key, a hosted gateway, … · Bearer',
      fields: [{ key: 'baseUrl', prompt: 'Base URL (the one an OpenAI client takes as baseURL)', placeholder: 'http://localhost:11434/v1', validate: url }],
      build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'bearer' } }),
      keyPrompt: 'API key',
      envHint: 'OPENAI_API_KEY',
    },
  ],
  maps: [
    {
      label: 'Google Maps Platform',
      detail: 'places / routes / addressvalidation / geocode .googleapis.com · X-Goog-Api-Key',
      fields: [],
      build: () => ({
        baseUrl: 'https://places.googleapis.com',
        baseUrls: {
          places: 'https://places.googleapis.com',
          routes: 'https://routes.googleapis.com',
          addressValidation: 'https://addressvalidation.googleapis.com',
          geocoding: 'https://geocode.googleapis.com',
        },
        auth: { placement: 'header', name: 'X-Goog-Api-Key' },
      }),
      keyPrompt: 'Google Maps Platform API key (AIza…)',
      envHint: 'GOOGLE_MAPS_API_KEY',
    },
    {
      label: 'Other Google-compatible server',
      detail: 'one base URL for all capabilities · X-Goog-Api-Key',
      fields: [{ key: 'baseUrl', prompt: 'Base URL', placeholder: 'https://maps.example.com', validate: url }],
      build: (d) => ({ baseUrl: d.baseUrl, auth: { placement: 'header', name: 'X-Goog-Api-Key' } }),
      keyPrompt: 'API key',
      envHint: 'GOOGLE_MAPS_API_KEY',
    },
  ],
  realtime: realtimePresets(),
};

/** A field with choices: the picked label, undefined = "Other…" (type it), null = cancelled. */
async function pickChoice(title: string, f: Preset['fields'][number]): Promise<string | undefined | null> {
  const other = '$(edit) Other…';
  const picked = await vscode.window.showQuickPick([...(f.choices ?? []), { label: other }], { title, placeHolder: f.prompt, ignoreFocusOut: true });
  if (!picked) return null;
  return picked.label === other ? undefined : picked.label;
}

/** Commands that manage connections and keys; the same for every service. */
export function connectionCommands(services: Services, views: ServiceViews): CommandTable {
  // What the user typed into an unfinished "Connect…" is kept here and offered again next time.
  const drafts = new Map<string, Draft>();

  async function pickConnection(service: ServiceId, arg: unknown, title: string): Promise<Connection | undefined> {
    const given = connectionFromArg(services, service, arg);
    if (given) return given;
    const all = services.connections.list(service);
    if (all.length === 0) {
      const choice = await vscode.window.showInformationMessage(`No ${SERVICE_LABELS[service]} connection yet.`, 'Connect…', 'Try the Local Sandbox');
      if (choice === 'Connect…') await vscode.commands.executeCommand(CONNECTION_COMMANDS[service].addConnection);
      if (choice === 'Try the Local Sandbox') await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
      return undefined;
    }
    if (all.length === 1) return all[0];
    const active = services.connections.active(service);
    const picked = await vscode.window.showQuickPick(
      all.map((c) => ({ label: c.name, description: c.name === active?.name ? 'active' : undefined, conn: c })),
      { title, placeHolder: 'Connection' },
    );
    return picked?.conn;
  }

  async function storeKey(conn: Connection, value: string): Promise<void> {
    await services.secrets.set(conn, value, connectionOrigins(conn));
    views[conn.service].provider.refresh();
  }

  function keyName(service: ServiceId): string {
    return service === 'realtime' ? 'app secret' : 'API key';
  }

  const perService = (service: ServiceId): CommandTable => ({
    [CONNECTION_COMMANDS[service].addConnection]: async () => {
      const preset = await vscode.window.showQuickPick(
        PRESETS[service].map((p) => ({ label: p.label, detail: p.detail, preset: p })),
        { title: `Connect ${SERVICE_LABELS[service]}`, placeHolder: 'What do you want to connect to?' },
      );
      if (!preset) return;
      const draftKey = `${service}/${preset.label}`;
      const draft: Draft = { ...drafts.get(draftKey) };
      drafts.set(draftKey, draft);
      for (const f of preset.preset.fields) {
        const chosen = f.choices ? await pickChoice(preset.label, f) : undefined;
        if (chosen === null) return;
        const v =
          chosen ??
          (await vscode.window.showInputBox({
            title: preset.label,
            prompt: f.prompt,
            placeHolder: f.placeholder,
            value: draft[f.key] ?? f.value,
            ignoreFocusOut: true,
            validateInput: f.validate,
          }));
        if (v === undefined) return;
        draft[f.key] = v.trim();
      }
      const taken = new Set(services.connections.list(service).map((c) => c.name));
      let suggestion = draft.name ?? preset.preset.label;
      for (let i = 2; taken.has(suggestion); i++) suggestion = `${preset.preset.label} ${i}`;
      const name = await vscode.window.showInputBox({
        title: preset.label,
        prompt: 'A name for this connection',
        value: suggestion,
        ignoreFocusOut: true,
        validateInput: (v) => (!v.trim() ? 'Required' : taken.has(v.trim()) ? 'Another connection has this name' : undefined),
      });
      if (name === undefined) return;
      draft.name = name.trim();
      const entry = { name: draft.name, ...preset.preset.build(draft) };
      await services.config.updateConnections(service, (list) => [...list, entry]);
      const conn = services.connections.get(service, draft.name);
      if (!conn) throw new Error(`The new connection "${draft.name}" could not be read back from settings.`);
      drafts.delete(draftKey);
      await services.connections.setActive(service, conn.name);
      if (preset.preset.keyless) {
        void vscode.window.showInformationMessage(
          `Connected "${conn.name}" (${conn.service === 'realtime' ? conn.host : conn.baseUrl}). No key is needed or sent; start the server if it is not running.`,
        );
        return;
      }
      const key = await vscode.window.showInputBox({
        title: `${preset.label}: ${keyName(service)}`,
        prompt: `${preset.preset.keyPrompt}. Stored in VS Code SecretStorage only. Leave empty to set it later (or import it from ${preset.preset.envHint}).`,
        password: true,
        ignoreFocusOut: true,
      });
      if (key) await storeKey(conn, key.trim());
      if (service === 'realtime')
        await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: conn.name, optional: true });
      void vscode.window.showInformationMessage(`Connected "${conn.name}".${key ? '' : ` Set its ${keyName(service)} when ready.`}`);
    },
    [CONNECTION_COMMANDS[service].selectConnection]: async () => {
      const all = services.connections.list(service);
      const active = services.connections.active(service);
      const picked = await vscode.window.showQuickPick(
        all.map((c) => ({ label: c.name, description: c.name === active?.name ? 'active' : c.source === 'sandbox' ? 'local sandbox' : undefined, conn: c })),
        { title: `Active ${SERVICE_LABELS[service]} connection` },
      );
      if (picked) await services.connections.setActive(service, picked.conn.name);
    },
    [CONNECTION_COMMANDS[service].setKey]: async (arg?: unknown) => {
      const conn = await pickConnection(service, arg, `Set ${keyName(service)}`);
      if (!conn) return;
      const value = await vscode.window.showInputBox({
        title: `${conn.name}: ${keyName(service)}`,
        prompt: `Stored in VS Code SecretStorage only, for ${connectionOrigins(conn).join(', ')}.`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Enter the key, or press Escape'),
      });
      if (value === undefined) return;
      await storeKey(conn, value.trim());
      void vscode.window.showInformationMessage(`Stored the ${keyName(service)} of "${conn.name}" in SecretStorage.`);
    },
    [CONNECTION_COMMANDS[service].importKeyFromEnv]: async (arg?: unknown) => {
      const conn = await pickConnection(service, arg, `Import ${keyName(service)}`);
      if (!conn) return;
      const hint = PRESETS[service][0].envHint;
      const name = await vscode.window.showInputBox({
        title: `${conn.name}: import ${keyName(service)}`,
        prompt: 'Name of the environment variable (of the editor process) holding it',
        value: hint,
        ignoreFocusOut: true,
        validateInput: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : 'A variable name like OPENAI_API_KEY'),
      });
      if (name === undefined) return;
      const value = process.env[name];
      if (!value)
        throw new Error(
          `The environment variable ${name} is not set (or empty) for this editor. Start the editor from a shell where it is set, or use "Set ${service === 'realtime' ? 'App Secret' : 'API Key'}…".`,
        );
      await storeKey(conn, value.trim());
      void vscode.window.showInformationMessage(`Imported ${name} into SecretStorage for "${conn.name}".`);
    },
    [CONNECTION_COMMANDS[service].clearKey]: async (arg?: unknown) => {
      const conn = await pickConnection(service, arg, `Clear ${keyName(service)}`);
      if (!conn) return;
      const ok = await vscode.window.showWarningMessage(`Remove the stored ${keyName(service)} of "${conn.name}"?`, { modal: true }, 'Remove');
      if (ok !== 'Remove') return;
      await services.secrets.clear(conn);
      views[service].provider.refresh();
    },
    [CONNECTION_COMMANDS[service].removeConnection]: async (arg?: unknown) => {
      const conn = await pickConnection(service, arg, 'Remove connection');
      if (!conn) return;
      if (conn.source === 'sandbox') {
        await vscode.commands.executeCommand('apiWorkbench.sandbox.stop');
        return;
      }
      const ok = await vscode.window.showWarningMessage(`Remove the connection "${conn.name}" and its stored ${keyName(service)}?`, { modal: true }, 'Remove');
      if (ok !== 'Remove') return;
      await services.secrets.clear(conn);
      if (conn.service === 'realtime') await services.secrets.clearAux(conn, 'encryptionMasterKey');
      await services.config.updateConnections(service, (list) =>
        list.filter((e) => !(e && typeof e === 'object' && (e as { name?: unknown }).name === conn.name)),
      );
    },
    [CONNECTION_COMMANDS[service].refresh]: () => views[service].provider.refresh(),
  });

  return {
    ...perService('llm'),
    ...perService('maps'),
    ...perService('realtime'),
    'apiWorkbench.sandbox.start': async () => {
      const info = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Starting the local sandbox…' }, () =>
        services.sandbox.start(),
      );
      void vscode.window.showInformationMessage(
        `The local sandbox is running (LLM ${info.llm.baseUrl}). "${SANDBOX_CONNECTION_NAME}" is now the active connection of each view.`,
      );
    },
    'apiWorkbench.sandbox.stop': async () => {
      if (!services.sandbox.running) return void vscode.window.showInformationMessage('The local sandbox is not running.');
      await services.sandbox.stop();
      void vscode.window.showInformationMessage('Stopped the local sandbox.');
    },
    'apiWorkbench.showLog': () => services.log.show(),
    'apiWorkbench.exportConnections': (arg?: { uri?: vscode.Uri }) => exportConnections(services, arg),
  };
}

/**
 * Commands take a connection as a tree node (context menus), a connection, or a connection name
 * (other commands, tests, keybindings). Checked by shape, not instanceof: callers may come from
 * another bundle.
 */
export function connectionFromArg(services: Services, service: ServiceId, arg: unknown): Connection | undefined {
  const name = typeof arg === 'string' ? arg : arg && typeof arg === 'object' ? (pickName((arg as { conn?: unknown }).conn) ?? pickName(arg)) : undefined;
  return name === undefined ? undefined : services.connections.get(service, name);

  function pickName(v: unknown): string | undefined {
    if (!v || typeof v !== 'object') return undefined;
    const c = v as { service?: unknown; name?: unknown };
    return c.service === service && typeof c.name === 'string' ? c.name : undefined;
  }
}
