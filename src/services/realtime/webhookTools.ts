// Webhooks as a developer works with them: judging one that arrived (valid, forged, stale), building
// a test webhook of each kind, and delivering a body to the developer's own endpoint signed exactly
// as Channels signs it (X-Pusher-Key, X-Pusher-Signature = hex HMAC-SHA256 of the raw body with the
// app secret; content type application/json, which the official library insists on).
// ../shared/protocols.md §4.3, pusher-http-node lib/webhook.js.
import { STATUS_CODES } from 'node:http';
import { parseJson, validate } from '../../core/validate';
import { webhookBodySchema, type WebhookBody, type WebhookEvent } from './protocol';
import { signWebhook, verifyWebhookSignature, type AppCredentials } from './signing';
import { errorText } from '../../core/errors';
import { undici } from '../../core/lazy';
import { defaultDispatcher, explainFailure } from '../../core/net/network';

export const TEST_WEBHOOK_KINDS = [
  'channel_occupied',
  'channel_vacated',
  'member_added',
  'member_removed',
  'client_event',
  'cache_miss',
  'subscription_count',
] as const;
export type TestWebhookKind = (typeof TEST_WEBHOOK_KINDS)[number];

/**
 * A genuine webhook older than this (by its own time_ms) is "stale": a capture being replayed, or a
 * delivery retried for minutes. Channels retries for up to 5 minutes, so anything older is suspect.
 */
export const STALE_AFTER_MS = 5 * 60_000;

export type WebhookVerdict = 'valid' | 'forged' | 'stale' | 'unverified';

export interface Judged {
  verdict: WebhookVerdict;
  /** Why, in words for the user. */
  reason: string;
  /** The parsed body when it is a webhook body (forged ones too: shown, never trusted). */
  body?: WebhookBody;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name] ?? headers[Object.keys(headers).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(v) ? v[0] : v;
}

/** The verdict on a received webhook; `app` undefined = no secret stored, so nothing can be verified. */
export function judgeWebhook(
  app: AppCredentials | undefined,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  receivedAtMs: number,
): Judged {
  const parsed = parseJson(rawBody);
  const v = parsed.ok ? validate(webhookBodySchema, parsed.value) : undefined;
  const body = v?.ok ? v.value : undefined;
  if (!app) return { verdict: 'unverified', reason: 'no app secret is stored, so the signature cannot be checked', body };
  const key = header(headers, 'x-pusher-key');
  const signature = header(headers, 'x-pusher-signature');
  if (key === undefined || signature === undefined) return { verdict: 'forged', reason: 'X-Pusher-Key or X-Pusher-Signature is missing', body };
  if (key !== app.key) return { verdict: 'forged', reason: `X-Pusher-Key "${key}" is not this app's key`, body };
  if (!verifyWebhookSignature(app, key, signature, rawBody))
    return { verdict: 'forged', reason: 'X-Pusher-Signature does not match the body (wrong secret or altered body)', body };
  if (!body) return { verdict: 'forged', reason: `signed, but not a webhook body${v && !v.ok ? ` (${v.problem})` : ' (not JSON)'}` };
  const age = receivedAtMs - body.time_ms;
  if (age > STALE_AFTER_MS)
    return {
      verdict: 'stale',
      reason: `signed correctly, but time_ms is ${Math.round(age / 1000)} s before it arrived (more than ${STALE_AFTER_MS / 60_000} min)`,
      body,
    };
  return { verdict: 'valid', reason: "signed with this app's secret", body };
}

export interface TestWebhookInput {
  channel?: string;
  userId?: string;
  event?: string;
  data?: string;
  socketId?: string;
  subscriptionCount?: number;
}

/** The channel a kind is about when none is given (presence for member events, cache for cache_miss). */
export function defaultChannel(kind: TestWebhookKind): string {
  if (kind === 'member_added' || kind === 'member_removed') return 'presence-test';
  if (kind === 'client_event') return 'private-test';
  if (kind === 'cache_miss') return 'cache-test';
  return 'test-channel';
}

/** One event of `kind` with every field Channels sends for it. */
export function testWebhookEvent(kind: TestWebhookKind, input: TestWebhookInput = {}): WebhookEvent {
  const channel = input.channel ?? defaultChannel(kind);
  switch (kind) {
    case 'member_added':
    case 'member_removed':
      return { name: kind, channel, user_id: input.userId ?? 'test-user' };
    case 'client_event': {
      const e: WebhookEvent = {
        name: kind,
        channel,
        event: input.event ?? 'client-test',
        data: input.data ?? '{"hello":"world"}',
        socket_id: input.socketId ?? '123.456',
      };
      if (channel.startsWith('presence-')) e.user_id = input.userId ?? 'test-user';
      return e;
    }
    case 'subscription_count':
      return { name: kind, channel, subscription_count: input.subscriptionCount ?? 1 };
    default:
      return { name: kind, channel };
  }
}

/** The raw body of a test webhook: `{time_ms, events}` as Channels batches them. */
export function testWebhookBody(kind: TestWebhookKind, input: TestWebhookInput = {}, nowMs = Date.now()): string {
  return JSON.stringify({ time_ms: nowMs, events: [testWebhookEvent(kind, input)] } satisfies WebhookBody);
}

/** The headers Channels sends with `rawBody`. */
export function signedWebhookHeaders(app: AppCredentials, rawBody: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-pusher-key': app.key, 'x-pusher-signature': signWebhook(app.secret, rawBody) };
}

/**
 * A replayed body gets a fresh time_ms, else the receiver would rightly call it stale; the events
 * are kept byte for byte otherwise. A body that is not a webhook is replayed as it was.
 */
export function refreshedBody(rawBody: string, nowMs = Date.now()): string {
  const parsed = parseJson(rawBody);
  const v = parsed.ok ? validate(webhookBodySchema, parsed.value) : undefined;
  if (!v?.ok || !parsed.ok) return rawBody;
  return JSON.stringify({ ...(parsed.value as Record<string, unknown>), time_ms: nowMs });
}

export interface DeliveryResult {
  url: string;
  /** The endpoint answered (any status). */
  answered: boolean;
  status?: number;
  statusText?: string;
  /** The start of the answer body. */
  answer?: string;
  /** Why nothing answered, in words. */
  problem?: string;
  durationMs: number;
}

const MAX_ANSWER_CHARS = 4_000;

function networkProblem(url: string, e: unknown): string {
  // request throws the socket's error itself; fetch wrapped it as the cause of a TypeError.
  const failure = e as { code?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const cause = failure?.cause;
  const code = typeof failure?.code === 'string' ? failure.code : typeof cause?.code === 'string' ? cause.code : undefined;
  let target: URL | undefined;
  try {
    target = new URL(url);
  } catch {
    target = undefined;
  }
  const origin = target?.host ?? url;
  // A proxy's refusal or a certificate problem, in the words every other request uses.
  const explained = target ? explainFailure(e, target) : e;
  if (explained !== e && explained instanceof Error) return explained.message;
  if (code === 'ECONNREFUSED') return `nothing is listening at ${origin} (connection refused): is your app running?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host of ${origin} cannot be found`;
  if (code === 'ECONNRESET') return `${origin} closed the connection without answering`;
  if ((e as { name?: unknown })?.name === 'TimeoutError' || (e as { name?: unknown })?.name === 'AbortError') return `${origin} did not answer in time`;
  const text = typeof cause?.message === 'string' ? cause.message : errorText(e);
  return `could not reach ${origin}: ${text}`;
}

/** POSTs `rawBody` to `url`, signed for `app`; never throws: a target that is down is a result too. */
export async function deliverWebhook(
  url: string,
  app: AppCredentials,
  rawBody: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<DeliveryResult> {
  const started = performance.now();
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? 10_000), ...(opts.signal ? [opts.signal] : [])];
  try {
    // The test send goes where every request goes: through the user's proxy, trusting the same CAs.
    // undici's request (its core API), not fetch: fetch pulls in the rest of undici (~300 KB that
    // every bundle and CLI start parsed) for this one call. request follows no redirect, as wanted.
    const res = await undici().request(url, {
      dispatcher: defaultDispatcher(),
      method: 'POST',
      body: rawBody,
      headers: signedWebhookHeaders(app, rawBody),
      signal: AbortSignal.any(signals),
    });
    const text = await res.body.text().catch(() => '');
    return {
      url,
      answered: true,
      status: res.statusCode,
      statusText: STATUS_CODES[res.statusCode] ?? '',
      answer: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}…` : text,
      durationMs: performance.now() - started,
    };
  } catch (e) {
    return { url, answered: false, problem: networkProblem(url, e), durationMs: performance.now() - started };
  }
}

/** One line for a result: "200 OK in 12 ms" or the problem. */
export function describeDelivery(r: DeliveryResult): string {
  if (!r.answered) return `not delivered: ${r.problem ?? 'no answer'}`;
  return `${r.status ?? '?'} ${r.statusText ?? ''}`.trim() + ` in ${Math.round(r.durationMs)} ms`;
}
