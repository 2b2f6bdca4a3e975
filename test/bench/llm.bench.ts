// LLM benchmark: our LlmClient (HttpClient + byte-level SSE parser + zod per chunk) against the
// official `openai` client consuming the same long sandbox stream, interleaved in one run; and
// time-to-first-token against a raw undici request. The sandbox runs in its own process (the
// shipped dist/sandbox.js), so its work does not share the clients' thread. Loops are bounded by
// count and by time.
import OpenAI from 'openai';
import { HttpClient } from '../../src/core/http';
import { undici } from '../../src/core/lazy';
import { SlidingWindowLimiter } from '../../src/core/rateLimiter';
import { sandboxAnswer, SANDBOX_HEADERS } from '../../src/sandbox/llm';
import { LlmClient, openAiErrorParser, type ChatMessage } from '../../src/services/llm';
import { median, type BenchReporter } from './report';
import { startSandboxProcess } from './sandboxProcess';

const KEY = 'sk-sandbox-bench-000000000000';
const MODEL = 'sandbox-chat';
const STREAM_TOKENS = 25_000;
const THROUGHPUT_ROUNDS = 7;
const TTFT_ROUNDS = 300;
const TTFT_TOKENS = 20;
const PACED_TOKENS = 3_000;
const PACED_RATE = 2_000;
const PACED_ROUNDS = 3;
const TIME_BUDGET_MS = 90_000;

interface Run {
  chunks: number;
  /** CPU time this process spent (user + system); the sandbox runs in another process. */
  cpuMs: number;
  /** First content chunk to end of stream: the consumption rate. */
  streamMs: number;
  /** Request start to end of stream. */
  totalMs: number;
  text: string;
}

/** How one long stream arrives at a raw undici reader: number of reads and their median size. */
async function networkChunks(baseUrl: string, messages: ChatMessage[], headers: Record<string, string>): Promise<{ reads: number; medianBytes: number }> {
  const res = await undici().request(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } }),
  });
  const sizes: number[] = [];
  for await (const chunk of res.body) sizes.push((chunk as Buffer).length);
  return { reads: sizes.length, medianBytes: median(sizes) };
}

export default async function llmBench(r: BenchReporter): Promise<void> {
  r.section(`LLM: streaming a ${STREAM_TOKENS.toLocaleString('en')}-chunk answer, our client vs the openai SDK`);
  const sandbox = await startSandboxProcess(['--llm-key', KEY, '--llm-token-rate', '0']);
  const { info } = sandbox;
  const deadline = Date.now() + TIME_BUDGET_MS;
  try {
    const baseUrl = info.llm.baseUrl;
    const ours = new LlmClient(
      new HttpClient({
        service: 'LLM (bench)',
        baseUrl,
        auth: { placement: 'bearer' },
        credentials: () => Promise.resolve(KEY),
        parseError: openAiErrorParser,
        // The production path: a limiter is always there (with a limit that never binds here).
        rateLimit: { key: 'bench', perMinute: 1_000_000 },
        limiter: new SlidingWindowLimiter(),
        log: () => undefined,
      }),
    );
    const sdk = new OpenAI({ baseURL: baseUrl, apiKey: KEY, maxRetries: 0 });
    const messages: ChatMessage[] = [{ role: 'user', content: 'Benchmark me: a long answer, please.' }];
    const expected = sandboxAnswer(messages, MODEL, { tokens: STREAM_TOKENS });
    const longHeaders = { [SANDBOX_HEADERS.answerTokens]: String(STREAM_TOKENS), [SANDBOX_HEADERS.tokenRate]: '0' };

    const runOurs = async (headers = longHeaders): Promise<Run> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let first = 0;
      let chunks = 0;
      let text = '';
      for await (const e of ours.chatStream({ model: MODEL, messages }, { headers })) {
        if (e.type !== 'delta') continue;
        if (chunks++ === 0) first = performance.now();
        text += e.text;
      }
      const end = performance.now();
      const cpu = process.cpuUsage(cpu0);
      return { chunks, cpuMs: (cpu.user + cpu.system) / 1000, streamMs: end - first, totalMs: end - t0, text };
    };
    const runSdk = async (headers = longHeaders): Promise<Run> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let first = 0;
      let chunks = 0;
      let text = '';
      const stream = await sdk.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } }, { headers });
      for await (const c of stream) {
        const content = c.choices[0]?.delta.content;
        if (!content) continue;
        if (chunks++ === 0) first = performance.now();
        text += content;
      }
      const end = performance.now();
      const cpu = process.cpuUsage(cpu0);
      return { chunks, cpuMs: (cpu.user + cpu.system) / 1000, streamMs: end - first, totalMs: end - t0, text };
    };

    // Warm-up (JIT, connection pools), and a correctness check: both must see the exact answer.
    for (const run of [runOurs, runSdk, runOurs, runSdk]) {
      const got = await run();
      if (got.text !== expected || got.chunks !== STREAM_TOKENS) throw new Error(`a client saw a different stream (${got.chunks} chunks)`);
    }

    const oursRuns: Run[] = [];
    const sdkRuns: Run[] = [];
    for (let i = 0; i < THROUGHPUT_ROUNDS && Date.now() < deadline; i++) {
      // Alternate who goes first, so drift (GC, CPU frequency) does not favour one side.
      if (i % 2 === 0) {
        oursRuns.push(await runOurs());
        sdkRuns.push(await runSdk());
      } else {
        sdkRuns.push(await runSdk());
        oursRuns.push(await runOurs());
      }
    }
    const rate = (runs: Run[], pick: (x: Run) => number) => median(runs.map((x) => x.chunks / (pick(x) / 1000)));
    const oursRate = rate(oursRuns, (x) => x.streamMs);
    const sdkRate = rate(sdkRuns, (x) => x.streamMs);
    r.note(`median of ${oursRuns.length} interleaved runs each; chunks/s from the first content chunk to the end of the stream`);
    r.metric('our client: content chunks/s', oursRate, 'chunks/s');
    r.metric('openai SDK: content chunks/s', sdkRate, 'chunks/s');
    r.ratio('stream throughput, ours ÷ SDK', oursRate, sdkRate, 1.2, true);
    // How the bytes arrive matters (the SDK re-copies its buffer once per event of a network chunk): measure it.
    const shape = await networkChunks(baseUrl, messages, longHeaders);
    r.metric('network reads per stream (raw undici)', shape.reads, '');
    r.metric('bytes per network read (median)', shape.medianBytes, 'B');
    const cpuPerChunk = (runs: Run[]) => median(runs.map((x) => (x.cpuMs * 1000) / x.chunks));
    r.metric('our client: CPU per chunk (whole request)', cpuPerChunk(oursRuns), 'µs');
    r.metric('openai SDK: CPU per chunk (whole request)', cpuPerChunk(sdkRuns), 'µs');
    r.metric('our client: whole request (incl. the sandbox building 25k chunks)', median(oursRuns.map((x) => x.totalMs)), 'ms');
    r.metric('openai SDK: whole request (incl. the sandbox building 25k chunks)', median(sdkRuns.map((x) => x.totalMs)), 'ms');

    // A paced stream, closer to a real server: small network reads of a few events each. Wall time is
    // then set by the server, so what differs between the clients is the CPU they spend per chunk.
    r.section(`LLM: a paced stream (${PACED_RATE.toLocaleString('en')} tokens/s, ${PACED_TOKENS.toLocaleString('en')} chunks): client CPU per chunk`);
    const pacedHeaders = { [SANDBOX_HEADERS.answerTokens]: String(PACED_TOKENS), [SANDBOX_HEADERS.tokenRate]: String(PACED_RATE) };
    const pacedShape = await networkChunks(baseUrl, messages, pacedHeaders);
    r.metric('network reads per stream (raw undici)', pacedShape.reads, '');
    r.metric('bytes per network read (median)', pacedShape.medianBytes, 'B');
    const pacedRaw: number[] = [];
    const pacedOurs: Run[] = [];
    const pacedSdk: Run[] = [];
    for (let i = 0; i < PACED_ROUNDS && Date.now() < deadline; i++) {
      const cpu0 = process.cpuUsage();
      await networkChunks(baseUrl, messages, pacedHeaders);
      const cpu = process.cpuUsage(cpu0);
      pacedRaw.push((cpu.user + cpu.system) / PACED_TOKENS);
      pacedOurs.push(await runOurs(pacedHeaders));
      pacedSdk.push(await runSdk(pacedHeaders));
    }
    r.note('wake-ups per network read cost the same to everyone: the raw read (no parsing at all) is the floor');
    r.metric('raw undici read, no parsing: CPU per chunk', median(pacedRaw), 'µs');
    r.metric('our client: CPU per chunk', cpuPerChunk(pacedOurs), 'µs');
    r.metric('openai SDK: CPU per chunk', cpuPerChunk(pacedSdk), 'µs');
    r.ratio('CPU per chunk above the raw floor, SDK ÷ ours', cpuPerChunk(pacedSdk) - median(pacedRaw), cpuPerChunk(pacedOurs) - median(pacedRaw));

    r.section(`LLM: time to first token (${TTFT_TOKENS}-token answer), vs a raw undici request`);
    const shortHeaders = { [SANDBOX_HEADERS.answerTokens]: String(TTFT_TOKENS), [SANDBOX_HEADERS.tokenRate]: '0' };
    const body = JSON.stringify({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } });
    const contentMarker = Buffer.from('"delta":{"content":');
    const ttftRaw = async (): Promise<number> => {
      const t0 = performance.now();
      const res = await undici().request(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'text/event-stream', ...shortHeaders },
        body,
      });
      let t = 0;
      for await (const chunk of res.body) {
        if (!t && (chunk as Buffer).includes(contentMarker)) t = performance.now() - t0;
      }
      return t;
    };
    const ttftOurs = async (): Promise<number> => {
      const t0 = performance.now();
      let t = 0;
      for await (const e of ours.chatStream({ model: MODEL, messages }, { headers: shortHeaders })) if (!t && e.type === 'delta') t = performance.now() - t0;
      return t;
    };
    const ttftSdk = async (): Promise<number> => {
      const t0 = performance.now();
      let t = 0;
      const stream = await sdk.chat.completions.create(
        { model: MODEL, messages, stream: true, stream_options: { include_usage: true } },
        { headers: shortHeaders },
      );
      for await (const c of stream) if (!t && c.choices[0]?.delta.content) t = performance.now() - t0;
      return t;
    };
    for (let i = 0; i < 30; i++) {
      await ttftRaw();
      await ttftOurs();
      await ttftSdk();
    }
    const raw: number[] = [];
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < TTFT_ROUNDS && Date.now() < deadline; i++) {
      const order = [() => ttftRaw().then((x) => raw.push(x)), () => ttftOurs().then((x) => mine.push(x)), () => ttftSdk().then((x) => theirs.push(x))];
      for (let k = 0; k < order.length; k++) await order[(i + k) % order.length]();
    }
    r.note(`median of ${raw.length} interleaved requests each; request start → first content delta`);
    r.metric('raw undici request: TTFT', median(raw), 'ms');
    r.metric('our client: TTFT', median(mine), 'ms');
    r.metric('openai SDK: TTFT', median(theirs), 'ms');
    r.metric('TTFT: our client − raw undici', median(mine) - median(raw), 'ms', { atMost: 1 });
  } finally {
    await sandbox.stop();
  }
}
