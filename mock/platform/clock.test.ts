import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';

describe('clock.stamp', () => {
  it('is now() as ISO text, and follows now() when it moves', () => {
    let ms = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    const clock = createClock(1, () => new Date(ms));
    expect(clock.stamp()).toBe('2026-01-02T03:04:05.678Z');
    expect(clock.stamp()).toBe('2026-01-02T03:04:05.678Z');
    ms += 1;
    expect(clock.stamp()).toBe('2026-01-02T03:04:05.679Z');
    ms -= 60_000; // a clock moved back is followed too
    expect(clock.stamp()).toBe('2026-01-02T03:03:05.679Z');
  });
});
