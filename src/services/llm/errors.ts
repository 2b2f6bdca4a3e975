import type { Headers, ServiceErrorInfo } from '../../core/http';
import { validate } from '../../core/validate';
import { openAiErrorBodySchema } from './schemas';

/**
 * Reads OpenAI's error body (`{"error":{"message","type","param","code"}}`, Azure's variant with
 * `inner_error`, or the bare `{"error":"text"}` some compatible servers send) for HttpClient's
 * parseError. Retry-After headers are read by the HTTP core itself.
 */
export function openAiErrorParser(_status: number, body: unknown, _headers: Headers): ServiceErrorInfo {
  const v = validate(openAiErrorBodySchema(), body);
  if (!v.ok) return {};
  return errorInfo(v.value.error);
}

/** The code and message of an OpenAI error object (also used for `error` payloads inside a stream). */
export function errorInfo(error: string | { message?: string | null; type?: string | null; code?: string | number | null }): ServiceErrorInfo {
  if (typeof error === 'string') return { message: error };
  const code = error.code ?? error.type ?? undefined;
  return { code: code === undefined || code === null ? undefined : String(code), message: error.message ?? undefined };
}
