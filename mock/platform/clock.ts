// Clock: real time, with every simulated duration multiplied by --time-scale. Timers are tracked so that
// reset and close cancel them (tests never leave one running).
import type { Clock } from './deps.ts';

export interface EngineClock extends Clock {
  cancelAll(): void;
  /** Timers still waiting (tests). */
  pending(): number;
}

/** `now` is replaceable so that tests can move the wall clock without touching the timers. */
export function createClock(timeScale = 1, now: () => Date = () => new Date()): EngineClock {
  const timers = new Set<NodeJS.Timeout>();
  // Formatting a date costs about a microsecond, a sizeable part of a create: requests within one millisecond share it.
  let stampedAt = Number.NaN;
  let stamped = '';
  return {
    timeScale,
    now,
    stamp() {
      const ms = now().getTime();
      if (ms !== stampedAt) (stampedAt = ms), (stamped = new Date(ms).toISOString());
      return stamped;
    },
    after(ms, fn) {
      const t = setTimeout(
        () => {
          timers.delete(t);
          fn();
        },
        Math.max(0, ms * timeScale),
      );
      timers.add(t);
      return () => {
        clearTimeout(t);
        timers.delete(t);
      };
    },
    cancelAll() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
    pending: () => timers.size,
  };
}
