// Slots for delivery attempts: at most `perDestination` on the wire to one destination (a receiver's origin) and
// `total` in all. One pool in arrival order let a slow receiver's attempts take every slot: with 100 hanging
// destinations, a healthy receiver's delivery waited 52 s instead of 1.5 s. Here a destination at its own limit never
// holds up another, and when every slot is taken a freed one goes to the destinations in turn (round robin), each
// destination's attempts in the order they came.

interface Waiter {
  wake(acquired: boolean): void;
}

export interface Slots {
  /** Resolves true once the destination has a slot, false when `signal` aborts first. */
  acquire(destination: string, signal: AbortSignal): Promise<boolean>;
  release(destination: string): void;
}

export function createSlots(total: number, perDestination: number): Slots {
  const active = new Map<string, number>();
  /** Waiting attempts per destination; the Map's order is the round robin (a served destination moves to its end). */
  const waiting = new Map<string, Waiter[]>();
  let inUse = 0;

  const free = (destination: string) => inUse < total && (active.get(destination) ?? 0) < perDestination;
  const take = (destination: string) => {
    inUse++;
    active.set(destination, (active.get(destination) ?? 0) + 1);
  };

  /** Hands freed slots to waiting destinations, in turn. */
  const dispatch = () => {
    for (const [destination, queue] of waiting) {
      if (inUse >= total) return;
      if (!free(destination)) continue;
      const waiter = queue.shift()!;
      waiting.delete(destination);
      if (queue.length) waiting.set(destination, queue); // to the end of the turn
      take(destination);
      waiter.wake(true);
    }
  };

  return {
    acquire(destination, signal) {
      if (signal.aborted) return Promise.resolve(false);
      if (free(destination) && !waiting.has(destination)) {
        take(destination);
        return Promise.resolve(true);
      }
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = {
          wake: (acquired) => {
            signal.removeEventListener('abort', onAbort);
            resolve(acquired);
          },
        };
        const onAbort = () => {
          const queue = waiting.get(destination);
          const at = queue?.indexOf(waiter) ?? -1;
          if (queue && at >= 0) queue.splice(at, 1);
          if (queue && !queue.length) waiting.delete(destination);
          waiter.wake(false);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const queue = waiting.get(destination);
        if (queue) queue.push(waiter);
        else waiting.set(destination, [waiter]);
      });
    },
    release(destination) {
      inUse--;
      const left = (active.get(destination) ?? 1) - 1;
      if (left > 0) active.set(destination, left);
      else active.delete(destination);
      dispatch();
    },
  };
}
