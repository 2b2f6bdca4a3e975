// Frames the broker writes and how it closes sockets: kept apart from the broker so its other
// parts (subscriptions, cache channels, users) build frames the same way.
import type { WebSocket } from 'ws';
import type { WireFrame } from '../../services/realtime/protocol';

/** A text frame: `data` is double-encoded as the hosted service does for string payloads. */
export function frame(event: string, data: unknown, channel?: string, userId?: string): string {
  const f: WireFrame = { event, data: typeof data === 'string' ? data : JSON.stringify(data) };
  if (channel !== undefined) f.channel = channel;
  if (userId !== undefined) f.user_id = userId;
  return JSON.stringify(f);
}

/** pusher:error frames carry an object (not a string) in `data`, like the hosted service. */
export function errorFrame(message: string, code: number | null, channel?: string): string {
  return JSON.stringify(
    channel === undefined ? { event: 'pusher:error', data: { code, message } } : { event: 'pusher:error', channel, data: { code, message } },
  );
}

/** WebSocket close reasons are at most 123 bytes (RFC 6455 §5.5); ws throws on a longer one. */
const MAX_CLOSE_REASON_BYTES = 123;

/** Closes with a reason cut to fit, as a reason may quote what the client sent (its key, its version). */
export function closeWith(ws: WebSocket, code: number, reason: string): void {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return ws.close(code, reason);
  let fitted = '';
  for (const ch of reason) {
    // 3 bytes are kept for the ellipsis.
    if (Buffer.byteLength(fitted + ch) > MAX_CLOSE_REASON_BYTES - 3) break;
    fitted += ch;
  }
  ws.close(code, `${fitted}…`);
}
