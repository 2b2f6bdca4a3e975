// realtime_publish (signed REST, refused unless the front end allows publishing) and
// realtime_recent_messages (what this server's subscription has seen on a channel).
import type { RealtimeConnection } from '../core/connections';
import { realtimeRestFor } from '../features/realtime/restClient';
import { pickConnection, ToolRefusal, type AgentContext } from './context';
import { clip, type ToolOutput } from './result';
import { sideEffectRefusal } from './sideEffects';
import type { PublishInput, RecentMessagesInput } from './schemas';

function realtimeConnection(ctx: AgentContext, name: string | undefined): RealtimeConnection {
  const conn = pickConnection(ctx, 'realtime', name);
  if (conn.service !== 'realtime') throw new ToolRefusal(`"${conn.name}" is not a realtime connection`);
  return conn;
}

/** The connection a publish would go to, refusing when publishing is not allowed (the confirmation shows it). */
export function publishTarget(ctx: AgentContext, input: PublishInput): RealtimeConnection {
  const conn = realtimeConnection(ctx, input.connection);
  const refusal = sideEffectRefusal(ctx, {
    kind: 'realtime',
    connection: conn.name,
    op: 'publish',
    what: `publish "${input.event}" to channel "${input.channel}"`,
  });
  if (refusal) throw new ToolRefusal(refusal);
  return conn;
}

export async function publish(ctx: AgentContext, input: PublishInput, signal?: AbortSignal): Promise<ToolOutput> {
  const conn = publishTarget(ctx, input);
  if (input.data === undefined) throw new ToolRefusal('give the data to publish (any JSON value, e.g. {"text": "hello"})');
  await realtimeRestFor(ctx.clients, conn).publish({ channels: [input.channel], name: input.event, data: input.data }, signal);
  return {
    text: `Delivered: "${input.event}" was published to channel "${input.channel}" on "${conn.name}"; everyone subscribed to it receives it.`,
    structured: { delivered: true, connection: conn.name, channel: input.channel, event: input.event },
  };
}

export async function recentMessages(ctx: AgentContext, input: RecentMessagesInput, signal?: AbortSignal): Promise<ToolOutput> {
  const conn = realtimeConnection(ctx, input.connection);
  const log = await ctx.recent.read(conn, input.channel, (input.waitSeconds ?? 0) * 1000, signal);
  // Each message's data is cut on its own, so one large payload cannot push the others out.
  const perMessage = Math.max(200, Math.floor(ctx.maxResultChars / Math.max(1, log.messages.length)));
  const lines = log.messages.map((m) => `${m.at} ${m.event}: ${clip(typeof m.data === 'string' ? m.data : JSON.stringify(m.data), perMessage).text}`);
  const head = log.subscribedNow
    ? `Now listening to "${input.channel}" on "${conn.name}" (since ${log.listeningSince}); messages published from now on are kept. Call again to read them.`
    : `Listening to "${input.channel}" on "${conn.name}" since ${log.listeningSince}.`;
  const body = log.messages.length
    ? `${log.messages.length} message(s), oldest first${log.dropped ? ` (${log.dropped} older ones dropped)` : ''}:\n${lines.join('\n')}`
    : 'No messages yet.';
  return { text: `${head}\n${body}`, structured: { ...log } };
}
