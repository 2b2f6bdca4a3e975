// A client that stops reading (a paused process, a dead network) made the queue of frames for its
// socket, and the sandbox's memory, grow without end (54 → 423 MB over 3,000 batch publishes, the
// socket never closed). Past a limit the socket is closed, as a hosted broker drops a client that
// cannot keep up.
import type { WebSocket } from 'ws';
import { CLOSE } from '../../services/realtime/protocol';
import { closeWith } from './frames';

/** How long a socket closed for not reading gets to take its close frame before it is cut. */
const SLOW_CLIENT_GRACE_MS = 1_000;

/**
 * Whether a frame may be queued on `ws`: false when it is not open, or when more than `maxBufferedBytes`
 * wait for its client, which then closes it (and says so in the log). 4100 is the protocol's "over
 * capacity" (../shared/protocols.md §1; Pusher's pusher-websockets-protocol.md, "Connection closure":
 * 4100–4199, reconnect after backing off), so pusher-js waits before reconnecting instead of
 * refilling the queue at once. The close frame waits behind the queue the client is not reading, so
 * the socket is cut a moment later if the client has not caught up by then.
 */
export function canQueue(ws: WebSocket, socketId: string, maxBufferedBytes: number, log: (line: string) => void): boolean {
  if (ws.readyState !== ws.OPEN) return false;
  if (ws.bufferedAmount <= maxBufferedBytes) return true;
  log(`realtime: closed socket ${socketId} (4100): its client stopped reading, ${ws.bufferedAmount} bytes were waiting (limit ${maxBufferedBytes})`);
  closeWith(ws, CLOSE.overCapacity, 'Client is not reading its messages: too many bytes waiting');
  setTimeout(() => ws.terminate(), SLOW_CLIENT_GRACE_MS).unref();
  return false;
}
