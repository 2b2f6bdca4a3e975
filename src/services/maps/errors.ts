import type { Headers, ServiceErrorInfo } from '../../core/http';
import { validate } from '../../core/validate';
import { googleErrorBodySchema } from './schemas';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/** "1.500s" → 1500 (google.protobuf.Duration in JSON). */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(text.trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/**
 * Reads Google's google.rpc.Status error body for HttpClient's parseError: the canonical status
 * ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED") as the code, the message (with the field violations
 * a generic "Request contains an invalid argument." hides), and RetryInfo.retryDelay as the wait.
 */
export function googleErrorParser(_status: number, body: unknown, _headers: Headers): ServiceErrorInfo {
  const v = validate(googleErrorBodySchema(), body);
  if (!v.ok) return {};
  const { message, status, details = [] } = v.value.error;
  let retryAfterMs: number | undefined;
  const violations: string[] = [];
  for (const d of details) {
    const rec = d as Record<string, unknown>;
    if (d['@type'] === RETRY_INFO) retryAfterMs = parseDuration(rec.retryDelay);
    if (d['@type'] === BAD_REQUEST && Array.isArray(rec.fieldViolations)) {
      for (const f of rec.fieldViolations as unknown[]) {
        const description = (f as { description?: unknown })?.description;
        if (typeof description === 'string' && description !== message) violations.push(description);
      }
    }
  }
  const text = [message, ...violations].filter(Boolean).join(' ');
  return { code: status, message: text || undefined, retryAfterMs };
}
