// Attempt slots: a destination at its own limit never holds up another; with every slot taken, freed ones go to the
// waiting destinations in turn; an aborted waiter leaves the queue.
import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.ts';

const never = new AbortController().signal;
/** Whether a promise has settled yet (after pending microtasks). */
const settled = async (p: Promise<boolean>) => Promise.race([p.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 0))]);

describe('attempt slots', () => {
  it('a destination at its limit waits; another destination goes on at once', async () => {
    const slots = createSlots(10, 2);
    expect(await slots.acquire('http://slow', never)).toBe(true);
    expect(await slots.acquire('http://slow', never)).toBe(true);
    const third = slots.acquire('http://slow', never);
    expect(await settled(third)).toBe(false);
    expect(await slots.acquire('http://fast', never)).toBe(true);
    slots.release('http://slow');
    expect(await third).toBe(true);
  });

  it('with every slot taken, freed slots go to the waiting destinations in turn', async () => {
    const slots = createSlots(2, 2);
    await slots.acquire('a', never);
    await slots.acquire('a', never);
    const order: string[] = [];
    const wait = (d: string) => slots.acquire(d, never).then(() => order.push(d));
    const all = [wait('a'), wait('a'), wait('b'), wait('c')];
    slots.release('a');
    slots.release('a');
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(['a', 'b']);
    slots.release('a');
    slots.release('b');
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'c', 'a']);
  });

  it('an aborted waiter leaves the queue and resolves false; its turn passes on', async () => {
    const slots = createSlots(1, 1);
    await slots.acquire('a', never);
    const ctl = new AbortController();
    const gone = slots.acquire('a', ctl.signal);
    const next = slots.acquire('a', never);
    ctl.abort();
    expect(await gone).toBe(false);
    slots.release('a');
    expect(await next).toBe(true);
    const aborted = new AbortController();
    aborted.abort();
    expect(await slots.acquire('b', aborted.signal)).toBe(false);
  });
});
