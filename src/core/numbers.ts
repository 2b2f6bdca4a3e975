// Numbers as people read them: costs, durations, sizes. One place, so a tree, a status bar, a notebook
// output and a webview say "$0.30" and "12 ms" alike, never "0.30000000000000004" or "12.3456 ms".
// Raw and JSON views keep the exact value: only what is read gets these. In core (not features)
// because the webview pages format too and may import core only.

/** Dollars with enough digits that a fraction of a cent is still visible: $12.35, $0.133, $0.01, $0.000042. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '$?';
  if (usd === 0) return '$0.00';
  if (usd < 0) return `-${formatUsd(-usd)}`;
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  // Four decimals, trailing zeros trimmed down to cents: $0.0123, $0.133, $0.01.
  if (usd >= 0.01)
    return `$${usd
      .toFixed(4)
      .replace(/(\.\d\d\d?)0+$/, '$1')
      .replace(/(\.\d\d)0$/, '$1')}`;
  // Under a cent: two significant digits, never in exponent notation ($0.000042, $0.00000012).
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(decimals)}`;
}

/** A duration in milliseconds: whole milliseconds under a second ("87 ms"), else seconds ("1.25 s"). */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '? ms';
  return Math.round(ms) < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** 512 bytes, 1.5 KB, 2.3 MB: sizes in messages. */
export function formatBytes(n: number): string {
  const mb = n / (1024 * 1024);
  if (mb >= 1) return `${Math.round(mb * 10) / 10} MB`;
  return n >= 1024 ? `${Math.round(n / 102.4) / 10} KB` : `${n} bytes`;
}

/** Milliseconds as a check shows them: whole under most durations, one decimal under 10 ms (377, 30, 4.2). */
export function roundMs(ms: number): number {
  return Math.abs(ms) < 10 ? Math.round(ms * 10) / 10 : Math.round(ms);
}

/** A number to `digits` significant digits, for costs read by people: 0.000384, 0.0123 (never 0.00038400000000000005). */
export function roundSignificant(n: number, digits = 3): number {
  return n === 0 || !Number.isFinite(n) ? n : Number(n.toPrecision(digits));
}
