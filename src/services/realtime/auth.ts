// Where private/presence subscriptions get their auth: signed here with the stored app secret (the
// default, no server needed), or fetched from the app's own auth endpoint the way pusher-js does
// (POST socket_id & channel_name as a form, JSON {auth, channel_data?, shared_secret?} back).
import * as z from 'zod/mini';
import { ApiError } from '../../core/errors';
import type { HttpClient } from '../../core/http';
import { channelSharedSecret, masterKeyProblem } from './encryption';
import { channelKind } from './protocol';
import { presenceChannelData, signChannel, type ChannelAuth } from './signing';

export interface AuthRequest {
  socketId: string;
  channel: string;
  signal?: AbortSignal;
}

export type ChannelAuthorizer = (req: AuthRequest) => Promise<ChannelAuth>;

export interface PresenceUser {
  id: string;
  info?: unknown;
}

export interface LocalAuthorizerOptions {
  service: string;
  key: string;
  /** Reads the secret when needed (SecretStorage in the editor); undefined = none stored. */
  secret: () => Promise<string | undefined>;
  /** Who this client is on presence channels. */
  user: PresenceUser;
  /** Base64 of the 32-byte encryption master key, for private-encrypted- channels; undefined = none stored. */
  encryptionMasterKey?: () => Promise<string | undefined>;
}

export function localAuthorizer(opts: LocalAuthorizerOptions): ChannelAuthorizer {
  return async ({ socketId, channel }) => {
    const secret = await opts.secret();
    if (!secret) {
      throw new ApiError({
        kind: 'auth',
        service: opts.service,
        code: 'no_secret',
        message: `Subscribing to ${channel} needs the app secret (or an auth endpoint): none is stored.`,
      });
    }
    const app = { key: opts.key, secret };
    const kind = channelKind(channel);
    if (kind === 'presence') return signChannel(app, socketId, channel, presenceChannelData(opts.user.id, opts.user.info));
    if (kind !== 'private-encrypted') return signChannel(app, socketId, channel);
    const master = await opts.encryptionMasterKey?.();
    if (!master) {
      throw new ApiError({
        kind: 'auth',
        service: opts.service,
        code: 'no_encryption_key',
        message: `Subscribing to ${channel} needs the encryption master key (or an auth endpoint): none is stored.`,
      });
    }
    const problem = masterKeyProblem(master);
    if (problem)
      throw new ApiError({ kind: 'auth', service: opts.service, code: 'bad_encryption_key', message: `Cannot subscribe to ${channel}: ${problem}.` });
    return { ...signChannel(app, socketId, channel), shared_secret: Buffer.from(channelSharedSecret(channel, master)).toString('base64') };
  };
}

const authResponseSchema = z.object({ auth: z.string(), channel_data: z.optional(z.string()), shared_secret: z.optional(z.string()) });

/** Uses the app's auth endpoint through an HttpClient whose baseUrl is the endpoint URL. */
export function endpointAuthorizer(http: HttpClient, extraParams: Record<string, string> = {}): ChannelAuthorizer {
  return async ({ socketId, channel, signal }) => {
    const form = new URLSearchParams({ socket_id: socketId, channel_name: channel, ...extraParams });
    const res = await http.json({
      method: 'POST',
      path: '',
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      schema: authResponseSchema,
      cancel: signal,
      retry: false,
    });
    const out: ChannelAuth = { auth: res.data.auth };
    if (res.data.channel_data !== undefined) out.channel_data = res.data.channel_data;
    if (res.data.shared_secret !== undefined) out.shared_secret = res.data.shared_secret;
    return out;
  };
}
