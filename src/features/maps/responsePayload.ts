// A maps command's answer as the response viewer (the notebook's renderer) shows it: status, time,
// request id, the request line, the headers, the body as a searchable JSON tree and the map of what it found.
// vscode-free so it is unit-tested; `data` is already redacted (responseText.ts).
import { PREVIEW_BYTES, type ResultPayload } from '../../webview/result/protocol';
import { geometryOf } from '../notebook/payload';

/** What a command knows about its call besides the answer (the client's MapsResult, the request sent). */
export interface ResponseMeta {
  status: number;
  durationMs: number;
  requestId?: string;
  fieldMask?: string;
  request?: { method: string; url: string };
  /** The response headers (the HTTP client masked secret ones; values pass the Redactor again here). */
  headers?: Record<string, string>;
}

export function responsePayload(resultId: string, operation: string, data: unknown, meta: ResponseMeta, redact: (text: string) => string): ResultPayload {
  const whole = JSON.stringify(data, null, 2);
  const size = Buffer.byteLength(whole);
  const partial = size > PREVIEW_BYTES;
  const g = geometryOf(data);
  return {
    resultId,
    service: 'maps',
    name: operation,
    state: 'done',
    ok: meta.status < 400,
    // ", " so a long mask wraps in the viewer's header.
    title: meta.fieldMask ? `${operation} · field mask ${redact(meta.fieldMask).split(',').join(', ')}` : operation,
    status: meta.status,
    durationMs: meta.durationMs,
    ...(meta.requestId ? { requestId: redact(meta.requestId) } : {}),
    ...(meta.request ? { request: { method: meta.request.method, url: redact(meta.request.url) } } : {}),
    ...(meta.headers ? { headers: Object.fromEntries(Object.entries(meta.headers).map(([k, v]) => [k, redact(v)])) } : {}),
    body: partial ? { text: whole.slice(0, PREVIEW_BYTES), size, partial } : { text: whole, json: data, size, partial },
    assertions: [],
    ...(g.markers.length || g.lines.length ? { geometry: g } : {}),
  };
}
