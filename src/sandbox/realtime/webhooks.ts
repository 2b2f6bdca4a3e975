// Webhooks as the hosted service sends them: events batched into `{time_ms, events}`, POSTed as
// JSON with X-Pusher-Key / X-Pusher-Signature, and retried with backoff while the receiver
// answers non-2xx or cannot be reached (../shared/protocols.md §1, pusher-http-node lib/webhook.js).
import type { WebhookBody, WebhookEvent } from '../../services/realtime/protocol';
import { signWebhook, type AppCredentials } from '../../services/realtime/signing';
import { errorText } from '../../core/errors';

export interface WebhookOptions {
  urls: string[];
  /** Events within this window go out in one request. */
  batchMs?: number;
  /** channel_vacated and member_removed wait this long (hosted: a few seconds), so a quick rejoin does not flap. */
  delayedEventMs?: number;
  /** First retry wait; doubled per attempt up to `retryMaxDelayMs`. */
  retryBaseMs?: number;
  retryMaxDelayMs?: number;
  /** Give up on a delivery after this long (hosted: 5 minutes). */
  retryForMs?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
}

export interface WebhookDelivery {
  url: string;
  status?: number;
  error?: string;
  attempt: number;
  events: number;
}

export class WebhookSender {
  private urls: string[];
  private pending: WebhookEvent[] = [];
  private batchTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  private readonly batchMs: number;
  private readonly delayedEventMs: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly retryForMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly app: AppCredentials,
    opts: WebhookOptions,
    private readonly onDelivery?: (d: WebhookDelivery) => void,
  ) {
    this.urls = [...opts.urls];
    this.batchMs = opts.batchMs ?? 50;
    this.delayedEventMs = opts.delayedEventMs ?? 3_000;
    this.retryBaseMs = opts.retryBaseMs ?? 1_000;
    this.retryMaxDelayMs = opts.retryMaxDelayMs ?? 60_000;
    this.retryForMs = opts.retryForMs ?? 5 * 60_000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  get targets(): readonly string[] {
    return this.urls;
  }

  setUrls(urls: string[]): void {
    this.urls = [...urls];
  }

  enqueue(event: WebhookEvent, delayed: boolean): void {
    if (this.closed || this.urls.length === 0) return;
    if (delayed && this.delayedEventMs > 0) {
      this.later(this.delayedEventMs, () => this.add(event));
      return;
    }
    this.add(event);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.batchTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.inFlight) c.abort();
  }

  private add(event: WebhookEvent): void {
    this.pending.push(event);
    if (this.batchTimer) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = undefined;
      const events = this.pending;
      this.pending = [];
      const body = JSON.stringify({ time_ms: Date.now(), events } satisfies WebhookBody);
      for (const url of this.urls) void this.deliver(url, body, events.length, 1, Date.now());
    }, this.batchMs);
    this.batchTimer.unref();
  }

  private async deliver(url: string, body: string, events: number, attempt: number, firstAt: number): Promise<void> {
    if (this.closed) return;
    const controller = new AbortController();
    this.inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    let status: number | undefined;
    let error: string | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-pusher-key': this.app.key, 'x-pusher-signature': signWebhook(this.app.secret, body) },
        signal: controller.signal,
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = errorText(e);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    if (this.closed) return;
    this.onDelivery?.({ url, status, error, attempt, events });
    if (status !== undefined && status >= 200 && status < 300) return;
    const delay = Math.min(this.retryMaxDelayMs, this.retryBaseMs * 2 ** (attempt - 1));
    if (Date.now() + delay - firstAt > this.retryForMs) return;
    this.later(delay, () => void this.deliver(url, body, events, attempt + 1, firstAt));
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }
}
