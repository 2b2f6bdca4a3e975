// A server-sent-events parser that works on bytes as they arrive. Streams of chat completions carry
// tens of thousands of small events, so it avoids what makes naive parsers slow: it never
// re-concatenates the whole buffer and never runs a regex over it. It scans each network chunk
// once with native indexOf, decodes only the `data` values, and copies bytes only for the one line
// that straddles two chunks. Line ends may be LF, CRLF or CR (the SSE spec allows all three), and
// a chunk may end anywhere, even inside a multi-byte character or between CR and LF.

import { sharedAcrossBundles } from '../../core/sharedClass';

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The only error the parser throws: input that cannot be SSE within the configured bounds. */
export class SseError extends Error {
  static {
    sharedAcrossBundles(this, 'api-workbench.SseError');
  }

  constructor(message: string) {
    super(message);
    this.name = 'SseError';
  }
}

export interface SseParserOptions {
  /** A line longer than this (bytes) is refused; bounds memory on garbage without newlines. */
  maxLineBytes?: number;
  /** An event's data longer than this (characters) is refused. */
  maxEventChars?: number;
}

/** Called per dispatched event: its data (lines joined with "\n") and its `event:` name, if any. */
export type SseListener = (data: string, event: string | undefined) => void;

const DEFAULT_MAX_LINE = 32 * 1024 * 1024;

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export class SseParser {
  private readonly maxLine: number;
  private readonly maxEvent: number;
  /** Bytes of a line that began in an earlier chunk and has not ended yet. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The previous chunk ended with CR: a LF starting this one belongs to that line end. */
  private skipLf = false;
  private started = false;
  private data = '';
  private hasData = false;
  private eventName: string | undefined;
  /** Last `id:` seen (kept for reconnection logic; OpenAI-style streams do not use it). */
  lastEventId = '';

  constructor(opts: SseParserOptions = {}) {
    this.maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE;
    this.maxEvent = opts.maxEventChars ?? DEFAULT_MAX_LINE;
  }

  /** Feeds the next bytes; `onEvent` runs synchronously for every event they complete. */
  push(chunk: Uint8Array, onEvent: SseListener): void {
    const buf = asBuffer(chunk);
    const len = buf.length;
    let pos = 0;
    if (this.skipLf && pos < len) {
      if (buf[pos] === LF) pos++;
      this.skipLf = false;
    }
    // Most streams have no CR at all: then LF is the only line end and indexOf finds each one.
    const crlf = buf.indexOf(CR, pos) !== -1;

    if (this.partialBytes > 0 || this.partial.length > 0) {
      const end = crlf ? this.lineEnd(buf, pos) : buf.indexOf(LF, pos);
      if (end === -1) {
        this.keep(buf, pos, len);
        return;
      }
      this.keep(buf, pos, end);
      const line = Buffer.concat(this.partial, this.partialBytes);
      this.partial = [];
      this.partialBytes = 0;
      this.line(line, 0, line.length, onEvent);
      pos = this.after(buf, end);
    }

    if (!crlf) {
      for (;;) {
        const end = buf.indexOf(LF, pos);
        if (end === -1) break;
        this.line(buf, pos, end, onEvent);
        pos = end + 1;
      }
    } else {
      for (;;) {
        const end = this.lineEnd(buf, pos);
        if (end === -1) break;
        this.line(buf, pos, end, onEvent);
        pos = this.after(buf, end);
      }
    }
    if (pos < len) this.keep(buf, pos, len);
  }

  /**
   * The input has ended. Per the SSE spec an event without its closing blank line is dropped;
   * the return value says whether anything was pending, i.e. whether the stream was cut short.
   */
  end(): { truncated: boolean } {
    // A stream of nothing but its byte order mark is empty, not cut short.
    const onlyBom = !this.started && this.partialBytes === 3 && Buffer.concat(this.partial).equals(BOM);
    const truncated = (this.partialBytes > 0 && !onlyBom) || this.hasData || this.eventName !== undefined;
    this.partial = [];
    this.partialBytes = 0;
    this.resetEvent();
    return { truncated };
  }

  private keep(buf: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.partialBytes += to - from;
    if (this.partialBytes > this.maxLine) {
      this.partial = [];
      this.partialBytes = 0;
      throw new SseError(`SSE line longer than ${this.maxLine} bytes`);
    }
    // Copy: the caller may reuse the chunk's memory once push() returns.
    this.partial.push(Buffer.from(buf.subarray(from, to)));
  }

  /** Index of the next CR or LF at or after `pos`, or -1. */
  private lineEnd(buf: Buffer, pos: number): number {
    for (let i = pos; i < buf.length; i++) {
      const b = buf[i];
      if (b === LF || b === CR) return i;
    }
    return -1;
  }

  /** Where the next line starts after the line end at `end` (a CRLF counts once, even split). */
  private after(buf: Buffer, end: number): number {
    if (buf[end] !== CR) return end + 1;
    if (end + 1 < buf.length) return buf[end + 1] === LF ? end + 2 : end + 1;
    this.skipLf = true;
    return end + 1;
  }

  private line(buf: Buffer, start: number, end: number, onEvent: SseListener): void {
    if (end - start > this.maxLine) throw new SseError(`SSE line longer than ${this.maxLine} bytes`);
    if (!this.started) {
      this.started = true;
      // A UTF-8 byte order mark may open the stream (spec). Checked on the first whole line, so a
      // BOM split across chunks is recognised too.
      if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    }
    if (start === end) {
      // Blank line: dispatch. An event with no data is not dispatched (spec).
      if (this.hasData) {
        const data = this.data;
        const name = this.eventName;
        this.resetEvent();
        onEvent(data, name);
      } else this.resetEvent();
      return;
    }
    const first = buf[start];
    if (first === COLON) return; // comment
    // Fast path for the field that carries nearly every byte: "data:" / "data: ".
    if (first === 100 && buf[start + 1] === 97 && buf[start + 2] === 116 && buf[start + 3] === 97 && (start + 4 === end || buf[start + 4] === COLON)) {
      let v = start + 5;
      if (v < end && buf[v] === SPACE) v++;
      this.addData(v < end ? buf.toString('utf8', v, end) : '');
      return;
    }
    let fieldEnd = start;
    while (fieldEnd < end && buf[fieldEnd] !== COLON) fieldEnd++;
    const field = buf.toString('utf8', start, fieldEnd);
    let v = fieldEnd + 1;
    if (v < end && buf[v] === SPACE) v++;
    const value = fieldEnd === end ? '' : buf.toString('utf8', v, end);
    switch (field) {
      case 'data':
        this.addData(value);
        break;
      case 'event':
        this.eventName = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        // "retry" and unknown fields do not matter to a request/response stream.
        break;
    }
  }

  private addData(value: string): void {
    if (this.hasData) this.data += '\n' + value;
    else {
      this.data = value;
      this.hasData = true;
    }
    if (this.data.length > this.maxEvent) {
      this.resetEvent();
      throw new SseError(`SSE event data longer than ${this.maxEvent} characters`);
    }
  }

  private resetEvent(): void {
    this.data = '';
    this.hasData = false;
    this.eventName = undefined;
  }
}
