// The realtime connection's state machine: open a socket, wait for the handshake, watch activity
// (ping/pong), and decide after every close whether to stop, back off, or reconnect soon. Follows
// pusher-js (src/core/connection/connection_manager.ts, protocol/protocol.ts) where the protocol
// leaves room, with deliberate differences: close codes 4300+ back off instead of giving up, waits
// are exponential with jitter instead of a flat second, and "reconnect immediately" still waits a
// little and longer each time it repeats (see reconnect.ts).
import type * as Ws from 'ws';
import type { Clock, TimerHandle } from '../../core/clock';
import { retryCannotFix } from '../../core/net/failures';
import { openWebSocket, webSocketErrorText } from '../../core/net/webSocket';
import { validate } from '../../core/validate';
import type { ClientEvents } from './dispatch';
import { closeAction, connectionEstablishedSchema, decodeData, describeClose, type WireFrame } from './protocol';
import { ReconnectSchedule, type ReconnectSettings } from './reconnect';
import type { CloseInfo, ConnectionState, StateChange } from './types';
import { errorText } from '../../core/errors';

export interface ConnectionSettings {
  url: string;
  clock: Clock;
  reconnect: ReconnectSettings;
  activityTimeoutMs: number;
  pongTimeoutMs: number;
  unavailableTimeoutMs: number;
  connectTimeoutMs: number;
  socketOptions?: Ws.ClientOptions;
}

/** What the rest of the client does at the connection's turning points. */
export interface ConnectionHooks {
  /** A frame arrived on the current socket (activity has been noted already). */
  onFrame(raw: Ws.RawData, isBinary: boolean): void;
  /** connection_established was accepted: subscriptions can be (re)sent. */
  onConnected(): void;
  /** The socket is gone: every subscription must be confirmed again by the next one. */
  onSocketEnded(): void;
  /** No more reconnects (a 4000–4099 close): callers still waiting should hear why. */
  onStopped(explanation: string): void;
}

export class Connection {
  private _state: ConnectionState = 'initialized';
  private _socketId: string | undefined;
  private _lastClose: CloseInfo | undefined;
  /** True between connect() and disconnect() (or a 40xx close). */
  private _wanted = false;
  private socket: Ws.WebSocket | undefined;
  /** Bumped per socket, so late callbacks (auth, timers) of an old socket are ignored. */
  private _generation = 0;
  private _established = false;
  private connectedAt = 0;
  private readonly schedule: ReconnectSchedule;
  private serverActivityMs = Infinity;
  private lastActivity = 0;
  private awaitingPong = false;
  private activityTimer: TimerHandle | undefined;
  private pongTimer: TimerHandle | undefined;
  private retryTimer: TimerHandle | undefined;
  private unavailableTimer: TimerHandle | undefined;
  private handshakeTimer: TimerHandle | undefined;
  /** Why the socket failed (ws reports only 1006 on close); used in the close explanation. */
  private lastSocketError: string | undefined;
  /** The last socket error was one a reconnect cannot fix (an untrusted certificate, a proxy's 407). */
  private lastSocketErrorIsFinal = false;
  private readonly clock: Clock;

  constructor(
    private readonly settings: ConnectionSettings,
    private readonly events: ClientEvents,
    private readonly hooks: ConnectionHooks,
  ) {
    this.clock = settings.clock;
    this.schedule = new ReconnectSchedule(settings.reconnect);
  }

  get state(): ConnectionState {
    return this._state;
  }

  get socketId(): string | undefined {
    return this._socketId;
  }

  get lastClose(): CloseInfo | undefined {
    return this._lastClose;
  }

  get wanted(): boolean {
    return this._wanted;
  }

  get generation(): number {
    return this._generation;
  }

  get established(): boolean {
    return this._established;
  }

  connect(): void {
    if (this._wanted) return;
    this._wanted = true;
    this.schedule.reset();
    this._lastClose = undefined;
    this.setState('connecting');
    this.startUnavailableTimer();
    this.open();
  }

  /** Closes the socket and stays disconnected. */
  disconnect(reason: string): void {
    this._wanted = false;
    this.clearTimers();
    this.closeSocket(1000, 'client disconnect');
    this.hooks.onSocketEnded();
    this.setState('disconnected', reason);
  }

  send(frame: { event: string; channel?: string; data: unknown }): void {
    const sock = this.socket;
    if (!sock || sock.readyState !== sock.OPEN) return;
    sock.send(JSON.stringify(frame));
  }

  /**
   * The server said, in a pusher:error, that it is ending the connection with `code`: act on it as
   * on that close code now, whatever close (if any) follows. Protocol 7 servers usually put the
   * code on the close frame instead, but when they put it here it is just as final.
   */
  closedByServer(code: number, reason: string): void {
    this.dropSocket(code, reason);
  }

  // --- socket lifecycle ----------------------------------------------------------------------------

  private open(): void {
    const gen = ++this._generation;
    this._established = false;
    let sock: Ws.WebSocket;
    try {
      sock = openWebSocket(this.settings.url, {
        perMessageDeflate: false,
        skipUTF8Validation: true,
        handshakeTimeout: this.settings.connectTimeoutMs,
        ...this.settings.socketOptions,
      });
    } catch (e) {
      // A URL the ws library rejects outright: retrying cannot help.
      this.stop(1015, errorText(e));
      return;
    }
    this.socket = sock;
    sock.on('message', (data: Ws.RawData, isBinary: boolean) => {
      if (gen !== this._generation) return;
      this.lastActivity = this.clock.now();
      if (this.awaitingPong) this.pongArrived();
      this.hooks.onFrame(data, isBinary);
    });
    sock.on('close', (code: number, reason: Buffer) => {
      if (gen === this._generation) this.onClose(code, reason.toString());
    });
    sock.on('error', (e: Error) => {
      if (gen !== this._generation) return;
      this.lastSocketError = webSocketErrorText(e, this.settings.url);
      this.lastSocketErrorIsFinal = retryCannotFix(e);
    });
    sock.on('open', () => {
      if (gen !== this._generation) return;
      // The server must greet with connection_established; a silent server is treated as a lost connection.
      this.handshakeTimer = this.clock.setTimer(() => {
        if (gen === this._generation && !this._established) this.dropSocket(4200, 'no connection_established from the server');
      }, this.settings.connectTimeoutMs);
    });
  }

  /** pusher:connection_established on the current socket. */
  onEstablished(f: WireFrame): void {
    const v = validate(connectionEstablishedSchema, decodeData(f.data));
    if (!v.ok) {
      this.events.emit('error', this.events.error('protocol', `Bad pusher:connection_established (${v.problem})`, 'bad_handshake'));
      return this.dropSocket(4200, 'bad pusher:connection_established');
    }
    this.clock.clearTimer(this.handshakeTimer);
    this.clock.clearTimer(this.unavailableTimer);
    this._established = true;
    this._socketId = v.value.socket_id;
    this.serverActivityMs = v.value.activity_timeout !== undefined ? v.value.activity_timeout * 1000 : Infinity;
    this.connectedAt = this.clock.now();
    // The reconnect schedule is NOT reset here: a server that greets and then closes at once is
    // failing, not recovering. ReconnectSchedule.next() resets it once a connection proves stable.
    this.setState('connected', undefined, v.value.socket_id);
    this.armActivity(this.currentActivityTimeout());
    this.hooks.onConnected();
  }

  private onClose(code: number, reason: string): void {
    this.socket = undefined;
    this.clock.clearTimer(this.handshakeTimer);
    this.stopActivity();
    if (!this._wanted) return;
    // ws reports 1006 for a refused or dropped connection; the socket error says why.
    const why = reason || (code === 1006 ? (this.lastSocketError ?? '') : '');
    const final = code === 1006 && this.lastSocketErrorIsFinal;
    this.lastSocketError = undefined;
    this.lastSocketErrorIsFinal = false;
    // The same certificate or the same proxy answer would come back on every retry: say so now.
    if (final) {
      this._established = false;
      this._socketId = undefined;
      this.hooks.onSocketEnded();
      return this.stop(code, why, why);
    }
    this.afterClose(code, why);
  }

  /** Decides what a close means: stop and say why, or reconnect after a wait that is never zero. */
  private afterClose(code: number, reason: string): void {
    const connectedForMs = this._established ? this.clock.now() - this.connectedAt : undefined;
    this._established = false;
    this._socketId = undefined;
    this.hooks.onSocketEnded();
    const action = closeAction(code);
    this._lastClose = { code, reason, explanation: describeClose(code, reason), action };
    if (action === 'stop') return this.stop(code, reason);

    const { delayMs, attempt } = this.schedule.next(action, connectedForMs);
    if (this._state === 'connected') {
      this.setState('connecting', this._lastClose.explanation);
      this.startUnavailableTimer();
    }
    this.events.emit('reconnect', { code, reason, action, delayMs, attempt });
    this.clock.clearTimer(this.retryTimer);
    this.retryTimer = this.clock.setTimer(() => {
      this.retryTimer = undefined;
      if (this._wanted && !this.socket) this.open();
    }, delayMs);
  }

  /**
   * A 4000–4099 close, or a failure no retry can fix: reconnecting unchanged cannot succeed, so stay
   * disconnected and say why. `inWords`: the failure already said in words (it is then the message).
   */
  private stop(code: number, reason: string, inWords?: string): void {
    this._wanted = false;
    this.clearTimers();
    this._lastClose = { code, reason, explanation: inWords ?? describeClose(code, reason), action: 'stop' };
    this.hooks.onStopped(this._lastClose.explanation);
    this.setState('disconnected', this._lastClose.explanation);
    this.events.emit('error', this.events.error('network', inWords ?? `Connection refused: ${this._lastClose.explanation}`, String(code)));
  }

  /** Abandons the current socket without waiting for a close handshake, then handles it as closed with `code`. */
  private dropSocket(code: number, reason: string): void {
    this.closeSocket(code, reason, true);
    this.clock.clearTimer(this.handshakeTimer);
    this.stopActivity();
    if (this._wanted) this.afterClose(code, reason);
  }

  private closeSocket(code: number, reason: string, hard = false): void {
    const sock = this.socket;
    this.socket = undefined;
    this._generation++;
    if (!sock) return;
    sock.on('error', () => undefined);
    try {
      if (hard || sock.readyState === sock.CONNECTING) sock.terminate();
      else sock.close(code >= 4000 && code <= 4999 ? code : 1000, reason);
    } catch {
      sock.terminate();
    }
  }

  // --- activity check ------------------------------------------------------------------------------

  private currentActivityTimeout(): number {
    return Math.min(this.settings.activityTimeoutMs, this.serverActivityMs);
  }

  /**
   * One timer per connection instead of one reset per message: when it fires, it re-arms for the
   * rest of the window if something arrived meanwhile (at 10,000 messages/s a reset per message
   * would cost more than the messages).
   */
  private armActivity(ms: number): void {
    const gen = this._generation;
    this.activityTimer = this.clock.setTimer(() => {
      if (gen !== this._generation || !this._established) return;
      const idle = this.clock.now() - this.lastActivity;
      const timeout = this.currentActivityTimeout();
      if (idle < timeout) return this.armActivity(timeout - idle);
      this.awaitingPong = true;
      this.send({ event: 'pusher:ping', data: {} });
      this.pongTimer = this.clock.setTimer(() => {
        if (gen === this._generation && this.awaitingPong) this.dropSocket(4201, 'pong reply not received');
      }, this.settings.pongTimeoutMs);
    }, ms);
  }

  private pongArrived(): void {
    this.awaitingPong = false;
    this.clock.clearTimer(this.pongTimer);
    this.clock.clearTimer(this.activityTimer);
    this.armActivity(this.currentActivityTimeout());
  }

  private stopActivity(): void {
    this.awaitingPong = false;
    this.clock.clearTimer(this.activityTimer);
    this.clock.clearTimer(this.pongTimer);
  }

  private startUnavailableTimer(): void {
    this.clock.clearTimer(this.unavailableTimer);
    this.unavailableTimer = this.clock.setTimer(() => {
      if (this._wanted && this._state === 'connecting')
        this.setState('unavailable', this._lastClose?.explanation ?? this.lastSocketError ?? 'the server could not be reached');
    }, this.settings.unavailableTimeoutMs);
  }

  private clearTimers(): void {
    this.stopActivity();
    this.clock.clearTimer(this.retryTimer);
    this.clock.clearTimer(this.unavailableTimer);
    this.clock.clearTimer(this.handshakeTimer);
    this.retryTimer = undefined;
  }

  private setState(next: ConnectionState, reason?: string, socketId?: string): void {
    const previous = this._state;
    if (previous === next) return;
    this._state = next;
    const change: StateChange = { previous, current: next };
    if (reason !== undefined) change.reason = reason;
    if (socketId !== undefined) change.socketId = socketId;
    this.events.emit('state', change);
  }
}
