// Server-sent events for streamed chat completions, shaped like OpenAI's (and, in Azure mode, with
// Azure's content-filter chunks). Frames are built up front so the sandbox can push tens of
// thousands of chunks per second: benchmarks then measure the clients, not the server.
import type { ServerResponse } from 'node:http';
import { systemClock, type Clock, type TimerHandle } from '../../core/clock';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** One of the request's `n` choices as the stream carries it. */
export interface StreamedChoice {
  tokens: readonly string[];
  /** Per content token, its `logprobs` object as JSON (the request asked for `logprobs: true`). */
  logprobs?: readonly string[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** Tool calls instead of text: streamed as OpenAI does, a header delta per call, then argument fragments. */
  toolCalls?: readonly StreamedToolCall[];
}

export interface StreamPlan {
  id: string;
  created: number;
  model: string;
  /** The choices, indexed as listed; they stream side by side, one token of each per step. */
  choices: readonly StreamedChoice[];
  /** Present when the request asked for `stream_options.include_usage`. */
  usage?: Usage;
  azure: boolean;
  /** Tokens per second (per choice); 0 or less = as fast as the socket takes them. */
  tokenRate: number;
  /** Stop after this many content tokens (steps) with an OpenAI error payload (the faulty model). */
  errorAfter?: number;
  /** Cut the connection after this many content tokens (steps) (x-sandbox-fault: disconnect). */
  disconnectAfter?: number;
}

export interface StreamedToolCall {
  id: string;
  name: string;
  /** The arguments JSON already cut into the fragments the stream carries. */
  fragments: readonly string[];
}

/** Deltas of tool calls: the first names the call (id, type, name, empty arguments), the rest add arguments. */
function toolCallDeltas(calls: readonly StreamedToolCall[]): string[] {
  const deltas: string[] = [];
  calls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    // The very first delta also carries the role, as OpenAI's does.
    deltas.push(index === 0 ? JSON.stringify({ role: 'assistant', content: null, tool_calls: [head], refusal: null }) : JSON.stringify({ tool_calls: [head] }));
    for (const piece of call.fragments) deltas.push(JSON.stringify({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  return deltas;
}

const SAFE_FILTER = { filtered: false, severity: 'safe' };
export const AZURE_FILTER_RESULTS = { hate: SAFE_FILTER, self_harm: SAFE_FILTER, sexual: SAFE_FILTER, violence: SAFE_FILTER };

export const MID_STREAM_ERROR = {
  message: 'The server had an error while processing your request. Sorry about that! (sandbox fault model)',
  type: 'server_error',
  param: null,
  code: null,
};

/** Ticks no faster than this, so a slow rate still goes out in a few tokens per write. */
const MIN_TICK_MS = 15;

function frame(data: string): string {
  return `data: ${data}\n\n`;
}

/** The frames of one choice: its opening delta, one frame per token, and its closing frames. */
function choiceFrames(plan: StreamPlan, choice: StreamedChoice, index: number): { open: string; tokens: string[]; close: string } {
  const usageField = plan.usage ? ',"usage":null' : '';
  // Everything but the delta is identical in each chunk: serialise it once.
  const prefix = `{"id":${JSON.stringify(plan.id)},"object":"chat.completion.chunk","created":${plan.created},"model":${JSON.stringify(plan.model)},"system_fingerprint":"fp_sandbox","choices":[{"index":${index},`;
  const filter = plan.azure ? `,"content_filter_results":${JSON.stringify(AZURE_FILTER_RESULTS)}` : '';

  let open: string;
  let tokens: string[];
  if (choice.toolCalls) {
    const deltas = toolCallDeltas(choice.toolCalls);
    open = frame(`${prefix}"delta":${deltas[0]},"logprobs":null,"finish_reason":null}]${usageField}}`);
    tokens = deltas.slice(1).map((d) => frame(`${prefix}"delta":${d},"logprobs":null,"finish_reason":null${filter}}]${usageField}}`));
  } else {
    open = frame(`${prefix}"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]${usageField}}`);
    tokens = choice.tokens.map((t, i) =>
      frame(`${prefix}"delta":{"content":${JSON.stringify(t)}},"logprobs":${choice.logprobs?.[i] ?? 'null'},"finish_reason":null${filter}}]${usageField}}`),
    );
  }

  let close = '';
  if (plan.azure) {
    const length = choice.tokens.reduce((n, t) => n + t.length, 0);
    close += frame(
      JSON.stringify({
        choices: [
          {
            index,
            finish_reason: null,
            delta: {},
            content_filter_results: AZURE_FILTER_RESULTS,
            content_filter_offsets: { check_offset: 0, start_offset: 0, end_offset: length },
          },
        ],
        created: 0,
        id: '',
        model: '',
        object: '',
      }),
    );
  }
  close += frame(`${prefix}"delta":{},"logprobs":null,"finish_reason":${JSON.stringify(choice.finishReason)}}]${usageField}}`);
  return { open, tokens, close };
}

/**
 * The SSE frames of the answer, split where content starts and where it ends. With several
 * choices, step i carries token i of each choice (as OpenAI interleaves them, each chunk naming its
 * choice's index), so the pace and a fault's cut count tokens per choice.
 */
export function buildFrames(plan: StreamPlan): { head: string; tokens: string[]; tail: string } {
  let head = ': sandbox stream\n\n';
  if (plan.azure) {
    head += frame(
      JSON.stringify({
        choices: [],
        created: 0,
        id: '',
        model: '',
        object: '',
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: AZURE_FILTER_RESULTS }],
      }),
    );
  }
  const perChoice = plan.choices.map((c, index) => choiceFrames(plan, c, index));
  head += perChoice.map((c) => c.open).join('');
  const steps = Math.max(0, ...perChoice.map((c) => c.tokens.length));
  const tokens = Array.from({ length: steps }, (_, i) => perChoice.map((c) => c.tokens[i] ?? '').join(''));
  let tail = perChoice.map((c) => c.close).join('');
  if (plan.usage) {
    tail += frame(
      `{"id":${JSON.stringify(plan.id)},"object":"chat.completion.chunk","created":${plan.created},"model":${JSON.stringify(plan.model)},"system_fingerprint":"fp_sandbox","choices":[],"usage":${JSON.stringify(plan.usage)}}`,
    );
  }
  tail += 'data: [DONE]\n\n';
  return { head, tokens, tail };
}

/** Writes the stream at the plan's rate; stops writing as soon as the client goes away. */
export function writeStream(res: ServerResponse, plan: StreamPlan, headers: Record<string, string>, clock: Clock = systemClock): void {
  const { head, tokens, tail } = buildFrames(plan);
  const stopAt = Math.min(plan.errorAfter ?? Infinity, plan.disconnectAfter ?? Infinity, tokens.length);
  const ending = (): string => {
    if (plan.disconnectAfter !== undefined && stopAt === plan.disconnectAfter) return '';
    if (plan.errorAfter !== undefined && stopAt === plan.errorAfter) return frame(JSON.stringify({ error: MID_STREAM_ERROR }));
    return tail;
  };
  const finish = (last: string) => {
    if (plan.disconnectAfter !== undefined && stopAt === plan.disconnectAfter) {
      // Flush what was promised, then drop the socket without the chunked terminator.
      res.write(last, () => res.destroy());
      return;
    }
    res.end(last);
  };

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });

  if (plan.tokenRate <= 0) {
    finish(head + tokens.slice(0, stopAt).join('') + ending());
    return;
  }

  res.write(head);
  const started = clock.now();
  let sent = 0;
  let timer: TimerHandle | undefined;
  res.on('close', () => clock.clearTimer(timer));
  const tick = () => {
    if (res.destroyed) return;
    // Token i is due at i / rate seconds; the first goes out at once.
    const due = Math.min(stopAt, Math.floor(((clock.now() - started) / 1000) * plan.tokenRate) + 1);
    let out = '';
    for (; sent < due; sent++) out += tokens[sent];
    if (sent >= stopAt) return finish(out + ending());
    if (out) res.write(out);
    // Awaited: the answer is what the client waits for (the sandbox CLI's server keeps it alive anyway).
    timer = clock.setTimer(tick, Math.max(MIN_TICK_MS, 1000 / plan.tokenRate), { awaited: true });
  };
  tick();
}
