import * as os from 'node:os';
import * as path from 'node:path';
import vscode from 'vscode';
import type { RealtimeConnection } from '../../core/connections';
import { errorText, isApiError } from '../../core/errors';
import type { SubscriptionSnapshot } from '../../services/realtime/client';
import { channelNameProblem, clientEventProblem, LIMITS } from '../../services/realtime/protocol';
import type { CommandTable } from '../commands';
import { offerSaveAsCell } from '../history/saveAsCell';
import { connectionFromArg } from '../connectionCommands';
import type { Services } from '../services';
import type { RealtimeLog } from './log';
import { askPublishData, confirmPublish, pickChannelToSubscribe, rememberChannel } from './prompts';
import { asRealtime, type RealtimeSession, type RealtimeSessions } from './sessions';
import type { ReceiverInfo, WebhookController } from './webhooks';
import { encryptedPayload } from './encryptionKey';

/** What Publish Event… sends; commands accept it as an argument so tests and keybindings skip the prompts. */
export interface PublishInput {
  channel?: string;
  event?: string;
  data?: string;
  connection?: string;
}

export interface ClientEventInput {
  channel?: string;
  event?: string;
  data?: string;
  connection?: string;
}

export interface Published {
  connection: string;
  channel: string;
  event: string;
  data: string;
}

/** A tree node or anything else that names a channel (checked by shape: nodes may come from another bundle). */
function channelArg(arg: unknown): { channel?: string; connection?: string } {
  if (typeof arg === 'string') return { channel: arg };
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as { name?: unknown; channel?: unknown; conn?: { name?: unknown }; connection?: unknown; row?: unknown };
  const channel = typeof a.channel === 'string' ? a.channel : a.row !== undefined && typeof a.name === 'string' ? a.name : undefined;
  const connection = typeof a.connection === 'string' ? a.connection : typeof a.conn?.name === 'string' ? a.conn.name : undefined;
  return { channel, connection };
}

/** Compact JSON when the text is JSON, the text itself otherwise (Channels data is any string). */
function normaliseData(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function timestamp(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

export function realtimeCommands(s: Services, sessions: RealtimeSessions, log: RealtimeLog, webhooks: WebhookController): CommandTable {
  // What the user typed last, offered again (also after a failed request).
  const last = { channel: '', event: 'my-event', data: undefined as string | undefined, clientEvent: 'client-my-event', clientData: '{"typing":true}' };

  async function connection(arg?: unknown): Promise<RealtimeConnection | undefined> {
    const given = asRealtime(connectionFromArg(s, 'realtime', arg));
    if (given) return given;
    const active = asRealtime(s.connections.active('realtime'));
    if (active) return active;
    const choice = await vscode.window.showInformationMessage('No realtime connection yet.', 'Connect…', 'Try the Local Sandbox');
    if (choice === 'Connect…') await vscode.commands.executeCommand('apiWorkbench.realtime.addConnection');
    if (choice === 'Try the Local Sandbox') await vscode.commands.executeCommand('apiWorkbench.sandbox.start');
    return asRealtime(s.connections.active('realtime'));
  }

  function session(conn: RealtimeConnection): RealtimeSession {
    return sessions.get(conn);
  }

  async function askChannel(sess: RealtimeSession, title: string, filter: (name: string) => boolean = () => true): Promise<string | undefined> {
    const rows = (await sess.channels(false).catch(() => [])).filter((r) => filter(r.name));
    const other = '$(edit) Another channel…';
    if (rows.length > 0) {
      const picked = await vscode.window.showQuickPick(
        [
          ...rows.map((r) => ({ label: r.name, description: r.subscription === 'subscribed' ? 'subscribed' : r.occupied ? 'occupied' : undefined })),
          { label: other, description: undefined },
        ],
        { title, placeHolder: 'Channel' },
      );
      if (!picked) return undefined;
      if (picked.label !== other) return picked.label;
    }
    return vscode.window.showInputBox({ title, prompt: 'Channel name', value: last.channel, validateInput: (v) => channelNameProblem(v.trim()) });
  }

  async function publish(arg?: unknown): Promise<Published | undefined> {
    const input: PublishInput = arg && typeof arg === 'object' && !('row' in arg) ? arg : {};
    const fromNode = channelArg(arg);
    const conn = await connection(input.connection ?? fromNode.connection);
    if (!conn) return undefined;
    const sess = session(conn);
    const channel = (input.channel ?? fromNode.channel ?? (await askChannel(sess, 'Publish Event: channel')))?.trim();
    if (!channel) return undefined;
    const problem = channelNameProblem(channel);
    if (problem) throw new Error(`Cannot publish to "${channel}": ${problem}`);
    last.channel = channel;
    const event =
      input.event ??
      (await vscode.window.showInputBox({
        title: `Publish Event on ${channel}: event name`,
        value: last.event,
        validateInput: (v) => (v.trim() === '' || v.length > LIMITS.maxEventNameLength ? `1 to ${LIMITS.maxEventNameLength} characters` : undefined),
      }));
    if (!event) return undefined;
    last.event = event;
    // Given data (tests, keybindings) is sent as given; otherwise the user says where it comes from and confirms.
    let raw = input.data;
    if (raw === undefined) {
      const choice = await askPublishData(`Publish ${event} on ${channel}: data`, last.data);
      if (!choice) return undefined;
      raw = choice.text;
      if (!(await confirmPublish({ connection: conn.name, channel, event, data: normaliseData(raw), source: choice.source }))) return undefined;
    }
    const data = normaliseData(raw);
    last.data = raw;
    for (;;) {
      try {
        await sess.rest.publish({ channels: [channel], name: event, data: encryptedPayload(channel, data) });
        vscode.window.setStatusBarMessage(`$(send) Published ${event} to ${channel}`, 4_000);
        offerSaveAsCell(s, `Published ${event} to ${channel}.`);
        void rememberChannel(s.context.globalState, channel);
        return { connection: conn.name, channel, event, data };
      } catch (e) {
        if (isApiError(e) && e.kind === 'cancelled') return undefined;
        const text = errorText(e);
        s.log.error(`Publish ${event} to ${channel} failed: ${text}`);
        // Bad input cannot succeed on retry; offer it only for failures that may pass.
        const retryable = !(isApiError(e) && (e.kind === 'protocol' || e.status === 400 || e.status === 413));
        const choice = await vscode.window.showErrorMessage(text, ...(retryable ? ['Retry'] : []), 'Show Log');
        if (choice === 'Show Log') s.log.show();
        if (choice !== 'Retry') return undefined;
      }
    }
  }

  return {
    'apiWorkbench.realtime.connect': async (arg?: unknown) => {
      const conn = await connection(arg);
      if (!conn) return undefined;
      const sess = session(conn);
      sess.connect();
      log.show();
      return sess.state;
    },

    'apiWorkbench.realtime.disconnect': async (arg?: unknown) => {
      const conn = await connection(arg);
      if (!conn) return undefined;
      sessions.peek(conn)?.disconnect();
      return 'disconnected';
    },

    'apiWorkbench.realtime.subscribe': async (arg?: unknown): Promise<SubscriptionSnapshot | undefined> => {
      const given = channelArg(arg);
      const conn = await connection(given.connection);
      if (!conn) return undefined;
      const sess = session(conn);
      const channel = (given.channel ?? (await pickChannelToSubscribe(sess, s.context.globalState, last.channel)))?.trim();
      if (!channel) return undefined;
      last.channel = channel;
      void rememberChannel(s.context.globalState, channel);
      if (!sess.live) sess.connect();
      const snapshot = sess.client.subscribe(channel);
      // Its events arrive in the realtime log (as the walkthrough says): shown, the editor keeping focus.
      log.show();
      return snapshot;
    },

    'apiWorkbench.realtime.unsubscribe': async (arg?: unknown) => {
      const given = channelArg(arg);
      const conn = await connection(given.connection);
      if (!conn) return undefined;
      const sess = sessions.peek(conn);
      const subscribed = sess?.client.subscriptions().map((x) => x.channel) ?? [];
      const channel = given.channel ?? (subscribed.length ? await vscode.window.showQuickPick(subscribed, { title: 'Unsubscribe from' }) : undefined);
      if (!channel) {
        if (!subscribed.length) void vscode.window.showInformationMessage('No channel is subscribed.');
        return undefined;
      }
      sess?.client.unsubscribe(channel);
      return channel;
    },

    'apiWorkbench.realtime.publish': (arg?: unknown) => publish(arg),
    'apiWorkbench.realtime.publishHere': (arg?: unknown) => publish(arg),

    'apiWorkbench.realtime.sendClientEvent': async (arg?: unknown) => {
      const input: ClientEventInput = arg && typeof arg === 'object' && !('row' in arg) ? arg : {};
      const fromNode = channelArg(arg);
      const conn = await connection(input.connection ?? fromNode.connection);
      if (!conn) return undefined;
      const sess = session(conn);
      const eligible = sess.client
        .subscriptions()
        .filter((x) => x.state === 'subscribed' && !clientEventProblem(x.channel, 'client-x'))
        .map((x) => x.channel);
      let channel = input.channel ?? fromNode.channel;
      if (!channel) {
        if (eligible.length === 0) {
          void vscode.window.showInformationMessage('Client events go to private- or presence- channels you are subscribed to: subscribe to one first.');
          return undefined;
        }
        channel = eligible.length === 1 ? eligible[0] : await vscode.window.showQuickPick(eligible, { title: 'Send Client Event: channel' });
      }
      if (!channel) return undefined;
      const event =
        input.event ??
        (await vscode.window.showInputBox({
          title: `Send Client Event on ${channel}`,
          prompt: 'Event name (starts with client-)',
          value: last.clientEvent,
          validateInput: (v) => clientEventProblem(channel, v.trim()),
        }));
      if (!event) return undefined;
      last.clientEvent = event;
      const raw =
        input.data ?? (await vscode.window.showInputBox({ title: `Send ${event}: data`, prompt: 'Data (JSON, or any text)', value: last.clientData }));
      if (raw === undefined) return undefined;
      last.clientData = raw;
      let data: unknown = raw;
      try {
        data = JSON.parse(raw);
      } catch {
        // plain text is sent as a string
      }
      sess.client.trigger(channel, event.trim(), data);
      log.note(`[${conn.name}] sent ${event.trim()} on ${channel} (client events are not echoed back to the sender)`);
      return { connection: conn.name, channel, event: event.trim() };
    },

    'apiWorkbench.realtime.startWebhookReceiver': async (arg?: unknown): Promise<ReceiverInfo | undefined> => {
      const conn = await connection(arg);
      if (!conn) return undefined;
      const info = await webhooks.start(conn);
      if (info.registered) {
        vscode.window.setStatusBarMessage(`$(radio-tower) Webhooks from the sandbox now arrive in the realtime log`, 5_000);
      } else {
        void vscode.window
          .showInformationMessage(
            `Webhook receiver listening on ${info.url}. Hosted Channels cannot reach this machine directly: expose the port with a tunnel and add that URL in the app's Webhooks settings.`,
            'Copy URL',
          )
          .then((c) => c && vscode.env.clipboard.writeText(info.url));
      }
      log.show();
      return info;
    },

    'apiWorkbench.realtime.stopWebhookReceiver': async () => {
      if (!(await webhooks.stop())) void vscode.window.showInformationMessage('The webhook receiver is not running.');
    },

    'apiWorkbench.realtime.saveLog': async (arg?: unknown) => {
      let target: vscode.Uri | undefined = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.file(arg) : undefined;
      if (!target) {
        const dir = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
        target = await vscode.window.showSaveDialog({
          title: 'Save Realtime Log',
          defaultUri: vscode.Uri.joinPath(dir, `realtime-log-${timestamp()}.log`),
          filters: { 'Log files': ['log', 'txt'] },
        });
      }
      if (!target) return undefined;
      await vscode.workspace.fs.writeFile(target, Buffer.from(log.text(), 'utf8'));
      const saved = target;
      void vscode.window
        .showInformationMessage(`Saved the realtime log to ${path.basename(saved.fsPath)}.`, 'Open')
        .then((c) => c && vscode.window.showTextDocument(saved));
      return saved.fsPath;
    },

    'apiWorkbench.realtime.showLog': () => log.show(),

    'apiWorkbench.realtime.copyChannelName': async (arg?: unknown) => {
      const { channel } = channelArg(arg);
      if (!channel) return undefined;
      await vscode.env.clipboard.writeText(channel);
      vscode.window.setStatusBarMessage(`Copied ${channel}`, 2_000);
      return channel;
    },
  };
}
