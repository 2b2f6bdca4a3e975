import vscode from 'vscode';
import { connectionOrigins, needsKey, SANDBOX_CONNECTION_NAME, SERVICE_LABELS, type Connection, type ServiceId } from '../core/connections';
import type { CommandTable } from './commands';
import { checkNewConnection } from './connectionCheck';
import { connectionFromArg } from './connections';
import { diagnoseCommand, DIAGNOSE_COMMAND } from './diagnose';
import { exportConnections } from './exportConnections';
import { CONNECTION_COMMANDS } from '../features/ids';
import type { ConnectionPreset } from '../features/realtime/presets';
import { llmPresetForHost, CONNECTION_PRESETS as PRESETS } from '../features/connectionPresets';
import type { Services } from './services';
import type { ServiceViews } from './serviceModule';

type Draft = Record<string, string>;

type Preset = ConnectionPreset;

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
    [CONNECTION_COMMANDS[service].addConnection]: async (arg?: unknown) => {
      // From a cell whose host no connection has: that host's preset first, its base URL filled in.
      const host = service === 'llm' && arg && typeof arg === 'object' && 'host' in arg && typeof arg.host === 'string' ? arg.host : undefined;
      const forHost = host ? llmPresetForHost(host) : undefined;
      const items = PRESETS[service].map((p) => ({
        label: p.label,
        detail: p.detail,
        preset: p,
        ...(p.label === forHost?.label && { description: `the cell's host: ${forHost.baseUrl}` }),
      }));
      const ordered = forHost ? [...items.filter((i) => i.label === forHost.label), ...items.filter((i) => i.label !== forHost.label)] : items;
      const preset = await vscode.window.showQuickPick(ordered, {
        title: `Connect ${SERVICE_LABELS[service]}`,
        placeHolder: 'What do you want to connect to?',
      });
      if (!preset) return;
      const draftKey = `${service}/${preset.label}`;
      const draft: Draft = { ...drafts.get(draftKey), ...(preset.label === forHost?.label && { baseUrl: forHost.baseUrl }) };
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
      // Not made active here: the user decides once the check shows whether it works.
      if (!preset.preset.keyless) {
        const key = await vscode.window.showInputBox({
          title: `${preset.label}: ${keyName(service)}`,
          prompt: `${preset.preset.keyPrompt}. Stored in VS Code SecretStorage only. Leave empty to set it later (or import it from ${preset.preset.envHint}).`,
          password: true,
          ignoreFocusOut: true,
        });
        if (key) await storeKey(conn, key.trim());
        if (service === 'realtime')
          await vscode.commands.executeCommand('apiWorkbench.realtime.setEncryptionMasterKey', { connection: conn.name, optional: true });
      }
      const note = needsKey(conn) ? '' : 'No key is needed or sent.';
      await checkNewConnection(services, views, conn, note);
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
    [DIAGNOSE_COMMAND]: (arg?: unknown) => diagnoseCommand(services, arg),
  };
}

export { connectionFromArg } from './connections';
