// The feature-test harness stores rows as the engine does (issue 16, item 3): one MemoryCollection, so a feature
// test cannot pass on behaviour production lacks (cloned rows, accepted duplicate ids, per-collection external_ids);
// and it takes faults as the engine does.
import { describe, expect, it } from 'vitest';
import { EXTERNAL_ID_NAMESPACE } from '../platform/collections.ts';
import { ExternalIdConflict } from '../platform/deps.ts';
import { createHarness } from './fake-deps.ts';

type Row = { id: string; external_id?: string | null; name?: string };

describe('module-test harness store', () => {
  const harness = createHarness([]);
  const [first, second] = EXTERNAL_ID_NAMESPACE as [string, string];
  const rows = harness.deps.store.collection<Row>(first);

  it('returns the live row, as the engine store does (no copies)', () => {
    const row = rows.insert('org-1', { id: 'r1', name: 'a' });
    expect(rows.get('org-1', 'r1')).toBe(row);
    expect(rows.all('org-1')[0]).toBe(row);
  });

  it('refuses a second row with an id already stored', () => {
    expect(() => rows.insert('org-2', { id: 'r1', name: 'b' })).toThrow('duplicate id r1');
    expect(rows.count('org-2')).toBe(0);
  });

  it('shares one external_id namespace across the collections the engine shares it across', () => {
    rows.insert('org-1', { id: 'r2', external_id: 'ehr-1' });
    const other = harness.deps.store.collection<Row>(second);
    expect(() => other.insert('org-1', { id: 'r3', external_id: 'ehr-1' })).toThrow(ExternalIdConflict);
    expect(other.insert('org-2', { id: 'r4', external_id: 'ehr-1' }).id).toBe('r4');
  });
});

describe('feature-test harness faults', () => {
  it("are the engine's: a scoped fault reaches only its scope", () => {
    const h = createHarness([]);
    h.faults.set('extraction-fails', 1, 'mine');
    expect(h.deps.faults.take('extraction-fails')).toBe(false);
    expect(h.deps.faults.take('extraction-fails', 'theirs')).toBe(false);
    expect(h.deps.faults.take('extraction-fails', 'mine')).toBe(true);
  });
});
