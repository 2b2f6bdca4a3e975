// The MCP server's stdio transport: one JSON-RPC message per line, as the SDK's own
// StdioServerTransport reads them, but a line over the size limit is answered with a JSON-RPC
// error and skipped instead of closing the transport (the SDK's ends the server). Memory stays
// bounded: of a line past the limit only its first and last few KiB are kept (to find its id), the
// rest is dropped as it arrives, up to the newline.
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): a message longer than this is refused. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Bytes kept of each end of a line that is too large, to find the request's id in. */
const KEPT_EDGE_BYTES = 64 * 1024;
/** JSON-RPC's "Invalid Request": the message is refused as a whole. */
const INVALID_REQUEST = -32600;
const NEWLINE = 0x0a;

type RequestId = string | number;

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The pieces of the line being read while it is within the limit. */
  private pieces: Buffer[] = [];
  /** Bytes of the line being read so far (all of it, kept or dropped). */
  private lineBytes = 0;
  /** Set once the line being read has passed the limit: its first bytes, and its last ones so far. */
  private tooLarge: { head: Buffer; tail: Buffer } | undefined;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string) => this.read(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  start(): Promise<void> {
    if (this.started) throw new Error('the MCP stdio transport is already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.tooLarge = undefined;
    this.onclose?.();
    return Promise.resolve();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      this.take(piece);
      if (end === -1) return;
      this.endOfLine();
      start = end + 1;
    }
  }

  /** A piece of the current line: kept while the line is within the limit, else only its edges. */
  private take(piece: Buffer): void {
    this.lineBytes += piece.length;
    if (!this.tooLarge && this.lineBytes <= this.maxMessageBytes) {
      this.pieces.push(piece);
      return;
    }
    if (!this.tooLarge) {
      const sofar = Buffer.concat([...this.pieces, piece]);
      this.tooLarge = { head: Buffer.from(sofar.subarray(0, KEPT_EDGE_BYTES)), tail: Buffer.from(sofar.subarray(-KEPT_EDGE_BYTES)) };
      this.pieces = [];
      return;
    }
    this.tooLarge.tail = Buffer.from(Buffer.concat([this.tooLarge.tail, piece]).subarray(-KEPT_EDGE_BYTES));
  }

  private endOfLine(): void {
    const tooLarge = this.tooLarge;
    const bytes = this.lineBytes;
    const line = tooLarge ? undefined : Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.lineBytes = 0;
    this.tooLarge = undefined;
    if (tooLarge) return this.refuseTooLarge(tooLarge.head.toString('utf8'), tooLarge.tail.toString('utf8'), bytes);
    if (line === undefined || line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (e) {
      // As the SDK's transport does: said through onerror (stderr), and the server goes on.
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    this.onmessage?.(message);
  }

  private refuseTooLarge(head: string, tail: string, bytes: number): void {
    const message = `message too large (${bytes} bytes; limit ${this.maxMessageBytes})`;
    this.onerror?.(new Error(`a ${message} was refused`));
    void this.send({ jsonrpc: '2.0', id: requestIdOf(head, tail) ?? null, error: { code: INVALID_REQUEST, message } } as unknown as JSONRPCMessage);
  }
}

const ID_VALUE = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`;
/** `"id"` among the first keys of the message (after simple string-valued ones such as jsonrpc and method). */
const LEADING_ID = new RegExp(String.raw`^\s*\{\s*(?:"(?:[^"\\]|\\.)*"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*"id"\s*:\s*${ID_VALUE}`);
/** `"id"` as the last key of the message (the SDK's clients write it last): nothing nested closes after it. */
const TRAILING_ID = new RegExp(String.raw`,\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a request too large to read whole, when one of its ends shows it at the top level. */
function requestIdOf(head: string, tail: string): RequestId | undefined {
  const found = LEADING_ID.exec(head)?.[1] ?? TRAILING_ID.exec(tail.replace(/\r$/, ''))?.[1];
  if (found === undefined) return undefined;
  try {
    const id = JSON.parse(found) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}
