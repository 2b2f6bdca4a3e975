// How long the realtime client waits before reconnecting. Every path that reconnects goes through
// `next()`, and `next()` never answers 0: whatever a server does (accept then close with 4200 in a
// loop, answer every handshake with garbage), the client cannot reconnect in a tight loop.
import { backoffDelay, type BackoffPolicy } from '../../core/retry';

/** No reconnect waits less than this, whatever the options say. */
export const MIN_RECONNECT_DELAY_MS = 20;

export interface ReconnectSettings {
  /** After 4100–4199, 4300+ and lost connections; also once quick retries run out. */
  backoff: BackoffPolicy;
  /** After 4200–4299 ("reconnect immediately"), for the first `maxQuickRetries` in a row. */
  quick: BackoffPolicy;
  maxQuickRetries: number;
  /** A connection that lasted this long was healthy: the next failure starts the schedule afresh. */
  stableAfterMs: number;
  random: () => number;
}

export type ReconnectKind = 'backoff' | 'immediate';

export class ReconnectSchedule {
  /** Consecutive failed or short-lived connections. Only a stable connection (or connect()) clears it. */
  private failures = 0;
  private quickRetries = 0;

  constructor(private readonly settings: ReconnectSettings) {}

  reset(): void {
    this.failures = 0;
    this.quickRetries = 0;
  }

  /**
   * The wait before the next attempt, after a connection ended. `connectedForMs` is how long it
   * had been connected (undefined when it never got that far). A connection that was accepted and
   * then closed at once counts as a failure like a refused one: that is what stops a server which
   * greets and closes from turning "reconnect immediately" into hundreds of attempts a second.
   */
  next(kind: ReconnectKind, connectedForMs: number | undefined): { delayMs: number; attempt: number } {
    const s = this.settings;
    if (connectedForMs !== undefined && connectedForMs >= s.stableAfterMs) this.reset();
    const attempt = ++this.failures;
    const delayMs =
      kind === 'immediate' && this.quickRetries < s.maxQuickRetries
        ? backoffDelay(this.quickRetries++, s.quick, s.random)
        : backoffDelay(attempt - 1, s.backoff, s.random);
    return { delayMs: Math.round(Math.max(MIN_RECONNECT_DELAY_MS, delayMs)), attempt };
  }
}
