// The signed HTTP API under /apps/<app_id>/… (pusher docs: library_auth_reference/rest-api; limits
// in ../shared/protocols.md §1). Error bodies are plain text, as on the hosted service.
import type { ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { parseJson, validate } from '../../core/validate';
import {
  LIMITS,
  SOCKET_ID_RE,
  batchBodySchema,
  byteLength,
  channelKind,
  channelNameProblem,
  serverToUserChannel,
  triggerBodySchema,
  userEventBodySchema,
  type ChannelAttributes,
} from '../../services/realtime/protocol';
import { sendJson, sendText, type SandboxResource } from '../http';
import { Router, type PathParams } from '../router';
import type { Broker, ChannelSnapshot } from './broker';
import { errorText } from '../../core/errors';

export interface RestContext {
  broker: Broker;
  setWebhookUrls(urls: string[]): void;
  webhookUrls(): readonly string[];
}

const webhookConfigSchema = z.object({ urls: z.array(z.string()) });
const burstSchema = z.object({
  channel: z.string(),
  name: z.string(),
  count: z.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)),
  data: z.optional(z.record(z.string(), z.unknown())),
});

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parseBody<T>(body: string, schema: z.ZodMiniType<T>): T {
  const parsed = parseJson(body);
  if (!parsed.ok) throw new HttpProblem(400, 'Request body is not valid JSON');
  const v = validate(schema, parsed.value);
  if (!v.ok) throw new HttpProblem(400, `Invalid request body: ${v.problem}`);
  return v.value;
}

function infoList(raw: string | null | undefined): Set<string> {
  return new Set(
    (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function attributes(snap: ChannelSnapshot, info: Set<string>): ChannelAttributes {
  const out: ChannelAttributes = {};
  if (info.has('user_count') && snap.userCount !== undefined) out.user_count = snap.userCount;
  if (info.has('subscription_count')) out.subscription_count = snap.subscriptionCount;
  return out;
}

/** Checks one event the way POST /events and each batch entry are checked; returns its channels. */
function checkEvent(e: { name: string; data: string; channels?: string[]; channel?: string; socket_id?: string }): string[] {
  const channels = e.channels ?? (e.channel !== undefined ? [e.channel] : []);
  if (channels.length === 0) throw new HttpProblem(400, 'Missing channels: give "channels" (an array) or "channel"');
  if (channels.length > LIMITS.maxChannelsPerEvent)
    throw new HttpProblem(400, `Too many channels: at most ${LIMITS.maxChannelsPerEvent} per event, got ${channels.length}`);
  for (const c of channels) {
    const p = channelNameProblem(c);
    if (p) throw new HttpProblem(400, `Invalid channel name '${c}': ${p}`);
  }
  if (e.name.length === 0 || e.name.length > LIMITS.maxEventNameLength)
    throw new HttpProblem(400, `Invalid event name: must be 1 to ${LIMITS.maxEventNameLength} characters`);
  if (e.socket_id !== undefined && !SOCKET_ID_RE.test(e.socket_id)) throw new HttpProblem(400, `Invalid socket_id '${e.socket_id}'`);
  const size = byteLength(e.data);
  if (size > LIMITS.maxEventDataBytes)
    throw new HttpProblem(413, `Payload too large: event data is ${size} bytes, the limit is ${LIMITS.maxEventDataBytes} bytes`);
  return channels;
}

/** One verified request under `/apps/<app_id>`, as a route handler sees it. */
export interface RestRequest {
  method: string;
  url: URL;
  body: string;
  params: PathParams;
  res: ServerResponse;
}

type RestHandler = (ctx: RestContext, r: RestRequest) => void;

/** The signed API; paths are the hosted service's, with the app id a parameter checked before routing. */
export const REST_ROUTES = new Router<RestHandler>()
  .add('POST', '/apps/{appId}/events', events)
  .add('POST', '/apps/{appId}/batch_events', batchEvents)
  .add('GET', '/apps/{appId}/channels', channels)
  .add('GET', '/apps/{appId}/channels/{channel}', channel)
  .add('GET', '/apps/{appId}/channels/{channel}/users', channelUsers)
  .add('POST', '/apps/{appId}/users/{userId}/terminate_connections', (ctx, r) => {
    ctx.broker.terminateUser(r.params.userId);
    sendJson(r.res, 200, {});
  })
  .add('POST', '/apps/{appId}/users/{userId}/events', userEvent)
  // Sandbox-only: where webhooks go (the hosted service configures this in its dashboard).
  .add('GET', '/apps/{appId}/sandbox/webhooks', (ctx, r) => sendJson(r.res, 200, { urls: ctx.webhookUrls() }))
  .add('PUT', '/apps/{appId}/sandbox/webhooks', setWebhooks)
  // Sandbox-only: a burst of events at full speed (load tests, benchmarks). Answers when all are sent.
  .add('POST', '/apps/{appId}/sandbox/burst', burst);

/** Handles one already-verified request under the app prefix; problems become plain-text answers. */
export function handleRest(ctx: RestContext, r: Omit<RestRequest, 'params'>): void {
  try {
    const route = REST_ROUTES.match(r.method, r.url.pathname);
    if (route.kind === 'bad-path') throw new HttpProblem(400, 'Invalid percent-encoding in the request path');
    if (route.kind === 'wrong-method') throw new HttpProblem(405, `Method ${r.method} not allowed on ${r.url.pathname}`);
    if (route.kind === 'not-found') throw new HttpProblem(404, `Not found: ${r.method} ${r.url.pathname}`);
    route.handler(ctx, { ...r, params: route.params });
  } catch (e) {
    if (e instanceof HttpProblem) return sendText(r.res, e.status, `${e.message}\n`);
    throw e;
  }
}

function events(ctx: RestContext, { body, res }: RestRequest): void {
  const ev = parseBody(body, triggerBodySchema);
  const channels = checkEvent(ev);
  ctx.broker.publish(channels, ev.name, ev.data, ev.socket_id);
  const info = infoList(ev.info);
  if (info.size === 0) return sendJson(res, 200, {});
  sendJson(res, 200, { channels: Object.fromEntries(channels.map((c) => [c, attributes(ctx.broker.info(c), info)])) });
}

/** An event for one user: the same as POST /events to `#server-to-user-<id>` (what the server library's sendToUser sends). */
function userEvent(ctx: RestContext, { body, params, res }: RestRequest): void {
  const ev = parseBody(body, userEventBodySchema);
  if (params.userId === '') throw new HttpProblem(400, 'The user id is missing');
  const channels = checkEvent({ ...ev, channel: serverToUserChannel(params.userId) });
  ctx.broker.publish(channels, ev.name, ev.data, ev.socket_id);
  sendJson(res, 200, {});
}

function batchEvents(ctx: RestContext, { body, res }: RestRequest): void {
  const { batch } = parseBody(body, batchBodySchema);
  if (batch.length > LIMITS.maxBatchEvents)
    throw new HttpProblem(400, `Batch too large: at most ${LIMITS.maxBatchEvents} events per batch, got ${batch.length}`);
  // All checked before any is sent: a bad entry rejects the whole batch.
  for (const e of batch) checkEvent(e);
  for (const e of batch) ctx.broker.publish([e.channel], e.name, e.data, e.socket_id);
  if (!batch.some((e) => e.info)) return sendJson(res, 200, {});
  sendJson(res, 200, { batch: batch.map((e) => attributes(ctx.broker.info(e.channel), infoList(e.info))) });
}

function checkInfo(info: Set<string>): void {
  for (const i of info) if (i !== 'user_count' && i !== 'subscription_count') throw new HttpProblem(400, `Unsupported info attribute '${i}'`);
}

function channels(ctx: RestContext, { url, res }: RestRequest): void {
  const prefix = url.searchParams.get('filter_by_prefix') ?? '';
  const info = infoList(url.searchParams.get('info'));
  checkInfo(info);
  if (info.has('user_count') && !prefix.startsWith('presence-')) {
    throw new HttpProblem(400, 'user_count may only be requested for presence channels: add filter_by_prefix=presence-');
  }
  const out: Record<string, ChannelAttributes> = {};
  for (const snap of ctx.broker.list(prefix)) out[snap.name] = attributes(snap, info);
  sendJson(res, 200, { channels: out });
}

function channel(ctx: RestContext, { url, params, res }: RestRequest): void {
  const name = params.channel;
  const p = channelNameProblem(name);
  if (p) throw new HttpProblem(400, `Invalid channel name '${name}': ${p}`);
  const info = infoList(url.searchParams.get('info'));
  checkInfo(info);
  if (info.has('user_count') && channelKind(name) !== 'presence') throw new HttpProblem(400, 'user_count may only be requested for presence channels');
  const snap = ctx.broker.info(name);
  sendJson(res, 200, { occupied: snap.occupied, ...attributes(snap, info) });
}

function channelUsers(ctx: RestContext, { params, res }: RestRequest): void {
  const name = params.channel;
  if (channelKind(name) !== 'presence') throw new HttpProblem(400, `Users can only be listed for presence channels, not '${name}'`);
  sendJson(res, 200, { users: ctx.broker.members(name).map((m) => ({ id: m.id })) });
}

function setWebhooks(ctx: RestContext, { body, res }: RestRequest): void {
  const cfg = parseBody(body, webhookConfigSchema);
  for (const u of cfg.urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new HttpProblem(400, `Invalid webhook URL '${u}'`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new HttpProblem(400, `Webhook URL must be http(s): '${u}'`);
  }
  ctx.setWebhookUrls(cfg.urls);
  sendJson(res, 200, { urls: cfg.urls });
}

function burst(ctx: RestContext, { body, res }: RestRequest): void {
  const b = parseBody(body, burstSchema);
  const p = channelNameProblem(b.channel);
  if (p) throw new HttpProblem(400, `Invalid channel name '${b.channel}': ${p}`);
  void ctx.broker.burst(b.channel, b.name, b.data ?? {}, b.count).then(
    (sent) => sendJson(res, 200, { sent }),
    (e: unknown) => sendText(res, 500, `burst failed: ${errorText(e)}\n`),
  );
}

/** The uniform sandbox listing: occupied channels as resources. */
export function resources(broker: Broker): SandboxResource[] {
  return broker.list().map((c) => ({
    id: c.name,
    kind: 'channel',
    name: c.name,
    detail: c.userCount !== undefined ? `${c.userCount} members, ${c.subscriptionCount} subscriptions` : `${c.subscriptionCount} subscriptions`,
  }));
}
