// The realtime commands' prompts that decide what is sent where: the Subscribe picker (occupied
// channels from the REST API, recent ones, and what the name prefixes mean) and Publish's data
// source (typed, the selection, a file) with a confirmation showing exactly what will be sent.
import * as path from 'node:path';
import vscode from 'vscode';
import { errorText } from '../../core/errors';
import { channelNameProblem, isCacheChannel } from '../../services/realtime/protocol';
import type { RealtimeSession } from './sessions';

const RECENT_KEY = 'apiWorkbench.realtime.recentChannels';
const RECENT_MAX = 10;

/** What each channel-name prefix means, as the picker and the input box say it. */
export const PREFIX_NOTES: readonly { prefix: string; meaning: string }[] = [
  { prefix: 'private-', meaning: 'private: the subscription is signed with the app secret' },
  { prefix: 'presence-', meaning: 'presence: signed, and lists who is subscribed (members)' },
  { prefix: 'private-encrypted-', meaning: 'end-to-end encrypted: data is opened with the encryption master key' },
  { prefix: 'cache-', meaning: 'cache: a new subscriber gets the last event at once (also private-cache-, presence-cache-, …)' },
];
const PREFIX_SUMMARY = 'private- signed · presence- members · private-encrypted- encrypted · cache- last event on subscribe';

export function recentChannels(state: vscode.Memento): string[] {
  const v = state.get<unknown>(RECENT_KEY);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export async function rememberChannel(state: vscode.Memento, channel: string): Promise<void> {
  const list = [channel, ...recentChannels(state).filter((c) => c !== channel)].slice(0, RECENT_MAX);
  await state.update(RECENT_KEY, list);
}

function kindNote(channel: string): string | undefined {
  const kind = PREFIX_NOTES.find(
    (p) => channel.startsWith(p.prefix) && p.prefix !== 'cache-' && !(p.prefix === 'private-' && channel.startsWith('private-encrypted-')),
  );
  const cache = isCacheChannel(channel) ? 'cache' : undefined;
  return [kind?.meaning.split(':')[0], cache].filter(Boolean).join(', ') || undefined;
}

type ChannelItem = vscode.QuickPickItem & { channel?: string; prefix?: string; type?: true; notAName?: true };

/**
 * Subscribe's picker: occupied channels (REST `/channels`) not yet subscribed here, then recent
 * ones, then "type a name" and the prefixes (picking one starts the name with it).
 */
export async function pickChannelToSubscribe(sess: RealtimeSession, state: vscode.Memento, last: string): Promise<string | undefined> {
  const items: ChannelItem[] = [];
  const subscribed = new Set(sess.client.subscriptions().map((x) => x.channel));
  let listingProblem: string | undefined;
  const rows = await sess.channels(false).catch((e: unknown) => {
    listingProblem = errorText(e);
    return [];
  });
  const occupied = rows.filter((r) => r.occupied && !subscribed.has(r.name));
  if (occupied.length) items.push({ label: 'Occupied now', kind: vscode.QuickPickItemKind.Separator });
  for (const r of occupied) {
    const count = r.userCount ?? r.subscriptionCount;
    items.push({
      label: r.name,
      channel: r.name,
      description: [kindNote(r.name), count !== undefined ? `${count} ${r.userCount !== undefined ? 'members' : 'subscribers'}` : undefined]
        .filter(Boolean)
        .join(' · '),
    });
  }
  const recent = recentChannels(state).filter((c) => !subscribed.has(c) && !occupied.some((r) => r.name === c));
  if (recent.length) items.push({ label: 'Recent', kind: vscode.QuickPickItemKind.Separator });
  for (const c of recent) items.push({ label: c, channel: c, description: kindNote(c) });
  items.push({ label: 'Another channel', kind: vscode.QuickPickItemKind.Separator });
  items.push({
    label: '$(edit) Type a channel name…',
    type: true,
    detail: listingProblem ? `Occupied channels could not be listed: ${listingProblem}` : undefined,
  });
  for (const p of PREFIX_NOTES) items.push({ label: `$(symbol-key) ${p.prefix}…`, prefix: p.prefix, description: p.meaning });
  const picked = await pickOrType(items, {
    title: 'Subscribe to Channel',
    placeholder:
      occupied.length || recent.length
        ? 'Pick an occupied or recent channel, or type a new name'
        : 'No occupied or recent channels: type a name, or start from a prefix',
  });
  if (!picked) return undefined;
  if (picked.channel) return picked.channel;
  return vscode.window.showInputBox({
    title: 'Subscribe to Channel',
    prompt: `Channel name. Prefixes: ${PREFIX_SUMMARY}`,
    value: picked.prefix ?? last,
    valueSelection: picked.prefix ? [picked.prefix.length, picked.prefix.length] : undefined,
    validateInput: (v) => channelNameProblem(v.trim()),
  });
}

/**
 * A picker whose typed value is a choice too: a name that is no item is offered first as
 * "Subscribe to <name>" (or says why it is not a channel name), so Enter takes it.
 */
function pickOrType(items: ChannelItem[], opts: { title: string; placeholder: string }): Promise<ChannelItem | undefined> {
  const qp = vscode.window.createQuickPick<ChannelItem>();
  qp.title = opts.title;
  qp.placeholder = opts.placeholder;
  qp.matchOnDescription = true;
  qp.items = items;
  const typedItem = (value: string): ChannelItem | undefined => {
    const name = value.trim();
    if (!name || items.some((i) => i.channel === name)) return undefined;
    const problem = channelNameProblem(name);
    return problem
      ? { label: `$(warning) ${name}`, description: problem, alwaysShow: true, notAName: true }
      : { label: `$(add) Subscribe to ${name}`, channel: name, description: kindNote(name), alwaysShow: true };
  };
  return new Promise<ChannelItem | undefined>((resolve) => {
    let chosen: ChannelItem | undefined;
    const subs: vscode.Disposable[] = [];
    subs.push(
      qp.onDidChangeValue((value) => {
        const typed = typedItem(value);
        qp.items = typed ? [typed, ...items] : items;
        if (typed) qp.activeItems = [typed];
      }),
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        // A typed name that is not a channel name stays open: its item says why.
        if (!item || item.notAName) return;
        chosen = item;
        qp.hide();
      }),
      qp.onDidHide(() => {
        for (const d of subs) d.dispose();
        qp.dispose();
        resolve(chosen);
      }),
    );
    qp.show();
  });
}

export interface DataChoice {
  /** The text as it will be sent (before JSON compaction). */
  text: string;
  /** Where it came from, for the confirmation ("typed", "the selection in a.json", …). */
  source: string;
}

type SourceItem = vscode.QuickPickItem & { source: 'type' | 'selection' | 'active' | 'file' };

function preview(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** What is being asked for: an event's data (Publish) or a batch's events (Publish Batch). */
export interface DataKind {
  question: string;
  prompt: string;
  placeHolder: string;
  /** A problem with typed text, shown as the user types (the other sources are checked by the caller). */
  validate?: (text: string) => string | undefined;
}

const EVENT_DATA: DataKind = { question: 'Where does the event data come from?', prompt: 'Event data (JSON, or any text)', placeHolder: '{"hello":"world"}' };

/**
 * Publish's data: asks where it comes from (never silently the active editor), then the text.
 * `lastPublished` prefills the input box, and the prompt says so.
 */
export async function askPublishData(title: string, lastPublished: string | undefined, kind: DataKind = EVENT_DATA): Promise<DataChoice | undefined> {
  const editor = vscode.window.activeTextEditor;
  const name = editor ? path.basename(editor.document.uri.path) || editor.document.uri.toString() : undefined;
  const items: SourceItem[] = [
    {
      label: '$(edit) Type it',
      source: 'type',
      description: lastPublished !== undefined ? `starts with what you last published: ${preview(lastPublished, 40)}` : undefined,
    },
  ];
  if (editor && !editor.selection.isEmpty)
    items.push({ label: `$(selection) The selection in ${name}`, source: 'selection', detail: preview(editor.document.getText(editor.selection)) });
  if (editor && editor.document.getText().trim() !== '')
    items.push({ label: `$(file) All of ${name}`, source: 'active', detail: preview(editor.document.getText()) });
  items.push({ label: '$(folder-opened) A file…', source: 'file' });
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: kind.question });
  if (!picked) return undefined;
  switch (picked.source) {
    case 'type': {
      const text = await vscode.window.showInputBox({
        title,
        prompt: lastPublished !== undefined ? `${kind.prompt}. Prefilled with what you last published.` : kind.prompt,
        value: lastPublished ?? '',
        placeHolder: kind.placeHolder,
        ignoreFocusOut: true,
        validateInput: kind.validate,
      });
      return text === undefined ? undefined : { text, source: 'typed' };
    }
    case 'selection':
      return editor && { text: editor.document.getText(editor.selection), source: `the selection in ${name}` };
    case 'active':
      return editor && { text: editor.document.getText(), source: `all of ${name}` };
    case 'file': {
      const [uri] = (await vscode.window.showOpenDialog({ title, canSelectMany: false, openLabel: 'Publish This File' })) ?? [];
      if (!uri) return undefined;
      const bytes = await vscode.workspace.fs.readFile(uri);
      return { text: Buffer.from(bytes).toString('utf8'), source: path.basename(uri.path) };
    }
  }
}

/** The last look before sending: what, where, from which source, how big. */
export async function confirmPublish(what: { connection: string; channel: string; event: string; data: string; source: string }): Promise<boolean> {
  const shown = what.data.length > 1_500 ? `${what.data.slice(0, 1_500)}… (${what.data.length.toLocaleString('en-US')} characters in all)` : what.data;
  const answer = await vscode.window.showInformationMessage(
    `Publish ${what.event} to ${what.channel} on ${what.connection}?`,
    { modal: true, detail: `Data (${what.source}, ${Buffer.byteLength(what.data, 'utf8').toLocaleString('en-US')} bytes):\n${shown}` },
    'Publish',
  );
  return answer === 'Publish';
}
