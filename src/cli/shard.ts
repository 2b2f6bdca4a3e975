// --shard i/n: the i-th of n slices of a run's jobs (notebook × data row × matrix value), so that n
// CI jobs given the same files and options run every job exactly once between them. The jobs are
// listed in one order that depends only on the command line (files sorted, rows and matrix values
// in their order), and cut into n contiguous slices whose sizes differ by at most one, as
// Playwright cuts its test list. Contiguous slices keep the merged report in the unsharded order.
import { CliError } from './errors';

export interface Shard {
  /** 1-based, as written on the command line. */
  index: number;
  total: number;
}

/** Reads `--shard 2/3`; anything else is a usage error naming the form. */
export function parseShard(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!m || total < 1 || index < 1 || index > total || total > 10_000)
    throw new CliError(`--shard takes i/n with 1 ≤ i ≤ n (e.g. --shard 2/3 runs the second of three slices), not "${text}"`);
  return { index, total };
}

/** Where the slice of shard `index` (1-based) of `total` begins and ends in a list of `count` jobs. */
export function shardRange(count: number, shard: Shard): { start: number; end: number } {
  const start = Math.floor(((shard.index - 1) * count) / shard.total);
  const end = Math.floor((shard.index * count) / shard.total);
  return { start, end };
}

/** This shard's jobs, in their order; every job is in exactly one of the n slices. */
export function shardJobs<T>(jobs: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...jobs];
  const { start, end } = shardRange(jobs.length, shard);
  return jobs.slice(start, end);
}
