// The Realtime Inspector in the editor: a webview view in the panel over the InspectorStore (the last 100,000
// messages of every realtime session, kept whether or not the panel is open), fed by the
// InspectorFeed at most ten times a second. The page asks; this side answers, copies, and
// republishes after a modal confirmation showing exactly what will be sent.
import vscode from 'vscode';
import * as z from 'zod/mini';
import { errorText } from '../../core/errors';
import { validate } from '../../core/validate';
import { detailOf, InspectorFeed, pageMessageSchema, type HostMessage, type PageMessage } from '../../services/realtime/inspectorFeed';
import { InspectorStore, type InspectorCounts, type InspectorFilter, type InspectorMessage } from '../../services/realtime/inspectorStore';
import { channelKind, channelNameProblem, LIMITS } from '../../services/realtime/protocol';
import { REALTIME_INSPECTOR_FOCUS_COMMAND } from '../../features/ids';
import type { Services } from '../services';
import { newNonce, webviewPage } from '../../features/webviewPage';
import { encryptedPayload } from './encryptionKey';
import { asRealtime, type RealtimeSessions } from './sessions';

const READY_WAIT_MS = 10_000;

/**
 * What Show Realtime Inspector accepts (from keybindings, other extensions, tests): each field acts
 * as the page's control of the same name. `select`: a sequence number, or the newest row on the
 * page. `republish`: the message `seq` (the newest shown when omitted), after the same
 * confirmation as the page's button.
 */
const inspectorInputSchema = z.object({
  filter: z.optional(z.partial(z.object({ channel: z.string(), event: z.string(), regex: z.string() }))),
  paused: z.optional(z.boolean()),
  clear: z.optional(z.boolean()),
  select: z.optional(z.union([z.number(), z.literal('last')])),
  republish: z.optional(
    z.object({ seq: z.optional(z.number()), channel: z.optional(z.string()), event: z.optional(z.string()), data: z.optional(z.string()) }),
  ),
});
export type InspectorInput = z.infer<typeof inspectorInputSchema>;

/** The command's argument, or nothing (a tree node or a stray value opens the inspector as it is). */
export function inspectorInput(arg: unknown): InspectorInput {
  const r = validate(inspectorInputSchema, arg);
  return r.ok ? r.value : {};
}

/** What the command returns: the host's counts and what the page last reported drawing. */
export interface InspectorSnapshot {
  counts: InspectorCounts;
  filter: InspectorFilter;
  filterProblem?: string;
  page?: { seqs: number[]; total: number; header: string };
  detail?: { seq: number; channel: string; event: string; data: string; decrypted: boolean };
  republished?: { connection: string; channel: string; event: string; data: string };
  updates: number;
}

/** Compact JSON when the text is JSON, the text itself otherwise (as Publish sends it). */
function normaliseData(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

export class RealtimeInspector implements vscode.Disposable {
  readonly store = new InspectorStore();
  private readonly feed: InspectorFeed;
  private view: vscode.WebviewView | undefined;
  private attached: Promise<void>;
  private markAttached: () => void = () => undefined;
  private page: InspectorSnapshot['page'];
  private filterProblem: string | undefined;
  private detail: InspectorSnapshot['detail'];
  private ready: Promise<void> = Promise.resolve();
  private markReady: () => void = () => undefined;

  constructor(
    private readonly s: Services,
    private readonly sessions: RealtimeSessions,
  ) {
    this.feed = new InspectorFeed(this.store, (m) => this.post(m));
    this.attached = new Promise((resolve) => (this.markAttached = resolve));
  }

  /** Every message of every session (called from the session's listener, up to 10,000 times a second). */
  record(m: InspectorMessage): void {
    this.store.add(m);
    if (this.view?.visible) this.feed.changed();
  }

  async show(input: InspectorInput = {}): Promise<InspectorSnapshot> {
    // The panel's view is contributed only once a realtime connection exists (package.json `when`).
    if (this.s.connections.list('realtime').length === 0)
      throw new Error('No realtime connection yet: add one (or start the Local Sandbox), then inspect its messages.');
    // Shown already, it stays where it is; otherwise VS Code opens the panel on it (and resolves it the first time).
    if (this.view?.visible) this.view.show(true);
    else await vscode.commands.executeCommand(REALTIME_INSPECTOR_FOCUS_COMMAND);
    // A page that never loads must not hang the command: after the wait, it answers with what the host knows.
    const timeUp = new Promise<void>((resolve) => setTimeout(resolve, READY_WAIT_MS));
    await Promise.race([this.attached.then(() => this.ready), timeUp]);
    if (input.clear) this.feed.handle({ type: 'clear' });
    const set: HostMessage = { type: 'set' };
    if (input.filter) set.filter = { ...this.store.filter, ...input.filter };
    if (input.paused !== undefined) set.paused = input.paused;
    if (input.select !== undefined) {
      // Opened here as well as on the page, so the command's answer does not wait on the page's round trip.
      const seq = input.select === 'last' ? this.store.last()?.seq : input.select;
      if (seq !== undefined) {
        set.select = seq;
        this.detail = this.detailFor(seq);
      }
    }
    if (set.filter || set.paused !== undefined || set.select !== undefined) this.post(set);
    let republished: InspectorSnapshot['republished'];
    if (input.republish) {
      const seq = input.republish.seq ?? this.store.last()?.seq;
      if (seq !== undefined)
        republished = await this.republish({
          type: 'republish',
          seq,
          channel: input.republish.channel ?? '',
          event: input.republish.event ?? '',
          data: input.republish.data ?? '',
        });
    }
    return this.snapshot(republished);
  }

  snapshot(republished?: InspectorSnapshot['republished']): InspectorSnapshot {
    const snap: InspectorSnapshot = { counts: this.store.counts(), filter: this.store.filter, updates: this.feed.updates };
    if (this.filterProblem) snap.filterProblem = this.filterProblem;
    if (this.page) snap.page = this.page;
    if (this.detail) snap.detail = this.detail;
    if (republished) snap.republished = republished;
    return snap;
  }

  /** The view in the panel, resolved by VS Code the first time it is shown (and again after it was closed). */
  attach(view: vscode.WebviewView): void {
    const scripts = vscode.Uri.joinPath(this.s.context.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.s.context.extensionUri, 'media', 'realtime');
    // No retained context (registered so): the page holds only the rows in sight and is rebuilt from the store when shown again.
    view.webview.options = { enableScripts: true, localResourceRoots: [scripts, media] };
    this.expectPage();
    const uri = (base: vscode.Uri, f: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(base, f)).toString();
    view.webview.html = inspectorHtml(view.webview.cspSource, uri(media, 'inspector.css'), uri(scripts, 'realtimeInspector.js'));
    const subs = [
      view.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      view.onDidChangeVisibility(() => {
        // Hidden, the page is discarded; shown again, it loads and says 'ready'.
        if (view.visible) this.feed.changed();
        else this.expectPage();
      }),
    ];
    view.onDidDispose(() => {
      for (const d of subs) d.dispose();
      if (this.view !== view) return;
      this.view = undefined;
      this.page = undefined;
      this.detail = undefined;
      this.attached = new Promise((resolve) => (this.markAttached = resolve));
    });
    this.view = view;
    this.markAttached();
  }

  private detailFor(seq: number): InspectorSnapshot['detail'] {
    const e = this.store.entry(seq);
    return e && { seq: e.seq, channel: e.channel, event: e.event, data: detailOf(e).pretty, decrypted: e.decrypted };
  }

  private expectPage(): void {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  private post(m: HostMessage): void {
    void this.view?.webview.postMessage(m);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const checked = validate(pageMessageSchema, raw);
    if (!checked.ok) {
      this.s.log.warn(`Realtime Inspector: ignored a page message (${checked.problem})`);
      return;
    }
    const m = checked.value;
    if (m.type === 'filter') {
      // As the feed would, keeping the refusal for the command's snapshot.
      const r = this.store.setFilter(m);
      this.filterProblem = r.ok ? undefined : r.problem;
      this.post(r.ok ? { type: 'filterResult', filter: this.store.filter } : { type: 'filterResult', filter: this.store.filter, problem: r.problem });
      if (r.ok) this.feed.flush();
      return;
    }
    if (m.type === 'select') this.detail = this.detailFor(m.seq);
    if (this.feed.handle(m)) {
      if (m.type === 'ready') this.markReady();
      return;
    }
    try {
      if (m.type === 'rendered') this.page = { seqs: m.seqs, total: m.total, header: m.header };
      else if (m.type === 'copy') await this.copy(m.seq);
      else if (m.type === 'republish') await this.republish(m);
    } catch (e) {
      void vscode.window.showErrorMessage(`Realtime Inspector: ${errorText(e)}`);
    }
  }

  private async copy(seq: number): Promise<void> {
    const e = this.store.entry(seq);
    if (!e) return void vscode.window.showInformationMessage('That message is no longer kept.');
    await vscode.env.clipboard.writeText(detailOf(e).pretty);
    vscode.window.setStatusBarMessage(`Copied the data of ${e.event} on ${e.channel}`, 3_000);
  }

  /** Sends (a possibly edited copy of) a kept message, after a modal that shows what goes where. */
  private async republish(m: Extract<PageMessage, { type: 'republish' }>): Promise<InspectorSnapshot['republished']> {
    const e = this.store.entry(m.seq);
    if (!e) {
      void vscode.window.showInformationMessage('That message is no longer kept: nothing to republish.');
      return undefined;
    }
    const conn = asRealtime(this.s.connections.get('realtime', e.connection)) ?? asRealtime(this.s.connections.active('realtime'));
    if (!conn) throw new Error(`the connection "${e.connection}" no longer exists`);
    const channel = m.channel.trim() || e.channel;
    const event = m.event.trim() || e.event;
    const data = normaliseData(m.data === '' ? e.data : m.data);
    const problem =
      channelNameProblem(channel) ?? (event.length > LIMITS.maxEventNameLength ? `the event name is over ${LIMITS.maxEventNameLength} characters` : undefined);
    if (problem) throw new Error(`cannot republish to "${channel}": ${problem}`);
    const preview = data.length > 1_000 ? `${data.slice(0, 1_000)}… (${data.length.toLocaleString('en-US')} characters)` : data;
    const encrypted = channelKind(channel) === 'private-encrypted';
    // Refused before the confirmation: sent unboxed, subscribers could not open it (and it would travel in clear).
    if (encrypted && (await this.s.secrets.getAux(conn, 'encryptionMasterKey')) === undefined) {
      void vscode.window.showWarningMessage(
        `Not republished: ${channel} is an encrypted channel and "${conn.name}" has no encryption master key stored. Set one with "Set Encryption Master Key…" first.`,
      );
      return undefined;
    }
    const encryptedNote = encrypted ? `\n\nEncrypted with the master key of "${conn.name}" before sending, as Publish does.` : '';
    const ok = await vscode.window.showWarningMessage(
      `Republish ${event} to ${channel}${channel === e.channel ? '' : ` (it came from ${e.channel})`} on ${conn.name}?`,
      { modal: true, detail: `Data:\n${preview}${encryptedNote}` },
      'Republish',
    );
    if (ok !== 'Republish') return undefined;
    await this.sessions.get(conn).rest.publish({ channels: [channel], name: event, data: encryptedPayload(channel, data) });
    vscode.window.setStatusBarMessage(`$(send) Republished ${event} to ${channel}`, 4_000);
    return { connection: conn.name, channel, event, data };
  }

  dispose(): void {
    this.feed.dispose();
  }
}

function inspectorHtml(cspSource: string, css: string, script: string): string {
  const nonce = newNonce();
  return webviewPage({
    csp: [`style-src ${cspSource}`, `script-src 'nonce-${nonce}'`, `font-src ${cspSource}`],
    title: 'Realtime Inspector',
    head: `<link rel="stylesheet" href="${css}">`,
    body: `<div id="toolbar" role="search">
  <label class="f">Channel <input id="f-channel" type="text" placeholder="contains…" spellcheck="false"></label>
  <label class="f">Event <input id="f-event" type="text" placeholder="contains…" spellcheck="false"></label>
  <label class="f f-wide">Data <input id="f-regex" type="text" placeholder="matches a regular expression…" spellcheck="false"></label>
  <button id="pause" aria-pressed="false" title="Stop the table moving: messages are still received and counted, and appear on resume">Pause</button>
  <button id="clear" title="Forget every message kept and restart the counts">Clear</button>
</div>
<div id="problem" role="alert"></div>
<div id="counts" aria-live="polite">No messages yet: connect and subscribe to a channel.</div>
<div class="row head" role="row"><span class="c-time">Time</span><span class="c-conn">Connection</span><span class="c-channel">Channel</span><span class="c-event">Event</span><span class="c-size">Size</span><span class="c-data">Data</span></div>
<div id="scroller" tabindex="0" role="grid" aria-label="Realtime messages"><div id="spacer"></div><div id="rows"></div></div>
<section id="detail" hidden aria-label="Selected message">
  <div class="detail-head"><span id="detail-title"></span><button id="copy" title="Copy the data">Copy</button><button id="close" title="Close">Close</button></div>
  <textarea id="detail-data" spellcheck="false" aria-label="The message's data (editable before republishing)"></textarea>
  <div class="republish"><span id="detail-note"></span><label>Channel <input id="rp-channel" type="text" spellcheck="false"></label><label>Event <input id="rp-event" type="text" spellcheck="false"></label><button id="republish">Republish…</button></div>
</section>
<script nonce="${nonce}" src="${script}"></script>`,
  }).html;
}
