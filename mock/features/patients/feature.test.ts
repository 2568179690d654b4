import { describe, expect, it, vi } from 'vitest';
import { PROVIDERS } from '../../platform/collections.ts';
import { createHarness } from '../../testing/fake-deps.ts';
import { newPatientId, patientsFeature } from './feature.ts';

describe('patient ids', () => {
  it('newPatientId: 19 digits, never a leading 0, no repeats across pool refills', () => {
    const ids = Array.from({ length: 2000 }, newPatientId);
    for (const id of ids) expect(id).toMatch(/^[1-9]\d{18}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('an id drawn twice is drawn again: the create answers 201 with a new id', async () => {
    const h = createHarness([patientsFeature]);
    h.deps.store.collection(PROVIDERS).insert('org-1', { id: 'provider-1' });
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues');
    try {
      // Draw to the end of a pool, so that the next draw refills it from the stub: 5, 5 again, then 6.
      const refills = spy.mock.calls.length;
      while (spy.mock.calls.length === refills) newPatientId();
      for (let i = 1; i < 512; i++) newPatientId();
      spy.mockImplementationOnce((pool: ArrayBufferView) => {
        const ids = pool as BigUint64Array;
        ids.fill(5n);
        ids[2] = 6n;
        return pool;
      });
      const create = async () => {
        const r = await h.api('/patients', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"first_name":"A"}' });
        return [r.status, ((await r.json()) as { data: { id: string } }).data.id];
      };
      expect(await create()).toEqual([201, String(10n ** 18n + 5n)]);
      expect(await create()).toEqual([201, String(10n ** 18n + 6n)]);
    } finally {
      spy.mockRestore();
      h.close();
    }
  });
});
