import vscode from 'vscode';
import type { Redactor } from '../../core/redact';
import { webhookPageHtml, type WebhookRow } from '../../features/realtime/webhookHtml';
import type { WebhookRecord } from '../../features/realtime/webhookInbox';
import type { WebhookController } from './webhooks';

export const WEBHOOK_VIEW_COMMANDS = {
  show: 'apiWorkbench.realtime.showWebhooks',
  replay: 'apiWorkbench.realtime.replayWebhook',
  sendTest: 'apiWorkbench.realtime.sendTestWebhook',
  setTarget: 'apiWorkbench.realtime.setWebhookTarget',
  startReceiver: 'apiWorkbench.realtime.startWebhookReceiver',
  clear: 'apiWorkbench.realtime.clearWebhooks',
} as const;

/** A flood of webhooks re-renders the page at most this often. */
const RENDER_INTERVAL_MS = 200;

function row(r: WebhookRecord): WebhookRow {
  if (r.kind === 'sent') {
    let events: WebhookRow['events'] = [];
    try {
      events = (JSON.parse(r.raw) as { events?: WebhookRow['events'] }).events ?? [];
    } catch {
      // a test body is always JSON; nothing to list otherwise
    }
    return { kind: 'sent', id: r.id, at: r.at, connection: r.connection, events, raw: r.raw, testKind: r.testKind, result: r.result };
  }
  return {
    kind: 'received',
    id: r.id,
    at: r.at,
    connection: r.connection,
    path: r.path,
    answeredStatus: r.answeredStatus,
    verdict: r.verdict,
    reason: r.reason,
    headers: r.headers,
    events: r.events,
    raw: r.raw,
    replays: r.replays,
  };
}

/** The Realtime Webhooks panel: opened on demand, kept current while open. */
export class WebhookPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subs: Array<{ dispose(): void }>;

  constructor(
    private readonly webhooks: WebhookController,
    private readonly redactor: Redactor,
    private readonly target: () => string | undefined,
  ) {
    // A stopped or restarted receiver must not stay on the page with its old address.
    this.subs = [webhooks.inbox.onDidChange(() => this.scheduleRender()), webhooks.onDidChangeReceiver(() => this.render())];
  }

  get visible(): boolean {
    return !!this.panel;
  }

  /** The page as last rendered (the in-editor tests read it). */
  get html(): string | undefined {
    return this.panel?.webview.html;
  }

  show(): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        'apiWorkbench.realtimeWebhooks',
        'Realtime Webhooks',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: false,
          enableCommandUris: Object.values(WEBHOOK_VIEW_COMMANDS).filter((c) => c !== WEBHOOK_VIEW_COMMANDS.show),
          localResourceRoots: [],
        },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
      });
    } else {
      this.panel.reveal(undefined, true);
    }
    this.render();
  }

  /** Re-renders now if open (the target or the receiver changed). */
  render(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.panel) return;
    this.panel.webview.html = webhookPageHtml({
      cspSource: this.panel.webview.cspSource,
      rows: this.webhooks.inbox.records.map(row),
      receiverUrl: this.webhooks.info?.url,
      target: this.target(),
      commands: WEBHOOK_VIEW_COMMANDS,
      redact: (t) => this.redactor.text(t),
    });
  }

  private scheduleRender(): void {
    if (!this.panel || this.timer) return;
    this.timer = setTimeout(() => this.render(), RENDER_INTERVAL_MS);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const sub of this.subs) sub.dispose();
    this.panel?.dispose();
  }
}
