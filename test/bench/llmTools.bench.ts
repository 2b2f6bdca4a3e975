// LLM benchmark, tool-call streams: our LlmClient against the official `openai` client consuming the
// same streamed tool calls (three parallel calls whose arguments arrive as thousands of small
// fragments, as OpenAI sends them), interleaved in one run against the same sandbox process. Both
// sides assemble the calls' arguments by index, which is what a consumer of tool calls must do.
import OpenAI from 'openai';
import { HttpClient } from '../../src/core/http';
import { SlidingWindowLimiter } from '../../src/core/rateLimiter';
import { SANDBOX_HEADERS } from '../../src/sandbox/llm';
import { LlmClient, openAiErrorParser, type ChatMessage, type ToolDefinition } from '../../src/services/llm';
import { median, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const KEY = 'sk-sandbox-bench-000000000000';
const MODEL = 'sandbox-chat';
const CALLS = 3;
/** Items per call's array argument: ~27 KB of arguments per call, in 4-character fragments. */
const ITEMS = 1_200;
const ROUNDS = 9;
const TIME_BUDGET_MS = 90_000;

interface Run {
  /** Chunks that carried a piece of a tool call. */
  pieces: number;
  cpuMs: number;
  /** First tool-call piece to end of stream. */
  streamMs: number;
  calls: string[];
}

const TOOLS: ToolDefinition[] = Array.from({ length: CALLS }, (_, i) => ({
  name: `record_notes_${i + 1}`,
  description: 'Records notes.',
  parameters: {
    type: 'object',
    properties: { notes: { type: 'array', minItems: ITEMS, maxItems: ITEMS, items: { type: 'string', minLength: 20, maxLength: 20 } } },
    required: ['notes'],
    additionalProperties: false,
  },
}));

export default async function llmToolsBench(r: BenchReporter): Promise<void> {
  r.section(`LLM: streamed tool calls (${CALLS} parallel calls, ${ITEMS.toLocaleString('en')}-item arguments each), our client vs the openai SDK`);
  const sandbox = await startSandboxProcess(['--llm-key', KEY, '--llm-token-rate', '0']);
  const deadline = Date.now() + TIME_BUDGET_MS;
  try {
    const baseUrl = sandbox.info.llm.baseUrl;
    const ours = new LlmClient(
      new HttpClient({
        service: 'LLM (bench)',
        baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
        rateLimit: { key: 'bench', perMinute: 1_000_000 },
        limiter: new SlidingWindowLimiter(),
        log: () => undefined,
      }),
    );
    const sdk = new OpenAI({ baseURL: baseUrl, apiKey: KEY, maxRetries: 0 });
    const messages: ChatMessage[] = [{ role: 'user', content: `Call ${TOOLS.map((t) => t.name).join(', ')} now.` }];
    const headers = { [SANDBOX_HEADERS.tokenRate]: '0' };
    const sdkTools = TOOLS.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } }));

    const runOurs = async (): Promise<Run> => {
      const cpu0 = process.cpuUsage();
      let first = 0;
      let pieces = 0;
      const calls: string[] = [];
      for await (const e of ours.chatStream({ model: MODEL, messages, tools: TOOLS }, { headers })) {
        if (e.type === 'tool_call_delta') {
          if (pieces++ === 0) first = performance.now();
        } else if (e.type === 'tool_call') calls[e.index] = e.call.arguments;
      }
      const end = performance.now();
      const cpu = process.cpuUsage(cpu0);
      return { pieces, cpuMs: (cpu.user + cpu.system) / 1000, streamMs: end - first, calls };
    };
    const runSdk = async (): Promise<Run> => {
      const cpu0 = process.cpuUsage();
      let first = 0;
      let pieces = 0;
      const calls: string[] = [];
      const stream = await sdk.chat.completions.create({ model: MODEL, messages, tools: sdkTools, stream: true }, { headers });
      for await (const c of stream) {
        const toolCalls = c.choices[0]?.delta.tool_calls;
        if (!toolCalls) continue;
        if (pieces++ === 0) first = performance.now();
        for (const t of toolCalls) calls[t.index] = (calls[t.index] ?? '') + (t.function?.arguments ?? '');
      }
      const end = performance.now();
      const cpu = process.cpuUsage(cpu0);
      return { pieces, cpuMs: (cpu.user + cpu.system) / 1000, streamMs: end - first, calls };
    };

    // Warm-up and a correctness check: both clients assemble the same, complete calls.
    let reference: string[] | undefined;
    for (const run of [runOurs, runSdk, runOurs, runSdk]) {
      const got = await run();
      if (got.calls.length !== CALLS || got.calls.some((a) => (JSON.parse(a) as { notes: unknown[] }).notes.length !== ITEMS))
        throw new Error(`a client assembled ${got.calls.length} incomplete tool calls`);
      if (reference && JSON.stringify(got.calls) !== JSON.stringify(reference))
        throw new Error('the clients assembled different tool calls from the same stream');
      reference ??= got.calls;
    }

    const oursRuns: Run[] = [];
    const sdkRuns: Run[] = [];
    for (let i = 0; i < ROUNDS && Date.now() < deadline; i++) {
      const pair = i % 2 === 0 ? [runOurs, runSdk] : [runSdk, runOurs];
      for (const run of pair) (run === runOurs ? oursRuns : sdkRuns).push(await run());
    }
    const rate = (runs: Run[]) => median(runs.map((x) => x.pieces / (x.streamMs / 1000)));
    r.note(
      `median of ${oursRuns.length} interleaved runs each; ${oursRuns[0]?.pieces.toLocaleString('en')} tool-call chunks per stream, counted from the first one to the end of the stream`,
    );
    r.metric('our client: tool-call chunks/s', rate(oursRuns), 'chunks/s');
    r.metric('openai SDK: tool-call chunks/s', rate(sdkRuns), 'chunks/s');
    r.ratio('tool-call stream throughput, ours ÷ SDK', rate(oursRuns), rate(sdkRuns), 1.2, true);
    const cpuPerChunk = (runs: Run[]) => median(runs.map((x) => (x.cpuMs * 1000) / x.pieces));
    r.metric('our client: CPU per tool-call chunk (whole request)', cpuPerChunk(oursRuns), 'µs');
    r.metric('openai SDK: CPU per tool-call chunk (whole request)', cpuPerChunk(sdkRuns), 'µs');
  } finally {
    await sandbox.stop();
  }
}
