// User-written patterns (issue "Reliability, round 3", class 1): the Realtime Inspector's filter over
// 10k kept messages, and the cost of each incoming 10 KB message with a filter set, on the bounded
// engine (src/core/userPattern.ts) against JavaScript's RegExp as the reference in the same run.
import { compileUserPattern } from '../../src/core/userPattern';
import { InspectorStore } from '../../src/services/realtime/inspectorStore';
import type { BenchReporter } from './report';

const MESSAGES = 10_000;
const FILTER = '.*error.*';

function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

export default function userPatternBench(r: BenchReporter): void {
  r.section('User-written patterns (Realtime Inspector filter, notebook checks)');
  const store = new InspectorStore(MESSAGES);
  for (let i = 0; i < MESSAGES; i++) {
    const data = JSON.stringify({ id: i, status: i % 100 === 0 ? 'error' : 'shipped', note: 'x'.repeat(200 + (i % 50)) });
    store.add({ connection: 'Local Sandbox', channel: 'orders', event: 'update', data });
  }
  const filterMs = timeMs(() => store.setFilter({ channel: '', event: '', regex: FILTER }));
  r.metric(`Inspector filter /${FILTER}/i over ${MESSAGES.toLocaleString('en-US')} kept messages`, filterMs, ' ms', { atMost: 100 });

  const big = JSON.stringify({ status: 'shipped', note: 'x'.repeat(10_000) });
  const ours = compileUserPattern(FILTER, 'i');
  const native = new RegExp(FILTER, 'i');
  const runs = 50;
  const oursMs =
    timeMs(() => {
      for (let i = 0; i < runs; i++) ours.test(big);
    }) / runs;
  const nativeMs =
    timeMs(() => {
      for (let i = 0; i < runs; i++) native.test(big);
    }) / runs;
  r.metric(`one 10 KB message through /${FILTER}/i`, oursMs, ' ms', { atMost: 1 });
  r.ratio(`one 10 KB message: bounded engine ÷ JavaScript RegExp`, oursMs, nativeMs);
  // A pattern that is not a plain word runs on RE2 itself.
  const general = compileUserPattern('"status":"(error|fail(ed)?)"', 'i');
  r.metric(
    'one 10 KB message through /"status":"(error|fail(ed)?)"/i',
    timeMs(() => {
      for (let i = 0; i < runs; i++) general.test(big);
    }) / runs,
    ' ms',
    { atMost: 1 },
  );
  const evil = `${'a'.repeat(100_000)}!`;
  r.metric(
    "/(a+)+$/ over 100,000 a's and a ! (JavaScript RegExp: never returns)",
    timeMs(() => compileUserPattern('(a+)+$').test(evil)),
    ' ms',
    { atMost: 1_000 },
  );
  // Issue 37: a 120,000-instruction program (counted repetitions written out) took 1 s to compile
  // and 73 s to search 4 KB; it is now refused before compiling.
  const flat = `${'[ab]{1,1000}'.repeat(60)}c`;
  const answer = `${'ab'.repeat(2_000)}xc`;
  r.metric(
    'sixty [ab]{1,1000} then c against a 4 KB answer (refused: program too large; was 73 s)',
    timeMs(() => {
      try {
        compileUserPattern(flat).test(answer);
      } catch {
        // refused, as it should be
      }
    }),
    ' ms',
    { atMost: 100 },
  );
}
