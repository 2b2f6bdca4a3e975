// The signed HTTP API of a Channels app (publish, list channels, presence users) on top of the
// shared HttpClient. The client is built with auth placement 'none': the secret never travels,
// it only signs the query (auth_key, auth_timestamp, auth_version, body_md5, auth_signature).
import { ApiError } from '../../core/errors';
import type { HttpClient, RequestOptions } from '../../core/http';
import type { Cancel } from '../../core/cancellation';
import type { Schema } from '../../core/validate';
import {
  LIMITS,
  batchResponseSchema,
  byteLength,
  channelKind,
  channelNameProblem,
  channelsResponseSchema,
  serverToUserChannel,
  triggerResponseSchema,
  usersResponseSchema,
  type ChannelAttributes,
} from './protocol';
import * as z from 'zod/mini';
import { encryptEventData, masterKeyProblem } from './encryption';
import { signRestRequest } from './signing';

export type InfoAttribute = 'user_count' | 'subscription_count';

export interface RealtimeRestOptions {
  http: HttpClient;
  appId: string;
  key: string;
  /** Read when a request is signed; undefined = no secret stored. */
  secret: () => Promise<string | undefined>;
  /** Base64 of the 32-byte encryption master key, for private-encrypted- channels; undefined = none stored. */
  encryptionMasterKey?: () => Promise<string | undefined>;
  /** Unix ms; tests pin it to reproduce signatures. */
  now?: () => number;
}

export interface PublishInput {
  channels: string[];
  name: string;
  /** Strings are sent as is; anything else is JSON-encoded (as the official library does). */
  data: unknown;
  /** Leave this connection out of the recipients. */
  socketId?: string;
  info?: InfoAttribute[];
}

export interface BatchItem {
  channel: string;
  name: string;
  data: unknown;
  socketId?: string;
  info?: InfoAttribute[];
}

const channelInfoSchema = z.object({
  occupied: z.boolean(),
  user_count: z.optional(z.number()),
  subscription_count: z.optional(z.number()),
});
export type ChannelInfo = z.infer<typeof channelInfoSchema>;

export class RealtimeRest {
  constructor(private readonly opts: RealtimeRestOptions) {}

  get service(): string {
    return this.opts.http.service;
  }

  /** POST /events. Resolves to the channels' attributes when `info` was asked for. */
  async publish(input: PublishInput, cancel?: Cancel): Promise<Record<string, ChannelAttributes>> {
    this.checkChannels(input.channels);
    this.checkEventName(input.name);
    const data = await this.eventData(input.channels, input.data);
    const body: Record<string, unknown> = { name: input.name, data, channels: input.channels };
    if (input.socketId !== undefined) body.socket_id = input.socketId;
    if (input.info?.length) body.info = input.info.join(',');
    const res = await this.request('POST', '/events', {}, body, triggerResponseSchema, cancel);
    return res.channels ?? {};
  }

  /** POST /batch_events (at most 10). Resolves to per-event attributes when `info` was asked for. */
  async publishBatch(items: BatchItem[], cancel?: Cancel): Promise<ChannelAttributes[]> {
    if (items.length === 0) return [];
    if (items.length > LIMITS.maxBatchEvents) throw this.invalid(`A batch holds at most ${LIMITS.maxBatchEvents} events, got ${items.length}`);
    const batch: Record<string, unknown>[] = [];
    for (const i of items) {
      this.checkChannels([i.channel]);
      this.checkEventName(i.name);
      const e: Record<string, unknown> = { channel: i.channel, name: i.name, data: await this.eventData([i.channel], i.data) };
      if (i.socketId !== undefined) e.socket_id = i.socketId;
      if (i.info?.length) e.info = i.info.join(',');
      batch.push(e);
    }
    const res = await this.request('POST', '/batch_events', {}, { batch }, batchResponseSchema, cancel);
    return res.batch ?? [];
  }

  /** GET /channels: occupied channels, optionally by prefix; user_count needs a presence- prefix. */
  async channels(opts: { prefix?: string; info?: InfoAttribute[] } = {}, cancel?: Cancel): Promise<Record<string, ChannelAttributes>> {
    const params: Record<string, string> = {};
    if (opts.prefix) params.filter_by_prefix = opts.prefix;
    if (opts.info?.length) {
      if (opts.info.includes('user_count') && !(opts.prefix ?? '').startsWith('presence-')) {
        throw this.invalid('user_count can only be listed for presence channels (use the prefix "presence-")');
      }
      params.info = opts.info.join(',');
    }
    const res = await this.request('GET', '/channels', params, undefined, channelsResponseSchema, cancel);
    return res.channels;
  }

  /** GET /channels/<name>. */
  async channel(name: string, info: InfoAttribute[] = [], cancel?: Cancel): Promise<ChannelInfo> {
    this.checkChannels([name]);
    const wanted = channelKind(name) === 'presence' ? info : info.filter((i) => i !== 'user_count');
    return this.request('GET', `/channels/${name}`, wanted.length ? { info: wanted.join(',') } : {}, undefined, channelInfoSchema, cancel);
  }

  /** GET /channels/<presence channel>/users → user ids. */
  async users(name: string, cancel?: Cancel): Promise<string[]> {
    this.checkChannels([name]);
    if (channelKind(name) !== 'presence') throw this.invalid(`Only presence channels have users; "${name}" is not one`);
    const res = await this.request('GET', `/channels/${name}/users`, {}, undefined, usersResponseSchema, cancel);
    return res.users.map((u) => u.id);
  }

  /** An event for every connection signed in as `userId`: POST /events to `#server-to-user-<id>`, as the server library's sendToUser does. */
  async sendToUser(userId: string, name: string, data: unknown, cancel?: Cancel): Promise<void> {
    if (userId === '') throw this.invalid('Give a user id');
    await this.publish({ channels: [serverToUserChannel(userId)], name, data }, cancel);
  }

  /** Closes every connection signed in as `userId` (they are told 4009 and do not reconnect by themselves). */
  async terminateUserConnections(userId: string, cancel?: Cancel): Promise<void> {
    if (userId === '') throw this.invalid('Give a user id');
    await this.request('POST', `/users/${encodeURIComponent(userId)}/terminate_connections`, {}, {}, z.unknown(), cancel);
  }

  /**
   * Local sandbox only (hosted apps set webhook URLs in their dashboard): where the sandbox POSTs
   * its webhooks from now on.
   */
  async setSandboxWebhookUrls(urls: string[], cancel?: Cancel): Promise<void> {
    await this.request('PUT', '/sandbox/webhooks', {}, { urls }, z.unknown(), cancel);
  }

  // --- internals -----------------------------------------------------------------------------------

  private async request<T>(
    method: 'GET' | 'POST' | 'PUT',
    sub: string,
    params: Record<string, string>,
    body: unknown,
    schema: Schema<T>,
    cancel?: Cancel,
  ): Promise<T> {
    const secret = await this.opts.secret();
    if (!secret) {
      throw new ApiError({
        kind: 'auth',
        service: this.service,
        code: 'no_secret',
        message: `No app secret is stored: the REST API needs it to sign requests.`,
      });
    }
    const path = `apps/${encodeURIComponent(this.opts.appId)}${sub}`;
    const rawBody = body === undefined ? undefined : JSON.stringify(body);
    // The signature covers the path exactly as it goes on the wire, so take it from the URL the client will build.
    const wirePath = this.opts.http.url(path).pathname;
    const timestamp = Math.floor((this.opts.now ?? Date.now)() / 1000);
    const query = signRestRequest({ key: this.opts.key, secret }, { method, path: wirePath, params, body: rawBody, timestamp });
    const req: RequestOptions<T> = { method, path, query, schema, cancel };
    if (rawBody !== undefined) req.rawBody = rawBody;
    // Publishing is not idempotent: a retry after a lost answer could deliver an event twice.
    if (method !== 'GET') req.retry = false;
    const res = await this.opts.http.json(req);
    return res.data;
  }

  /**
   * The `data` field: on an encrypted channel the payload boxed with the channel's key (one channel
   * per event, as the official library insists: each channel has its own key), else as is.
   */
  private async eventData(channels: string[], data: unknown): Promise<string> {
    const encrypted = channels.filter((c) => channelKind(c) === 'private-encrypted');
    if (encrypted.length === 0) return this.encodeData(data);
    if (channels.length > 1) throw this.invalid(`An event for an encrypted channel (${encrypted[0]}) must go to that channel alone`);
    if (data === undefined) throw this.invalid('Event data cannot be undefined');
    const master = await this.opts.encryptionMasterKey?.();
    if (!master)
      throw new ApiError({
        kind: 'auth',
        service: this.service,
        code: 'no_encryption_key',
        message: `Publishing to ${channels[0]} needs the encryption master key: none is stored.`,
      });
    const problem = masterKeyProblem(master);
    if (problem) throw this.invalid(`Cannot publish to ${channels[0]}: ${problem}`);
    return this.checkSize(encryptEventData(channels[0], master, data));
  }

  private encodeData(data: unknown): string {
    const s = typeof data === 'string' ? data : JSON.stringify(data);
    if (s === undefined) throw this.invalid('Event data cannot be undefined');
    return this.checkSize(s);
  }

  private checkSize(s: string): string {
    const size = byteLength(s);
    if (size > LIMITS.maxEventDataBytes) throw this.invalid(`Event data is ${size} bytes; the limit is ${LIMITS.maxEventDataBytes} bytes (10 KB)`);
    return s;
  }

  private checkChannels(channels: string[]): void {
    if (channels.length === 0) throw this.invalid('Give at least one channel');
    if (channels.length > LIMITS.maxChannelsPerEvent)
      throw this.invalid(`An event goes to at most ${LIMITS.maxChannelsPerEvent} channels, got ${channels.length}`);
    for (const c of channels) {
      const p = channelNameProblem(c);
      if (p) throw this.invalid(`Invalid channel "${c}": ${p}`);
    }
  }

  private checkEventName(name: string): void {
    if (name.length === 0 || name.length > LIMITS.maxEventNameLength) throw this.invalid(`Event names are 1 to ${LIMITS.maxEventNameLength} characters`);
  }

  private invalid(message: string): ApiError {
    return new ApiError({ kind: 'protocol', service: this.service, code: 'invalid_request', message });
  }
}
