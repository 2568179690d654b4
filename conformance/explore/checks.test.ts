// Each exploration check on the answers that pass it and on those that must fail it (the planted servers of
// explore.test.ts prove the checks end to end; here every check, including those no planted defect reaches).
import { describe, expect, it } from 'vitest';
import { Contract } from '../../spec/runtime/contract.ts';
import type { Exchange } from '../../judge/define.ts';
import type { Intent, Step } from './case.ts';
import { exploreChecks } from './checks.ts';

const exchange = (method: string, path: string, status: number, json?: unknown): Exchange => ({
  seq: 1,
  check: 'explore',
  request: { method, url: `http://127.0.0.1:1/ext-api/v1${path}`, path: path.split('?')[0]!, headers: {} },
  response: { status, headers: {}, text: json === undefined ? '' : JSON.stringify(json), json, mediaType: 'application/json' },
  ms: 1,
});
const judge = (intent: Intent, ex: Exchange, earlier: Exchange[] = [], step: Partial<Step> = {}, profile: 'documented' | 'all' = 'all') =>
  exploreChecks.find((c) => c.intent === intent)!.judge({ step: { op: 'x', key: 'main', intent, ...step }, ex, earlier, profile });

const contract = new Contract();

describe('exploration checks', () => {
  const created = exchange('POST', '/patients', 201, { data: { id: '42', external_id: 'crc-x1' } });

  it('positive_data_accepted: a 2xx passes; a refusal as invalid fails unless the values rest on a reading (documented profile); a 5xx always fails', () => {
    expect(judge('accept', created)).toBeUndefined();
    expect(judge('accept', exchange('POST', '/patients', 400, { error: 'bad' }))?.actual).toMatch(/^400/);
    expect(judge('accept', exchange('POST', '/patients', 400, { error: 'bad' }), [], { assumed: true }, 'documented')).toBeUndefined();
    expect(judge('accept', exchange('POST', '/patients', 400, { error: 'bad' }), [], { assumed: true }, 'all')).toBeDefined();
    // Refused as invalid is a reading; a 404 or a 409 is not an answer to data one may find invalid.
    expect(judge('accept', exchange('PATCH', '/patients/42', 404, { error: 'no' }), [], { assumed: true }, 'documented')).toBeDefined();
    expect(judge('accept', exchange('POST', '/patients', 500, { error: 'x' }), [], { assumed: true }, 'documented')).toBeDefined();
    // A 503 the operation documents (work that could not be queued now) is an answer the contract allows; another is not.
    const busy = exchange('POST', '/patients/1/documents/d/extract', 503, { error: 'busy' });
    expect(judge('accept', { ...busy, operation: contract.byId('extractDocument') })).toBeUndefined();
    expect(judge('accept', { ...busy, operation: contract.byId('createPatient') })).toBeDefined();
  });

  it('negative_data_rejected and ignored_auth want exactly 400 and 401', () => {
    const violation = { field: 'name', label: 'name as a number' };
    expect(judge('reject', exchange('POST', '/patients', 400, { error: 'bad' }), [], { violation })).toBeUndefined();
    expect(judge('reject', created, [], { violation })?.expected).toBe('400 for a request with name as a number');
    expect(judge('refuse', exchange('GET', '/providers', 401, { error: 'no key' }), [], { key: 'none' })).toBeUndefined();
    expect(judge('refuse', exchange('GET', '/providers', 200, { data: [] }), [], { key: 'invalid' })?.expected).toMatch(/wrong X-API-Key/);
  });

  it('created_resource_readable: 200 with the id the path names', () => {
    expect(judge('readable', exchange('GET', '/patients/42', 200, { data: { id: '42' } }))).toBeUndefined();
    expect(judge('readable', exchange('GET', '/patients/42', 200, { data: { id: '43' } }))).toBeDefined();
    expect(judge('readable', exchange('GET', '/patients/42', 404, { error: 'gone' }))).toBeDefined();
  });

  it('created_resource_listed: the created id among the items of its external_id lookup', () => {
    const lookup = (items: unknown[]) => exchange('GET', '/patients?external_id=crc-x1', 200, { data: items, meta: {} });
    expect(judge('listed', lookup([{ id: '42' }]), [created])).toBeUndefined();
    expect(judge('listed', lookup([{ id: '7' }]), [created])?.expected).toMatch(/created resource 42 .* external_id crc-x1/);
    expect(judge('listed', exchange('GET', '/patients?external_id=crc-x1', 404, { error: 'none' }), [created])).toBeDefined();
  });

  it('use_after_free and foreign_id_not_found want 404', () => {
    for (const intent of ['gone', 'foreign'] as const) {
      expect(judge(intent, exchange('GET', '/patients/42', 404, { error: 'not found' }))).toBeUndefined();
      expect(judge(intent, exchange('GET', '/patients/42', 200, { data: { id: '42' } }))).toBeDefined();
      expect(judge(intent, exchange('DELETE', '/patients/42', 403, { error: 'forbidden' }))).toBeDefined();
    }
  });
});
