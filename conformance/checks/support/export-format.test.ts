import { describe, expect, it } from 'vitest';
import { inFormat } from './export-format.ts';

describe('inFormat', () => {
  it('json: one JSON document', () => {
    expect(inFormat('json', '{"data":[]}')).toBe(true);
    expect(inFormat('json', '[{"id":"a"}]')).toBe(true);
    expect(inFormat('json', 'id,patient_id\n')).toBe(false);
  });
  it('ndjson: a JSON object a line (none for no notes)', () => {
    expect(inFormat('ndjson', '{"id":"a"}\n{"id":"b"}\n')).toBe(true);
    expect(inFormat('ndjson', '')).toBe(true);
    expect(inFormat('ndjson', '[{"id":"a"}]')).toBe(false);
    expect(inFormat('ndjson', 'id,patient_id\na,1\n')).toBe(false);
  });
  it('csv: not one JSON document', () => {
    expect(inFormat('csv', 'id,patient_id\na,1\n')).toBe(true);
    expect(inFormat('csv', '{"data":[]}')).toBe(false);
  });
});
