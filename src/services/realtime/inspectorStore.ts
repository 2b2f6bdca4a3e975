// The Realtime Inspector's memory, without the editor: the last `capacity` messages in a ring, the
// current filter (channel, event, a regular expression over the data) kept as the list of matching
// sequence numbers so a page of rows is found without scanning, and pause. Every message is counted
// once in exactly one of: shown, filtered out, held (arrived while paused), dropped (pushed out of
// the ring), so the counts a user reads always add up to the received total.
import { compactData } from './logBatcher';

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
    new RegExp(source, 'i');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

type Matcher = (e: InspectorEntry) => boolean;

function matcherFor(f: InspectorFilter): Matcher | undefined {
  const channel = f.channel.trim().toLowerCase();
  const event = f.event.trim().toLowerCase();
  const re = f.regex === '' ? undefined : new RegExp(f.regex, 'i');
  if (!channel && !event && !re) return undefined;
  return (e) => (!channel || e.channel.toLowerCase().includes(channel)) && (!event || e.event.toLowerCase().includes(event)) && (!re || re.test(e.data));
}

export class InspectorStore {
  readonly capacity: number;
  private readonly ring: (InspectorEntry | undefined)[];
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

  constructor(capacity = DEFAULT_CAPACITY, private readonly now: () => number = Date.now) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.ring = new Array<InspectorEntry | undefined>(this.capacity);
  }

  get filter(): InspectorFilter {
    return this.filterValue;
  }

  get paused(): boolean {
    return this.pausedAt !== undefined;
  }

  add(m: InspectorMessage): InspectorEntry {
    const data = compactData(m.data);
    const entry: InspectorEntry = {
      seq: this.nextSeq++,
      time: this.now(),
      connection: m.connection,
      channel: m.channel ?? '',
      event: m.event,
      data,
      size: data.length,
      decrypted: m.decrypted === true,
    };
    if (m.userId !== undefined) entry.userId = m.userId;
    this.ring[entry.seq % this.capacity] = entry;
    if (entry.seq - this.first >= this.capacity) this.evictTo(entry.seq - this.capacity + 1);
    if (this.pausedAt === undefined) this.consider(entry);
    return entry;
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
    for (let seq = this.first; seq < end; seq++) this.consider(this.ring[seq % this.capacity]!);
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
    for (let seq = from; seq < this.nextSeq; seq++) this.consider(this.ring[seq % this.capacity]!);
  }

  /** Forgets every message and restarts the counts; the filter and pause stay. */
  clear(): void {
    this.ring.fill(undefined);
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
    for (let i = Math.max(0, start); i < end; i++) {
      const e = this.ring[this.matches[this.matchHead + i] % this.capacity]!;
      out.push(toRow(e));
    }
    return out;
  }

  /** A kept message by sequence number (undefined once dropped or cleared). */
  entry(seq: number): InspectorEntry | undefined {
    if (!Number.isInteger(seq) || seq < this.first || seq >= this.nextSeq) return undefined;
    return this.ring[seq % this.capacity];
  }

  /** The newest shown entry. */
  last(): InspectorEntry | undefined {
    return this.matches.length > this.matchHead ? this.entry(this.matches[this.matches.length - 1]) : undefined;
  }

  private consider(e: InspectorEntry): void {
    if (!this.matcher || this.matcher(e)) this.matches.push(e.seq);
  }

  /** Drops entries below `first` from the ring and the match list. */
  private evictTo(first: number): void {
    this.first = first;
    while (this.matchHead < this.matches.length && this.matches[this.matchHead] < first) this.matchHead++;
    // Compact now and then instead of shifting on every message.
    if (this.matchHead > 4096 && this.matchHead * 2 > this.matches.length) {
      this.matches = this.matches.slice(this.matchHead);
      this.matchHead = 0;
    }
  }
}

function toRow(e: InspectorEntry): InspectorRow {
  const row: InspectorRow = { seq: e.seq, time: e.time, connection: e.connection, channel: e.channel, event: e.event, size: e.size, decrypted: e.decrypted, preview: e.data.length > PREVIEW_CHARS ? `${e.data.slice(0, PREVIEW_CHARS)}…` : e.data };
  if (e.userId !== undefined) row.userId = e.userId;
  return row;
}
