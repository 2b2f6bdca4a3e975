// The realtime message log's engine, without the editor: one line per message (time, channel,
// event, compact data truncated with a note), lifecycle and webhook lines, and appends batched so
// a burst of 10,000 messages/s costs at most ~20 writes/s to the sink (an output channel) while no
// line is ever dropped. Counters tell received from written so a UI can show the backlog.
import { systemClock, type Clock, type TimerHandle } from '../../core/clock';

export interface LogStats {
  /** Messages handed to the log. */
  received: number;
  /** Messages written to the sink. */
  written: number;
  /** Lines (messages and notes) waiting for the next write. */
  pending: number;
  /** Sink writes so far. */
  writes: number;
}

export interface LogBatcherOptions {
  /** Receives batches of complete lines, each ending with "\n" (e.g. OutputChannel.append). */
  sink: (text: string) => void;
  maxWritesPerSecond?: number;
  /** Data longer than this is cut, with a note saying how long it was. */
  maxDataChars?: number;
  /** Lines kept for "Save Realtime Log…" (the oldest go first). */
  historyLines?: number;
  clock?: Clock;
  /** After each write; a status bar counter can hang off this. */
  onStats?: (stats: LogStats) => void;
  /** The sink threw: the lines stay queued for the next attempt. */
  onSinkError?: (error: unknown) => void;
}

/** Lines per joined block of the pending lines (see `sealed`). */
const SEAL_LINES = 64;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/**
 * Data as one compact line. JSON-encoded strings (the usual wire form) are kept as they are unless
 * they span lines, in which case they are re-serialised compactly; other values are JSON-encoded.
 */
export function compactData(data: unknown): string {
  if (data === undefined) return '';
  if (typeof data === 'string') {
    if (data.indexOf('\n') < 0 && data.indexOf('\r') < 0) return data;
    try {
      return JSON.stringify(JSON.parse(data));
    } catch {
      return JSON.stringify(data);
    }
  }
  // Values JSON cannot encode (functions, symbols, BigInt, cycles) never come off the wire; for
  // direct callers, String() is a last resort that cannot throw, "[object Object]" included.
  try {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return JSON.stringify(data) ?? String(data);
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return String(data);
  }
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)} … [truncated: ${text.length.toLocaleString('en-US')} chars, showing the first ${max.toLocaleString('en-US')}]`;
}

export class RealtimeLogBatcher {
  private readonly clock: Clock;
  private readonly minIntervalMs: number;
  private readonly maxDataChars: number;
  private readonly historyMax: number;
  /**
   * Lines waiting for the next write: the newest in `open`, the older ones already joined into
   * flat blocks of SEAL_LINES lines. A line is a rope of small strings (time, channel, event, the
   * frame's data) that a burst keeps alive until the write; every young-generation GC copied all
   * of them (~20% of a client's CPU at full speed). Joined early, the pieces die young and one
   * flat string per block is what survives.
   */
  private sealed: string[] = [];
  private open: string[] = [];
  private pendingLines = 0;
  /** Messages among the pending lines (notes are not counted as messages). */
  private pendingMessages = 0;
  private received = 0;
  private written = 0;
  private writes = 0;
  private lastWriteAt = -Infinity;
  private timer: TimerHandle | undefined;
  private disposed = false;
  /**
   * What was written, as the batches the sink got (oldest first, `historyHead` onwards): one flat
   * string per write instead of one string per line. Lines built from template literals are rope
   * strings that every young-generation GC would copy; at 10,000 messages/s that held the event
   * loop up by tens of milliseconds (`npm run bench`, realtime log lag).
   */
  private readonly history: { text: string; lines: number }[] = [];
  private historyHead = 0;
  private historyLines = 0;
  // Time formatting is cached per second: at 10,000 lines/s a Date per line shows in profiles.
  private cachedSecond = -1;
  private cachedPrefix = '';

  constructor(private readonly opts: LogBatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.minIntervalMs = 1000 / Math.max(1, opts.maxWritesPerSecond ?? 20);
    this.maxDataChars = opts.maxDataChars ?? 2_000;
    this.historyMax = Math.max(0, opts.historyLines ?? 20_000);
  }

  get stats(): LogStats {
    return { received: this.received, written: this.written, pending: this.pendingLines, writes: this.writes };
  }

  /** One received message. */
  message(channel: string | undefined, event: string, data: unknown, userId?: string): void {
    this.received++;
    this.pendingMessages++;
    let line = `${this.time(this.clock.now())}  ${channel ?? '(no channel)'}  ${event}  ${truncate(compactData(data), this.maxDataChars)}`;
    if (userId !== undefined) line += `  (from user ${userId})`;
    this.enqueue(line);
  }

  /** A lifecycle line ("connected, socket 1.2"), a webhook, or anything else worth a line. */
  note(text: string): void {
    this.enqueue(`${this.time(this.clock.now())}  ── ${truncate(text.replace(/\r?\n/g, ' '), this.maxDataChars)}`);
  }

  /** Writes what is queued now (e.g. before saving or disposing). */
  flush(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (this.pendingLines === 0) return;
    const lines = this.pendingLines;
    const messages = this.pendingMessages;
    if (this.open.length) this.seal();
    const text = this.sealed.length === 1 ? this.sealed[0] : this.sealed.join('');
    try {
      this.opts.sink(text);
    } catch (e) {
      this.opts.onSinkError?.(e);
      if (!this.disposed) this.schedule();
      return;
    }
    this.sealed = [];
    this.pendingLines = 0;
    this.pendingMessages = 0;
    this.written += messages;
    this.writes++;
    this.lastWriteAt = this.clock.now();
    this.remember(text, lines);
    this.opts.onStats?.(this.stats);
  }

  /** The last `historyLines` lines written, oldest first, for saving to a file. */
  text(): string {
    const batches = this.history.slice(this.historyHead).map((b) => b.text);
    const excess = this.historyLines - this.historyMax;
    // The oldest batch may hold lines beyond the limit: drop them from its front.
    if (excess > 0 && batches.length) batches[0] = dropLines(batches[0], excess);
    return batches.join('');
  }

  /** Forgets the saved history (the output channel was cleared); counters keep running. */
  clear(): void {
    this.history.length = 0;
    this.historyHead = 0;
    this.historyLines = 0;
  }

  dispose(): void {
    this.flush();
    this.disposed = true;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private enqueue(line: string): void {
    this.open.push(line);
    this.pendingLines++;
    if (this.open.length >= SEAL_LINES) this.seal();
    if (this.timer === undefined && !this.disposed) this.schedule();
  }

  private seal(): void {
    this.sealed.push(this.open.join('\n') + '\n');
    this.open = [];
  }

  private schedule(): void {
    const wait = Math.max(0, this.lastWriteAt + this.minIntervalMs - this.clock.now());
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private remember(text: string, lines: number): void {
    if (this.historyMax === 0) return;
    const h = this.history;
    h.push({ text, lines });
    this.historyLines += lines;
    // Drop whole batches while the rest still holds every line the limit keeps.
    while (this.historyLines - h[this.historyHead].lines >= this.historyMax) {
      this.historyLines -= h[this.historyHead].lines;
      this.historyHead++;
    }
    // Compact now and then instead of shifting the array on every write.
    if (this.historyHead > 1024 && this.historyHead * 2 > h.length) {
      h.splice(0, this.historyHead);
      this.historyHead = 0;
    }
  }

  private time(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.cachedSecond) {
      const d = new Date(ms);
      this.cachedSecond = second;
      this.cachedPrefix = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.`;
    }
    return this.cachedPrefix + pad3(ms - second * 1000);
  }
}

/** `text` without its first `n` lines (each ends with a newline). */
function dropLines(text: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n && at !== -1; i++) {
    at = text.indexOf('\n', at);
    if (at !== -1) at++;
  }
  return at === -1 ? '' : text.slice(at);
}
