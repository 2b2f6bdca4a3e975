import vscode from 'vscode';
import type { RealtimeConnection } from '../../core/connections';
import type { AppCredentials } from '../../services/realtime/signing';
import {
  defaultChannel,
  deliverWebhook,
  describeDelivery,
  refreshedBody,
  TEST_WEBHOOK_KINDS,
  testWebhookBody,
  type DeliveryResult,
  type TestWebhookKind,
} from '../../services/realtime/webhookTools';
import type { CommandTable } from '../commands';
import type { Services } from '../services';
import { asRealtime } from './sessions';
import { WEBHOOK_VIEW_COMMANDS, WebhookPanel } from './webhookView';
import type { WebhookController } from './webhooks';

/** globalState: where replays and test webhooks go (a URL, not a secret). */
const TARGET_STATE_KEY = 'apiWorkbench.realtime.webhookTarget';

const KIND_DETAIL: Record<TestWebhookKind, string> = {
  channel_occupied: 'a channel got its first subscriber',
  channel_vacated: 'a channel lost its last subscriber',
  member_added: 'a user joined a presence channel',
  member_removed: 'a user left a presence channel',
  client_event: 'a client sent client-… on a private or presence channel',
  cache_miss: 'a cache channel had nothing to replay on subscribe',
  subscription_count: 'the number of subscribers of a channel changed',
};

export interface ReplayInput {
  id?: number;
  url?: string;
}

export interface SendTestInput {
  kind?: TestWebhookKind;
  url?: string;
  channel?: string;
  userId?: string;
  connection?: string;
}

function targetProblem(v: string): string | undefined {
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? undefined : 'Use an http(s) URL';
  } catch {
    return 'A full URL, e.g. http://localhost:3000/pusher/webhooks';
  }
}

export function webhookCommands(s: Services, webhooks: WebhookController): { commands: CommandTable; panel: WebhookPanel } {
  const target = () => s.context.globalState.get<string>(TARGET_STATE_KEY);
  const panel = new WebhookPanel(webhooks, s.redactor, target);

  async function askTarget(given?: string): Promise<string | undefined> {
    if (given !== undefined) {
      const problem = targetProblem(given);
      if (problem) throw new Error(`Cannot send a webhook to "${given}": ${problem}`);
      return given.trim();
    }
    const current = target();
    if (current) return current;
    return setTarget();
  }

  async function setTarget(given?: unknown): Promise<string | undefined> {
    const url =
      typeof given === 'string'
        ? given
        : await vscode.window.showInputBox({
            title: 'Webhook endpoint',
            prompt: "Your app's webhook URL: replays and test webhooks are POSTed there, signed with the app secret as Channels signs them",
            value: target() ?? 'http://localhost:3000/pusher/webhooks',
            ignoreFocusOut: true,
            validateInput: targetProblem,
          });
    if (url === undefined) return undefined;
    const problem = targetProblem(url);
    if (problem) throw new Error(`"${url}" is not a webhook endpoint: ${problem}`);
    await s.context.globalState.update(TARGET_STATE_KEY, url.trim());
    panel.render();
    return url.trim();
  }

  /** The app the webhook is signed for: its key and the stored secret (origin-approved like every use). */
  async function credentials(conn: RealtimeConnection): Promise<AppCredentials> {
    return { key: conn.key, secret: await s.guard.keyFor(conn, conn.restBaseUrl) };
  }

  function connectionNamed(name: string | undefined): RealtimeConnection | undefined {
    return asRealtime(name ? s.connections.get('realtime', name) : undefined) ?? webhooks.connection ?? asRealtime(s.connections.active('realtime'));
  }

  function report(what: string, r: DeliveryResult): void {
    if (!r.answered) void vscode.window.showWarningMessage(`${what} was not delivered: ${r.problem ?? 'no answer'}`);
    else if ((r.status ?? 0) >= 300) void vscode.window.showWarningMessage(`${what}: your endpoint answered ${describeDelivery(r)}.`);
    else vscode.window.setStatusBarMessage(`$(pass) ${what}: ${describeDelivery(r)}`, 5_000);
  }

  const commands: CommandTable = {
    [WEBHOOK_VIEW_COMMANDS.show]: () => {
      panel.show();
      // The page as shown: tests (and keybinding scripts) can read what the user sees.
      return {
        received: webhooks.inbox.records.filter((r) => r.kind === 'received').length,
        sent: webhooks.inbox.records.filter((r) => r.kind === 'sent').length,
        html: panel.html,
      };
    },

    [WEBHOOK_VIEW_COMMANDS.setTarget]: (arg?: unknown) => setTarget(arg),

    [WEBHOOK_VIEW_COMMANDS.clear]: () => webhooks.inbox.clear(),

    [WEBHOOK_VIEW_COMMANDS.replay]: async (arg?: unknown): Promise<DeliveryResult | undefined> => {
      const input: ReplayInput = arg && typeof arg === 'object' ? arg : {};
      const found = input.id !== undefined ? webhooks.inbox.find(input.id) : webhooks.inbox.latestReceived();
      const record = found?.kind === 'received' ? found : undefined;
      if (!record) {
        void vscode.window.showInformationMessage('No received webhook to replay: start the webhook receiver and let one arrive first.');
        return undefined;
      }
      const conn = connectionNamed(record.connection);
      if (!conn) throw new Error(`The connection "${record.connection}" this webhook came for is gone, so there is no secret to sign the replay with.`);
      const url = await askTarget(input.url);
      if (!url) return undefined;
      const result = await deliverWebhook(url, await credentials(conn), refreshedBody(record.raw));
      webhooks.inbox.replayed(record, result);
      panel.show();
      report(`Replay of ${record.events.map((e) => e.name).join(', ') || 'the webhook'}`, result);
      return result;
    },

    [WEBHOOK_VIEW_COMMANDS.sendTest]: async (arg?: unknown): Promise<DeliveryResult | undefined> => {
      const input: SendTestInput = arg && typeof arg === 'object' ? arg : {};
      const conn = connectionNamed(input.connection);
      if (!conn) {
        void vscode.window.showInformationMessage('Add a realtime connection first: a test webhook is signed with its app secret.');
        return undefined;
      }
      const kind =
        input.kind ??
        (
          await vscode.window.showQuickPick(
            TEST_WEBHOOK_KINDS.map((k) => ({ label: k, description: defaultChannel(k), detail: KIND_DETAIL[k] })),
            { title: `Send Test Webhook (signed for "${conn.name}")`, placeHolder: 'Which webhook?' },
          )
        )?.label;
      if (!kind) return undefined;
      if (!TEST_WEBHOOK_KINDS.includes(kind)) throw new Error(`"${String(kind)}" is not a webhook kind: use one of ${TEST_WEBHOOK_KINDS.join(', ')}`);
      const url = await askTarget(input.url);
      if (!url) return undefined;
      const raw = testWebhookBody(kind, { channel: input.channel, userId: input.userId });
      const result = await deliverWebhook(url, await credentials(conn), raw);
      webhooks.inbox.sent({ connection: conn.name, testKind: kind, raw, result });
      panel.show();
      report(`Test ${kind}`, result);
      return result;
    },
  };
  return { commands, panel };
}
