import * as assert from 'node:assert/strict';
import type { CancellationLike } from '../../../src/core/cancellation';
import { ApiError } from '../../../src/core/errors';

/** Deterministic PRNG (mulberry32), so a property test that fails can be replayed from its seed. */
export { seededRandom } from '../../../src/core/random';

/** Every string of an error a user or a log can see (for secret scans). */
export function visibleText(err: ApiError): string {
  return [err.message, err.serviceMessage, err.code, err.requestId, err.describe()].join(' | ');
}

/** Awaits `p`, which must reject with an ApiError, and returns that error. */
export async function apiErrorOf(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    assert.fail(`expected an ApiError, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  assert.fail('expected the promise to reject with an ApiError, but it resolved');
}

/** A stand-in for vscode.CancellationTokenSource that also counts live listeners (to catch leaks). */
export function cancellationSource(): { token: CancellationLike; cancel(): void; listeners(): number } {
  let cancelled = false;
  const listeners = new Set<() => unknown>();
  return {
    token: {
      get isCancellationRequested() {
        return cancelled;
      },
      onCancellationRequested(listener) {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      for (const l of [...listeners]) l();
    },
    listeners: () => listeners.size,
  };
}

/** Collects a byte stream as text; on failure returns what arrived plus the error. */
export async function drain(body: AsyncIterable<Uint8Array>): Promise<{ text: string; error?: unknown }> {
  const parts: Buffer[] = [];
  try {
    for await (const chunk of body) parts.push(Buffer.from(chunk));
    return { text: Buffer.concat(parts).toString('utf8') };
  } catch (error) {
    return { text: Buffer.concat(parts).toString('utf8'), error };
  }
}

/**
 * `p`, or a rejection naming `what` if it has not settled after `ms`: a bound on a hang that fails
 * with a clear message, not an assertion on speed.
 */
export function within<T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
