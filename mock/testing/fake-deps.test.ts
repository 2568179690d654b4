// The harness's deps are the engine's own where behaviour matters: one MemoryCollection (live rows, duplicate ids
// refused, one external_id namespace per organization) and the engine's faults (a scoped fault first, never another
// scope's).
import { describe, expect, it } from 'vitest';
import { ExternalIdConflict } from '../platform/deps.ts';
import { createHarness } from './fake-deps.ts';

describe('the feature harness', () => {
  const h = createHarness([]);
  const patients = h.deps.store.collection<{ id: string; name: string; external_id?: string | null }>('patients');

  it('stores rows as the engine does: live rows, duplicate ids refused', () => {
    const row = patients.insert('org-1', { id: 'p1', name: 'Ada' });
    expect(patients.get('org-1', 'p1')).toBe(row);
    expect(() => patients.insert('org-2', { id: 'p1', name: 'Bob' })).toThrow(/duplicate id p1/);
  });

  it('shares the external_id namespace of patients, appointments and documents (XID-016)', () => {
    patients.insert('org-1', { id: 'p2', name: 'Cy', external_id: 'ext-1' });
    const documents = h.deps.store.collection<{ id: string; external_id?: string | null }>('documents');
    expect(() => documents.insert('org-1', { id: 'd1', external_id: 'ext-1' })).toThrow(ExternalIdConflict);
    expect(documents.insert('org-2', { id: 'd2', external_id: 'ext-1' }).id).toBe('d2');
  });

  it('takes faults as the engine does: a scoped fault reaches only its scope', () => {
    h.faults.set('extraction-fails', 1, 'mine');
    expect(h.deps.faults.take('extraction-fails')).toBe(false);
    expect(h.deps.faults.take('extraction-fails', 'theirs')).toBe(false);
    expect(h.deps.faults.take('extraction-fails', 'mine')).toBe(true);
  });
});
