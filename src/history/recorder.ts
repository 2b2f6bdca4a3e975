// Puts every request an HttpClient sends into the history, without touching the code that sends
// it: RecordingHttpClient is an HttpClient whose json() and stream() note the request as sent
// (the client's onRequest hook), each attempt's outcome (its log hook) and the answer.
// The hooks are options of the whole client, while one client serves many requests at once; an
// AsyncLocalStorage ties each hook call to the json()/stream() call it belongs to.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServiceId } from '../core/connections';
import { errorText, isApiError } from '../core/errors';
import {
  HttpClient,
  type Headers,
  type HttpClientOptions,
  type HttpResponse,
  type OutgoingRequest,
  type RequestLogEntry,
  type RequestOptions,
  type StreamRequestOptions,
  type StreamResponse,
} from '../core/http';
import type { Redactor } from '../core/redact';
import { capText, newEntryId, type HistoryEntry, type HistoryLimits } from './model';
import { currentCommand } from './scope';

/** Where recorded entries go (the editor's history store). */
export interface HistorySink {
  /** Read per request, so a settings change applies to the next one. */
  limits(): HistoryLimits;
  /** `sent` is the request as the client's onRequest hook saw it (the same object), to tie the entry to what a command showed. */
  record(entry: HistoryEntry, sent?: OutgoingRequest): void;
}

export interface RecordingMeta {
  service: ServiceId;
  connection: string;
  /** Record only requests made by a command (see scope.ts), not a view's background loads. */
  commandsOnly?: boolean;
}

interface Pending {
  command: string | undefined;
  at: string;
  started: number;
  request?: OutgoingRequest;
  lastAttempt?: RequestLogEntry;
}

const current = new AsyncLocalStorage<Pending>();

/** The options with the client's hooks extended to note what they see for the current request. */
function observed(opts: HttpClientOptions): HttpClientOptions {
  const { onRequest, log } = opts;
  return {
    ...opts,
    onRequest: (req) => {
      const p = current.getStore();
      if (p) p.request = req;
      onRequest?.(req);
    },
    log: (entry) => {
      const p = current.getStore();
      if (p) p.lastAttempt = entry;
      log?.(entry);
    },
  };
}

interface Outcome {
  status?: number;
  headers?: Headers;
  requestId?: string;
  body?: string;
  truncated?: boolean;
  note?: string;
  error?: unknown;
}

export class RecordingHttpClient extends HttpClient {
  private readonly historyRedactor: Redactor;
  private readonly builtOn: string;

  constructor(
    opts: HttpClientOptions & { redactor: Redactor },
    private readonly meta: RecordingMeta,
    private readonly sink: HistorySink,
  ) {
    super(observed(opts));
    this.historyRedactor = opts.redactor;
    this.builtOn = opts.baseUrl;
  }

  override async json<T = unknown>(req: RequestOptions<T>): Promise<HttpResponse<T>> {
    const pending = this.begin();
    if (!pending) return super.json(req);
    try {
      const res = await current.run(pending, () => super.json(req));
      const keep = this.sink.limits().keepResponses;
      this.finish(pending, req, {
        status: res.status,
        headers: res.headers,
        requestId: res.requestId,
        body: keep && res.data !== undefined ? JSON.stringify(res.data, null, 2) : undefined,
        // The raw bytes are not kept by the client: this is the answer after validation.
        note: 'JSON as the extension read it',
      });
      return res;
    } catch (e) {
      this.finish(pending, req, { error: e });
      throw e;
    }
  }

  override async stream(req: StreamRequestOptions): Promise<StreamResponse> {
    const pending = this.begin();
    if (!pending) return super.stream(req);
    let res: StreamResponse;
    try {
      res = await current.run(pending, () => super.stream(req));
    } catch (e) {
      this.finish(pending, req, { error: e });
      throw e;
    }
    return { ...res, body: this.tee(res, pending, req) };
  }

  /** The record of a request about to start, or undefined when it is not one to keep. */
  private begin(): Pending | undefined {
    const command = currentCommand();
    if (this.meta.commandsOnly && command === undefined) return undefined;
    return { command, at: new Date().toISOString(), started: performance.now() };
  }

  /** Passes the stream through unchanged, keeping its first bytes; the entry is written when it ends. */
  private async *tee(res: StreamResponse, pending: Pending, req: StreamRequestOptions): AsyncGenerator<Uint8Array> {
    const { keepResponses, maxBodyBytes } = this.sink.limits();
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let truncated = false;
    let error: unknown;
    try {
      for await (const chunk of res.body) {
        if (keepResponses) {
          const room = maxBodyBytes - keptBytes;
          if (chunk.byteLength > room) truncated = true;
          if (room > 0) {
            kept.push(Buffer.from(chunk.subarray(0, room)));
            keptBytes += Math.min(room, chunk.byteLength);
          }
        }
        yield chunk;
      }
    } catch (e) {
      error = e;
      throw e;
    } finally {
      const text = keepResponses ? capText(Buffer.concat(kept, keptBytes).toString('utf8'), maxBodyBytes) : undefined;
      this.finish(pending, req, {
        status: res.status,
        headers: res.headers,
        requestId: res.requestId,
        body: text?.text,
        truncated: truncated || text?.truncated,
        error,
      });
    }
  }

  private finish(pending: Pending, req: RequestOptions<unknown>, outcome: Outcome): void {
    try {
      this.sink.record(this.entryOf(pending, req, outcome), pending.request);
    } catch {
      // History is an observer: its failure must not change the request's outcome.
    }
  }

  private entryOf(pending: Pending, req: RequestOptions<unknown>, outcome: Outcome): HistoryEntry {
    const { maxBodyBytes, keepResponses } = this.sink.limits();
    const r = this.historyRedactor;
    // Redacted now, not when the request was noted: by now the redactor knows the key that was sent.
    const sent = pending.request;
    const method = sent?.method ?? req.method ?? (req.body !== undefined || req.rawBody !== undefined ? 'POST' : 'GET');
    const url = r.url(sent?.url ?? this.url(req.path, req.query));
    const body = sent?.body === undefined ? undefined : capText(r.text(sent.body), maxBodyBytes);
    const err = outcome.error;
    const status = outcome.status ?? (isApiError(err) ? err.status : undefined) ?? pending.lastAttempt?.status;
    const entry: HistoryEntry = {
      id: newEntryId(),
      at: pending.at,
      origin: 'command',
      ...(pending.command !== undefined && { command: pending.command }),
      service: this.meta.service,
      connection: this.meta.connection,
      method,
      url,
      baseUrl: r.url(this.builtOn),
      request: { headers: r.headers(sent?.headers ?? {}), ...(body && { body: body.text, truncated: body.truncated || undefined }) },
      status,
      durationMs: Math.round(performance.now() - pending.started),
      requestId: outcome.requestId ?? (isApiError(err) ? err.requestId : undefined) ?? pending.lastAttempt?.requestId,
    };
    if (err !== undefined) entry.error = r.text(isApiError(err) && err.kind === 'cancelled' ? 'Cancelled' : errorText(err));
    if (keepResponses && (outcome.headers || outcome.body !== undefined || isApiError(err))) {
      const serviceText = isApiError(err) ? err.serviceMessage : undefined;
      const text = outcome.body ?? serviceText;
      entry.response = {
        headers: outcome.headers ? r.headers(outcome.headers) : {},
        ...(text !== undefined && { body: r.text(text) }),
        ...(outcome.truncated && { truncated: true }),
        ...(outcome.body === undefined && serviceText !== undefined ? { note: "the service's error message" } : outcome.note ? { note: outcome.note } : {}),
      };
    }
    return entry;
  }
}
