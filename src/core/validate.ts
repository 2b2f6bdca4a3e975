import type * as z from 'zod/mini';

/**
 * Validation at the boundary: every JSON body from a service passes through a zod schema before
 * the rest of the code sees it. zod/mini ships no English messages (they cost bundle size), so
 * issues are described here from their codes.
 */
export type Schema<T> = z.ZodMiniType<T>;

interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  message?: string;
  values?: unknown[];
}

export function describeIssues(issues: readonly Issue[], max = 3): string {
  const parts = issues.slice(0, max).map((i) => {
    const where = i.path.length ? i.path.map(String).join('.') : '(root)';
    if (i.code === 'invalid_type') return `${where}: expected ${i.expected}`;
    if (i.code === 'invalid_value' && i.values) return `${where}: expected one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    return `${where}: ${i.message && i.message !== 'Invalid input' ? i.message : i.code.replace(/_/g, ' ')}`;
  });
  if (issues.length > max) parts.push(`and ${issues.length - max} more`);
  return parts.join('; ');
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problem: string };

export function validate<T>(schema: Schema<T>, value: unknown): Validated<T> {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, problem: describeIssues(r.error.issues) };
}

/** JSON.parse that reports instead of throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
