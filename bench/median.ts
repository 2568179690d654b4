// The statistics the bench scripts share: rounds are many and short, and a median ignores a slow spell's outliers.
const ascending = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = ascending(xs);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
}

/** The nearest-rank `p`th percentile (0 < p <= 100): the smallest value at least p % of `xs` are at or below. */
export function percentile(xs: readonly number[], p: number): number {
  const s = ascending(xs);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

/**
 * A distribution-free interval for the median of what `xs` samples, covering it with probability at least `level`:
 * the k-th smallest and k-th largest value, k the largest such that fewer than k of n values fall below the median
 * with probability at most (1 - level) / 2 (a binomial(n, ½) tail). Too few values for that level: the whole range.
 */
export function medianInterval(xs: readonly number[], level = 0.95): [number, number] {
  const s = ascending(xs);
  const n = s.length;
  let tail = 0; // P(fewer than k values below the median)
  let term = 0.5 ** n; // C(n, k) / 2^n
  let k = 0;
  while (k < n && tail + term <= (1 - level) / 2) {
    tail += term;
    term = (term * (n - k)) / (k + 1);
    k++;
  }
  return k === 0 ? [s[0]!, s[n - 1]!] : [s[k - 1]!, s[n - k]!];
}
