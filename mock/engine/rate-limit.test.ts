import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.ts';

describe('rate limiter table', () => {
  const cfg = { requests: 2, seconds: 10 };

  it('a flood of new identities never resets a live bucket: a limited identity stays limited', () => {
    let t = 1_000_000;
    const rl = createRateLimiter(cfg, () => t, 10);
    rl.hit('victim');
    rl.hit('victim');
    expect(rl.hit('victim').limited).toBe(true);
    for (let i = 0; i < 1000; i++) rl.hit(`guess-${i}`);
    expect(rl.hit('victim').limited).toBe(true);
    // Identities that did not fit share one overflow bucket, itself limited.
    expect(rl.hit('guess-late-1').limited).toBe(true);
    t += 10_000; // every window has ended
    expect(rl.hit('victim').limited).toBe(false);
  });

  it('evicts buckets whose window has ended, oldest first, to make room', () => {
    let t = 0;
    const rl = createRateLimiter(cfg, () => t, 3);
    for (const id of ['a', 'b', 'c']) rl.hit(id);
    t = 10_000; // a, b, c idle past their window
    rl.hit('c'); // c is live again (new window, moved to the end)
    rl.hit('d');
    rl.hit('d');
    expect(rl.hit('d').limited).toBe(true); // d got a bucket of its own, not the overflow
    rl.hit('e');
    expect(rl.hit('e').headers['X-RateLimit-Remaining']).toBe('0');
    expect(rl.hit('c').headers['X-RateLimit-Remaining']).toBe('0'); // c kept its count (1 before, now 2)
  });
});
