import vscode from 'vscode';
import type { RealtimeConnection } from '../../core/connections';
import type { WebhookEvent } from '../../services/realtime/protocol';
import { startWebhookReceiver, type WebhookReceiver } from '../../services/realtime/webhookReceiver';
import { CONTEXT_KEYS } from '../../features/ids';
import type { Services } from '../services';
import type { RealtimeLog } from './log';
import type { RealtimeSessions } from './sessions';
import { WebhookInbox } from '../../features/realtime/webhookInbox';

const CONTEXT_KEY = CONTEXT_KEYS.webhookReceiverRunning;

export interface ReceiverInfo {
  url: string;
  connection: string;
  /** True when the sandbox was told to send its webhooks here. */
  registered: boolean;
}

function describeEvent(e: WebhookEvent): string {
  const parts = [`webhook ${e.name}`, e.channel];
  if (e.user_id) parts.push(`user ${e.user_id}`);
  if (e.event) parts.push(e.event);
  if (e.subscription_count !== undefined) parts.push(`count ${e.subscription_count}`);
  if (e.data !== undefined) parts.push(e.data);
  return parts.join('  ');
}

/**
 * A local endpoint that receives the app's webhooks, checks their signature with the stored secret
 * and writes each to the realtime log (forged ones too, marked as rejected). For the local sandbox
 * it also tells the sandbox to deliver there.
 */
export class WebhookController implements vscode.Disposable {
  private current: { receiver: WebhookReceiver; info: ReceiverInfo; conn: RealtimeConnection } | undefined;
  /** Every webhook received (and test sent), for the webhook view. */
  readonly inbox = new WebhookInbox();
  private readonly receiverChanged = new vscode.EventEmitter<ReceiverInfo | undefined>();
  /** The receiver started, stopped or moved to another connection: the webhook view shows it at once. */
  readonly onDidChangeReceiver = this.receiverChanged.event;

  constructor(
    private readonly s: Services,
    private readonly log: RealtimeLog,
    private readonly sessions: RealtimeSessions,
  ) {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
  }

  get info(): ReceiverInfo | undefined {
    return this.current?.info;
  }

  /** The connection whose webhooks are received now. */
  get connection(): RealtimeConnection | undefined {
    return this.current?.conn;
  }

  async start(conn: RealtimeConnection): Promise<ReceiverInfo> {
    if (this.current?.conn.name === conn.name) return this.current.info;
    await this.stop();
    const app = async () => {
      try {
        return { key: conn.key, secret: await this.s.guard.keyFor(conn, conn.restBaseUrl) };
      } catch {
        return undefined;
      }
    };
    // The inbox judges each one again with the secret, so a stale replay is told from a fresh one.
    const record = (path: string, answeredStatus: number, headers: Record<string, string>, raw: string) =>
      void app().then((creds) => this.inbox.received({ connection: conn.name, path, answeredStatus, headers, raw, app: creds }));
    const receiver = await startWebhookReceiver({
      app,
      onWebhook: (w) => {
        for (const e of w.body.events) this.log.note(describeEvent(e));
        record(w.path, 200, w.headers, w.raw);
      },
      onRejected: (r) => {
        this.log.note(`webhook REJECTED (${r.status}, ${r.reason}): ${r.bodySnippet || '(empty body)'}`);
        record(r.path, r.status, r.headers, r.raw);
      },
    });
    let registered = false;
    if (conn.source === 'sandbox') {
      try {
        await this.sessions.get(conn).rest.setSandboxWebhookUrls([receiver.url]);
        registered = true;
      } catch (e) {
        await receiver.close();
        throw e;
      }
    }
    const info: ReceiverInfo = { url: receiver.url, connection: conn.name, registered };
    this.current = { receiver, info, conn };
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, true);
    this.log.note(`webhook receiver listening on ${receiver.url} for "${conn.name}"${registered ? ' (the sandbox sends its webhooks here)' : ''}`);
    this.receiverChanged.fire(info);
    return info;
  }

  async stop(): Promise<boolean> {
    const cur = this.current;
    if (!cur) return false;
    this.current = undefined;
    if (cur.info.registered) {
      // Best effort: the sandbox may already be gone.
      await this.sessions
        .get(cur.conn)
        .rest.setSandboxWebhookUrls([])
        .catch(() => undefined);
    }
    await cur.receiver.close();
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
    this.log.note(`webhook receiver on ${cur.info.url} stopped`);
    this.receiverChanged.fire(undefined);
    return true;
  }

  dispose(): void {
    void this.current?.receiver.close();
    this.current = undefined;
    this.receiverChanged.dispose();
  }
}
