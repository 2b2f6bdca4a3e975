// Why a slow cell was slow, in words: the pretty CLI line and the cell's output say it, so a cell
// that took 20 s because the service answered 429 does not read like a slow service.
import { formatMs } from '../core/numbers';
import type { RequestWaits } from './types';

/** "after 1 retry (429, waited 20.5 s)", "waited 2.0 s for the connection's rate limit", or undefined when nothing waited. */
export function describeWaits(waits: RequestWaits | undefined): string | undefined {
  if (!waits) return undefined;
  const parts: string[] = [];
  if (waits.retries.length > 0) {
    const statuses = waits.retries.map((r) => (r.status === undefined ? 'no answer' : String(r.status))).join(', ');
    const waited = waits.retries.reduce((sum, r) => sum + r.delayMs, 0);
    parts.push(`after ${waits.retries.length} ${waits.retries.length === 1 ? 'retry' : 'retries'} (${statuses}; waited ${formatMs(waited)})`);
  }
  if (waits.queuedMs >= 1) parts.push(`waited ${formatMs(waits.queuedMs)} for the connection's rate limit`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
