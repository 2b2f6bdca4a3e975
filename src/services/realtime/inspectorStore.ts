// The Realtime Inspector's memory, without the editor: the last `capacity` messages in a ring, the
// current filter (channel, event, a regular expression over the data) kept as the list of matching
// sequence numbers so a page of rows is found without scanning, and pause. Every message is counted
// once in exactly one of: shown, filtered out, held (arrived while paused), dropped (pushed out of
// the ring), so the counts a user reads always add up to the received total.
import { compileUserPattern, PatternError, type UserPattern } from '../../core/userPattern';
import { compactData } from './logBatcher';
import { errorText } from '../../core/errors';

export interface InspectorMessage {
  connection: string;
  channel?: string;
  event: string;
  data: unknown;
  userId?: string;
  /** From a private-encrypted- channel, opened with the master key. */
  decrypted?: boolean;
}

export interface InspectorEntry {
  seq: number;
  /** Epoch milliseconds when it arrived. */
  time: number;
  connection: string;
  channel: string;
  event: string;
  /** The data as one compact line (the wire's JSON string as it came). */
  data: string;
  /** UTF-16 length of `data`; close to bytes for the usual ASCII JSON and far cheaper at 10,000/s. */
  size: number;
  userId?: string;
  decrypted: boolean;
}

/** An entry as the table shows it: the data cut to a preview. */
export type InspectorRow = Omit<InspectorEntry, 'data'> & { preview: string };

export interface InspectorFilter {
  /** Case-insensitive substring of the channel name; empty matches all. */
  channel: string;
  /** Case-insensitive substring of the event name. */
  event: string;
  /** A regular expression over the data (case-insensitive); empty matches all. */
  regex: string;
}

export interface InspectorCounts {
  /** Since the last Clear. */
  received: number;
  /** Kept, visible and matching the filter. */
  shown: number;
  /** Kept and visible but not matching. */
  filteredOut: number;
  /** Arrived while paused: shown or filtered on resume. */
  held: number;
  /** Pushed out of the ring by newer messages. */
  dropped: number;
  capacity: number;
  paused: boolean;
}

export const EMPTY_FILTER: InspectorFilter = { channel: '', event: '', regex: '' };
export const DEFAULT_CAPACITY = 100_000;
export const PREVIEW_CHARS = 300;

export type FilterResult = { ok: true } | { ok: false; problem: string };

/** Why `source` is not a usable regular expression, or undefined. */
export function regexProblem(source: string): string | undefined {
  try {
    compileUserPattern(source, 'i');
    return undefined;
  } catch (e) {
    return errorText(e);
  }
}

type Matcher = (channel: string, event: string, data: string) => boolean;

function matcherFor(f: InspectorFilter): Matcher | undefined {
  const channel = f.channel.trim().toLowerCase();
  const event = f.event.trim().toLowerCase();
  const re = f.regex === '' ? undefined : compileUserPattern(f.regex, 'i');
  if (!channel && !event && !re) return undefined;
  return (ch, ev, data) => (!channel || ch.toLowerCase().includes(channel)) && (!event || ev.toLowerCase().includes(event)) && (!re || searched(re, data));
}

/** A message too long for a large pattern to search in bounded time is filtered out, not thrown on: it arrives in the middle of a stream. */
function searched(re: UserPattern, data: string): boolean {
  try {
    return re.test(data);
  } catch (e) {
    if (e instanceof PatternError) return false;
    throw e;
  }
}

/**
 * The ring is kept in columns (typed arrays, names interned) rather than one object per message: at
 * 10,000 messages/s every kept object is promoted to the old generation and later traced by each
 * full GC, and an object plus fresh channel and event strings per message tripled that work (the
 * event-loop lag in `npm run bench`, realtime inspector). The data strings are joined into one flat
 * chunk per CHUNK_MESSAGES messages (as the realtime log keeps its history in batches), so the
 * heap holds a few chunks a second instead of 10,000 small strings.
 */
const CHUNK_MESSAGES = 1_000;

export class InspectorStore {
  readonly capacity: number;
  private readonly times: Float64Array;
  private readonly connections: Int32Array;
  private readonly channels: Int32Array;
  private readonly events: Int32Array;
  private readonly decrypted: Uint8Array;
  /** Where each kept message's data is: chunk number, offset and length in it. */
  private readonly dataChunk: Int32Array;
  private readonly dataOffset: Int32Array;
  private readonly dataLength: Int32Array;
  /** Joined chunks by number, with the last sequence number each holds (dropped when that leaves the ring). */
  private readonly chunks = new Map<number, { text: string; lastSeq: number }>();
  private nextChunk = 0;
  /** Data not yet joined into a chunk: that of sequence numbers `pendingFrom` onwards. */
  private pending: string[] = [];
  private pendingFrom = 0;
  private pendingChars = 0;
  /** Sparse: only messages sent by a signed-in user (client events) have one. */
  private readonly userIds = new Map<number, string>();
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  /** Sequence number the next message gets; the first after a Clear is `base`. */
  private nextSeq = 0;
  private base = 0;
  /** Oldest sequence number still in the ring. */
  private first = 0;
  /** While paused: the first sequence number held back. */
  private pausedAt: number | undefined;
  private filterValue: InspectorFilter = EMPTY_FILTER;
  private matcher: Matcher | undefined;
  /** Sequence numbers of visible matching entries, ascending, from `matchHead` on. */
  private matches: number[] = [];
  private matchHead = 0;

  constructor(
    capacity = DEFAULT_CAPACITY,
    private readonly now: () => number = Date.now,
  ) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.times = new Float64Array(this.capacity);
    this.connections = new Int32Array(this.capacity);
    this.channels = new Int32Array(this.capacity);
    this.events = new Int32Array(this.capacity);
    this.decrypted = new Uint8Array(this.capacity);
    this.dataChunk = new Int32Array(this.capacity);
    this.dataOffset = new Int32Array(this.capacity);
    this.dataLength = new Int32Array(this.capacity);
  }

  get filter(): InspectorFilter {
    return this.filterValue;
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  /** Stores a message; returns its sequence number. */
  add(m: InspectorMessage): number {
    const seq = this.nextSeq++;
    if (seq - this.first >= this.capacity) this.evictTo(seq - this.capacity + 1);
    const i = seq % this.capacity;
    const data = compactData(m.data);
    this.times[i] = this.now();
    this.connections[i] = this.intern(m.connection);
    this.channels[i] = this.intern(m.channel ?? '');
    this.events[i] = this.intern(m.event);
    this.decrypted[i] = m.decrypted === true ? 1 : 0;
    if (this.pending.length === 0) this.pendingFrom = seq;
    this.dataChunk[i] = this.nextChunk;
    this.dataOffset[i] = this.pendingChars;
    this.dataLength[i] = data.length;
    this.pending.push(data);
    this.pendingChars += data.length;
    if (this.pending.length >= CHUNK_MESSAGES) this.seal();
    if (m.userId !== undefined) this.userIds.set(seq, m.userId);
    if (this.pausedAt === undefined) this.consider(seq, data);
    return seq;
  }

  /** Applies a new filter; an invalid regular expression keeps the current one and says why. */
  setFilter(f: InspectorFilter): FilterResult {
    const problem = f.regex === '' ? undefined : regexProblem(f.regex);
    if (problem) return { ok: false, problem };
    this.filterValue = { channel: f.channel, event: f.event, regex: f.regex };
    this.matcher = matcherFor(this.filterValue);
    this.matches = [];
    this.matchHead = 0;
    const end = this.pausedAt ?? this.nextSeq;
    for (let seq = this.first; seq < end; seq++) this.consider(seq);
    return { ok: true };
  }

  pause(): void {
    if (this.pausedAt === undefined) this.pausedAt = this.nextSeq;
  }

  /** Everything that arrived while paused (and is still kept) joins the view, in order. */
  resume(): void {
    if (this.pausedAt === undefined) return;
    const from = Math.max(this.pausedAt, this.first);
    this.pausedAt = undefined;
    for (let seq = from; seq < this.nextSeq; seq++) this.consider(seq);
  }

  /** Forgets every message and restarts the counts; the filter and pause stay. */
  clear(): void {
    this.chunks.clear();
    this.pending = [];
    this.pendingChars = 0;
    this.nextChunk++;
    this.userIds.clear();
    this.base = this.first = this.nextSeq;
    if (this.pausedAt !== undefined) this.pausedAt = this.nextSeq;
    this.matches = [];
    this.matchHead = 0;
  }

  counts(): InspectorCounts {
    const received = this.nextSeq - this.base;
    const dropped = this.first - this.base;
    const held = this.pausedAt === undefined ? 0 : this.nextSeq - Math.max(this.pausedAt, this.first);
    const shown = this.matches.length - this.matchHead;
    return { received, shown, filteredOut: received - dropped - held - shown, held, dropped, capacity: this.capacity, paused: this.paused };
  }

  /** Shown rows `start` … `start + count - 1` (0 = oldest shown). */
  rows(start: number, count: number): InspectorRow[] {
    const out: InspectorRow[] = [];
    const shown = this.matches.length - this.matchHead;
    const end = Math.min(shown, Math.max(0, start) + Math.max(0, count));
    for (let i = Math.max(0, start); i < end; i++) out.push(toRow(this.entry(this.matches[this.matchHead + i])!));
    return out;
  }

  /** A kept message by sequence number (undefined once dropped or cleared). */
  entry(seq: number): InspectorEntry | undefined {
    if (!Number.isInteger(seq) || seq < this.first || seq >= this.nextSeq) return undefined;
    const i = seq % this.capacity;
    const data = this.data(seq);
    const e: InspectorEntry = {
      seq,
      time: this.times[i],
      connection: this.names[this.connections[i]],
      channel: this.names[this.channels[i]],
      event: this.names[this.events[i]],
      data,
      size: data.length,
      decrypted: this.decrypted[i] === 1,
    };
    const user = this.userIds.get(seq);
    if (user !== undefined) e.userId = user;
    return e;
  }

  /** The newest shown entry. */
  last(): InspectorEntry | undefined {
    return this.matches.length > this.matchHead ? this.entry(this.matches[this.matches.length - 1]) : undefined;
  }

  private consider(seq: number, data?: string): void {
    const i = seq % this.capacity;
    if (!this.matcher || this.matcher(this.names[this.channels[i]], this.names[this.events[i]], data ?? this.data(seq))) this.matches.push(seq);
  }

  private data(seq: number): string {
    const i = seq % this.capacity;
    if (this.dataChunk[i] === this.nextChunk) return this.pending[seq - this.pendingFrom] ?? '';
    const chunk = this.chunks.get(this.dataChunk[i]);
    return chunk ? chunk.text.slice(this.dataOffset[i], this.dataOffset[i] + this.dataLength[i]) : '';
  }

  /** Joins the pending data into one flat chunk. */
  private seal(): void {
    this.chunks.set(this.nextChunk++, { text: this.pending.join(''), lastSeq: this.pendingFrom + this.pending.length - 1 });
    this.pending = [];
    this.pendingChars = 0;
  }

  private intern(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  /** Drops entries below `first` from the ring and the match list. */
  private evictTo(first: number): void {
    if (this.userIds.size > 0) for (let seq = this.first; seq < first; seq++) this.userIds.delete(seq);
    this.first = first;
    // Chunks are dropped oldest first once none of their messages is kept.
    for (const [n, chunk] of this.chunks) {
      if (chunk.lastSeq >= first) break;
      this.chunks.delete(n);
    }
    while (this.matchHead < this.matches.length && this.matches[this.matchHead] < first) this.matchHead++;
    // Compact now and then instead of shifting on every message.
    if (this.matchHead > 4096 && this.matchHead * 2 > this.matches.length) {
      this.matches = this.matches.slice(this.matchHead);
      this.matchHead = 0;
    }
  }
}

function toRow(e: InspectorEntry): InspectorRow {
  const row: InspectorRow = {
    seq: e.seq,
    time: e.time,
    connection: e.connection,
    channel: e.channel,
    event: e.event,
    size: e.size,
    decrypted: e.decrypted,
    preview: e.data.length > PREVIEW_CHARS ? `${e.data.slice(0, PREVIEW_CHARS)}…` : e.data,
  };
  if (e.userId !== undefined) row.userId = e.userId;
  return row;
}
