import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { stillRunning } from './still-running.ts';

describe('stillRunning', () => {
  it('names the running checks after a quiet interval, and says nothing while checks end or none runs', async () => {
    const lines: string[] = [];
    const s = stillRunning((l) => lines.push(l), 40);
    s.start('regeneration_under_a_minute', 'up to 190 s: waits of regeneration 180 s');
    await sleep(120);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(
      /still running, \d+ s since a check ended: regeneration_under_a_minute \(up to 190 s: waits of regeneration 180 s\)/,
    );
    s.end('regeneration_under_a_minute');
    const said = lines.length;
    await sleep(120);
    expect(lines.length).toBe(said);
    s.stop();
  });

  it('lists four and counts the rest', async () => {
    const lines: string[] = [];
    const s = stillRunning((l) => lines.push(l), 30);
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) s.start(n, 'x');
    await sleep(90);
    s.stop();
    expect(lines[0]).toContain('a (x), b (x), c (x), d (x) and 2 more');
  });
});
