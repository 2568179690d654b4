import { describe, expect, it } from 'vitest';
import { newPatientId } from './feature.ts';

describe('patient ids', () => {
  it('newPatientId: 19 digits, never a leading 0, no repeats across pool refills', () => {
    const ids = Array.from({ length: 2000 }, newPatientId);
    for (const id of ids) expect(id).toMatch(/^[1-9]\d{18}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
