// User sign-in (pusher:signin), events sent to a user (sendToUser) and terminating a user's
// connections, in commands and in the tree: the signed-in user is a node under the connection,
// and the events the server sent to that user are its children.
import vscode from 'vscode';
import { connectionId, type RealtimeConnection } from '../../core/connections';
import { errorText } from '../../core/errors';
import { LIMITS, serverToUserId } from '../../services/realtime/protocol';
import type { SignedInUser } from '../../services/realtime/client';
import type { CommandTable } from '../commands';
import { connectionFromArg } from '../connectionCommands';
import type { Services } from '../services';
import type { TreeNode } from '../tree';
import type { RealtimeLog } from './log';
import { asRealtime, type RealtimeSession, type RealtimeSessions } from './sessions';
import { Disposable } from '../disposable';

/** Events kept per user for the tree (the log has them all). */
const MAX_USER_EVENTS = 50;

export interface UserEventRecord {
  at: number;
  event: string;
  data: string;
}

/** What one session knows about its user: signed in (or why not), and what was sent to them. */
export class UserActivity extends Disposable {
  user: SignedInUser | undefined;
  problem: string | undefined;
  readonly events: UserEventRecord[] = [];

  constructor(
    readonly session: RealtimeSession,
    onChange: () => void,
  ) {
    super();
    const c = session.client;
    for (const sub of [
      c.on('user', (e) => {
        if (e.kind === 'signed-in') {
          this.user = e.user;
          this.problem = undefined;
        } else {
          this.problem = e.error.message;
        }
        onChange();
      }),
      c.on('message', (m) => {
        if (m.channel === undefined || serverToUserId(m.channel) === undefined || m.event.startsWith('pusher')) return;
        this.events.unshift({ at: Date.now(), event: m.event, data: typeof m.data === 'string' ? m.data : JSON.stringify(m.data) });
        if (this.events.length > MAX_USER_EVENTS) this.events.length = MAX_USER_EVENTS;
        onChange();
      }),
      c.on('state', (st) => {
        // A new socket signs in again; until then the tree should not claim a user.
        if (st.current !== 'connected' && this.user) {
          this.user = undefined;
          onChange();
        }
      }),
    ])
      this.register(sub);
  }
}

const activities = new WeakMap<RealtimeSession, UserActivity>();

/** The tree's nodes for a session: its user, when sign-in was asked for. */
export function userNodes(session: RealtimeSession): TreeNode[] {
  const a = activities.get(session);
  if (!a || (!a.user && !a.problem)) return [];
  return [new UserNode(session, a)];
}

class UserEventNode implements TreeNode {
  constructor(
    readonly id: string,
    private readonly e: UserEventRecord,
  ) {}

  toTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.e.event, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = `${new Date(this.e.at).toLocaleTimeString()} · ${this.e.data.length > 80 ? `${this.e.data.slice(0, 80)}…` : this.e.data}`;
    item.tooltip = `${this.e.event}\n${this.e.data}`;
    item.iconPath = new vscode.ThemeIcon('mail');
    item.contextValue = 'realtime.userEvent';
    return item;
  }
}

/** The signed-in user (or the failed sign-in), with the events sent to them. */
export class UserNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly session: RealtimeSession,
    private readonly a: UserActivity,
  ) {
    this.id = `realtime:${connectionId(session.conn)}/user`;
  }

  get conn(): RealtimeConnection {
    return this.session.conn;
  }

  /** For commands run from the node's menu. */
  get userId(): string | undefined {
    return this.a.user?.id;
  }

  toTreeItem(): vscode.TreeItem {
    const u = this.a.user;
    const item = new vscode.TreeItem(
      u ? `user ${u.id}` : 'sign-in failed',
      u ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    item.description = u ? `signed in · ${this.a.events.length === 1 ? '1 event' : `${this.a.events.length} events`} sent to this user` : this.a.problem;
    item.tooltip = u ? `Signed in as ${u.id}\n${JSON.stringify(u.userData, null, 2)}` : this.a.problem;
    item.iconPath = new vscode.ThemeIcon(u ? 'account' : 'warning');
    item.contextValue = u ? 'realtime.user' : 'realtime.userFailed';
    return item;
  }

  children(): TreeNode[] {
    if (this.a.events.length === 0) return [];
    return this.a.events.map((e, i) => new UserEventNode(`${this.id}/event/${this.a.events.length - i}`, e));
  }
}

export interface SignInInput {
  connection?: string;
  userId?: string;
  userInfo?: unknown;
}

export interface SendToUserInput {
  connection?: string;
  userId?: string;
  event?: string;
  data?: string;
}

function dataValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** A command argument: an input object, a UserNode (by shape), or nothing. */
function inputOf<T extends { connection?: string; userId?: string }>(arg: unknown): T {
  if (!arg || typeof arg !== 'object') return {} as T;
  const a = arg as { userId?: unknown; conn?: { name?: unknown }; session?: unknown };
  if (a.session !== undefined)
    return { connection: typeof a.conn?.name === 'string' ? a.conn.name : undefined, userId: typeof a.userId === 'string' ? a.userId : undefined } as T;
  return arg as T;
}

export function userCommands(s: Services, sessions: RealtimeSessions, log: RealtimeLog, refresh: () => void): CommandTable {
  const last = { userId: '', event: 'my-event', data: '{"hello":"user"}' };

  function connection(name: string | undefined): RealtimeConnection {
    const conn = asRealtime(name ? connectionFromArg(s, 'realtime', name) : s.connections.active('realtime'));
    if (!conn) throw new Error('No realtime connection: add one (or start the local sandbox) first.');
    return conn;
  }

  function activity(session: RealtimeSession): UserActivity {
    let a = activities.get(session);
    if (!a) {
      a = new UserActivity(session, refresh);
      activities.set(session, a);
    }
    return a;
  }

  async function askUser(title: string, given: string | undefined, fallback: string): Promise<string | undefined> {
    const v =
      given ??
      (await vscode.window.showInputBox({
        title,
        prompt: 'User id',
        value: last.userId || fallback,
        validateInput: (x) => (x.trim() ? undefined : 'Required'),
      }));
    const id = v?.trim();
    if (id) last.userId = id;
    return id || undefined;
  }

  return {
    'apiWorkbench.realtime.signIn': async (arg?: unknown): Promise<SignedInUser | undefined> => {
      const input = inputOf<SignInInput>(arg);
      const conn = connection(input.connection);
      const session = sessions.get(conn);
      const how = conn.userAuthEndpoint ? `your user auth endpoint (${conn.userAuthEndpoint}) decides who you are` : 'signed locally with the app secret';
      const userId = conn.userAuthEndpoint ? 'from your endpoint' : await askUser(`Sign In as User (${how})`, input.userId, session.signInAs.id);
      if (!userId) return undefined;
      const a = activity(session);
      const current = session.client.signedInUser;
      if (!conn.userAuthEndpoint) {
        session.signInAs = { id: userId, user_info: input.userInfo ?? session.signInAs.user_info };
        // A connection signs in once: another user needs a new socket.
        if (current && current.id !== userId) session.disconnect();
      }
      if (!session.live) session.connect();
      try {
        const user = await session.client.signin();
        log.note(`[${conn.name}] signed in as user ${user.id} (${how}); events sent to this user appear under it in the tree`);
        return user;
      } catch (e) {
        a.problem = errorText(e);
        refresh();
        throw e;
      }
    },

    'apiWorkbench.realtime.sendToUser': async (arg?: unknown): Promise<{ userId: string; event: string } | undefined> => {
      const input = inputOf<SendToUserInput>(arg);
      const conn = connection(input.connection);
      const session = sessions.get(conn);
      const userId = await askUser('Send Event to User', input.userId, session.client.signedInUser?.id ?? session.signInAs.id);
      if (!userId) return undefined;
      const event =
        input.event ??
        (await vscode.window.showInputBox({
          title: `Send Event to ${userId}: event name`,
          value: last.event,
          validateInput: (v) => (v.trim() && v.length <= LIMITS.maxEventNameLength ? undefined : `1 to ${LIMITS.maxEventNameLength} characters`),
        }));
      if (!event) return undefined;
      last.event = event;
      const raw =
        input.data ?? (await vscode.window.showInputBox({ title: `Send ${event} to ${userId}: data`, prompt: 'JSON, or any text', value: last.data }));
      if (raw === undefined) return undefined;
      last.data = raw;
      await session.rest.sendToUser(userId, event.trim(), dataValue(raw));
      vscode.window.setStatusBarMessage(`$(send) Sent ${event} to user ${userId}`, 4_000);
      return { userId, event: event.trim() };
    },

    'apiWorkbench.realtime.terminateUserConnections': async (arg?: unknown): Promise<string | undefined> => {
      const input = inputOf<{ connection?: string; userId?: string; confirmed?: boolean }>(arg);
      const conn = connection(input.connection);
      const session = sessions.get(conn);
      const userId = await askUser("Terminate User's Connections", input.userId, session.client.signedInUser?.id ?? session.signInAs.id);
      if (!userId) return undefined;
      if (!input.confirmed) {
        const ok = await vscode.window.showWarningMessage(
          `Close every connection signed in as "${userId}" on "${conn.name}"? Their clients are told not to reconnect by themselves.`,
          { modal: true },
          'Terminate',
        );
        if (ok !== 'Terminate') return undefined;
      }
      await session.rest.terminateUserConnections(userId);
      log.note(`[${conn.name}] terminated the connections of user ${userId}`);
      return userId;
    },
  };
}
