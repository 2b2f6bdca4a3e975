// The realtime service in the editor: the Realtime Channels tree (connection state → channels →
// presence members), its commands, the realtime message log with its counter, and the local
// webhook receiver.
import vscode from 'vscode';
import { CONTEXT_KEYS, REALTIME_INSPECTOR_VIEW_ID } from '../../features/ids';
import type { Services } from '../services';
import type { ServiceActivation, ServiceView } from '../serviceModule';
import { realtimeCommands } from './commands';
import { inspectorInput, RealtimeInspector } from './inspector';
import { RealtimeLog } from './log';
import { asRealtime, RealtimeSessions, type SessionChange } from './sessions';
import { ChannelsSource } from './tree';
import { channelInfoCommands } from './channelInfo';
import { encryptionKeyCommands } from './encryptionKey';
import { userCommands } from './users';
import { webhookCommands } from './webhookCommands';
import { WebhookController } from './webhooks';

const CONNECTED_KEY = CONTEXT_KEYS.realtimeConnected;
/** Live changes (members coming and going, counts) re-render at most this often. */
const RENDER_INTERVAL_MS = 250;

export function activate(s: Services, view: ServiceView): ServiceActivation {
  const log = new RealtimeLog(s.redactor);
  const sessions = new RealtimeSessions(s, log);
  const webhooks = new WebhookController(s, log, sessions);
  const inspector = new RealtimeInspector(s, sessions);
  sessions.messageTap = (conn, m) =>
    inspector.record({ connection: conn.name, channel: m.channel, event: m.event, data: m.data, userId: m.user_id, decrypted: m.decrypted });
  const source = new ChannelsSource(sessions);
  view.provider.source = source;
  view.provider.refresh();

  let pending: Set<SessionChange> | undefined;
  const apply = () => {
    const what = pending ?? new Set<SessionChange>();
    pending = undefined;
    if (what.has('channels') || source.liveChanged()) {
      source.allowCachedListing();
      view.provider.refresh();
    } else {
      // State and member changes only change labels and member lists: no new REST listing needed.
      view.provider.rerender();
    }
    const active = asRealtime(s.connections.active('realtime'));
    void vscode.commands.executeCommand('setContext', CONNECTED_KEY, !!(active && sessions.peek(active)?.live));
  };
  const onChange = sessions.onDidChange(({ what }) => {
    if (!pending) {
      pending = new Set();
      setTimeout(apply, RENDER_INTERVAL_MS);
    }
    pending.add(what);
  });
  const onActive = s.connections.onDidChange((svc) => svc === 'realtime' && apply());
  apply();

  const webhookUi = webhookCommands(s, webhooks);
  return {
    disposables: [log, sessions, webhooks, webhookUi.panel, inspector, onChange, onActive],
    resolveWebviewView: (viewId, webviewView) => {
      if (viewId === REALTIME_INSPECTOR_VIEW_ID) inspector.attach(webviewView);
    },
    commands: {
      ...realtimeCommands(s, sessions, log, webhooks),
      'apiWorkbench.realtime.showInspector': (arg?: unknown) => inspector.show(inspectorInput(arg)),
      ...webhookUi.commands,
      ...userCommands(s, sessions, log, () => view.provider.refresh()),
      ...channelInfoCommands(s, sessions, log),
      ...encryptionKeyCommands(s, (conn) => log.note(`[${conn.name}] encryption master key changed`)),
    },
  };
}

// For other bundles that publish or list channels (the LLM playground's tools), from this chunk
// rather than a second copy of the client (and its encryption library) in theirs.
export { realtimeRestFor } from '../../features/realtime/restClient';
