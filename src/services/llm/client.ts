// Client for OpenAI-compatible `/v1` servers (OpenAI, Azure OpenAI v1, Ollama, vLLM, LM Studio, the
// sandbox). Built on the HTTP core: auth placement, the connection's rate limit plus one per model,
// retries with Retry-After (never once a stream has begun), one error type.
import { CancelledError, toAbortSignal, type Cancel } from '../../core/cancellation';
import { ApiError } from '../../core/errors';
import type { HttpClient, RateLimit, RetryNotice } from '../../core/http';
import { parseJson, validate } from '../../core/validate';
import { errorInfo } from './errors';
import { chatChunkSchema, chatCompletionSchema, embeddingsSchema, modelListSchema, openAiErrorBodySchema, type ModelInfo, type TokenUsage } from './schemas';
import { SseError, SseParser } from './sse';

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  maxTokens?: number;
  temperature?: number;
}

export interface CallOptions {
  cancel?: Cancel;
  /** Before each retry wait (e.g. after a 429), so a UI can count down `delayMs`. */
  onRetry?: (notice: RetryNotice) => void;
  /** When the client-side limiter holds the request back for `waitMs`. */
  onQueued?: (waitMs: number) => void;
  /** Extra request headers (e.g. the sandbox's x-sandbox-* test controls). */
  headers?: Record<string, string>;
}

export interface StreamOptions extends CallOptions {
  /** Ask for the final usage chunk (`stream_options.include_usage`); default true. */
  includeUsage?: boolean;
}

export interface StreamTimings {
  /** From the call to the response head (includes client-side queueing and retries). */
  headersMs: number;
  /** From the call to the first content delta, if any arrived. */
  firstTokenMs?: number;
  totalMs: number;
}

export type ChatStreamEvent =
  | { type: 'start'; requestId?: string; status: number }
  | { type: 'delta'; text: string; index: number }
  | { type: 'refusal'; text: string; index: number }
  | { type: 'usage'; usage: TokenUsage }
  | {
      type: 'done';
      finishReason?: string;
      id?: string;
      model?: string;
      requestId?: string;
      usage?: TokenUsage;
      timings: StreamTimings;
    };

export interface ChatResult {
  text: string;
  finishReason?: string;
  id?: string;
  model?: string;
  usage?: TokenUsage;
  requestId?: string;
  durationMs: number;
}

export interface EmbeddingsRequest {
  model: string;
  input: string | readonly string[];
  dimensions?: number;
}

export interface EmbeddingsResult {
  /** One vector per input, in input order. */
  vectors: number[][];
  model?: string;
  usage?: TokenUsage;
  requestId?: string;
}

export interface LlmClientOptions {
  /** Client-side requests per minute for individual models, on top of the connection's quota. */
  modelRateLimits?: Readonly<Record<string, number>>;
  /** Prefix of per-model limiter keys, `<prefix>#<model>` (default: the HttpClient's service name). */
  rateLimitKey?: string;
  /** How long a stream may stay open after `[DONE]` before it is closed from our side (default 2 s). */
  endGraceMs?: number;
}

const DONE = '[DONE]';

/** The limiter key of one model's own quota under a connection's key (`<connection>#<model>`). */
export function modelRateLimitKey(connectionKey: string, model: string): string {
  return `${connectionKey}#${model}`;
}

export class LlmClient {
  private readonly modelLimits: Readonly<Record<string, number>>;
  private readonly keyPrefix: string;
  private readonly endGraceMs: number;

  constructor(
    private readonly http: HttpClient,
    opts: LlmClientOptions = {},
  ) {
    this.modelLimits = opts.modelRateLimits ?? {};
    this.keyPrefix = opts.rateLimitKey ?? http.service;
    this.endGraceMs = opts.endGraceMs ?? 2_000;
  }

  get service(): string {
    return this.http.service;
  }

  /** The client-side limit that applies to `model` alone, if one is configured. */
  modelRateLimit(model: string): RateLimit | undefined {
    const perMinute = this.modelLimits[model];
    return perMinute ? { key: modelRateLimitKey(this.keyPrefix, model), perMinute } : undefined;
  }

  /** `GET /models`, sorted by id. */
  async listModels(cancel?: Cancel): Promise<ModelInfo[]> {
    const res = await this.http.json({ path: 'models', schema: modelListSchema, cancel });
    return [...res.data.data].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** A complete (non-streamed) chat completion. */
  async chat(req: ChatRequest, opts: CallOptions = {}): Promise<ChatResult> {
    const res = await this.http.json({
      path: 'chat/completions',
      body: this.chatBody(req, false),
      schema: chatCompletionSchema,
      ...this.common(req.model, opts),
    });
    const choice = res.data.choices[0];
    return {
      text: choice?.message.content ?? '',
      finishReason: choice?.finish_reason ?? undefined,
      id: res.data.id,
      model: res.data.model,
      usage: res.data.usage ?? undefined,
      requestId: res.requestId,
      durationMs: res.durationMs,
    };
  }

  /**
   * A streamed chat completion. Yields `start`, then `delta`s as text arrives, `usage` when the
   * server reports it, and `done` last. Failures are ApiErrors: before the first byte they may be
   * retried (429/5xx, honouring Retry-After); after it, never — the deltas already yielded are the
   * caller's to keep. Breaking out of the loop or cancelling aborts the request at once.
   */
  async *chatStream(req: ChatRequest, opts: StreamOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const t0 = performance.now();
    // Our own abort, beside the caller's: it ends a response that stays open after [DONE].
    const ender = new AbortController();
    const user = toAbortSignal(opts.cancel);
    const signal = user.signal ? AbortSignal.any([user.signal, ender.signal]) : ender.signal;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    try {
      const res = await this.http.stream({
        path: 'chat/completions',
        body: this.chatBody(req, true, opts.includeUsage ?? true),
        ...this.common(req.model, { ...opts, cancel: signal }),
        headers: { accept: 'text/event-stream', ...opts.headers },
        expectContentType: 'text/event-stream',
      });
      const headersMs = performance.now() - t0;
      const start: ChatStreamEvent = { type: 'start', requestId: res.requestId, status: res.status };
      const decoder = new ChatStreamDecoder(this.http.service, res.requestId, res.status, (text) => this.http.redact(text));
      const queue: ChatStreamEvent[] = [];
      let firstTokenMs: number | undefined;
      let startSent = false;
      try {
        // `start` is yielded inside the loop: a caller that stops right after it then still runs the
        // body's cleanup (an async generator that was never entered has no `finally` to run).
        for await (const chunk of res.body) {
          if (!startSent) {
            startSent = true;
            yield start;
          }
          decoder.push(chunk, queue);
          if (queue.length > 0) {
            firstTokenMs ??= performance.now() - t0;
            for (let i = 0; i < queue.length; i++) yield queue[i];
            queue.length = 0;
          }
          decoder.throwIfFailed();
          // Reading on after [DONE] lets the connection be reused; a server that never ends the
          // response is cut off after a grace period instead of hanging until the idle timeout.
          if (decoder.finished && !graceTimer) graceTimer = setTimeout(() => ender.abort(new CancelledError()), this.endGraceMs);
        }
      } catch (e) {
        if (!(decoder.finished && ender.signal.aborted)) throw e;
      }
      if (!startSent) yield start;
      const end = decoder.end();
      yield {
        type: 'done',
        finishReason: end.finishReason,
        id: end.id,
        model: end.model,
        requestId: res.requestId,
        usage: end.usage,
        timings: { headersMs, firstTokenMs, totalMs: performance.now() - t0 },
      };
    } finally {
      clearTimeout(graceTimer);
      user.dispose();
    }
  }

  /** `POST /embeddings`; accepts float arrays or base64 float32 from the server. */
  async embeddings(req: EmbeddingsRequest, opts: CallOptions = {}): Promise<EmbeddingsResult> {
    const res = await this.http.json({
      path: 'embeddings',
      body: { model: req.model, input: req.input, ...(req.dimensions ? { dimensions: req.dimensions } : {}), encoding_format: 'float' },
      schema: embeddingsSchema,
      ...this.common(req.model, opts),
    });
    const vectors = [...res.data.data].sort((a, b) => a.index - b.index).map((d) => (typeof d.embedding === 'string' ? decodeFloat32(d.embedding) : d.embedding));
    return { vectors, model: res.data.model, usage: res.data.usage ?? undefined, requestId: res.requestId };
  }

  private common(model: string, opts: CallOptions) {
    const limit = this.modelRateLimit(model);
    return {
      cancel: opts.cancel,
      onRetry: opts.onRetry,
      onQueued: opts.onQueued,
      headers: opts.headers,
      rateLimits: limit ? [limit] : undefined,
    };
  }

  private chatBody(req: ChatRequest, stream: boolean, includeUsage = true): Record<string, unknown> {
    return {
      model: req.model,
      messages: req.messages,
      ...(req.maxTokens !== undefined ? { max_completion_tokens: req.maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(stream ? { stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) } : {}),
    };
  }
}

function decodeFloat32(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Array<number>(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * Turns the bytes of a chat-completion SSE stream into events. Separate from the client so tests
 * can feed it recorded, split or corrupted streams. Every failure is an ApiError: `stream` for an
 * error the server reports mid-stream or a stream cut short, `invalid-response` for bytes that are
 * not a chat-completion stream.
 */
export class ChatStreamDecoder {
  private readonly sse = new SseParser();
  private failure: ApiError | undefined;
  private sawDone = false;
  private finishReason: string | undefined;
  private id: string | undefined;
  private model: string | undefined;
  private usage: TokenUsage | undefined;
  private out: ChatStreamEvent[] = [];
  private readonly onEvent = (data: string, event: string | undefined) => this.event(data, event);

  /** `redact` masks secrets in what the server sent before it goes into an error (it may echo the key). */
  constructor(
    private readonly service: string,
    private readonly requestId?: string,
    private readonly status?: number,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Parses `chunk`, appending complete events to `out`. Stops at the first failure (see throwIfFailed). */
  push(chunk: Uint8Array, out: ChatStreamEvent[]): void {
    if (this.failure || this.sawDone) return;
    this.out = out;
    try {
      this.sse.push(chunk, this.onEvent);
    } catch (e) {
      if (!(e instanceof SseError)) throw e;
      this.failure ??= this.error('invalid-response', `${this.service} sent a malformed event stream: ${e.message}`);
    }
  }

  /** `[DONE]` has arrived: nothing after it matters. */
  get finished(): boolean {
    return this.sawDone;
  }

  /** Throws the failure met so far, after the caller has taken the events that preceded it. */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** The body has ended: returns the summary, or throws if the answer was cut short. */
  end(): { finishReason?: string; id?: string; model?: string; usage?: TokenUsage } {
    this.throwIfFailed();
    const { truncated } = this.sse.end();
    if (!this.sawDone && this.finishReason === undefined) {
      throw this.error('stream', `${this.service} stream ended before the answer was complete${truncated ? ' (in the middle of an event)' : ''}`);
    }
    return { finishReason: this.finishReason, id: this.id, model: this.model, usage: this.usage };
  }

  private event(data: string, event: string | undefined): void {
    if (this.failure || this.sawDone) return;
    // "[DONE]" ends OpenAI streams; the SDK also accepts it with trailing text.
    if (data.charCodeAt(0) === 91 && data.startsWith(DONE)) {
      this.sawDone = true;
      return;
    }
    const parsed = parseJson(data);
    if (!parsed.ok) {
      this.failure = this.error('invalid-response', `${this.service} sent an event that is not JSON: ${snippet(data)}`);
      return;
    }
    const value = parsed.value;
    if (event === 'error' || (typeof value === 'object' && value !== null && 'error' in value && (value).error)) {
      const body = validate(openAiErrorBodySchema, value);
      const info = body.ok ? errorInfo(body.value.error) : { message: snippet(data) };
      this.failure = this.error('stream', `${this.service} reported an error mid-stream: ${info.message ?? 'unknown error'}`, info.code, info.message);
      return;
    }
    const v = validate(chatChunkSchema, value);
    if (!v.ok) {
      this.failure = this.error('invalid-response', `${this.service} sent an unexpected stream chunk: ${v.problem}`);
      return;
    }
    const chunk = v.value;
    // Azure's content-filter chunks have an empty id and model: they must not overwrite the real ones.
    if (chunk.id) this.id ??= chunk.id;
    if (chunk.model) this.model ??= chunk.model;
    if (chunk.usage) {
      this.usage = chunk.usage;
      this.out.push({ type: 'usage', usage: chunk.usage });
    }
    const choices = chunk.choices;
    if (!choices) return;
    for (let i = 0; i < choices.length; i++) {
      const c = choices[i];
      const index = c.index ?? i;
      const delta = c.delta;
      if (delta) {
        if (delta.content) this.out.push({ type: 'delta', text: delta.content, index });
        if (delta.refusal) this.out.push({ type: 'refusal', text: delta.refusal, index });
      }
      if (c.finish_reason && index === 0) this.finishReason = c.finish_reason;
    }
  }

  private error(kind: ApiError['kind'], message: string, code?: string, serviceMessage?: string): ApiError {
    const r = this.redact;
    return new ApiError({
      kind,
      service: this.service,
      message: r(message),
      code: code === undefined ? undefined : r(code),
      serviceMessage: serviceMessage === undefined ? undefined : r(serviceMessage),
      requestId: this.requestId,
      status: this.status,
    });
  }
}

function snippet(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
