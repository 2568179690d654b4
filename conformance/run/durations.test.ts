// Budgets follow the document's durations, with a margin, never the mock's: scaled only by a time scale the mock states.
import { describe, expect, it } from 'vitest';
import { checkBudgetMs, DOCUMENTED_MS, MARGIN_MS, timeScale, waitMs } from './durations.ts';

describe('documented durations', () => {
  it("are the document's: extraction 30 s, regeneration a minute, a delivery 3 × 30 s with 1 s and 2 s between", () => {
    expect(DOCUMENTED_MS).toEqual({ extraction: 30_000, regeneration: 60_000, delivery: 93_000 });
  });

  it('a wait is three times "roughly" and "typical" (no bounds), a delivery its bounds, plus the margin; scaled on the mock', () => {
    expect(waitMs('extraction')).toBe(90_000 + MARGIN_MS);
    expect(waitMs('regeneration')).toBe(180_000 + MARGIN_MS);
    expect(waitMs('delivery')).toBe(93_000 + MARGIN_MS);
    expect(waitMs('extraction', timeScale({ secondMs: 10 }))).toBe(900 + MARGIN_MS);
    expect(timeScale(undefined)).toBe(1);
    expect(timeScale({})).toBe(1);
  });

  it("a budget covers every wait made in turn and the check's requests, and is never below --check-timeout", () => {
    expect(checkBudgetMs(undefined, 30_000)).toEqual({ ms: 30_000, why: '--check-timeout' });
    expect(checkBudgetMs(['extraction'], 30_000, 0.01).ms).toBe(30_000);
    expect(checkBudgetMs(['extraction'], 30_000).ms).toBe(90_000 + 2 * MARGIN_MS);
    expect(checkBudgetMs(['extraction', 'extraction'], 30_000).ms).toBe(180_000 + 3 * MARGIN_MS);
    expect(checkBudgetMs(['regeneration'], 30_000).why).toMatch(
      /^waits of regeneration 180 s \(the document's words, 3x where they are no bound\)/,
    );
    expect(checkBudgetMs(['delivery'], 200_000).ms).toBe(200_000);
  });
});
