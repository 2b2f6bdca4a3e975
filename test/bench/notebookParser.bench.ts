// The notebook parser on big hostile files (a 2 MB single line, only NULs, thousands of fences): it
// must stay about linear. These were wall-clock assertions in the fuzz suite (each under 2 s); here
// they are figures with that goal. Each file is parsed and written back RUNS times; the median counts.
import { parseNotebook, serializeNotebook } from '../../src/notebook/format';
import { HOSTILE_NOTEBOOKS } from '../unit/fuzz/hostileNotebooks';
import { median, type BenchReporter } from './report';

const RUNS = 5;
const GOAL_MS = 2_000;

function describeText(text: string): string {
  const head = JSON.stringify(text.slice(0, 8)).slice(1, -1);
  return `${head}… (${(text.length / 1e6).toFixed(1)} M chars)`;
}

export default function notebookParserBench(r: BenchReporter): void {
  r.section(`Notebook parser: big hostile files, parse (median of ${RUNS} runs)`);
  for (const text of HOSTILE_NOTEBOOKS) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const nb = parseNotebook(text);
      times.push(performance.now() - t0);
      if (serializeNotebook(nb) !== text) throw new Error(`${describeText(text)} does not write back byte for byte`);
    }
    r.metric(`parse ${describeText(text)}`, median(times), 'ms', { atMost: GOAL_MS });
  }
}
