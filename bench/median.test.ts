import { describe, expect, it } from 'vitest';
import { median, medianInterval, percentile } from './median.ts';

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('percentile', () => {
  it('is the nearest rank: the smallest value at least p % of them are at or below', () => {
    const xs = Array.from({ length: 200 }, (_, i) => 200 - i); // 1..200, unsorted
    expect(percentile(xs, 50)).toBe(100);
    expect(percentile(xs, 99)).toBe(198);
    expect(percentile(xs, 100)).toBe(200);
    expect(percentile([5, 1, 3], 1)).toBe(1);
  });
});

describe('medianInterval', () => {
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => n - i); // unsorted on purpose

  it('takes the order statistics the binomial tail allows', () => {
    // n = 20: P(X <= 5) = 0.0207 <= 0.025 < P(X <= 6) = 0.0577, so the 6th smallest and the 6th largest.
    expect(medianInterval(oneTo(20))).toEqual([6, 15]);
    // At 90 %: P(X <= 6) = 0.0577 > 0.05, still the 6th.
    expect(medianInterval(oneTo(20), 0.9)).toEqual([6, 15]);
    // n = 12: P(X <= 2) = 0.0193 <= 0.025 < P(X <= 3) = 0.073.
    expect(medianInterval(oneTo(12))).toEqual([3, 10]);
  });

  it('is the whole range when too few values can cover the level', () => {
    // n = 5: P(X = 0) = 0.031 > 0.025.
    expect(medianInterval([5, 1, 4, 2, 3])).toEqual([1, 5]);
    expect(medianInterval([7])).toEqual([7, 7]);
  });

  it('covers the median of what it samples at least as often as it says', () => {
    let seed = 1;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 20 }, random); // uniform on (0, 1): the median is 0.5
      const [lo, hi] = medianInterval(xs);
      if (lo <= 0.5 && 0.5 <= hi) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.94); // 0.959 in theory
  });
});
