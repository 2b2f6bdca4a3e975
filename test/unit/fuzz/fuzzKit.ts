// Shared settings of the fuzz suite (property tests over every parser, part of `npm test`). Each
// property has its own fixed seed (from its name), so a run is repeatable and a failure can be
// replayed: fast-check prints the seed, the shrink path and the smallest failing input.
// AWB_FUZZ_SEED=<n> runs every property with another seed; AWB_FUZZ_RUNS=<factor> scales numRuns
// (e.g. 20 for a long hunt); the default keeps the whole suite within about 20 s on a slow machine.
// No input is timed here (no wall-clock assertions in the suite): a parser gone super-linear on junk
// fails on mocha's per-test timeout, and the big hostile inputs have their parse times, with goals,
// in `npm run bench` (notebook parser).
import fc from 'fast-check';

const RUNS_FACTOR = Number(process.env.AWB_FUZZ_RUNS ?? 1) || 1;

function seedOf(name: string): number {
  const fromEnv = process.env.AWB_FUZZ_SEED;
  if (fromEnv !== undefined && Number.isInteger(Number(fromEnv))) return Number(fromEnv);
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h | 0;
}

function settings(name: string, numRuns: number): fc.Parameters<unknown> {
  return { seed: seedOf(name), numRuns: Math.max(1, Math.round(numRuns * RUNS_FACTOR)), endOnFailure: false };
}

/** Checks `predicate` on `numRuns` inputs; it throws (an assertion) to fail. */
export function check<T>(name: string, arb: fc.Arbitrary<T>, numRuns: number, predicate: (value: T) => void): void {
  fc.assert(
    fc.property(arb, (v) => predicate(v)),
    settings(name, numRuns) as fc.Parameters<[T]>,
  );
}

/** The same for async predicates (inputs sent to a local server). */
export async function checkAsync<T>(name: string, arb: fc.Arbitrary<T>, numRuns: number, predicate: (value: T) => Promise<void>): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, (v) => predicate(v)),
    settings(name, numRuns) as fc.Parameters<[T]>,
  );
}

/** Text that is hard on parsers: any code points (lone surrogates too), NULs, line ends of every kind. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
      { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\0', '\uFEFF', '\uD800', '\uDFFF', '\u2028', '\t', ' ') },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

/** Splits `bytes` into chunks at random points (as a network would). */
export const splitPoints = (length: number): fc.Arbitrary<number[]> =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: Math.min(12, length) }).map((p) => p.sort((a, b) => a - b));

export function chunksOf(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    if (p <= from || p >= bytes.length) continue;
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out;
}
