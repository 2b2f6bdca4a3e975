import type { WebhookEvent } from '../../services/realtime/protocol';
import type { AppCredentials } from '../../services/realtime/signing';
import { judgeWebhook, type DeliveryResult, type WebhookVerdict } from '../../services/realtime/webhookTools';

/** One webhook the local receiver got, genuine or not. */
export interface ReceivedRecord {
  kind: 'received';
  id: number;
  at: number;
  connection: string;
  path: string;
  /** What the receiver answered the sender. */
  answeredStatus: number;
  headers: Record<string, string>;
  raw: string;
  verdict: WebhookVerdict;
  reason: string;
  events: WebhookEvent[];
  /** Replays of this webhook to the developer's endpoint, newest last. */
  replays: DeliveryResult[];
}

/** A test webhook sent to the developer's endpoint. */
export interface SentRecord {
  kind: 'sent';
  id: number;
  at: number;
  connection: string;
  testKind: string;
  raw: string;
  result: DeliveryResult;
}

export type WebhookRecord = ReceivedRecord | SentRecord;

/** How many are kept (oldest go first): enough to inspect a session, bounded for a long one. */
export const MAX_WEBHOOK_RECORDS = 200;

/** What the webhook view lists: every webhook received, and every test sent, newest first. */
export class WebhookInbox {
  private readonly items: WebhookRecord[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  get records(): readonly WebhookRecord[] {
    return this.items;
  }

  find(id: number): WebhookRecord | undefined {
    return this.items.find((r) => r.id === id);
  }

  latestReceived(): ReceivedRecord | undefined {
    return this.items.find((r): r is ReceivedRecord => r.kind === 'received');
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Judged here (not only by the receiver's answer) so stale and unverified ones are told apart. */
  received(input: {
    connection: string;
    path: string;
    answeredStatus: number;
    headers: Record<string, string>;
    raw: string;
    app: AppCredentials | undefined;
    at?: number;
  }): ReceivedRecord {
    const at = input.at ?? Date.now();
    const judged = judgeWebhook(input.app, input.headers, input.raw, at);
    return this.add({
      kind: 'received',
      id: this.nextId++,
      at,
      connection: input.connection,
      path: input.path,
      answeredStatus: input.answeredStatus,
      headers: input.headers,
      raw: input.raw,
      verdict: judged.verdict,
      reason: judged.reason,
      events: judged.body?.events ?? [],
      replays: [],
    });
  }

  sent(input: { connection: string; testKind: string; raw: string; result: DeliveryResult }): SentRecord {
    return this.add({ kind: 'sent', id: this.nextId++, at: Date.now(), ...input });
  }

  replayed(record: ReceivedRecord, result: DeliveryResult): void {
    record.replays.push(result);
    this.fire();
  }

  clear(): void {
    this.items.length = 0;
    this.fire();
  }

  private add<R extends WebhookRecord>(r: R): R {
    this.items.unshift(r);
    if (this.items.length > MAX_WEBHOOK_RECORDS) this.items.length = MAX_WEBHOOK_RECORDS;
    this.fire();
    return r;
  }

  private fire(): void {
    for (const l of this.listeners) l();
  }
}
