// The chat-completion stream decoder: SSE bytes in, ChatStreamEvents out. Separate from the client
// so tests can feed it recorded, split or corrupted streams. Tool calls are assembled as
// openai-node's ChatCompletionStream does: by `index`, the id, type and name from the piece that
// has them, the argument fragments concatenated in arrival order.
import { parseJson, validate } from '../../core/validate';
import { errorInfo } from './errors';
import { chatChunkSchema, openAiErrorBodySchema, type TokenUsage } from './schemas';
import { SseStreamDecoder } from './sseDecoder';
import type { ChatStreamEvent, ToolCall } from './types';

const DONE = '[DONE]';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  emitted: boolean;
}

/**
 * Turns the bytes of a chat-completion SSE stream into events. Separate from the client so tests
 * can feed it recorded, split or corrupted streams. Every failure is an ApiError: `stream` for an
 * error the server reports mid-stream or a stream cut short, `invalid-response` for bytes that are
 * not a chat-completion stream.
 */
export class ChatStreamDecoder extends SseStreamDecoder<ChatStreamEvent> {
  private sawDone = false;
  private finishReason: string | undefined;
  private id: string | undefined;
  private model: string | undefined;
  private usage: TokenUsage | undefined;
  /** Tool calls of choice 0 by index (sparse if a server skips one). */
  private readonly toolCalls: PartialToolCall[] = [];

  /** `[DONE]` has arrived: nothing after it matters. */
  get finished(): boolean {
    return this.sawDone;
  }

  /**
   * The body has ended: returns the summary, or throws if the answer was cut short. Tool calls not
   * yet announced (a server that sent no finish_reason) are appended to `out` first.
   */
  end(out: ChatStreamEvent[] = []): { finishReason?: string; id?: string; model?: string; usage?: TokenUsage; toolCalls?: ToolCall[] } {
    this.throwIfFailed();
    const { truncated } = this.sse.end();
    if (!this.sawDone && this.finishReason === undefined) {
      throw this.error('stream', `${this.service} stream ended before the answer was complete${truncated ? ' (in the middle of an event)' : ''}`);
    }
    this.out = out;
    this.emitToolCalls();
    const toolCalls = this.toolCalls.filter((c) => c !== undefined).map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
    return { finishReason: this.finishReason, id: this.id, model: this.model, usage: this.usage, ...(toolCalls.length ? { toolCalls } : {}) };
  }

  private addToolCallPiece(piece: { index: number; id?: string | null; function?: { name?: string | null; arguments?: string | null } | null }): void {
    const call = (this.toolCalls[piece.index] ??= { id: '', name: '', arguments: '', emitted: false });
    if (call.emitted) {
      this.failure = this.error('invalid-response', `${this.service} sent more of tool call ${piece.index} after the answer had finished`);
      return;
    }
    const name = piece.function?.name ?? undefined;
    const args = piece.function?.arguments ?? '';
    if (piece.id) call.id = piece.id;
    if (name) call.name = name;
    call.arguments += args;
    this.out.push({ type: 'tool_call_delta', index: piece.index, ...(piece.id ? { id: piece.id } : {}), ...(name ? { name } : {}), arguments: args });
  }

  /** Announces each assembled tool call once, in index order. */
  private emitToolCalls(): void {
    this.toolCalls.forEach((call, index) => {
      if (call.emitted) return;
      call.emitted = true;
      this.out.push({ type: 'tool_call', index, call: { id: call.id, name: call.name, arguments: call.arguments } });
    });
  }

  protected event(data: string, event: string | undefined): void {
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
    if (event === 'error' || (typeof value === 'object' && value !== null && 'error' in value && value.error)) {
      const body = validate(openAiErrorBodySchema(), value);
      const info = body.ok ? errorInfo(body.value.error) : { message: snippet(data) };
      this.failure = this.error('stream', `${this.service} reported an error mid-stream: ${info.message ?? 'unknown error'}`, info.code, info.message);
      return;
    }
    const v = validate(chatChunkSchema(), value);
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
        if (delta.tool_calls && index === 0) for (const piece of delta.tool_calls) this.addToolCallPiece(piece);
      }
      if (c.finish_reason && index === 0) {
        this.finishReason = c.finish_reason;
        this.emitToolCalls();
      }
    }
  }
}

function snippet(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
