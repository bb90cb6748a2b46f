/**
 * Small statistics and formatting helpers of the benchmark.
 */

/**
 * The nearest-rank percentile of a list of numbers (not sorted in place).
 * @param {number[]} values
 * @param {number} p 0 to 100
 * @returns {number}
 */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** @param {number[]} values */
export function median(values) {
  return percentile(values, 50);
}

/** @param {number[]} values */
export function mean(values) {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** @param {number[]} values */
export function max(values) {
  let m = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > m) m = v;
  return values.length === 0 ? Number.NaN : m;
}

/**
 * A number with a sensible count of significant digits for a table.
 * @param {number} value
 */
export function num(value) {
  if (value === undefined || value === null || Number.isNaN(value)) return '-';
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/**
 * Milliseconds as `ms`, or `s` from 10 s on.
 * @param {number} ms
 */
export function duration(ms) {
  if (ms === undefined || Number.isNaN(ms)) return '-';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 1) return `${(ms * 1000).toFixed(0)} us`;
  return `${num(ms)} ms`;
}

/**
 * Bytes in kB (1000) or MB.
 * @param {number} bytes
 */
export function size(bytes) {
  if (bytes === undefined || Number.isNaN(bytes)) return '-';
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * A ratio measured in rounds: each round's `numerator[i] / denominator[i]` (two sides measured one
 * after the other, so that a change of the machine's load weighs on both), their median as the
 * figure, and their spread.
 * @param {number[]} numerator
 * @param {number[]} denominator
 */
export function pairedRatio(numerator, denominator) {
  const rounds = numerator.map((value, i) => value / (denominator[i] ?? Number.NaN));
  return {
    ratio: median(rounds),
    rounds,
    spread: `${Math.min(...rounds).toFixed(2)}-${Math.max(...rounds).toFixed(2)}x`,
  };
}
