// User sign-in (protocol 7 `pusher:signin`, pusher-js src/core/user.ts): the connection proves who
// its user is with `auth = key:HMAC(socket_id::user::user_data)`, signed here with the stored app
// secret or fetched from the app's user-auth endpoint. Once signed in, the client joins the user's
// own channel `#server-to-user-<id>` (events the server sends with sendToUser), and signs in again
// on every new socket until disconnect().
import * as z from 'zod/mini';
import type { Clock, TimerHandle } from '../../core/clock';
import { ApiError, errorText } from '../../core/errors';
import type { HttpClient } from '../../core/http';
import { parseJson, validate } from '../../core/validate';
import type { ClientEvents } from './dispatch';
import { decodeData, serverToUserChannel, signinSuccessSchema, userDataSchema, type WireFrame } from './protocol';
import { signUser } from './signing';
import type { SubscriptionLink } from './subscriptions';
import type { SignedInUser, UserAuthenticator } from './types';

export type { UserAuth, UserAuthRequest, UserAuthenticator } from './types';

/** user_data as the server library's authenticateUser takes it: `id` required, the rest is the app's. */
export interface SignInUserData {
  id: string;
  user_info?: unknown;
  watchlist?: string[];
}

export interface LocalUserAuthenticatorOptions {
  service: string;
  key: string;
  secret: () => Promise<string | undefined>;
  user: SignInUserData;
}

export function localUserAuthenticator(opts: LocalUserAuthenticatorOptions): UserAuthenticator {
  return async ({ socketId }) => {
    const secret = await opts.secret();
    if (!secret)
      throw new ApiError({
        kind: 'auth',
        service: opts.service,
        code: 'no_secret',
        message: 'Signing in needs the app secret (or a user auth endpoint): none is stored.',
      });
    // Serialised like the server library (JSON.stringify of the object as given).
    return signUser({ key: opts.key, secret }, socketId, JSON.stringify(opts.user));
  };
}

const userAuthResponseSchema = z.object({ auth: z.string(), user_data: z.string() });

/** The app's user-auth endpoint, as pusher-js calls it: POST socket_id as a form, JSON {auth, user_data} back. */
export function endpointUserAuthenticator(http: HttpClient, extraParams: Record<string, string> = {}): UserAuthenticator {
  return async ({ socketId, signal }) => {
    const res = await http.json({
      method: 'POST',
      path: '',
      rawBody: new URLSearchParams({ socket_id: socketId, ...extraParams }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      schema: userAuthResponseSchema,
      cancel: signal,
      retry: false,
    });
    return res.data;
  };
}

interface Waiter {
  resolve(u: SignedInUser): void;
  reject(e: ApiError): void;
  timer: TimerHandle | undefined;
}

export class UserSession {
  private wanted = false;
  private user: SignedInUser | undefined;
  private pending = false;
  private readonly waiters: Waiter[] = [];

  constructor(
    private readonly link: SubscriptionLink,
    private readonly events: ClientEvents,
    private readonly clock: Clock,
    private readonly authenticate: UserAuthenticator | undefined,
    private readonly timeoutMs: number,
  ) {}

  get current(): SignedInUser | undefined {
    return this.user;
  }

  /** Signs in now if connected, else as soon as a socket is up; again after every reconnect. */
  signin(): Promise<SignedInUser> {
    if (!this.authenticate)
      return Promise.reject(
        this.events.error('auth', 'Signing in needs user auth: store the app secret or configure a user auth endpoint.', 'no_authenticator'),
      );
    if (this.user) return Promise.resolve(this.user);
    this.wanted = true;
    if (!this.link.wanted) return Promise.reject(this.events.error('network', 'Not connected: you will be signed in when you connect.', 'not_connected'));
    if (this.link.state === 'connected' && !this.pending) this.send();
    return new Promise<SignedInUser>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: this.clock.setTimer(
          () => {
            this.waiters.splice(this.waiters.indexOf(waiter), 1);
            reject(
              this.events.error(
                'timeout',
                `The server did not confirm the sign-in within ${Math.round(this.timeoutMs / 1000)} s; it is retried on reconnect.`,
                'signin_timeout',
              ),
            );
            // Awaited: the caller's promise must settle even if nothing else keeps the process running.
          },
          this.timeoutMs,
          { awaited: true },
        ),
      };
      this.waiters.push(waiter);
    });
  }

  onConnected(): void {
    if (this.wanted) this.send();
  }

  /** A socket ended: the next one must sign in again. */
  onSocketEnded(): void {
    this.user = undefined;
    this.pending = false;
  }

  /** The connection stopped for good. */
  rejectAll(explanation: string): void {
    this.settle(this.events.error('network', `Not connected: ${explanation}`, 'closed'));
  }

  onSigninSuccess(f: WireFrame): void {
    this.pending = false;
    const v = validate(signinSuccessSchema, decodeData(f.data));
    const parsed = v.ok ? parseJson(v.value.user_data) : undefined;
    const data = parsed?.ok ? validate(userDataSchema, parsed.value) : undefined;
    if (!v.ok || !parsed?.ok || !data?.ok)
      return this.fail(this.events.error('protocol', 'The server confirmed the sign-in with unreadable user_data', 'bad_frame'));
    const user: SignedInUser = { id: data.value.id, userData: parsed.value };
    this.user = user;
    // As pusher-js does: the user's own channel needs no further auth, the sign-in is the proof.
    this.link.send({ event: 'pusher:subscribe', data: { auth: '', channel: serverToUserChannel(user.id) } });
    this.events.emit('user', { kind: 'signed-in', user });
    for (const w of this.waiters.splice(0)) {
      this.clock.clearTimer(w.timer);
      w.resolve(user);
    }
  }

  /**
   * A pusher:error while a sign-in is pending that is about it (the broker names pusher:signin; the
   * hosted wording is not documented): the sign-in failed. Returns whether it was taken.
   */
  onServerError(message: string): boolean {
    if (!this.pending || !/sign-?in|user_data|user auth/i.test(message)) return false;
    this.pending = false;
    this.fail(this.events.error('auth', `Sign-in refused: ${message}`, 'signin_failed'));
    return true;
  }

  private send(): void {
    const socketId = this.link.socketId;
    const authenticate = this.authenticate;
    if (socketId === undefined || !authenticate) return;
    this.pending = true;
    const gen = this.link.generation;
    authenticate({ socketId }).then(
      (auth) => {
        if (gen !== this.link.generation) return;
        this.link.send({ event: 'pusher:signin', data: { auth: auth.auth, user_data: auth.user_data } });
      },
      (e: unknown) => {
        if (gen !== this.link.generation) return;
        this.pending = false;
        this.fail(e instanceof ApiError ? e : this.events.error('auth', `User auth failed: ${errorText(e)}`, 'auth_failed'));
      },
    );
  }

  private fail(err: ApiError): void {
    // A refused sign-in is not retried on this socket: the same credentials would be refused again.
    this.events.emit('user', { kind: 'failed', error: err });
    this.settle(err);
  }

  private settle(err: ApiError): void {
    for (const w of this.waiters.splice(0)) {
      this.clock.clearTimer(w.timer);
      w.reject(err);
    }
  }
}
