// How every benchmark prints its figures: aligned, with units, and with a pass/miss against its
// goal. Benchmarks print figures, they do not assert: a missed goal is reported, not thrown.
//   export default async function (r: BenchReporter) { r.section('…'); r.metric(…); r.ratio(…); }

/** A bound on a figure: `{ atMost: 150 }` for sizes and times, `{ atLeast: 1.2 }` for throughput. */
export type Goal = { atMost: number } | { atLeast: number };

export interface BenchRecord {
  section: string;
  name: string;
  value: number;
  unit: string;
  /** For ratios: the two figures compared. */
  ours?: number;
  reference?: number;
  goal?: Goal;
  /** Present when there is a goal. */
  met?: boolean;
}

const NAME_WIDTH = 52;

/** Three significant digits, without exponent notation for the ranges benchmarks produce. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs >= 1000) return v.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (abs >= 100) return v.toFixed(0);
  if (abs >= 10) return v.toFixed(1);
  if (abs >= 1) return v.toFixed(2);
  return v.toPrecision(3);
}

function describeGoal(goal: Goal, unit: string): string {
  return 'atMost' in goal ? `goal ≤ ${formatNumber(goal.atMost)}${unit}` : `goal ≥ ${formatNumber(goal.atLeast)}${unit}`;
}

function meets(value: number, goal: Goal): boolean {
  return 'atMost' in goal ? value <= goal.atMost : value >= goal.atLeast;
}

export class BenchReporter {
  readonly records: BenchRecord[] = [];
  private current = '';

  /**
   * @param print where lines go (stdout by default)
   * @param onRecord also receives every figure (the bench runner forwards them to its summary)
   */
  constructor(
    private readonly print: (line: string) => void = (l) => process.stdout.write(l + '\n'),
    private readonly onRecord?: (r: BenchRecord) => void,
  ) {}

  section(name: string): void {
    this.current = name;
    this.print(`\n  ${name}`);
  }

  /** A figure, e.g. metric('bundle size', 62.7, 'KB', { atMost: 150 }). */
  metric(name: string, value: number, unit: string, goal?: Goal): BenchRecord {
    const met = goal ? meets(value, goal) : undefined;
    const u = unit ? ` ${unit}` : '';
    this.print(this.line(name, `${formatNumber(value)}${u}`, goal ? `${describeGoal(goal, u)}  ${met ? 'pass' : 'MISS'}` : ''));
    return this.record({ section: this.current, name, value, unit, ...(goal ? { goal, met } : {}) });
  }

  /**
   * ours ÷ reference, both measured in the same run. `goal` bounds the ratio: at most `goal` when
   * lower is better (times), at least `goal` when higherIsBetter (throughput).
   */
  ratio(name: string, ours: number, reference: number, goal?: number, higherIsBetter = false): BenchRecord {
    const value = ours / reference;
    const g: Goal | undefined = goal === undefined ? undefined : higherIsBetter ? { atLeast: goal } : { atMost: goal };
    const met = g ? meets(value, g) : undefined;
    const detail = `(${formatNumber(ours)} vs ${formatNumber(reference)})`;
    this.print(this.line(name, `${formatNumber(value)}×`, `${detail}${g ? `  ${describeGoal(g, '×')}  ${met ? 'pass' : 'MISS'}` : ''}`));
    return this.record({ section: this.current, name, value, unit: '×', ours, reference, ...(g ? { goal: g, met } : {}) });
  }

  /** A line of context that is not a figure (what was measured, how). */
  note(text: string): void {
    this.print(`    ${text}`);
  }

  private line(name: string, value: string, rest: string): string {
    const label = name.length > NAME_WIDTH ? name : name.padEnd(NAME_WIDTH, ' ');
    return `    ${label} ${value.padStart(12)}  ${rest}`.trimEnd();
  }

  private record(r: BenchRecord): BenchRecord {
    this.records.push(r);
    this.onRecord?.(r);
    return r;
  }
}

/** The p-th percentile (nearest rank) of a non-empty list, e.g. p = 95. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Median of a non-empty list (the middle of the sorted values; mean of the two middles for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
