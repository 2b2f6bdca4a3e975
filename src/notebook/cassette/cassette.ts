// Record once, replay forever. A Cassette sits at the one transport seam (core/httpExchange's
// exchange hook), so every request of every cell kind (llm, maps, realtime REST, http, judges,
// `similar`) is recorded or answered the same way. One file per notebook, kept by the front end
// (CassetteStorage): pretty JSON in a stable order, so a recording reviews well in a pull request.
// Nothing secret is ever written: requests are keyed without credentials (requestKey.ts) and
// every value, asked and answered, passes the run's Redactor.
//   record          every request is sent, and the notebook's file is written anew at the end;
//   replay          nothing is sent: an answer comes from the recording, or the cell fails naming
//                   the nearest recording and how the request differs from it;
//   record-missing  replay what is recorded, send and record only what is not.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { ApiError } from '../../core/errors';
import { REPLAYED_HEADER, type ExchangeHook, type ExchangeResponse, type Headers, type ResponseBody } from '../../core/httpExchange';
import type { Redactor } from '../../core/redact';
import type { ListenMessage, ListenTape } from '../types';
import { parseRecording, serializeRecording, type CassetteEntry } from '../../core/recording/file';
import { recordedRequest, requestDifferences, requestKey, type RecordedRequest, type UrlAlias } from '../../core/recording/requestKey';

export type CassetteMode = 'record' | 'replay' | 'record-missing';

/** Where cassette files live; `name` is the notebook's path as the run was given it. */
export interface CassetteStorage {
  read(notebook: string): string | undefined;
  write(notebook: string, text: string): void;
  /** The file, for messages. */
  where(notebook: string): string;
}

/** Answer headers not worth keeping: they set state in a client, or change at every request. */
const DROPPED_ANSWER_HEADERS = new Set(['set-cookie', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

class NotebookTape {
  readonly recorded: CassetteEntry[] = [];
  private readonly byKey = new Map<string, CassetteEntry[]>();
  private readonly taken = new Map<string, number>();

  constructor(
    readonly notebook: string,
    readonly loaded: CassetteEntry[],
  ) {
    for (const e of loaded) {
      const key = requestKey(e.request);
      const list = this.byKey.get(key) ?? [];
      list.push(e);
      this.byKey.set(key, list);
    }
  }

  /** The next recording of this request (the same request asked again gets the next answer, then the last one). */
  take(req: RecordedRequest): CassetteEntry | undefined {
    const key = requestKey(req);
    const list = this.byKey.get(key);
    if (!list?.length) return undefined;
    const n = this.taken.get(key) ?? 0;
    this.taken.set(key, n + 1);
    return list[Math.min(n, list.length - 1)];
  }

  /** The recordings closest to `req` (same method and path first, fewest differences), with how they differ. */
  nearest(req: RecordedRequest): { entry: CassetteEntry; differences: string[] } | undefined {
    let best: { entry: CassetteEntry; differences: string[]; score: number } | undefined;
    for (const entry of this.loaded) {
      const differences = requestDifferences(entry.request, req);
      const samePath = entry.request.method === req.method && entry.request.url.split('?')[0] === req.url.split('?')[0];
      const score = differences.length + (samePath ? 0 : 100);
      if (!best || score < best.score) best = { entry, differences, score };
    }
    return best;
  }
}

export class Cassette implements ListenTape {
  private readonly tapes = new Map<string, NotebookTape>();
  private readonly scope = new AsyncLocalStorage<string>();
  /** Answers given from a recording, and requests sent and recorded, in this run. */
  replayed = 0;
  recordedCount = 0;

  constructor(
    readonly mode: CassetteMode,
    private readonly storage: CassetteStorage,
    private readonly redactor: Redactor,
    /**
     * Starts of URLs that change between runs (a sandbox on a free port) and the stable names written
     * instead; a function when they are known only once the run has started (the editor's sandbox).
     */
    private readonly aliases: readonly UrlAlias[] | (() => readonly UrlAlias[]) = [],
  ) {}

  /** Runs `fn` with its requests recorded into, or answered from, `notebook`'s file. */
  run<T>(notebook: string, fn: () => Promise<T>): Promise<T> {
    return this.scope.run(notebook, fn);
  }

  /** The hook to give core/httpExchange's setExchangeHook. */
  readonly hook: ExchangeHook = async (url, init, signal, next) => {
    const tape = this.tape(this.scope.getStore() ?? '(outside a notebook)');
    const request = recordedRequest(url, init, this.redactor, typeof this.aliases === 'function' ? this.aliases() : this.aliases);
    if (this.mode !== 'record') {
      const hit = tape.take(request);
      if (hit) {
        this.replayed++;
        if (this.mode === 'record-missing') tape.recorded.push(hit);
        return replayed(hit);
      }
      if (this.mode === 'replay') throw this.notRecorded(tape, request);
    }
    signal.throwIfAborted();
    const res = await next(url, init, signal);
    const entry: CassetteEntry = { request, response: { status: res.statusCode, headers: this.answerHeaders(res.headers), chunks: [] } };
    tape.recorded.push(entry);
    this.recordedCount++;
    return { ...res, body: this.tee(res.body, entry) };
  };

  /** A LISTEN's messages from the recording (replay), or undefined to listen live and record. */
  replayListen(connection: string, channel: string): ListenMessage[] | undefined {
    if (this.mode === 'record') return undefined;
    const tape = this.tape(this.scope.getStore() ?? '(outside a notebook)');
    const request = listenRequest(connection, channel);
    const hit = tape.take(request);
    if (hit) {
      this.replayed++;
      if (this.mode === 'record-missing') tape.recorded.push(hit);
      return hit.response.chunks.map((c) => c.json as ListenMessage);
    }
    if (this.mode === 'replay') throw this.notRecorded(tape, request);
    return undefined;
  }

  recordListen(connection: string, channel: string, messages: readonly ListenMessage[]): void {
    if (this.mode === 'replay') return;
    const tape = this.tape(this.scope.getStore() ?? '(outside a notebook)');
    const chunks = messages.map((m) => ({ t: m.atMs, json: JSON.parse(this.redactor.text(JSON.stringify(m))) as unknown }));
    tape.recorded.push({ request: listenRequest(connection, channel), response: { status: 200, headers: {}, chunks } });
    this.recordedCount++;
  }

  /** Writes the file of each notebook that recorded something; returns the files written. */
  save(): string[] {
    if (this.mode === 'replay') return [];
    const written: string[] = [];
    for (const tape of this.tapes.values()) {
      if (this.mode === 'record-missing' && tape.recorded.length === 0) continue;
      const kept = this.mode === 'record-missing' ? mergeEntries(tape.loaded, tape.recorded) : tape.recorded;
      // Stable order (by request, then as asked), so re-recording the same notebook changes only what changed.
      const entries = kept
        .map((e, i) => ({ e, i, key: requestKey(e.request) }))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i))
        .map(({ e }) => e);
      const text = serializeRecording(tape.notebook, entries);
      // Defence in depth: every value passed the redactor when it was recorded; the file passes once more.
      this.storage.write(tape.notebook, this.redactor.text(text));
      written.push(this.storage.where(tape.notebook));
    }
    return written;
  }

  private tape(notebook: string): NotebookTape {
    let tape = this.tapes.get(notebook);
    if (!tape) {
      tape = new NotebookTape(notebook, this.mode === 'record' ? [] : this.load(notebook));
      this.tapes.set(notebook, tape);
    }
    return tape;
  }

  private load(notebook: string): CassetteEntry[] {
    const text = this.storage.read(notebook);
    return text === undefined ? [] : parseRecording(text, this.storage.where(notebook));
  }

  private notRecorded(tape: NotebookTape, request: RecordedRequest): ApiError {
    const near = tape.nearest(request);
    const where = this.storage.where(tape.notebook);
    const what = `${request.method} ${request.url.split('?')[0]}`;
    const message = !near
      ? `${what} is not in the recording ${where}${tape.loaded.length ? '' : ' (it has no recordings: record it with --record)'}; nothing was sent (--replay)`
      : `${what} is not in the recording ${where}; nothing was sent (--replay). The nearest recording (${near.entry.request.method} ${near.entry.request.url.split('?')[0]}) differs in ${near.differences.slice(0, 3).join('; ')}. Record again with --record, or --record-missing`;
    return new ApiError({ kind: 'invalid-response', service: 'Recording', message });
  }

  private answerHeaders(headers: Headers): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.redactor.headers(headers))) if (!DROPPED_ANSWER_HEADERS.has(name.toLowerCase())) out[name] = value;
    return out;
  }

  /** The answer's body as the client reads it, each chunk kept (redacted) with its time after the head. */
  private tee(body: ResponseBody, entry: CassetteEntry): ResponseBody {
    const redactor = this.redactor;
    const started = performance.now();
    async function* chunks(): AsyncGenerator<Uint8Array> {
      let complete = false;
      try {
        for await (const chunk of body) {
          const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          entry.response.chunks.push({ t: Math.round(performance.now() - started), ...chunkContent(bytes, redactor) });
          yield chunk;
        }
        complete = true;
      } finally {
        if (!complete) entry.response.incomplete = true;
        if (!body.destroyed) body.destroy();
      }
    }
    return Readable.from(chunks(), { objectMode: true });
  }
}

function chunkContent(bytes: Buffer, redactor: Redactor): { text: string } | { base64: string } {
  const text = bytes.toString('utf8');
  // A chunk cut inside a multi-byte character, or bytes that are not text, are kept as base64.
  return Buffer.from(text, 'utf8').equals(bytes) ? { text: redactor.text(text) } : { base64: bytes.toString('base64') };
}

/** A LISTEN as a cassette keys it: by the connection's name and the channel (a socket's URL changes with its key and port). */
function listenRequest(connection: string, channel: string): RecordedRequest {
  return { method: 'LISTEN', url: `realtime:${connection}#${channel}`, headers: {} };
}

/** An answer from a recording: its status and headers, then its chunks as they came (without the waits). */
function replayed(entry: CassetteEntry): ExchangeResponse {
  const chunks = entry.response.chunks.map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64 ?? '', 'base64')));
  return {
    statusCode: entry.response.status,
    headers: { ...entry.response.headers, [REPLAYED_HEADER]: '1' },
    body: Readable.from(chunks, { objectMode: true }),
  };
}

/** The loaded recordings with the new ones added after them. */
function mergeEntries(loaded: readonly CassetteEntry[], recorded: readonly CassetteEntry[]): CassetteEntry[] {
  const fresh = recorded.filter((e) => !loaded.includes(e));
  return [...loaded, ...fresh];
}
