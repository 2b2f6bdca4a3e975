// OpenAI's cursor lists (`{object: 'list', data, first_id, last_id, has_more}`) with `after`,
// `limit` and `order`, shared by files, fine-tuning jobs and their events and checkpoints, batches,
// vector stores and their files, so every list pages the way the SDK's auto-pagination expects.
import { sendJson } from '../http';
import { baseHeaders, type Ctx } from './context';

/** OpenAI's default page size for the newer lists (files list everything unless asked). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * Sends one page of `newestFirst` (as the service keeps them): `order=asc` reverses it, `after=id`
 * starts past that id, `limit` caps the page (1..10,000; `defaultLimit` when absent).
 */
export function sendCursorPage<T extends { id: string }>(ctx: Ctx, newestFirst: readonly T[], defaultLimit = DEFAULT_PAGE_SIZE): void {
  let data = [...newestFirst];
  if (ctx.query.get('order') === 'asc') data.reverse();
  const after = ctx.query.get('after');
  if (after) data = data.slice(data.findIndex((item) => item.id === after) + 1);
  const limit = Math.max(1, Math.min(10_000, Number(ctx.query.get('limit')) || defaultLimit));
  const page = data.slice(0, limit);
  sendJson(
    ctx.res,
    200,
    { object: 'list', data: page, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null, has_more: data.length > limit },
    baseHeaders(ctx),
  );
}

/** Seconds since the epoch, as every OpenAI object's `created_at` is. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
