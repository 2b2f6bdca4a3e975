// Client for OpenAI-compatible `/v1` servers (OpenAI, Azure OpenAI v1, Ollama, vLLM, LM Studio, the
// sandbox). Built on the HTTP core: auth placement, the connection's rate limit plus one per model,
// retries with Retry-After (never once a stream has begun), one error type.
import { CancelledError, toAbortSignal, type Cancel } from '../../core/cancellation';
import type { HttpClient, RateLimit, RetryNotice } from '../../core/http';
import { ChatStreamDecoder } from './chatStream';
import {
  responseObjectSchema,
  responseRequestBody,
  responseResult,
  ResponsesStreamDecoder,
  type ResponseRequest,
  type ResponseResult,
  type ResponseStreamEvent,
} from './responses';
import { chatCompletionSchema, embeddingsSchema, modelListSchema, type ModelInfo, type TokenUsage } from './schemas';
import { chatRequestBody, type ChatRequest, type ChatResult, type ChatStreamEvent, type StreamTimings } from './types';

/** What eventStream needs of a stream decoder. */
interface EventDecoder<E> {
  push(chunk: Uint8Array, out: E[]): void;
  throwIfFailed(): void;
  /** The stream's own end marker has arrived. */
  readonly finished: boolean;
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
    const res = await this.http.json({ path: 'models', schema: modelListSchema(), cancel });
    return [...res.data.data].sort((a, b) => a.id.localeCompare(b.id));
  }

  /** A complete (non-streamed) chat completion. */
  async chat(req: ChatRequest, opts: CallOptions = {}): Promise<ChatResult> {
    const res = await this.http.json({
      path: 'chat/completions',
      body: chatRequestBody(req),
      schema: chatCompletionSchema(),
      ...this.common(req.model, opts),
    });
    const choice = res.data.choices[0];
    const toolCalls = choice?.message.tool_calls?.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    return {
      text: choice?.message.content ?? '',
      finishReason: choice?.finish_reason ?? undefined,
      ...(toolCalls?.length ? { toolCalls } : {}),
      id: res.data.id,
      model: res.data.model,
      usage: res.data.usage ?? undefined,
      requestId: res.requestId,
      durationMs: res.durationMs,
    };
  }

  /**
   * A streamed chat completion. Yields `start`, then `delta`s as text arrives (`tool_call_delta`s
   * and, once each is complete, `tool_call`s when the model calls tools), `usage` when the server
   * reports it, and `done` last. Failures are ApiErrors: before the first byte they may be
   * retried (429/5xx, honouring Retry-After); after it, never — the deltas already yielded are the
   * caller's to keep. Breaking out of the loop or cancelling aborts the request at once.
   */
  chatStream(req: ChatRequest, opts: StreamOptions = {}): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const includeUsage = opts.includeUsage ?? true;
    const body = { ...chatRequestBody(req), stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) };
    return this.eventStream<ChatStreamEvent, ChatStreamDecoder>('chat/completions', body, req.model, opts, {
      decoder: (requestId, status) => new ChatStreamDecoder(this.http.service, requestId, status, (text) => this.http.redact(text)),
      start: (requestId, status) => ({ type: 'start', requestId, status }),
      done: (decoder, tail, requestId, timings) => {
        const end = decoder.end(tail);
        return {
          type: 'done',
          finishReason: end.finishReason,
          id: end.id,
          model: end.model,
          requestId,
          usage: end.usage,
          ...(end.toolCalls ? { toolCalls: end.toolCalls } : {}),
          timings,
        };
      },
    });
  }

  /** `POST /responses` (the Responses API), complete. */
  async respond(req: ResponseRequest, opts: CallOptions = {}): Promise<ResponseResult> {
    const res = await this.http.json({ path: 'responses', body: responseRequestBody(req), schema: responseObjectSchema(), ...this.common(req.model, opts) });
    return { ...responseResult(res.data), requestId: res.requestId, durationMs: res.durationMs };
  }

  /**
   * `POST /responses` streamed: `start`, `delta`s of output text, `tool_call`s, then `done` with the
   * final response. Same failure and cancellation rules as chatStream.
   */
  respondStream(req: ResponseRequest, opts: CallOptions = {}): AsyncGenerator<ResponseStreamEvent, void, undefined> {
    return this.eventStream<ResponseStreamEvent, ResponsesStreamDecoder>('responses', { ...responseRequestBody(req), stream: true }, req.model, opts, {
      decoder: (requestId, status) => new ResponsesStreamDecoder(this.http.service, requestId, status, (text) => this.http.redact(text)),
      start: (requestId, status) => ({ type: 'start', requestId, status }),
      done: (decoder, _tail, requestId, timings) => ({ type: 'done', ...decoder.end(), requestId, timings }),
    });
  }

  /** The SSE loop both stream kinds share: start, decoded events, then the decoder's done event. */
  private async *eventStream<E extends { type: string }, D extends EventDecoder<E>>(
    path: string,
    body: Record<string, unknown>,
    model: string,
    opts: CallOptions,
    make: {
      decoder: (requestId: string | undefined, status: number) => D;
      start: (requestId: string | undefined, status: number) => E;
      done: (decoder: D, tail: E[], requestId: string | undefined, timings: StreamTimings) => E;
    },
  ): AsyncGenerator<E, void, undefined> {
    const t0 = performance.now();
    // Our own abort, beside the caller's: it ends a response that stays open after [DONE].
    const ender = new AbortController();
    const user = toAbortSignal(opts.cancel);
    const signal = user.signal ? AbortSignal.any([user.signal, ender.signal]) : ender.signal;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    try {
      const res = await this.http.stream({
        path,
        body,
        ...this.common(model, { ...opts, cancel: signal }),
        headers: { accept: 'text/event-stream', ...opts.headers },
        expectContentType: 'text/event-stream',
      });
      const headersMs = performance.now() - t0;
      const start = make.start(res.requestId, res.status);
      const decoder = make.decoder(res.requestId, res.status);
      const queue: E[] = [];
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
          // Reading on after the end lets the connection be reused; a server that never ends the
          // response is cut off after a grace period instead of hanging until the idle timeout.
          if (decoder.finished && !graceTimer) graceTimer = setTimeout(() => ender.abort(new CancelledError()), this.endGraceMs);
        }
      } catch (e) {
        if (!(decoder.finished && ender.signal.aborted)) throw e;
      }
      if (!startSent) yield start;
      const tail: E[] = [];
      const done = make.done(decoder, tail, res.requestId, { headersMs, firstTokenMs, totalMs: performance.now() - t0 });
      yield* tail;
      yield done;
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
      schema: embeddingsSchema(),
      ...this.common(req.model, opts),
    });
    const vectors = [...res.data.data]
      .sort((a, b) => a.index - b.index)
      .map((d) => (typeof d.embedding === 'string' ? decodeFloat32(d.embedding) : d.embedding));
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
}

function decodeFloat32(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  const out = new Array<number>(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
