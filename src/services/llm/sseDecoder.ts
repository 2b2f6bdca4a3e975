// What every SSE-based stream decoder of the LLM client shares (chat completions, the Responses
// API): bytes into events through one SseParser, the first failure kept until the caller has taken
// the events before it, and errors that carry the request id and never echo a secret.
import { ApiError } from '../../core/errors';
import { SseError, SseParser } from './sse';

export abstract class SseStreamDecoder<E> {
  protected readonly sse = new SseParser();
  protected failure: ApiError | undefined;
  /** Where the events of the chunk being pushed go. */
  protected out: E[] = [];
  private readonly onEvent = (data: string, event: string | undefined) => this.event(data, event);

  /** `redact` masks secrets in what the server sent before it goes into an error (it may echo the key). */
  constructor(
    protected readonly service: string,
    protected readonly requestId?: string,
    protected readonly status?: number,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** The stream's own end marker has arrived: nothing after it matters. */
  abstract get finished(): boolean;

  /** One SSE event (its data and, when given, its `event:` name). */
  protected abstract event(data: string, event: string | undefined): void;

  /** Parses `chunk`, appending complete events to `out`. Stops at the first failure (see throwIfFailed). */
  push(chunk: Uint8Array, out: E[]): void {
    if (this.failure || this.finished) return;
    this.out = out;
    try {
      this.sse.push(chunk, this.onEvent);
    } catch (e) {
      if (!(e instanceof SseError)) throw e;
      this.failure ??= this.error('invalid-response', `${this.service} sent a malformed event stream: ${e.message}`);
    }
  }

  /** Throws the failure met so far, after the caller has taken the events that preceded it. */
  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  protected error(kind: ApiError['kind'], message: string, code?: string, serviceMessage?: string): ApiError {
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
