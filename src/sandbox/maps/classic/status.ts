// The classic web services' outcome: always HTTP 200, with the outcome in the body's `status`
// (and an `error_message` beside any failure), as Google's maps.googleapis.com/maps/api/* answer.
import * as z from 'zod/mini';

export type ClassicStatus =
  | 'OK'
  | 'ZERO_RESULTS'
  | 'NOT_FOUND'
  | 'INVALID_REQUEST'
  | 'REQUEST_DENIED'
  | 'OVER_QUERY_LIMIT'
  | 'MAX_ELEMENTS_EXCEEDED'
  | 'MAX_DIMENSIONS_EXCEEDED'
  | 'MAX_WAYPOINTS_EXCEEDED'
  | 'UNKNOWN_ERROR';

/** Thrown by the classic handlers; the server turns it into `{…empty lists, status, error_message}`. */
export class ClassicError extends Error {
  constructor(
    readonly status: ClassicStatus,
    message: string,
  ) {
    super(message);
  }
}

/** Google's words for a request without a required parameter ("Missing the 'origin' parameter."). */
export function missingParameter(...names: string[]): ClassicError {
  const list =
    names.length === 1
      ? `'${names[0]}'`
      : `${names
          .slice(0, -1)
          .map((n) => `'${n}'`)
          .join(', ')} or '${names[names.length - 1]}'`;
  return new ClassicError('INVALID_REQUEST', `Invalid request. Missing the ${list} parameter.`);
}

export function invalidParameter(name: string): ClassicError {
  return new ClassicError('INVALID_REQUEST', `Invalid request. Invalid '${name}' parameter.`);
}

/**
 * A request's query parameters, read through `schema` (the outside data of a classic request). An
 * empty value counts as absent, as Google treats `address=`.
 */
export function queryParams<T>(schema: z.ZodMiniType<T>, url: URL): T {
  const raw: Record<string, string> = {};
  for (const [k, v] of url.searchParams) if (v.trim() !== '' && !(k in raw)) raw[k] = v;
  return schema.parse(raw);
}

/** One optional query parameter. */
export const param = z.optional(z.string());

/** A number parameter, or INVALID_REQUEST naming it. */
export function numberParam(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw invalidParameter(name);
  return n;
}
