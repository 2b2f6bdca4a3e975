// google.rpc.Status errors as Google's JSON APIs send them:
// {"error":{"code":<http>,"message":"…","status":"INVALID_ARGUMENT","details":[{"@type":…}]}}.
import type { ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { sendJson } from '../http';

export type RpcStatus = 'INVALID_ARGUMENT' | 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'NOT_FOUND' | 'RESOURCE_EXHAUSTED' | 'INTERNAL';

const HTTP_OF: Record<RpcStatus, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
};

/** Thrown by the handlers; the server turns it into the error body. */
export class RpcError extends Error {
  constructor(
    readonly status: RpcStatus,
    message: string,
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
  get code(): number {
    return HTTP_OF[this.status];
  }
}

export function googleError(res: ServerResponse, code: number, status: string, message: string, requestId: string, details: unknown[] = []): void {
  sendJson(res, code, { error: { code, message, status, ...(details.length ? { details } : {}) } }, { 'x-request-id': requestId });
}

export function sendRpcError(res: ServerResponse, e: RpcError, requestId: string): void {
  googleError(res, e.code, e.status, e.message, requestId, e.details);
}

export function invalidArgument(message: string): RpcError {
  return new RpcError('INVALID_ARGUMENT', message);
}

/** The generic 400 with a google.rpc.BadRequest naming each offending field. */
export function badRequest(
  violations: Array<{ field?: string; description: string }>,
  message = violations[0]?.description ?? 'Request contains an invalid argument.',
): RpcError {
  return new RpcError('INVALID_ARGUMENT', message, [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: violations }]);
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const protoPath = (path: readonly PropertyKey[]) =>
  path
    .map((p) => (typeof p === 'number' ? `[${p}]` : snake(String(p))))
    .join('.')
    .replace(/\.\[/g, '[');

interface Issue {
  code: string;
  path: PropertyKey[];
  keys?: string[];
  expected?: string;
  values?: unknown[];
  message?: string;
}

/**
 * Parses a JSON request body against `schema`, raising the 400s Google's front end sends for
 * malformed JSON, unknown field names and values of the wrong type.
 */
export function parseBody<T>(schema: z.ZodMiniType<T>, text: string): T {
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    const detail = e instanceof Error ? e.message : 'Unexpected token.';
    throw badRequest([{ description: `Invalid JSON payload received. ${detail}` }]);
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const violations = (r.error.issues as unknown as Issue[]).slice(0, 5).map((i) => {
    const at = protoPath(i.path);
    if (i.code === 'unrecognized_keys') {
      const name = i.keys?.[0] ?? '?';
      return { description: `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.` };
    }
    if (i.code === 'invalid_value' && i.values) {
      return { field: at, description: `Invalid value at '${at}' (${i.values.map(String).join(' | ')})` };
    }
    if (i.code === 'invalid_type') return { field: at, description: `Invalid value at '${at}' (${protoType(i.expected)})` };
    return { field: at, description: `Invalid value at '${at}': ${i.message ?? i.code}` };
  });
  throw badRequest(violations);
}

function protoType(expected: string | undefined): string {
  switch (expected) {
    case 'number':
      return 'TYPE_DOUBLE';
    case 'string':
      return 'TYPE_STRING';
    case 'boolean':
      return 'TYPE_BOOL';
    case 'array':
      return 'repeated field';
    case 'object':
      return 'message';
    default:
      return expected ?? 'value';
  }
}
