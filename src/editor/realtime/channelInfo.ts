// Batch publish (POST /batch_events, up to 10 events, order kept) and channel information
// (GET /channels, /channels/{name}, /channels/{name}/users) as commands.
import vscode from 'vscode';
import type { RealtimeConnection } from '../../core/connections';
import { parseJson } from '../../core/validate';
import { channelKind, LIMITS, type ChannelAttributes } from '../../services/realtime/protocol';
import type { BatchItem, ChannelInfo } from '../../services/realtime/rest';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import type { Services } from '../services';
import type { RealtimeLog } from './log';
import { askPublishData, type DataKind } from './prompts';
import { asRealtime, type RealtimeSessions } from './sessions';

export interface BatchInput {
  connection?: string;
  /** The events, or their JSON text: `[{"channel","name","data"}, …]`. */
  events?: BatchItem[] | string;
}

export interface ChannelInfoInput {
  connection?: string;
  channel?: string;
  prefix?: string;
  /** Open the result as a JSON document (default when prompted). */
  show?: boolean;
}

export interface ChannelReport {
  channel: string;
  info: ChannelInfo;
  /** Presence channels: the user ids. */
  users?: string[];
}

/** Parses the events of a batch; the message says which entry is wrong and why. */
export function parseBatch(text: string): { ok: true; items: BatchItem[] } | { ok: false; problem: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, problem: 'not JSON: write an array like [{"channel":"c","name":"e","data":{}}]' };
  if (!Array.isArray(parsed.value)) return { ok: false, problem: 'a batch is a JSON array of events' };
  if (parsed.value.length === 0) return { ok: false, problem: 'the batch is empty' };
  if (parsed.value.length > LIMITS.maxBatchEvents)
    return { ok: false, problem: `a batch holds at most ${LIMITS.maxBatchEvents} events, this has ${parsed.value.length}` };
  const items: BatchItem[] = [];
  for (const [i, e] of (parsed.value as unknown[]).entries()) {
    const o = e as { channel?: unknown; name?: unknown; event?: unknown; data?: unknown; socket_id?: unknown } | null;
    const name = o?.name ?? o?.event;
    if (!o || typeof o !== 'object' || typeof o.channel !== 'string' || typeof name !== 'string')
      return { ok: false, problem: `event ${i + 1} needs "channel" and "name" strings` };
    const item: BatchItem = { channel: o.channel, name, data: o.data ?? {} };
    if (typeof o.socket_id === 'string') item.socketId = o.socket_id;
    items.push(item);
  }
  return { ok: true, items };
}

const BATCH_EVENTS: DataKind = {
  question: "Where do the batch's events come from (a JSON array of {channel, name, data})?",
  prompt: 'A JSON array of {"channel", "name", "data"}',
  placeHolder: '[{"channel": "orders", "name": "created", "data": {}}]',
  validate: (v) => {
    const p = parseBatch(v);
    return p.ok ? undefined : p.problem;
  },
};

function batchOrThrow(text: string, source: string): BatchItem[] {
  const p = parseBatch(text);
  if (!p.ok) throw new Error(`Cannot publish the batch (${source}): ${p.problem}`);
  return p.items;
}

/** The last look before a batch goes out: each event's channel and name, and the source. */
async function confirmBatch(connection: string, items: BatchItem[], source: string): Promise<boolean> {
  const lines = items.map((i, n) => `${n + 1}. ${i.channel} · ${i.name}`).join('\n');
  const answer = await vscode.window.showInformationMessage(
    `Publish ${items.length} event${items.length === 1 ? '' : 's'} on ${connection}?`,
    { modal: true, detail: `From ${source}, in this order:\n${lines}` },
    'Publish',
  );
  return answer === 'Publish';
}

async function showJson(title: string, value: unknown): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `// ${title}\n${JSON.stringify(value, null, 2)}\n` });
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

export function channelInfoCommands(s: Services, sessions: RealtimeSessions, log: RealtimeLog): CommandTable {
  /** What was last published as a batch (typed or not), offered again when typing. */
  let lastBatch: string | undefined;

  function connection(arg: unknown, name: string | undefined): RealtimeConnection {
    const conn = asRealtime(connectionFromArg(s, 'realtime', name ?? arg) ?? s.connections.active('realtime'));
    if (!conn) throw new Error('No realtime connection: add one (or start the local sandbox) first.');
    return conn;
  }

  async function report(conn: RealtimeConnection, channel: string): Promise<ChannelReport> {
    const rest = sessions.get(conn).rest;
    const info = await rest.channel(channel, ['subscription_count', 'user_count']);
    const out: ChannelReport = { channel, info };
    if (channelKind(channel) === 'presence' && info.occupied) out.users = await rest.users(channel);
    return out;
  }

  return {
    'apiWorkbench.realtime.publishBatch': async (arg?: unknown): Promise<ChannelAttributes[] | undefined> => {
      const input: BatchInput = arg && typeof arg === 'object' && !('conn' in arg) ? arg : {};
      const conn = connection(arg, input.connection);
      let items: BatchItem[];
      if (Array.isArray(input.events)) {
        items = input.events;
      } else if (input.events !== undefined) {
        items = batchOrThrow(input.events, 'given');
      } else {
        // Asked like Publish: typed, the selection, the open file or a file; then confirmed, because
        // the events reach everyone subscribed.
        const title = `Publish Batch on "${conn.name}" (up to ${LIMITS.maxBatchEvents} events, delivered in this order)`;
        const choice = await askPublishData(title, lastBatch, BATCH_EVENTS);
        if (!choice) return undefined;
        items = batchOrThrow(choice.text, choice.source);
        if (!(await confirmBatch(conn.name, items, choice.source))) return undefined;
        lastBatch = choice.text;
      }
      const result = await sessions.get(conn).rest.publishBatch(items);
      log.note(`[${conn.name}] published a batch of ${items.length}: ${items.map((i) => `${i.channel}/${i.name}`).join(', ')}`);
      vscode.window.setStatusBarMessage(`$(send) Published a batch of ${items.length} events`, 4_000);
      return result;
    },

    'apiWorkbench.realtime.channelInfo': async (arg?: unknown): Promise<ChannelReport | Record<string, ChannelAttributes> | undefined> => {
      const fromNode = arg && typeof arg === 'object' && 'row' in arg ? (arg as { name?: unknown }).name : undefined;
      const input: ChannelInfoInput = typeof arg === 'string' ? { channel: arg } : arg && typeof arg === 'object' && !('conn' in arg) ? arg : {};
      const conn = connection(arg, input.connection);
      const rest = sessions.get(conn).rest;
      let channel = typeof fromNode === 'string' ? fromNode : input.channel;
      const prompted = channel === undefined && input.show === undefined;
      if (channel === undefined) {
        // GET /channels with the counts the API can give for that prefix (user_count only for presence-).
        const prefix = input.prefix ?? '';
        const info: ('subscription_count' | 'user_count')[] = prefix.startsWith('presence-') ? ['user_count', 'subscription_count'] : ['subscription_count'];
        let listed: Record<string, ChannelAttributes>;
        try {
          listed = await rest.channels({ prefix: prefix || undefined, info });
        } catch (e) {
          if ((e as { status?: number }).status !== 400) throw e;
          listed = await rest.channels({ prefix: prefix || undefined });
        }
        if (!prompted) return listed;
        const names = Object.keys(listed).sort();
        if (names.length === 0) {
          void vscode.window.showInformationMessage(`No occupied channels on "${conn.name}".`);
          return listed;
        }
        const picked = await vscode.window.showQuickPick(
          names.map((n) => ({
            label: n,
            description: [
              listed[n].subscription_count !== undefined ? `${listed[n].subscription_count} subscribers` : '',
              listed[n].user_count !== undefined ? `${listed[n].user_count} users` : '',
            ]
              .filter(Boolean)
              .join(' · '),
          })),
          {
            title: `Channel Information: ${names.length} occupied channel${names.length === 1 ? '' : 's'} on "${conn.name}"`,
            placeHolder: 'Pick one for its details',
          },
        );
        if (!picked) return listed;
        channel = picked.label;
      }
      const out = await report(conn, channel);
      if (input.show ?? true) await showJson(`GET /channels/${channel}${out.users ? ' and /users' : ''} on "${conn.name}"`, out);
      return out;
    },
  };
}
