// {{var}} substitution over a large cell: 100k references (issue "Reliability, round 3", class 5:
// counting each reference's line from the start of the text made this quadratic, 75 s).
import { substitute, type VariableScope } from '../../src/notebook/variables';
import type { BenchReporter } from './report';

const REFERENCES = 100_000;
const GOAL_MS = 2_000;

export default function variablesBench(r: BenchReporter): void {
  r.section('Notebook variables');
  const scope: VariableScope = { file: 'bench.awb.md', variables: new Map([['city', 'Lisbon']]), cellNames: new Set(), result: () => undefined };
  const oneLine = '{{city}} '.repeat(REFERENCES);
  const manyLines = Array.from({ length: REFERENCES }, () => '{{city}}').join('\n');
  for (const [name, text] of [
    ['one line', oneLine],
    ['one per line', manyLines],
  ] as const) {
    const t0 = performance.now();
    substitute(text, 1, scope);
    r.metric(`${REFERENCES / 1000}k {{var}} references, ${name}`, performance.now() - t0, ' ms', { atMost: GOAL_MS });
  }
}
