// Runs the realtime cells that use the signed REST API beyond PUBLISH: CHANNELS [prefix],
// CHANNEL <name>, USERS <name>, BATCH (a JSON array), SEND_TO_USER <user> <event> (data) and
// TERMINATE <user>. The result's JSON is what the API answered, so `??` assertions can read it.
import { ApiError } from '../core/errors';
import { parseJson } from '../core/validate';
import { channelKind, LIMITS } from '../services/realtime/protocol';
import type { BatchItem, RealtimeRest } from '../services/realtime/rest';
import type { RealtimeRestOp } from './cells';
import { restClient, writeRefused, type RealtimeCellContext, type RealtimeCellOutput, type RealtimeWrite } from './realtimeCell';

function invalid(ctx: RealtimeCellContext, message: string): ApiError {
  return new ApiError({ kind: 'protocol', service: `Realtime (${ctx.conn.name})`, code: 'invalid_request', message });
}

function dataOf(text: string): unknown {
  const p = parseJson(text);
  return p.ok ? p.value : text;
}

function batchOf(ctx: RealtimeCellContext, text: string): BatchItem[] {
  const p = parseJson(text);
  if (!p.ok || !Array.isArray(p.value)) throw invalid(ctx, 'BATCH takes a JSON array of {"channel", "name", "data"}');
  if (p.value.length > LIMITS.maxBatchEvents) throw invalid(ctx, `a batch holds at most ${LIMITS.maxBatchEvents} events, this has ${p.value.length}`);
  return (p.value as unknown[]).map((e, i) => {
    const o = e as { channel?: unknown; name?: unknown; data?: unknown; socket_id?: unknown } | null;
    if (!o || typeof o.channel !== 'string' || typeof o.name !== 'string') throw invalid(ctx, `BATCH event ${i + 1} needs "channel" and "name" strings`);
    const item: BatchItem = { channel: o.channel, name: o.name, data: o.data ?? {} };
    if (typeof o.socket_id === 'string') item.socketId = o.socket_id;
    return item;
  });
}

async function call(rest: RealtimeRest, ctx: RealtimeCellContext, op: RealtimeRestOp, args: string[], body: string): Promise<unknown> {
  const signal = ctx.signal;
  switch (op) {
    case 'channels': {
      const prefix = args[0];
      try {
        return {
          channels: await rest.channels(
            { prefix, info: prefix?.startsWith('presence-') ? ['user_count', 'subscription_count'] : ['subscription_count'] },
            signal,
          ),
        };
      } catch (e) {
        // Hosted apps without subscription counting refuse the attribute: list without counts.
        if ((e as { status?: number }).status !== 400) throw e;
        return { channels: await rest.channels({ prefix }, signal) };
      }
    }
    case 'channel':
      return rest.channel(args[0], channelKind(args[0]) === 'presence' ? ['user_count', 'subscription_count'] : ['subscription_count'], signal);
    case 'users':
      return { users: (await rest.users(args[0], signal)).map((id) => ({ id })) };
    case 'batch':
      return { batch: await rest.publishBatch(batchOf(ctx, body), signal) };
    case 'sendToUser':
      await rest.sendToUser(args[0], args[1], dataOf(body), signal);
      return {};
    case 'terminate':
      await rest.terminateUserConnections(args[0], signal);
      return {};
  }
}

/** What a writing operation does, in words; undefined for the ones that only read. */
function writeOf(op: RealtimeRestOp, args: string[]): { op: RealtimeWrite; what: string } | undefined {
  if (op === 'batch') return { op, what: 'publish a batch of events' };
  if (op === 'sendToUser') return { op, what: `send "${args[1]}" to user "${args[0]}"` };
  if (op === 'terminate') return { op, what: `end the connections of user "${args[0]}"` };
  return undefined;
}

export async function runRealtimeRest(ctx: RealtimeCellContext, op: RealtimeRestOp, args: string[], body: string): Promise<RealtimeCellOutput> {
  const out: RealtimeCellOutput = {};
  const write = writeOf(op, args);
  if (write) out.error = await writeRefused(ctx, write.op, write.what);
  if (out.error !== undefined) return out;
  const rest = restClient(ctx, out);
  const started = performance.now();
  try {
    const json = await call(rest, ctx, op, args, body);
    const text = JSON.stringify(json);
    out.response = { status: 200, headers: {}, text, json, size: Buffer.byteLength(text), truncated: false, durationMs: performance.now() - started };
  } catch (e) {
    out.error = e;
  }
  return out;
}
