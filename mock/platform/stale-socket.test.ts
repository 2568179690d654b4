// The one retry both forwarders make: only after a failure on a stale pooled socket, and only once.
import { describe, expect, it } from 'vitest';
import { markStale, retryOnStaleSocket } from './stale-socket.ts';

const failing = (errors: Error[]) => {
  let calls = 0;
  const send = async () => {
    const e = errors[calls++];
    if (e) throw e;
    return 'answer';
  };
  return { send, calls: () => calls };
};

describe('retryOnStaleSocket', () => {
  it('sends once more after ECONNRESET on a reused socket, and answers with that attempt', async () => {
    const s = failing([markStale(new Error('reset'), true, 'ECONNRESET')]);
    expect(await retryOnStaleSocket(s.send)).toBe('answer');
    expect(s.calls()).toBe(2);
  });

  it('does not retry a fresh socket, another error, or a second stale failure', async () => {
    for (const errors of [
      [markStale(new Error('reset'), false, 'ECONNRESET')],
      [markStale(new Error('refused'), true, 'ECONNREFUSED')],
      [markStale(new Error('a'), true, 'ECONNRESET'), markStale(new Error('b'), true, 'ECONNRESET')],
    ]) {
      const s = failing(errors);
      await expect(retryOnStaleSocket(s.send)).rejects.toBe(errors.at(-1));
      expect(s.calls()).toBe(errors.length);
    }
  });
});
