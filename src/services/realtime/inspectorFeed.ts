// What the Realtime Inspector's page is sent, and when: at most one update per interval (100 ms)
// however fast messages arrive, carrying the counts and only the rows the page can see. A flood of
// 10,000 messages/s therefore costs ~10 small postMessage calls a second, not 10,000. Also the
// messages the page sends back, validated here because they cross a process boundary.
import * as z from 'zod/mini';
import { systemClock, type Clock, type TimerHandle } from '../../core/clock';
import type { InspectorCounts, InspectorEntry, InspectorFilter, InspectorRow, InspectorStore } from './inspectorStore';

export const FEED_INTERVAL_MS = 100;
/** Rows one update may carry, whatever the page asks for. */
export const MAX_VIEWPORT_ROWS = 500;

export const pageMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('viewport'), start: z.number(), count: z.number(), follow: z.boolean() }),
  z.object({ type: z.literal('filter'), channel: z.string(), event: z.string(), regex: z.string() }),
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('resume') }),
  z.object({ type: z.literal('clear') }),
  z.object({ type: z.literal('select'), seq: z.number() }),
  z.object({ type: z.literal('copy'), seq: z.number() }),
  z.object({ type: z.literal('republish'), seq: z.number(), channel: z.string(), event: z.string(), data: z.string() }),
  /** What the page drew (first and last row, the total): lets tests see the page, not only the host. */
  z.object({ type: z.literal('rendered'), seqs: z.array(z.number()), total: z.number(), header: z.string() }),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;

/** An entry opened in the page: the data pretty-printed when it is JSON. */
export type InspectorDetail = InspectorEntry & { pretty: string; json: boolean };

export type HostMessage =
  | { type: 'update'; counts: InspectorCounts; start: number; rows: InspectorRow[]; follow: boolean }
  | { type: 'filterResult'; filter: InspectorFilter; problem?: string }
  | { type: 'detail'; detail: InspectorDetail | undefined; seq: number }
  /** Sets the page's inputs as a person would type them (used by commands and tests). */
  | { type: 'set'; filter?: InspectorFilter; paused?: boolean; select?: number | 'last' };

export function detailOf(e: InspectorEntry): InspectorDetail {
  try {
    return { ...e, pretty: JSON.stringify(JSON.parse(e.data), null, 2), json: true };
  } catch {
    return { ...e, pretty: e.data, json: false };
  }
}

export class InspectorFeed {
  private readonly clock: Clock;
  private readonly interval: number;
  private viewport = { start: 0, count: 50, follow: true };
  private timer: TimerHandle | undefined;
  private lastPostAt = -Infinity;
  private posts = 0;
  private disposed = false;

  constructor(
    private readonly store: InspectorStore,
    private readonly post: (m: HostMessage) => void,
    opts: { clock?: Clock; intervalMs?: number } = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.interval = opts.intervalMs ?? FEED_INTERVAL_MS;
  }

  /** Updates posted so far. */
  get updates(): number {
    return this.posts;
  }

  /** Something changed (a message arrived): an update goes out within one interval. */
  changed(): void {
    if (this.timer !== undefined || this.disposed) return;
    const wait = Math.max(0, this.lastPostAt + this.interval - this.clock.now());
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Posts the update now (e.g. when the page has just loaded). */
  flush(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    if (this.disposed) return;
    const counts = this.store.counts();
    const count = Math.min(MAX_VIEWPORT_ROWS, Math.max(0, Math.floor(this.viewport.count)));
    const start = this.viewport.follow
      ? Math.max(0, counts.shown - count)
      : Math.min(Math.max(0, Math.floor(this.viewport.start)), Math.max(0, counts.shown - 1));
    this.lastPostAt = this.clock.now();
    this.posts++;
    this.post({ type: 'update', counts, start, rows: this.store.rows(start, count), follow: this.viewport.follow });
  }

  /** Handles the page's store messages; false for the ones the editor handles (copy, republish, rendered). */
  handle(m: PageMessage): boolean {
    switch (m.type) {
      case 'ready':
        this.post({ type: 'set', filter: this.store.filter, paused: this.store.paused });
        this.flush();
        return true;
      case 'viewport':
        this.viewport = { start: m.start, count: m.count, follow: m.follow };
        this.changed();
        return true;
      case 'filter': {
        const r = this.store.setFilter({ channel: m.channel, event: m.event, regex: m.regex });
        this.post(r.ok ? { type: 'filterResult', filter: this.store.filter } : { type: 'filterResult', filter: this.store.filter, problem: r.problem });
        if (r.ok) this.flush();
        return true;
      }
      case 'pause':
        this.store.pause();
        this.flush();
        return true;
      case 'resume':
        this.store.resume();
        this.flush();
        return true;
      case 'clear':
        this.store.clear();
        this.flush();
        return true;
      case 'select': {
        const e = this.store.entry(m.seq);
        this.post({ type: 'detail', seq: m.seq, detail: e && detailOf(e) });
        return true;
      }
      default:
        return false;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
